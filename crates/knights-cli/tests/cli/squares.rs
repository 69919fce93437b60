//! Algebraic square names on the command line: `--start c3`, `--end`, and
//! the `--notation algebraic` move list.

use super::run;

/// The `[row, col]` squares of a tour written as JSON.
fn squares(json: &str) -> Vec<(u64, u64)> {
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    v["squares"]
        .as_array()
        .expect("squares")
        .iter()
        .map(|s| (s[0].as_u64().unwrap(), s[1].as_u64().unwrap()))
        .collect()
}

#[test]
fn start_c3_on_8x8_is_row_5_column_2() {
    let (code, out, err) = run(&["tour", "8x8", "--start", "c3", "-f", "json"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(squares(&out)[0], (5, 2));
    // Upper case is read as lower case, and the end takes a name too.
    let (code, out, err) = run(
        &["tour", "8x8", "--start", "A8", "--end", "a1", "-f", "json"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let s = squares(&out);
    assert_eq!((s[0], s[63]), ((0, 0), (7, 0)));
    let (code, out, err) = run(&["exists", "8x8", "--start", "a8", "--end", "h1"], "");
    assert_eq!(code, 1, "{out}{err}");
}

#[test]
fn bad_square_names_are_usage_errors_in_one_sentence() {
    for (args, says) in [
        (
            vec!["tour", "8x8", "--start", "c9"],
            "ranks run from 1 (the bottom row) to 8",
        ),
        (
            vec!["tour", "8x8", "--start", "z1"],
            "files run from a to h",
        ),
        (vec!["tour", "8x30", "--start", "c3"], "write ROW,COL"),
        (vec!["tour", "8x8", "--start", "3c"], "or a name such as c3"),
    ] {
        let (code, out, err) = run(&args, "");
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn the_algebraic_move_list_names_the_tours_squares() {
    let args = [
        "tour",
        "5x5",
        "-a",
        "warnsdorff",
        "--seed",
        "3",
        "--start",
        "a1",
    ];
    let (code, json, err) = run(&[&args[..], &["-f", "json"]].concat(), "");
    assert_eq!(code, 0, "{err}");
    let (code, list, err) = run(
        &[&args[..], &["-f", "moves", "--notation", "algebraic"]].concat(),
        "",
    );
    assert_eq!(code, 0, "{err}");
    let mut lines = list.lines();
    assert_eq!(lines.next(), Some("tour 5x5"));
    let names: Vec<String> = squares(&json)
        .iter()
        .map(|&(r, c)| format!("{}{}", char::from(b'a' + c as u8), 5 - r))
        .collect();
    assert_eq!(lines.next(), Some(names.join(" ").as_str()));
    assert_eq!(lines.next(), None);
    assert_eq!(list, PINNED_5X5_SEED_3);
    // `check` reads it back.
    let (code, out, err) = run(&["check", "-"], &list);
    assert_eq!(code, 0, "{out}{err}");
    // The numeric list is unchanged by the option's default.
    let (_, numeric, _) = run(&[&args[..], &["-f", "moves"]].concat(), "");
    let (_, explicit, _) = run(
        &[&args[..], &["-f", "moves", "--notation", "numeric"]].concat(),
        "",
    );
    assert!(numeric.starts_with("tour 5x5\nfrom 4,0: "), "{numeric}");
    assert_eq!(numeric, explicit);
}

/// `knights tour 5x5 -a warnsdorff --seed 3 --start a1 -f moves --notation algebraic`.
const PINNED_5X5_SEED_3: &str =
    "tour 5x5\na1 b3 a5 c4 e5 d3 e1 c2 a3 b5 d4 e2 c1 a2 b4 d5 e3 d1 b2 a4 c5 e4 c3 b1 d2\n";

#[test]
fn a_closed_tour_and_a_tourney_name_their_start_again() {
    let (code, list, err) = run(
        &[
            "tour",
            "6x6",
            "--closed",
            "-f",
            "moves",
            "--notation",
            "algebraic",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let names: Vec<&str> = list.lines().nth(1).unwrap().split(' ').collect();
    assert_eq!(names.len(), 37);
    assert_eq!(names[0], names[36]);
    let (code, list, err) = run(
        &["tourney", "8x8", "-f", "moves", "--notation", "algebraic"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(list.starts_with("tourney 8x8\n"), "{list}");
    for cycle in list.lines().skip(1) {
        let names: Vec<&str> = cycle.split(' ').collect();
        assert_eq!(names.first(), names.last(), "{cycle}");
    }
}

#[test]
fn algebraic_notation_is_refused_where_it_cannot_apply() {
    let (code, out, err) = run(
        &["tour", "5x27", "-f", "moves", "--notation", "algebraic"],
        "",
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("more than 26 columns"), "{err}");
    assert!(out.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let (code, out, err) = run(&["tour", "8x8", "--notation", "algebraic"], "");
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("add --format moves"), "{err}");
}
