//! The puzzle engine on generated puzzles: pinned outputs for fixed seeds,
//! solutions that pass the one checker, grades that match the solver's
//! work, deductions that agree with the unique solution, contradictions on
//! wrong progress, on plain, holed and wrapped boards.

use knights::board::Square;
use knights::format::puzzle_text;
use knights::puzzle::{generate, Difficulty, GenerateOptions, Generated, NextStep, Puzzle};
use knights::shape::{Shape, Wrap};
use knights::{Control, Wanted};
use proptest::prelude::*;

/// The budget of each solve and deduction in these tests.
const BUDGET: u64 = 200_000;

fn shape(text: &str) -> Shape {
    Shape::new(text.parse().unwrap())
}

fn made(shape: &Shape, difficulty: Difficulty, seed: u64, symmetric: bool) -> Generated {
    let options = GenerateOptions {
        difficulty,
        seed,
        symmetric,
    };
    generate(shape, Wanted::Either, options, &Control::new()).unwrap()
}

/// The step of each square in `g`'s solution.
fn steps(g: &Generated) -> Vec<Option<u32>> {
    let mut out = vec![None; g.puzzle.shape().board().squares()];
    for (i, &s) in g.solution.squares().iter().enumerate() {
        out[s as usize] = Some(i as u32);
    }
    out
}

/// Everything a generated puzzle promises: its solution passes the one
/// checker and solves it, it is unique, and its grade is its work's.
fn holds(g: &Generated, difficulty: Difficulty) {
    assert!(knights::check::check_tour(&g.solution).is_ok());
    assert!(g.puzzle.is_solved_by(&g.solution));
    let found = g.puzzle.solutions(2, BUDGET, &Control::new()).unwrap();
    assert!(found.is_unique(), "{}", puzzle_text(&g.puzzle));
    assert_eq!(found.tours[0].squares(), g.solution.squares());
    assert_eq!(found.work, g.work);
    assert_eq!(g.difficulty, difficulty);
    assert_eq!(Difficulty::of_depth(found.work.depth), difficulty);
    match difficulty {
        Difficulty::Easy => assert_eq!(found.work.depth, 0),
        Difficulty::Medium => assert_eq!(found.work.depth, 1),
        Difficulty::Hard => assert!(found.work.depth >= 2),
    }
}

/// Plays `g` by its deductions from the clues: each must agree with the
/// solution, and the grid must end solved; where the solver is stuck, the
/// solution's first missing number is placed.
fn play_through(g: &Generated) {
    let answer = steps(g);
    let mut filled = g.puzzle.clues().to_vec();
    for _ in 0..=g.puzzle.cells() {
        match g
            .puzzle
            .next_step(&filled, BUDGET, &Control::new())
            .unwrap()
        {
            NextStep::Solved => return,
            NextStep::Deduction(d) => {
                assert_eq!(answer[d.square as usize], Some(d.step), "{}", d.reason);
                assert!(filled[d.square as usize].is_none());
                assert!(d.reason.contains(" must "), "{}", d.reason);
                filled[d.square as usize] = Some(d.step);
            }
            NextStep::Stuck => {
                let s = (0..filled.len())
                    .find(|&s| filled[s].is_none() && answer[s].is_some())
                    .unwrap();
                filled[s] = answer[s];
            }
            NextStep::Contradiction(why) => panic!("a contradiction on right progress: {why}"),
        }
    }
    panic!("the deductions did not finish the grid");
}

#[test]
fn the_6x6_medium_puzzle_of_seed_1_is_pinned() {
    let g = made(&shape("6x6"), Difficulty::Medium, 1, false);
    holds(&g, Difficulty::Medium);
    assert_eq!(puzzle_text(&g.puzzle), PINNED_6X6_MEDIUM_1);
}

const PINNED_6X6_MEDIUM_1: &str = "puzzle 6x6 open
 .  .  . 19  .  7
 .  .  .  . 35  .
 . 13 36 29  .  9
 .  .  .  .  .  .
14  .  .  .  .  .
31  .  .  4  .  .
";

#[test]
fn every_difficulty_on_6x6_holds_and_plays_through() {
    for difficulty in Difficulty::ALL {
        for seed in 0..2 {
            let g = made(&shape("6x6"), difficulty, seed, false);
            holds(&g, difficulty);
            play_through(&g);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzle() {
    let a = made(&shape("6x6"), Difficulty::Hard, 5, true);
    let b = made(&shape("6x6"), Difficulty::Hard, 5, true);
    assert_eq!(a, b);
}

#[test]
fn symmetric_puzzles_give_half_turn_pairs() {
    let g = made(&shape("6x6"), Difficulty::Medium, 3, true);
    holds(&g, Difficulty::Medium);
    let clues = g.puzzle.clues();
    for s in 0..clues.len() {
        assert_eq!(clues[s].is_some(), clues[clues.len() - 1 - s].is_some());
    }
}

#[test]
fn a_closed_puzzle_has_a_closed_solution() {
    let options = GenerateOptions {
        difficulty: Difficulty::Easy,
        seed: 2,
        symmetric: false,
    };
    let g = generate(&shape("6x6"), Wanted::Closed, options, &Control::new()).unwrap();
    assert!(g.puzzle.closed());
    assert_eq!(g.solution.kind(), knights::Kind::Closed);
    holds(&g, Difficulty::Easy);
}

/// The first blank square of `g` and the step it holds.
fn first_blank(g: &Generated) -> (usize, u32) {
    let answer = steps(g);
    let s = (0..answer.len())
        .find(|&s| g.puzzle.clues()[s].is_none() && answer[s].is_some())
        .unwrap();
    (s, answer[s].unwrap())
}

#[test]
fn a_number_not_a_move_from_the_one_before_is_a_contradiction() {
    let g = made(&shape("6x6"), Difficulty::Easy, 4, false);
    let board = g.puzzle.shape().board();
    let first = g.solution.squares()[0];
    // Put 2 on a square that is not a knight's move from 1's square.
    let far = (0..board.squares() as Square)
        .find(|&s| {
            s != first
                && g.puzzle.clues()[s as usize].is_none()
                && g.puzzle.shape().move_between(first, s).is_none()
        })
        .unwrap();
    let mut filled = g.puzzle.clues().to_vec();
    filled[first as usize] = Some(0);
    if g.puzzle.clues()[g.solution.squares()[1] as usize].is_some() {
        return;
    }
    filled[far as usize] = Some(1);
    let NextStep::Contradiction(why) = g
        .puzzle
        .next_step(&filled, BUDGET, &Control::new())
        .unwrap()
    else {
        panic!("no contradiction");
    };
    assert!(why.contains("is not a knight's move from 1 on"), "{why}");
}

#[test]
fn a_wrong_number_is_found_out() {
    for seed in 0..4 {
        let g = made(&shape("6x6"), Difficulty::Medium, seed, false);
        let (s, k) = first_blank(&g);
        // The step of the square before it in the solution, shifted: wrong.
        let wrong = (0..g.puzzle.cells() as u32)
            .find(|&w| w != k && !g.puzzle.clues().contains(&Some(w)))
            .unwrap();
        let mut filled = g.puzzle.clues().to_vec();
        filled[s] = Some(wrong);
        let step = g
            .puzzle
            .next_step(&filled, BUDGET, &Control::new())
            .unwrap();
        assert!(!matches!(step, NextStep::Solved));
        if let NextStep::Deduction(d) = &step {
            // A deduction from a wrong grid may be anything but a solution.
            assert!(filled[d.square as usize].is_none());
        }
        let with = Puzzle::new(g.puzzle.shape().clone(), g.puzzle.closed(), filled).unwrap();
        let found = with.solutions(2, BUDGET, &Control::new()).unwrap();
        assert!(found.tours.is_empty() && found.complete);
    }
}

#[test]
fn a_solved_grid_is_solved() {
    let g = made(&shape("5x5"), Difficulty::Easy, 0, false);
    let filled = steps(&g);
    assert_eq!(
        g.puzzle
            .next_step(&filled, BUDGET, &Control::new())
            .unwrap(),
        NextStep::Solved
    );
}

fn holed() -> Shape {
    shape("6x6").with_holes(&[0, 34]).unwrap()
}

fn torus() -> Shape {
    shape("6x6").with_wrap(Wrap::Both)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    #[test]
    fn generated_puzzles_hold(seed in 0u64..1_000_000, side in 5u32..=6, which in 0usize..3, grade in 0usize..3) {
        let shape = match which {
            0 => shape(&format!("{side}x{side}")),
            1 => holed(),
            _ => torus(),
        };
        let difficulty = Difficulty::ALL[grade];
        let options = GenerateOptions { difficulty, seed, symmetric: seed % 2 == 0 };
        match generate(&shape, Wanted::Either, options, &Control::new()) {
            Ok(g) => {
                holds(&g, difficulty);
                play_through(&g);
            }
            Err(knights::Error::GaveUp(_)) => {}
            Err(e) => panic!("{e}"),
        }
    }
}

/// Prints generation and solving times on 8x8 (a measurement run on
/// purpose: `--ignored --nocapture`; no assertion on time).
#[test]
#[ignore]
fn times_on_8x8() {
    for difficulty in Difficulty::ALL {
        let mut generated = Vec::new();
        let mut solved = Vec::new();
        for seed in 0..9 {
            let start = std::time::Instant::now();
            let Ok(g) = generate(
                &shape("8x8"),
                Wanted::Either,
                GenerateOptions {
                    difficulty,
                    seed,
                    symmetric: false,
                },
                &Control::new(),
            ) else {
                continue;
            };
            generated.push(start.elapsed().as_secs_f64());
            let start = std::time::Instant::now();
            assert!(g
                .puzzle
                .solutions(2, 10_000_000, &Control::new())
                .unwrap()
                .is_unique());
            solved.push(start.elapsed().as_secs_f64());
        }
        generated.sort_by(f64::total_cmp);
        solved.sort_by(f64::total_cmp);
        println!(
            "8x8 {difficulty}: {} of 9 generated, median generation {:.3} s, median solve {:.4} s",
            generated.len(),
            generated
                .get(generated.len() / 2)
                .copied()
                .unwrap_or(f64::NAN),
            solved.get(solved.len() / 2).copied().unwrap_or(f64::NAN)
        );
    }
}
