//! The generator: a tour drawn from a seed, then clues removed in an order
//! drawn from the same seed while the solution stays unique and the
//! puzzle within its difficulty.
//!
//! FOUNDATION: removal while unique; grading replaces it.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::{Difficulty, Puzzle, Work};
use crate::board::Square;
use crate::{rng, Control, Result, Shape, Tour, Wanted};

/// What to generate: the difficulty, the seed, and whether the clues are
/// symmetric under a half turn of the board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct GenerateOptions {
    /// The difficulty wanted.
    pub difficulty: Difficulty,
    /// The seed: the same seed gives the same puzzle on every machine.
    pub seed: u64,
    /// Whether the given squares are symmetric under a half turn.
    pub symmetric: bool,
}

/// A generated puzzle with its solution and its grade.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its one solution.
    pub solution: Tour,
    /// Its difficulty, by the solver's work.
    pub difficulty: Difficulty,
    /// The solver's work on it.
    pub work: Work,
}

/// A puzzle on `shape` whose solution is a tour of kind `kind`.
///
/// # Errors
/// [`crate::Error::NoTour`] when no such tour exists;
/// [`crate::Error::Interrupted`] when `control`'s flag is raised.
pub fn generate(
    shape: &Shape,
    kind: Wanted,
    options: GenerateOptions,
    control: &Control,
) -> Result<Generated> {
    let tour = Tour::builder(shape.board())
        .shape(shape.clone())
        .kind(kind)
        .seed(options.seed)
        .control(control)
        .build()?;
    let mut keep: Vec<Square> = tour.squares().to_vec();
    let mut order = keep.clone();
    order.shuffle(&mut rng::seeded(options.seed));
    let mut puzzle = Puzzle::from_tour(&tour, &keep)?;
    for s in order {
        let trial: Vec<Square> = keep.iter().copied().filter(|&k| k != s).collect();
        let p = Puzzle::from_tour(&tour, &trial)?;
        if p.solutions(2, 1_000_000, control)?.is_unique() {
            keep = trial;
            puzzle = p;
        }
    }
    let work = puzzle.solutions(2, 1_000_000, control)?.work;
    Ok(Generated {
        puzzle,
        solution: tour,
        difficulty: options.difficulty,
        work,
    })
}
