//! `tour`, `exists`, `render` and `graph` end to end.

use knights::format::{read, Checked};

use super::run;

fn checks_as(text: &str, expected: &str) {
    let doc = read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(doc.check().unwrap().to_string(), expected);
}

#[test]
fn tour_8x8_is_a_closed_tour() {
    let (code, out, err) = run(&["tour", "8x8"], "");
    assert_eq!(code, 0, "{err}");
    checks_as(&out, "closed tour on 8x8");
}

#[test]
fn every_format_of_tour_reads_back() {
    for format in ["grid", "json", "moves"] {
        let (code, out, err) = run(&["tour", "7x9", "--seed", "3", "--format", format], "");
        assert_eq!(code, 0, "{err}");
        checks_as(&out, "open tour on 7x9");
    }
    let (code, out, _) = run(&["tour", "6", "--format", "svg"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("<svg") && out.contains("<polygon"));
    let (code, out, _) = run(&["tour", "6", "--format", "animated-svg"], "");
    assert_eq!(code, 0);
    assert!(out.contains("<animate"));
}

#[test]
fn pinned_seed_gives_pinned_tour() {
    let (code, out, _) = run(
        &[
            "tour",
            "6x6",
            "--seed",
            "42",
            "--algorithm",
            "warnsdorff",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(code, 0);
    insta::assert_snapshot!(out);
}

#[test]
fn start_and_kind_are_honoured() {
    let (code, out, err) = run(&["tour", "8x8", "--start", "3,5", "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""squares":[[3,5],"#), "{out}");
    let (code, out, err) = run(&["tour", "8x8", "--open", "--seed", "4"], "");
    assert_eq!(code, 0, "{err}");
    checks_as(&out, "open tour on 8x8");
    let (code, out, _) = run(&["tour", "5x5", "--start", "0,0"], "");
    assert_eq!(code, 0);
    checks_as(&out, "open tour on 5x5");
}

#[test]
fn impossible_requests_get_the_theorem() {
    let (code, out, err) = run(&["tour", "4x4"], "");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("knights: no open tour exists on 4x4"),
        "{err}"
    );
    let (code, _, err) = run(&["tour", "5x5", "--closed"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("odd number of squares") && err.contains("Schwenk 1991"),
        "{err}"
    );
}

#[test]
fn bad_usage_is_exit_2_with_a_clear_sentence() {
    for (args, needle) in [
        (vec!["tour", "0x5"], "at least one row"),
        (vec!["tour", "8y8"], "not a board size"),
        (vec!["tour", "8x8", "--start", "9,9"], "not a square of 8x8"),
        (vec!["tour", "8x8", "--start", "a"], "not a square of 8x8"),
        (
            vec!["tour", "8x8", "--closed", "--open"],
            "cannot be used with",
        ),
        (vec!["tour", "65535x65535"], "needs about"),
        (vec!["tour", "100000x100000"], "more than"),
    ] {
        let (code, _, err) = run(&args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // An output file that cannot be made is an I/O error (sysexits' EX_IOERR).
    let (code, _, err) = run(&["tour", "8x8", "--output", "/nonexistent/dir/x.json"], "");
    assert_eq!(code, 74, "{err}");
    assert!(
        err.contains("could not create '/nonexistent/dir/x.json'"),
        "{err}"
    );
}

#[test]
fn output_file_by_extension() {
    let dir = super::scratch("output-file");
    let path = dir.join("t.json");
    let (code, out, _) = run(&["tour", "6x6", "--output", path.to_str().unwrap()], "");
    assert_eq!((code, out.as_str()), (0, ""));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("{\"rows\":6"));
    assert!(matches!(
        read(&text).unwrap().into_checked().unwrap(),
        Checked::Tour(_)
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exists_answers_with_the_theorem() {
    let mut lines = Vec::new();
    for args in [
        vec!["exists", "8x8"],
        vec!["exists", "5x5"],
        vec!["exists", "5x5", "--closed"],
        vec!["exists", "3x4", "--open"],
        vec!["exists", "3x8", "--closed"],
        vec!["exists", "4x4"],
        vec!["exists", "2x9", "--open"],
    ] {
        let (code, out, _) = run(&args, "");
        let first = out.split_whitespace().next().unwrap();
        assert!(first == "yes" || first == "no", "{out}");
        assert_eq!(code, if first == "yes" { 0 } else { 1 }, "{out}");
        lines.push(format!("$ knights {}\n[exit {code}] {out}", args.join(" ")));
    }
    insta::assert_snapshot!(lines.join(""));
}

#[test]
fn render_converts_between_formats() {
    let (_, json, _) = run(&["tour", "6x6", "--format", "json"], "");
    let (code, grid, _) = run(&["render", "-", "--format", "grid", "--base", "1"], &json);
    assert_eq!(code, 0);
    let (code, back, _) = run(&["render", "-", "--format", "json"], &grid);
    assert_eq!(code, 0);
    let strip = |s: &str| {
        s.split(",\"algorithm\"")
            .next()
            .unwrap()
            .trim_end_matches(['}', '\n'])
            .to_string()
    };
    assert_eq!(strip(&back), strip(&json));
}

#[test]
fn graph_facts() {
    let (code, out, _) = run(&["graph", "8x8"], "");
    assert_eq!(code, 0);
    assert!(out.contains("64 squares, 168 edges (336 moves"), "{out}");
    let (_, out, _) = run(&["graph", "3x4", "--degrees", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Moves of shape (2 rows, 1 column): 2 * 1 * 3; of shape (1 row, 2 columns): 2 * 2 * 2.
    assert_eq!(v["edges"], 14);
    assert_eq!(v["degrees"][0], 2);
}
