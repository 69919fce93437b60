//! The checker names the first fault of every kind of broken input.

use knights::check::{check_cycles, check_path, check_tour, Fault};
use knights::format::read;
use knights::Kind;
use knights::{Board, Error};

use super::{data, some_tour};

/// The cipher article's tour (The Knight's Tour, n.d.) as (row, col) pairs.
fn cipher_article_tour() -> Vec<(i64, i64)> {
    let doc = read(&data("cipher_article_grid.txt")).unwrap();
    match doc.into_checked().unwrap() {
        knights::format::Checked::Tour(t) => t
            .squares()
            .iter()
            .map(|&s| (i64::from(s / 8), i64::from(s % 8)))
            .collect(),
        other => panic!("not a tour: {other:?}"),
    }
}

#[test]
fn published_grids_parse_and_check() {
    let doc = read(&data("cipher_article_grid.txt")).unwrap();
    assert_eq!(doc.check().unwrap().to_string(), "open tour on 8x8");
    let path = cipher_article_tour();
    assert_eq!(path[0], (4, 6), "it starts at row 4, column 6");
    assert_eq!(path[1], (6, 7));
    assert_eq!(path[63], (1, 4));
    let doc = read(&data("course_report_boxed_grid.txt")).unwrap();
    assert_eq!(doc.check().unwrap().to_string(), "closed tour on 8x8");
}

#[test]
fn repeated_square() {
    let mut p = cipher_article_tour();
    p[10] = p[3];
    let f = check_path(8, 8, &p, None).unwrap_err();
    assert!(
        matches!(
            f,
            Fault::Repeated {
                first: 3,
                second: 10,
                ..
            }
        ),
        "{f}"
    );
    assert!(
        f.to_string().contains("visited twice, at steps 3 and 10"),
        "{f}"
    );
}

#[test]
fn non_knight_step() {
    let mut p = cipher_article_tour();
    p.swap(20, 40);
    let f = check_path(8, 8, &p, None).unwrap_err();
    assert!(matches!(f, Fault::NotKnightMove { step: 20, .. }), "{f}");
    assert!(
        f.to_string().ends_with("at step 20 is not a knight's move"),
        "{f}"
    );
}

#[test]
fn missing_square() {
    let p = cipher_article_tour();
    let f = check_path(8, 8, &p[..63], None).unwrap_err();
    assert_eq!(
        f.to_string(),
        "1 square of the 8x8 board is never visited, the first being (1, 4)"
    );
    let f = check_path(8, 9, &p, None).unwrap_err();
    assert!(matches!(f, Fault::Missing { count: 8, .. }), "{f}");
}

#[test]
fn off_board_square() {
    let mut p = cipher_article_tour();
    p[0] = (2, 8);
    let f = check_path(8, 8, &p, None).unwrap_err();
    assert_eq!(
        f.to_string(),
        "step 0 is at (2, 8), which is off the 8x8 board"
    );
    p[0] = (-1, 5);
    assert!(matches!(
        check_path(8, 8, &p, None),
        Err(Fault::OffBoard { .. })
    ));
}

#[test]
fn closed_claim_on_open_tour() {
    let p = cipher_article_tour();
    assert_eq!(check_path(8, 8, &p, None), Ok(Kind::Open));
    let f = check_path(8, 8, &p, Some(true)).unwrap_err();
    assert!(
        f.to_string()
            .starts_with("the tour is marked closed, but its last square (1, 4)"),
        "{f}"
    );
    let json = format!(
        r#"{{"rows":8,"cols":8,"closed":true,"squares":{}}}"#,
        serde_json::to_string(&p).unwrap()
    );
    assert!(matches!(
        read(&json).unwrap().check(),
        Err(Fault::NotClosed { .. })
    ));
}

#[test]
fn open_claim_on_closed_tour() {
    let t = some_tour(Board::new(6, 6).unwrap(), true, 1);
    let p: Vec<(i64, i64)> = t
        .squares()
        .iter()
        .map(|&s| (i64::from(s / 6), i64::from(s % 6)))
        .collect();
    assert!(matches!(
        check_path(6, 6, &p, Some(false)),
        Err(Fault::NotOpen { .. })
    ));
}

#[test]
fn malformed_json_names_the_path() {
    let e = read(r#"{"rows": 8, "cols": 8, "squares": [[0, 0], [1, "x"]]}"#).unwrap_err();
    assert!(matches!(e, Error::Parse(_)));
    assert!(e.to_string().contains("at squares[1][1]"), "{e}");
    let e = read(r#"{"rows": 8, "cols": 8, "squares": [[0, 0], [1, 2]"#).unwrap_err();
    assert!(e.to_string().contains("not valid JSON"), "{e}");
    let e = read(r#"{"rows": -8, "cols": 8, "squares": []}"#).unwrap_err();
    assert!(e.to_string().contains("at rows"), "{e}");
    let e = read(r#"{"rows": 0, "cols": 8, "squares": []}"#).unwrap_err();
    assert!(e.to_string().contains("at least one row"), "{e}");
    let e = read(r#"{"board": 8}"#).unwrap_err();
    assert!(e.to_string().contains("neither"), "{e}");
    let e = read("[1, 2]").unwrap_err();
    assert!(
        e.to_string().contains("number") || e.to_string().contains("grid"),
        "{e}"
    );
}

#[test]
fn malformed_grid_names_the_line() {
    let e = read("0 3 6 9\n11 8 1 4\n2 5 x 7\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3 of the grid has 'x', which is not a step number; a grid has only whole numbers separated by blanks"
    );
    let e = read("0 3 6 9\n11 8 1\n2 5 10 7\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("line 2 of the grid has 3 numbers"),
        "{e}"
    );
    let f = read("0 3 6 9\n11 8 1 4\n2 5 10 70\n")
        .unwrap()
        .check()
        .unwrap_err();
    assert!(matches!(f, Fault::GridNumber { number: 70, .. }), "{f}");
    let f = read("0 3 6 9\n11 8 1 4\n2 5 10 9\n")
        .unwrap()
        .check()
        .unwrap_err();
    assert_eq!(
        f.to_string(),
        "step 9 is written twice, at (0, 3) and (2, 3)"
    );
}

#[test]
fn empty_input() {
    for text in ["", "   \n\n", "\u{feff}"] {
        let e = read(text).unwrap_err();
        assert!(e.to_string().starts_with("the input is empty"), "{e}");
    }
    assert!(matches!(check_path(8, 8, &[], None), Err(Fault::Empty(_))));
    assert!(matches!(check_cycles(8, 8, &[]), Err(Fault::Empty(_))));
}

#[test]
fn broken_grid_of_the_course_report_is_rejected() {
    // The course report (Mahmoud n.d.) prints a 70x70 "tour" with repeated numbers; the checker must say so.
    let mut grid = String::new();
    for r in 0..6u64 {
        let row: Vec<String> = (0..6u64).map(|c| (r * 6 + c).to_string()).collect();
        grid += &format!("|{}|\n+-----+\n", row.join("|"));
    }
    let f = read(&grid).unwrap().check().unwrap_err();
    assert!(matches!(f, Fault::NotKnightMove { step: 1, .. }), "{f}");
}

#[test]
fn tourney_faults() {
    let t = super::four_cover(1, 1);
    let b = t.board();
    let coords = |c: &Vec<u32>| {
        c.iter()
            .map(|&s| (i64::from(s / 4), i64::from(s % 4)))
            .collect::<Vec<_>>()
    };
    let mut cycles: Vec<Vec<(i64, i64)>> = t.cycles().iter().map(coords).collect();
    assert_eq!(check_cycles(b.rows(), b.cols(), &cycles), Ok(4));
    cycles[0].truncate(2);
    assert!(matches!(
        check_cycles(4, 4, &cycles),
        Err(Fault::CycleTooShort { cycle: 0, len: 2 })
    ));
    let mut cycles: Vec<Vec<(i64, i64)>> = t.cycles().iter().map(coords).collect();
    cycles[1].swap(1, 2);
    assert!(check_cycles(4, 4, &cycles).is_err());
    let cycles: Vec<Vec<(i64, i64)>> = t.cycles()[..3].iter().map(coords).collect();
    assert!(matches!(
        check_cycles(4, 4, &cycles),
        Err(Fault::Missing { count: 4, .. })
    ));
}

#[test]
fn generated_tours_pass() {
    for n in 5..=12u64 {
        let b = Board::new(n, n + 1).unwrap();
        let t = some_tour(b, false, n);
        assert!(check_tour(&t).is_ok());
    }
}
