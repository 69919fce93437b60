//! `knights-lab experiment` and `knights-lab bench` through the real binary.

use predicates::prelude::*;
use predicates::str::contains;

use super::{lab, scratch};

#[test]
fn warnsdorff_experiment_is_deterministic() {
    let run = || {
        lab()
            .args([
                "experiment",
                "warnsdorff",
                "8x8",
                "--trials",
                "300",
                "--seed",
                "5",
                "--format",
                "csv",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let a = run();
    assert_eq!(a, run());
    let text = String::from_utf8(a).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "board,tie,trials,seed,outcome,count,rate,lo95,hi95"
    );
    assert_eq!(lines.len(), 1 + 4 * 3);
    for tie in ["random", "first", "centre", "pohl"] {
        let total: u64 = lines
            .iter()
            .filter(|l| l.split(',').nth(1) == Some(tie))
            .map(|l| l.split(',').nth(5).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 300, "{tie}");
    }
}

#[test]
fn backtrack_experiment_as_json() {
    let out = lab()
        .args(["experiment", "backtrack", "5x5", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "5x5 has no closed tour: open rows only");
    for r in results {
        assert_eq!(r["runs"], 25);
        assert_eq!(r["found"], 13);
        assert_eq!(r["none"], 12);
    }
}

#[test]
fn experiment_table_and_bad_arguments() {
    lab()
        .args([
            "experiment",
            "warnsdorff",
            "6x6",
            "--trials",
            "64",
            "--tie",
            "centre,pohl",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("95% Wilson intervals"))
        .stdout(predicate::str::contains("centre"))
        .stdout(predicate::str::contains("pohl"))
        .stdout(predicate::str::is_match("(?m)^random").unwrap().not());
    lab()
        .args(["experiment", "warnsdorff", "4x4", "--trials", "10"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no open tour exists on 4x4"));
    lab()
        .args(["experiment", "warnsdorff", "8x8", "--trials", "0"])
        .assert()
        .code(2);
    lab()
        .args(["experiment", "backtrack", "200x200"])
        .assert()
        .code(2);
    lab().args(["bench", "nope"]).assert().code(2);
}

#[test]
fn zero_runs_and_trials_are_refused() {
    for args in [
        &["experiment", "timing", "--runs", "0"][..],
        &["experiment", "warnsdorff", "8x8", "-n", "0"],
        &["bench", "classic", "8x8", "--repeat", "0"],
    ] {
        lab().args(args).assert().code(2);
    }
}

#[test]
fn a_bad_board_prints_no_table_header() {
    for suite in ["tourney", "classic"] {
        lab()
            .args(["bench", suite, "8x8", "0x0"])
            .assert()
            .code(2)
            .stdout("");
    }
}

/// Row 12: several sizes after one --sizes, as the help shows the default.
#[test]
fn timing_takes_several_sizes() {
    lab()
        .args([
            "experiment",
            "timing",
            "--sizes",
            "8",
            "16",
            "--runs",
            "1",
            "--no-tour",
            "--generators",
            "braid",
        ])
        .assert()
        .success()
        .stdout(contains("16x16"));
}

/// An output file named for another format is refused.
#[test]
fn timing_refuses_a_csv_named_svg() {
    let dir = scratch("lab-csv-svg");
    lab()
        .args([
            "experiment",
            "timing",
            "--sizes",
            "8",
            "--runs",
            "1",
            "--csv",
            dir.join("x.svg").to_str().unwrap(),
        ])
        .assert()
        .code(2);
    std::fs::remove_dir_all(&dir).unwrap();
}
