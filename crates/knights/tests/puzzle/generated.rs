//! Generated puzzles: unique by the enumerator, solved by a tour that
//! passes the one checker, and graded by the solver's work.

use knights::puzzle::{generate, Difficulty, GenerateOptions, Puzzle};
use knights::{Control, Wanted};

use super::{shapes, Enumerator, BUDGET};

/// Generates the puzzle of `options` on `shape` and holds it to the
/// enumerator and the checker.
fn generated_and_checked(shape: &knights::Shape, options: GenerateOptions) -> Puzzle {
    let g = generate(shape, Wanted::Either, options, &Control::new()).expect("a puzzle");
    let mut plain = Enumerator::new(&g.puzzle, 2);
    assert!(plain.solved_by(g.solution.squares()), "{options:?}");
    assert_eq!(knights::check::check_tour(&g.solution).map(|_| ()), Ok(()));
    assert!(g.puzzle.is_solved_by(&g.solution));
    assert_eq!(plain.count(), 1, "not unique: {options:?}");
    assert_eq!(g.difficulty, options.difficulty);
    g.puzzle
}

#[test]
fn sampled_generated_puzzles_have_exactly_one_solution() {
    for (name, shape) in shapes() {
        for difficulty in Difficulty::ALL {
            // Seed 1, symmetric, on the plain board only: the small torus
            // has too few symmetric puzzles of each grade.
            let seeds = if name == "6x6" { 0..2 } else { 0..1 };
            for seed in seeds {
                let options = GenerateOptions {
                    difficulty,
                    seed,
                    symmetric: seed == 1,
                };
                generated_and_checked(&shape, options);
            }
        }
    }
}

#[test]
fn easy_puzzles_need_no_guess_and_hard_ones_do() {
    let shape: knights::Shape = "8x8".parse::<knights::Board>().unwrap().into();
    for seed in 0..3 {
        for difficulty in [Difficulty::Easy, Difficulty::Hard] {
            let options = GenerateOptions {
                difficulty,
                seed,
                symmetric: false,
            };
            let g = generate(&shape, Wanted::Either, options, &Control::new()).unwrap();
            let work = g.puzzle.solutions(2, BUDGET, &Control::new()).unwrap().work;
            match difficulty {
                Difficulty::Easy => assert_eq!((work.depth, work.guesses), (0, 0)),
                _ => assert!(work.depth >= 2 && work.guesses > 0, "{work:?}"),
            }
            assert!(g.puzzle.is_solved_by(&g.solution));
        }
    }
}

/// The acceptance's batch: 1,000 puzzles of each difficulty on 6x6, 8x8
/// and 10x10, each solution checked by the one checker and proved unique
/// by the solver (`cargo test --release -p knights --test tests --
/// --ignored puzzle::generated::thousand`); `KNIGHTS_PUZZLES` sets another
/// number a board and difficulty.
#[test]
#[ignore = "slow: run in release on purpose"]
fn thousand_puzzles_per_difficulty_on_6x6_8x8_and_10x10() {
    let per = std::env::var("KNIGHTS_PUZZLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000u64);
    use rayon::prelude::*;
    for side in [6, 8, 10] {
        let shape: knights::Shape = knights::Board::new(side, side).unwrap().into();
        for difficulty in Difficulty::ALL {
            (0..per).into_par_iter().for_each(|seed| {
                let options = GenerateOptions {
                    difficulty,
                    seed,
                    symmetric: false,
                };
                let g = generate(&shape, Wanted::Either, options, &Control::new()).unwrap();
                assert!(knights::check::check_tour(&g.solution).is_ok());
                assert!(g.puzzle.is_solved_by(&g.solution));
                let found = g.puzzle.solutions(2, BUDGET, &Control::new()).unwrap();
                assert!(found.is_unique(), "{side}x{side} {difficulty} seed {seed}");
                assert_eq!(found.tours[0].squares(), g.solution.squares());
            });
            eprintln!("{side}x{side} {difficulty}: {per} puzzles checked");
        }
    }
}
