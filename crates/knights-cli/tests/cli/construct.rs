//! `knights tour --algorithm construct` and the one-line summary.

use knights::format::{read, Checked};

use super::run;

#[test]
fn construct_writes_a_checked_tour() {
    for (board, kind) in [
        ("10x13", "--closed"),
        ("9x9", "--open"),
        ("4x21", "--open"),
        ("3x30", "--closed"),
    ] {
        let (code, out, err) = run(
            &[
                "tour",
                board,
                kind,
                "--algorithm",
                "construct",
                "--format",
                "json",
            ],
            "",
        );
        assert_eq!(code, 0, "{board}: {err}");
        let Checked::Tour(t) = read(&out).unwrap().into_checked().unwrap() else {
            panic!("{board}: not a tour");
        };
        assert_eq!(t.is_closed(), kind == "--closed", "{board}");
    }
}

#[test]
fn summary_is_one_line() {
    let (code, out, _) = run(
        &[
            "tour",
            "200x301",
            "--algorithm",
            "construct",
            "--format",
            "summary",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with("board=200x301 kind=closed algorithm=construct seed=0 seconds="),
        "{out}"
    );
}

#[test]
fn construct_refuses_with_the_theorem() {
    let (code, _, err) = run(
        &["tour", "5x5", "--open", "--start", "0,1", "-a", "construct"],
        "",
    );
    assert_eq!(code, 1);
    assert!(err.contains("corners' colour"), "{err}");
    let (code, _, err) = run(&["tour", "4x9", "--closed", "-a", "construct"], "");
    assert_eq!(code, 1);
    assert!(err.contains("side of 4"), "{err}");
}
