//! `knights-lab paper` and `knights-lab experiment timing` through the real
//! binary, and `docs/paper` against a fresh `knights-lab paper docs/paper`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::{run, scratch};

fn paper(dir: &std::path::Path, seed: &str) {
    let (code, out, err) = run(
        &[
            "paper",
            dir.to_str().unwrap(),
            "--board",
            "12x12",
            "--count",
            "6",
            "--sizes",
            "8,12",
            "--runs",
            "1",
            "--seed",
            seed,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "the report goes to files: {out}");
}

fn read(dir: &std::path::Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn paper_writes_every_table_figure_and_the_report() {
    let dir = scratch("paper-all");
    paper(&dir, "3");
    let report = read(&dir, "report.md");
    for section in [
        "# Parberry's tourney paper reproduced",
        "## Table 1: move distribution of obfuscated tours",
        "## Table 2: relative-move distribution of obfuscated tours",
        "## The Four-Cover rows",
        "## Figure 4 and Section 3.1",
        "## Figure 6",
        "## Rails per tour",
        "## Timing: Figures 3, 20 and 21",
        "## Where we differ, and why",
    ] {
        assert!(report.contains(section), "{section} missing from\n{report}");
    }
    // The paper's numbers stand beside ours, for all five generators.
    for (paper_name, ours) in [
        ("Warnsdorff", "warnsdorff"),
        ("Takefuji-Lee", "neural"),
        ("Div-and-Conq", "divide"),
        ("Braid", "braid"),
        ("Four-Cover", "four-cover"),
    ] {
        assert!(
            report.contains(&format!("| {paper_name} | paper |")),
            "{paper_name}"
        );
        assert!(report.contains(&format!("| `{ours}` | ours |")), "{ours}");
        let svg = read(&dir, &format!("obfuscated_{ours}.svg"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<rect class=\"bar\"").count(), 16);
    }
    assert!(report.contains("| Warnsdorff | paper | 0.1249 | 0.1248 |"));
    for name in ["figure4_warnsdorff.svg", "figure6_neural.svg"] {
        assert!(read(&dir, name).contains("<rect class=\"bar\""), "{name}");
    }
    for name in [
        "figure3_20_timing.svg",
        "figure21_per_square.svg",
        "rails.svg",
    ] {
        let svg = read(&dir, name);
        assert!(svg.contains("<polyline class=\"series\""), "{name}");
        assert!(svg.contains("squares (log scale)"), "{name}");
    }
    // 5 generators: a paper row, our mean and our std each, under a header.
    for (name, cols) in [("table1.csv", 8), ("table2.csv", 7)] {
        let csv = read(&dir, name);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 16, "{name}");
        assert!(lines[0].starts_with("generator,source,0,1,2,3"));
        for line in &lines[1..] {
            assert_eq!(line.split(',').count(), 2 + cols, "{line}");
        }
        // Our means sum to 1 (relative move 4 never occurs).
        for line in lines.iter().filter(|l| l.contains(",ours,")) {
            let sum: f64 = line
                .split(',')
                .skip(2)
                .map(|x| x.parse::<f64>().unwrap())
                .sum();
            assert!((sum - 1.0).abs() < 1e-4, "{line}");
        }
    }
    // Four-cover takes 8x8 and 12x12 but timing 12x12 rows exist for all.
    let timing = read(&dir, "timing.csv");
    assert!(timing.starts_with("generator,form,rows,cols,squares,runs,seconds"));
    assert!(timing.contains("four-cover,tourney+join+obfuscate,12,12,"));
    assert!(timing.contains("warnsdorff,tour,8,8,"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn paper_is_the_same_for_a_seed() {
    let (a, b, c) = (scratch("paper-a"), scratch("paper-b"), scratch("paper-c"));
    paper(&a, "5");
    paper(&b, "5");
    paper(&c, "6");
    for name in [
        "table1.csv",
        "table2.csv",
        "obfuscated_neural.svg",
        "figure4_warnsdorff.svg",
    ] {
        assert_eq!(read(&a, name), read(&b, name), "{name}");
    }
    assert_ne!(read(&a, "table1.csv"), read(&c, "table1.csv"));
    for d in [a, b, c] {
        let _ = fs::remove_dir_all(d);
    }
}

#[test]
fn timing_writes_rows_csv_and_a_plot() {
    let dir = scratch("paper-timing");
    fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("t.svg");
    let (code, out, err) = run(
        &[
            "experiment",
            "timing",
            "--sizes",
            "6,8",
            "--runs",
            "2",
            "--generators",
            "braid,four-cover,neural",
            "-f",
            "csv",
            "--svg",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // 6x6: tour + braid and neural (3 forms each); 8x8: tour + 3 generators.
    assert_eq!(lines.len(), 1 + (1 + 6) + (1 + 9), "{out}");
    assert!(err.contains("four-cover on 6x6"), "{err}");
    for line in &lines[1..] {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 9, "{line}");
        assert_eq!(f[5], "2");
        assert!(f[6].parse::<f64>().unwrap() >= 0.0);
    }
    let plot = fs::read_to_string(&svg).unwrap();
    // warnsdorff tour, then braid, four-cover and neural in three forms.
    assert_eq!(
        plot.matches("<polyline class=\"series\"").count(),
        1 + 3 * 3
    );
    let (code, out, _) = run(
        &[
            "experiment",
            "timing",
            "--sizes",
            "6",
            "--runs",
            "1",
            "--no-tour",
            "-f",
            "json",
        ],
        "",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), 3 * 4, "{out}");
    let _ = fs::remove_dir_all(&dir);
}

/// The files of `knights-lab paper` that hold wall-clock times, which change on
/// every run.
const TIMED: [&str; 3] = [
    "timing.csv",
    "figure3_20_timing.svg",
    "figure21_per_square.svg",
];

/// A report without its timing section (from its `## Timing` heading to the
/// next heading), whose numbers change on every run.
fn without_timing(report: &str) -> String {
    let mut kept = String::new();
    let mut in_timing = false;
    for line in report.lines() {
        if line.starts_with("## ") {
            in_timing = line.starts_with("## Timing");
        }
        if !in_timing {
            kept += line;
            kept += "\n";
        }
    }
    kept
}

fn file_names(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect()
}

/// `docs/paper` is what `knights-lab paper docs/paper` writes with the current
/// code, but for the wall-clock times. After a change that moves the
/// numbers, regenerate it with `cargo run --release -p knights-lab -- paper docs/paper`.
#[test]
#[ignore = "about 15 s: cargo test --workspace --test tests -- --ignored docs_paper_is_current"]
fn docs_paper_is_current() {
    let committed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/paper");
    let fresh = scratch("paper-current");
    let (code, _, err) = run(&["paper", fresh.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        file_names(&committed),
        file_names(&fresh),
        "docs/paper should hold exactly the files `knights-lab paper` writes"
    );
    let stale: Vec<String> = file_names(&fresh)
        .into_iter()
        .filter(|name| !TIMED.contains(&name.as_str()))
        .filter(|name| {
            let (old, new) = (read(&committed, name), read(&fresh, name));
            if name == "report.md" {
                without_timing(&old) != without_timing(&new)
            } else {
                old != new
            }
        })
        .collect();
    let _ = fs::remove_dir_all(&fresh);
    assert!(
        stale.is_empty(),
        "docs/paper is out of date in {stale:?}: regenerate it with `cargo run --release -p knights-lab -- paper docs/paper`"
    );
}

#[test]
fn bad_settings_are_refused() {
    let dir = scratch("paper-bad");
    let d = dir.to_str().unwrap();
    for (args, code) in [
        (&["experiment", "timing", "--sizes", "7"][..], 2),
        (&["experiment", "timing", "--sizes", "4"], 2),
        (&["experiment", "timing", "--runs", "0"], 2),
        (&["experiment", "timing", "--sizes", "abc"], 2),
        (&["paper", d, "--count", "0"], 2),
        (&["paper", d, "--board", "7x7"], 1),
        (&["paper", d, "--board", "4x8"], 1),
        (&["paper", d, "--board", "x"], 2),
    ] {
        let (got, _, err) = run(args, "");
        assert_eq!(got, code, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!err.trim().is_empty());
    }
    let written: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(
        written.is_empty(),
        "nothing written on refusal: {written:?}"
    );
}
