//! Square names: `ROW,COL` and the algebraic `c3` read to the same square,
//! the mapping is chess's (files from the left, ranks from the bottom), and
//! boards wider than 26 columns refuse letter names in one sentence.

use knights::shape::Shape;
use knights::{Board, Square, Tour};
use proptest::prelude::*;

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

/// The error text of reading `name` on `board`.
fn refusal(board: &Board, name: &str) -> String {
    match board.parse_square(name) {
        Ok(s) => panic!("'{name}' on {board} read as square {s}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_mapping_on_8x8_is_chesss() {
    let b = board("8x8");
    for (name, r, c) in [
        ("a1", 7, 0),
        ("h8", 0, 7),
        ("c3", 5, 2),
        ("a8", 0, 0),
        ("h1", 7, 7),
        ("e4", 4, 4),
    ] {
        assert_eq!(b.parse_square(name).unwrap(), b.square(r, c), "{name}");
        assert_eq!(b.algebraic(b.square(r, c)).as_deref(), Some(name));
    }
    // Upper case reads as lower case; blanks around are ignored.
    assert_eq!(b.parse_square(" C3 ").unwrap(), b.square(5, 2));
    // ROW,COL still reads as before.
    assert_eq!(b.parse_square("5,2").unwrap(), b.square(5, 2));
}

#[test]
fn ranks_count_from_the_bottom_of_boards_not_square() {
    // 5 rows, 7 columns: rank 1 is row 4, files a to g.
    let b = board("5x7");
    assert_eq!(b.parse_square("a1").unwrap(), b.square(4, 0));
    assert_eq!(b.parse_square("g5").unwrap(), b.square(0, 6));
    assert_eq!(b.algebraic(b.square(2, 3)).as_deref(), Some("d3"));
    assert!(refusal(&b, "h1").contains("files run from a to g"));
    assert!(refusal(&b, "a6").contains("ranks run from 1 (the bottom row) to 5"));
    // 3 rows, 4 columns.
    let b = board("3x4");
    assert_eq!(b.parse_square("d1").unwrap(), b.square(2, 3));
    assert_eq!(b.parse_square("a3").unwrap(), 0);
    assert!(b.parse_square("e1").is_err());
}

#[test]
fn twenty_six_columns_have_names_and_twenty_seven_do_not() {
    let b = board("2x26");
    assert_eq!(b.parse_square("z1").unwrap(), b.square(1, 25));
    assert_eq!(b.algebraic(b.square(0, 25)).as_deref(), Some("z2"));
    let wide = board("2x27");
    assert_eq!(wide.algebraic(0), None);
    let why = refusal(&wide, "a1");
    assert!(why.contains("at most 26 columns"), "{why}");
    assert!(why.contains("write ROW,COL"), "{why}");
    assert_eq!(wide.parse_square("1,26").unwrap(), wide.square(1, 26));
    // Tall boards are fine: ranks go as high as the rows.
    let tall = board("40x3");
    assert_eq!(tall.parse_square("a40").unwrap(), 0);
    assert_eq!(tall.algebraic(0).as_deref(), Some("a40"));
}

#[test]
fn bad_names_are_refused_saying_what_would_do() {
    let b = board("8x8");
    for (name, says) in [
        ("z9", "files run from a to h"),
        ("a0", "ranks run from 1"),
        ("a9", "ranks run from 1 (the bottom row) to 8"),
        ("a99999999999", "ranks run from 1"),
        ("a", "one file letter a to h and a rank 1 to 8"),
        ("aa1", "one file letter"),
        ("c3x", "one file letter"),
        ("c-3", "one file letter"),
        ("3c", "or a name such as c3"),
        ("", "write ROW,COL"),
        ("1,", "write ROW,COL"),
    ] {
        let why = refusal(&b, name);
        assert!(why.contains(says), "'{name}': {why}");
        assert!(!why.contains('\n'), "'{name}': one sentence: {why}");
    }
    // The sentence for a bad ROW,COL also names the algebraic form.
    assert!(refusal(&b, "8,0")
        .contains("a name such as c3 (file a to h from the left, rank 1 to 8 from the bottom)"));
    // ... but not on a board that has none.
    assert!(!refusal(&board("2x30"), "9,9").contains("c3"));
}

#[test]
fn a_hole_named_algebraically_is_refused_as_a_hole() {
    let b = board("8x8");
    let shape = Shape::new(b).with_holes(&[b.square(5, 2)]).unwrap();
    let why = shape.parse_square("c3").unwrap_err().to_string();
    assert!(why.contains("(5, 2) is a hole"), "{why}");
}

#[test]
fn the_algebraic_move_list_reads_back() {
    use knights::format::{move_list, read, Checked};
    let tour = Tour::new(board("3x4"), vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4]).unwrap();
    let list = move_list(&tour).algebraic().unwrap().to_string();
    assert_eq!(list, "tour 3x4\na3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2\n");
    let back = |text: &str| match read(text).and_then(|d| d.into_checked()) {
        Ok(Checked::Tour(t)) => t,
        other => panic!("{text}: {:?}", other.err()),
    };
    assert_eq!(back(&list), tour);
    // A tour's names may go on over several lines, in any case.
    assert_eq!(
        back("tour 3x4\nA3 c2 a1 b3 d2 b1\n\nc3 d1 b2 d3 c1 a2\n"),
        tour
    );
    // A name off the board is refused naming its line.
    let why = read("tour 3x4\na3 c2\na9").unwrap_err().to_string();
    assert!(why.starts_with("line 3: 'a9' is off 3x4"), "{why}");
    // A board wider than 26 columns has no list of names.
    // (algebraic() looks at the board only, so any squares will do.)
    let wide = Tour::from_squares_unchecked(board("1x27"), (0..27).collect());
    let why = move_list(&wide).algebraic().err().unwrap().to_string();
    assert!(why.contains("more than 26 columns"), "{why}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_square_reads_back_from_its_name(rows in 1u64..=60, cols in 1u64..=26) {
        let b = Board::new(rows, cols).unwrap();
        for s in 0..b.squares() as Square {
            let name = b.algebraic(s).unwrap();
            prop_assert_eq!(b.parse_square(&name).unwrap(), s, "{} on {}", name, b);
            prop_assert_eq!(b.parse_square(&name.to_uppercase()).unwrap(), s);
        }
    }
}
