//! Unit tests of the position: play and undo, and the oracle's verdicts
//! agreeing with its hints and with the checker over sizes and seeds.

use proptest::prelude::*;
use rand::Rng;

use super::*;
use crate::Control;

fn position(rows: u64, cols: u64, goal: Wanted, seed: u64) -> Position {
    let shape = Shape::new(crate::Board::new(rows, cols).unwrap());
    let mut p = Position::new(shape, goal, None).unwrap();
    let mut rng = crate::rng::seeded(seed);
    let length = rng.random_range(0..=p.left());
    for _ in 0..length {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    p
}

#[test]
fn play_and_undo_keep_the_legal_moves() {
    let mut p = position(6, 6, Wanted::Closed, 3);
    let before = (p.path().to_vec(), p.legal_moves());
    if let Some(&s) = before.1.first() {
        p.play(s).unwrap();
        assert_eq!(p.undo(), Some(s));
    }
    assert_eq!((p.path().to_vec(), p.legal_moves()), before);
}

#[test]
fn an_empty_path_on_a_large_board_is_finished_by_the_construction() {
    let p = Position::new(Shape::new("200x200".parse().unwrap()), Wanted::Closed, None).unwrap();
    let Outlook::Finishable(tour) = p.verdict(1, &Control::new()).unwrap() else {
        panic!("the construction finishes it")
    };
    let p = p.with_path(&tour).unwrap();
    assert_eq!(p.finished(), Some(Kind::Closed));
}

#[test]
fn a_long_path_needs_no_deep_recursion() {
    let board: crate::Board = "120x120".parse().unwrap();
    let tour = crate::construct::open(board, None).unwrap();
    let half = &tour.squares()[..tour.squares().len() / 2];
    let p = Position::new(Shape::new(board), Wanted::Open, None)
        .unwrap()
        .with_path(half)
        .unwrap();
    let v = p.verdict(50_000, &Control::new()).unwrap();
    if let Outlook::Finishable(rest) = v {
        let whole: Vec<Square> = half.iter().chain(&rest).copied().collect();
        assert!(Tour::new(board, whole).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn verdicts_agree_with_hints_and_the_checker(
        rows in 3u64..7, cols in 3u64..7, seed in 0u64..1000, goal in 0usize..3,
    ) {
        let goal = [Wanted::Either, Wanted::Closed, Wanted::Open][goal];
        let p = position(rows, cols, goal, seed);
        let verdict = p.verdict(200_000, &Control::new()).unwrap();
        let hints = p.hints(200_000, &Control::new()).unwrap();
        if let Outlook::Finishable(rest) = &verdict {
            let whole: Vec<Square> = p.path().iter().chain(rest).copied().collect();
            let done = p.clone().with_path(rest).unwrap();
            prop_assert!(done.is_won(), "{:?}", whole);
        }
        if matches!(verdict, Outlook::NotFinishable(_)) {
            prop_assert!(hints.iter().all(|h| !h.is_safe()));
        }
        for h in &hints {
            prop_assert!(p.is_legal(h.square));
            if let Outlook::Finishable(rest) = &h.verdict {
                let mut next = p.clone();
                next.play(h.square).unwrap();
                prop_assert!(next.with_path(rest).unwrap().is_won());
            }
        }
    }
}

#[test]
fn a_stored_failure_is_found_only_for_the_very_same_position() {
    use super::table::Failures;
    let mut failures = Failures::new(100, Wanted::Closed, None, 0);
    let (set, other) = ([0b1011u64, 7], [0b1011u64, 5]);
    assert!(!failures.holds(42, &set, 3, 0));
    failures.store(42, &set, 3, 0);
    assert!(failures.holds(42, &set, 3, 0));
    // The same hash with another visited set, knight's square or start is
    // a collision, not a failure.
    assert!(!failures.holds(42, &other, 3, 0));
    assert!(!failures.holds(42, &set, 1, 0));
    assert!(!failures.holds(42, &set, 3, 1));
    assert!(failures.serves(Wanted::Closed, None));
    assert!(!failures.serves(Wanted::Either, None));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn one_call_judges_the_position_and_its_moves_within_one_budget(
        side in 5u64..9, seed in 0u64..1000, budget in 0u64..3000, goal in 0usize..3,
    ) {
        let goal = [Wanted::Either, Wanted::Closed, Wanted::Open][goal];
        let p = position(side, side, goal, seed);
        let judged = p.judge(budget, &Control::new()).unwrap();
        prop_assert!(judged.nodes <= budget, "{} nodes of {budget}", judged.nodes);
        prop_assert_eq!(&judged.verdict, &p.verdict(budget, &Control::new()).unwrap());
        if let Outlook::Finishable(rest) = &judged.verdict {
            if let Some(&first) = rest.first().filter(|_| !p.path().is_empty()) {
                let hint = judged.hints.iter().find(|h| h.square == first).unwrap();
                prop_assert!(hint.is_safe(), "the completion's first square {first} is safe");
            }
        }
        for h in &judged.hints {
            if let Outlook::Finishable(rest) = &h.verdict {
                let mut next = p.clone();
                next.play(h.square).unwrap();
                prop_assert!(next.with_path(rest).unwrap().is_won());
            }
        }
    }
}
