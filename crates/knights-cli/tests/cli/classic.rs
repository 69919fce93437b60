//! `knights tour` with the classical algorithms.

use super::knights;
use predicates::prelude::*;

#[test]
fn course_report_tour_exactly() {
    let out = knights()
        .args([
            "tour",
            "8x8",
            "--closed",
            "--algorithm",
            "warnsdorff",
            "--tie",
            "first",
            "--base",
            "1",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!(String::from_utf8(out).unwrap(), @r"
    14  1 30 63 16 11 34 61
    29 42 15 12 59 62 17 10
     2 13 64 31 56 33 60 35
    41 28 43 58 49 54  9 18
    24  3 40 55 32 57 36 51
    27 44 25 48 53 50 19  8
     4 23 46 39  6 21 52 37
    45 26  5 22 47 38  7 20
    ");
}

#[test]
fn backtracking_5x5_and_hybrid_closed() {
    for args in [
        &[
            "tour",
            "5x5",
            "--algorithm",
            "backtrack",
            "--format",
            "json",
        ][..],
        &[
            "tour",
            "8x8",
            "--closed",
            "--algorithm",
            "hybrid",
            "--format",
            "json",
        ][..],
        &[
            "tour",
            "10x10",
            "--open",
            "--algorithm",
            "hybrid",
            "--start",
            "4,4",
            "--format",
            "json",
        ][..],
    ] {
        let out = knights()
            .args(args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        knights()
            .args(["check", "-"])
            .write_stdin(out)
            .assert()
            .success()
            .stdout(predicate::str::contains("tour on"));
    }
}

#[test]
fn out_of_budget_is_exit_1_with_how_far_it_got() {
    knights()
        .args([
            "tour",
            "8x8",
            "--closed",
            "--algorithm",
            "backtrack",
            "--max-nodes",
            "500",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("budget of 500 nodes"))
        .stderr(predicate::str::contains("longest path covered"));
}

#[test]
fn impossible_requests_give_the_theorem() {
    for algorithm in ["warnsdorff", "backtrack", "hybrid"] {
        knights()
            .args(["tour", "5x5", "--closed", "--algorithm", algorithm])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("Schwenk 1991"));
    }
    knights()
        .args(["tour", "8x8", "--tie", "sideways"])
        .assert()
        .code(2);
    knights()
        .args(["tour", "8x8", "--algorithm", "hybrid", "--tie", "first"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "tie does not apply to hybrid; it is an option of warnsdorff",
        ));
    knights()
        .args(["tour", "8x8", "--tie", "first", "-a", "construct"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("tie does not apply to construct"));
    knights()
        .args(["tour", "8x8", "--max-nodes", "10"])
        .assert()
        .code(2);
}

#[test]
fn options_that_do_not_apply_are_refused() {
    for args in [
        &["tour", "8x8", "--tie", "first", "-a", "construct"][..],
        &["tour", "8x8", "--tie", "first"],
        &["tour", "8x8", "--max-attempts", "5", "-a", "construct"],
        &["tour", "8x8", "--max-attempts", "5", "-a", "braid"],
    ] {
        knights()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("does not apply to"));
    }
    // Zero means nothing for a budget or a repetition count.
    for args in [
        &["tour", "8x8", "--max-attempts", "0"][..],
        &["tour", "8x8", "-a", "backtrack", "--max-nodes", "0"],
        &["bench", "8x8", "--repeat", "0"],
        &["stats", "8x8", "-n", "0"],
        &["estimate", "6x6", "--samples", "0"],
    ] {
        knights().args(args).assert().code(2);
    }
    knights()
        .args(["tour", "8x8", "--max-attempts", "3", "-a", "warnsdorff"])
        .assert()
        .success();
}

#[test]
fn a_bad_board_prints_no_table_header() {
    knights()
        .args(["bench", "8x8", "0x0", "--suite", "tours"])
        .assert()
        .code(2)
        .stdout("");
}

#[test]
fn the_research_suites_are_the_labs() {
    for suite in ["nope", "classic", "tourney"] {
        knights()
            .args(["bench", "--suite", suite])
            .assert()
            .code(2)
            .stdout("");
    }
}

#[test]
fn the_neural_network_refuses_big_boards_up_front() {
    for algorithm in ["neural", "takefuji-lee"] {
        knights()
            .args(["tour", "1000x1000", "--algorithm", algorithm])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("divide"));
    }
}
