//! Each kind of reason, shown by a position that has it, and confirmed by
//! the plain exhaustive search.

use knights::board::Square;
use knights::play::{Outlook, Position, Reason};
use knights::shape::{Leaper, Shape};
use knights::{Control, Wanted};

use super::Plain;

/// The wazir (one square straight) on a `rows` x `cols` board.
fn wazir(board: &str) -> Shape {
    Shape::new(board.parse().unwrap()).with_leaper(Leaper::new(0, 1).unwrap())
}

fn knight(board: &str) -> Shape {
    Shape::new(board.parse().unwrap())
}

/// The reason of the position, checked to be a refusal the plain search
/// confirms; its sentence must name `words`.
fn reason(shape: Shape, goal: Wanted, end: Option<Square>, path: &[Square], words: &str) -> Reason {
    let p = Position::new(shape.clone(), goal, end)
        .unwrap()
        .with_path(path)
        .unwrap();
    let Outlook::NotFinishable(r) = p.verdict(1_000_000, &Control::new()).unwrap() else {
        panic!("{shape} {path:?} should not be finishable")
    };
    let text = r.to_string();
    assert!(text.contains(words), "{text}");
    assert!(
        !text.contains('\n') && !text.contains(". "),
        "one sentence: {text}"
    );
    if shape.board().squares() <= 64 {
        assert!(!Plain::new(&shape).finishable(path, goal, end), "{text}");
    }
    r
}

#[test]
fn no_tour_by_the_theorem() {
    let r = reason(knight("4x4"), Wanted::Closed, None, &[], "side of 4");
    assert_eq!(r.kind(), "no-tour");
}

#[test]
fn stuck() {
    // The 3x3 knight round its eight outer squares, ending on (2, 1).
    let r = reason(
        knight("3x3"),
        Wanted::Either,
        None,
        &[0, 5, 6, 1, 8, 3, 2, 7],
        "(2, 1) has no unvisited square",
    );
    assert!(matches!(r, Reason::Stuck { left: 1, .. }), "{r:?}");
}

#[test]
fn unreachable() {
    let r = reason(
        knight("3x3"),
        Wanted::Either,
        None,
        &[0, 5],
        "nothing can still enter (1, 1)",
    );
    assert_eq!(r.kind(), "unreachable");
}

#[test]
fn trapped() {
    let r = reason(
        wazir("1x4"),
        Wanted::Either,
        None,
        &[1],
        "(0, 0) can only be entered from the knight's square",
    );
    assert_eq!(r.kind(), "trapped");
}

#[test]
fn split() {
    // The wazir on 2x5 after (0, 2), (1, 2): two blocks of four on either side.
    let r = reason(
        wazir("2x5"),
        Wanted::Either,
        None,
        &[2, 7],
        "fall into parts",
    );
    assert_eq!(r.kind(), "split");
}

#[test]
fn dead_ends() {
    let r = reason(
        wazir("1x5"),
        Wanted::Either,
        None,
        &[2],
        "(0, 0) and (0, 4) each have only one way in",
    );
    assert_eq!(r.kind(), "dead-ends");
    let r = reason(wazir("1x5"), Wanted::Either, Some(3), &[0], "(0, 4) has only one way in left, so the tour would have to end there, but it must end on (0, 3)");
    assert!(matches!(r, Reason::DeadEndNotEnd { .. }), "{r:?}");
    let r = reason(wazir("1x5"), Wanted::Closed, None, &[0], "could not close");
    assert!(matches!(r, Reason::DeadEndNotClosing { .. }), "{r:?}");
    let r = reason(
        wazir("1x3"),
        Wanted::Closed,
        None,
        &[],
        "(0, 0) has only one move",
    );
    assert!(matches!(r, Reason::OneMove { .. }), "{r:?}");
}

#[test]
fn colours() {
    let r = reason(
        wazir("3x3"),
        Wanted::Either,
        None,
        &[1],
        "3 of the knight's colour and 5 of the other",
    );
    assert_eq!(r.kind(), "colours");
    let r = reason(
        wazir("3x3"),
        Wanted::Closed,
        None,
        &[],
        "5 squares of one colour and 4 of the other",
    );
    assert_eq!(r.kind(), "colours");
    let r = reason(
        wazir("2x3"),
        Wanted::Either,
        Some(2),
        &[0],
        "cannot end on the colour of the end square (0, 2)",
    );
    assert!(
        matches!(r, Reason::WrongColourEnd { closing: false, .. }),
        "{r:?}"
    );
}

#[test]
fn closing_square_cut_off() {
    let r = reason(
        wazir("2x3"),
        Wanted::Closed,
        None,
        &[0, 1, 4, 3],
        "every square a move from the start (0, 0) is visited",
    );
    assert_eq!(r.kind(), "closing-cut-off");
}

#[test]
fn end_squares() {
    let r = reason(
        wazir("1x4"),
        Wanted::Either,
        Some(0),
        &[0, 1],
        "end square (0, 0) is already on the path",
    );
    assert_eq!(r.kind(), "end");
    let r = reason(
        knight("3x4"),
        Wanted::Closed,
        Some(11),
        &[0],
        "the end square (2, 3) is not",
    );
    assert_eq!(r.kind(), "end");
}

#[test]
fn a_finished_path_that_ends_elsewhere() {
    let p = Position::new(wazir("1x3"), Wanted::Either, Some(1)).unwrap();
    let p = p.with_path(&[0, 1]).unwrap();
    assert!(matches!(
        p.verdict(10, &Control::new()).unwrap(),
        Outlook::NotFinishable(_)
    ));
    let p = Position::new(wazir("1x3"), Wanted::Either, Some(0))
        .unwrap()
        .with_path(&[2, 1, 0])
        .unwrap();
    assert!(p.is_won());
    let p = Position::new(wazir("1x3"), Wanted::Either, Some(2))
        .unwrap()
        .with_path(&[2, 1, 0]);
    let p = p.unwrap();
    let Outlook::NotFinishable(r) = p.verdict(10, &Control::new()).unwrap() else {
        panic!()
    };
    assert!(matches!(r, Reason::WrongEnd { .. }), "{r:?}");
}

#[test]
fn an_exhaustive_search_proves_what_no_cheap_proof_does() {
    let shape = knight("5x5");
    let mut found = 0;
    for seed in 0..400 {
        let p = super::random_position(&shape, Wanted::Either, None, seed);
        if let Outlook::NotFinishable(r @ Reason::Searched { .. }) =
            p.verdict(1_000_000, &Control::new()).unwrap()
        {
            assert!(r.to_string().contains("exhaustive search"));
            assert!(!Plain::new(&shape).finishable(p.path(), Wanted::Either, None));
            found += 1;
        }
    }
    assert!(found > 0);
}

#[test]
fn illegal_moves_are_refused_in_a_sentence() {
    let mut p = Position::new(knight("5x5"), Wanted::Either, None).unwrap();
    p.play(0).unwrap();
    let e = p.play(1).unwrap_err().to_string();
    assert!(
        e.contains("(0, 1) is not one move from (0, 0)") && e.contains("(1, 2), (2, 1)"),
        "{e}"
    );
    assert!(p
        .play(0)
        .unwrap_err()
        .to_string()
        .contains("already on the path"));
    assert!(p
        .play(99)
        .unwrap_err()
        .to_string()
        .contains("not a square of 5x5"));
    assert_eq!(p.undo(), Some(0));
    assert_eq!(p.legal_moves().len(), 25);
    let holed = Shape::parse_board_text("#..\n...\n").unwrap();
    let e = Position::new(holed, Wanted::Either, Some(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("hole"), "{e}");
}
