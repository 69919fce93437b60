//! The generator: a tour drawn from a seed (Warnsdorff's rule with random
//! ties, from a start drawn from the seed), then clues removed in an order
//! drawn from the same seed (half-turn pairs together when symmetric)
//! while the solution stays unique within the grade asked: easy removes
//! only while propagation alone solves the puzzle, medium while every
//! guess is settled by propagation, hard while the solution is unique;
//! then the grade must be the one asked, else the whole is tried again
//! from a seed derived from the first, a bounded number of times.

use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

use super::engine::{Engine, Scratch};
use super::solve::search;
use super::{Difficulty, Puzzle, Work};
use crate::algorithms::{Tie, Warnsdorff};
use crate::board::Square;
use crate::{rng, Control, Error, Result, Shape, Tour, Wanted};

/// Attempts (each from its own tour and order) before giving up.
const ATTEMPTS: u64 = 12;

/// Warnsdorff's attempts at the tour of one seed.
const WARNSDORFF_ATTEMPTS: u32 = 50;

/// Search nodes for each uniqueness check while removing clues: a check
/// that runs out keeps the clue, so a generated puzzle is proved unique
/// within this many nodes (which keeps hard puzzles quick to solve).
const CHECK_BUDGET: u64 = 1_500;

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

/// A puzzle on `shape` whose solution is a tour of kind `kind` (a closed
/// puzzle when `kind` is [`Wanted::Closed`], else open), of the difficulty
/// asked, the same for the same options on every machine.
///
/// # Errors
/// [`crate::Error::NoTour`] when no such tour exists;
/// [`crate::Error::GaveUp`] when no attempt reached the difficulty;
/// [`crate::Error::Interrupted`] when `control`'s flag is raised.
pub fn generate(
    shape: &Shape,
    kind: Wanted,
    options: GenerateOptions,
    control: &Control,
) -> Result<Generated> {
    for attempt in 0..ATTEMPTS {
        let seed = if attempt == 0 {
            options.seed
        } else {
            rng::for_batch(options.seed, attempt).random::<u64>()
        };
        if let Some(found) = attempt_at(shape, kind, options, seed, control)? {
            return Ok(found);
        }
    }
    Err(Error::GaveUp(
        format!(
            "no {} puzzle on {} came from {ATTEMPTS} tours drawn from seed {}; try another seed or difficulty",
            options.difficulty,
            shape.board(),
            options.seed
        )
        .into(),
    ))
}

/// The clues removed together: a square with its half-turn partner when
/// symmetric (and the partner is not a hole), else alone.
fn groups(shape: &Shape, symmetric: bool, seed: u64) -> Vec<Vec<Square>> {
    let total = shape.board().squares() as Square;
    let mut groups: Vec<Vec<Square>> = (0..total)
        .filter(|&s| !shape.is_hole(s))
        .filter_map(|s| {
            let partner = total - 1 - s;
            if !symmetric || shape.is_hole(partner) || partner == s {
                Some(vec![s])
            } else {
                (s < partner).then(|| vec![s, partner])
            }
        })
        .collect();
    groups.shuffle(&mut rng::seeded(seed));
    groups
}

/// The tour of `seed`: Warnsdorff's rule with ties broken at random from a
/// start drawn from the seed, so that each seed numbers the board its own
/// way (the construction makes one tour a board); the builder's own choice
/// where Warnsdorff's rule fails within its attempts.
fn tour_of(shape: &Shape, kind: Wanted, seed: u64, control: &Control) -> Result<Tour> {
    let squares: Vec<Square> = (0..shape.board().squares() as Square)
        .filter(|&s| !shape.is_hole(s))
        .collect();
    let start = squares[rng::seeded(seed).random_range(0..squares.len())];
    let builder = Tour::builder(shape.board())
        .shape(shape.clone())
        .kind(kind)
        .seed(seed)
        .control(control);
    let warnsdorff = Warnsdorff::default()
        .tie(Tie::Random)
        .max_attempts(WARNSDORFF_ATTEMPTS);
    match builder.clone().start(start).algorithm(warnsdorff).build() {
        Ok(tour) => Ok(tour),
        Err(Error::Interrupted(m)) => Err(Error::Interrupted(m)),
        Err(_) => builder.build(),
    }
}

/// One attempt from the tour and order of `seed`: the puzzle when it
/// reached the difficulty.
fn attempt_at(
    shape: &Shape,
    kind: Wanted,
    options: GenerateOptions,
    seed: u64,
    control: &Control,
) -> Result<Option<Generated>> {
    let tour = tour_of(shape, kind, seed, control)?;
    let closed = kind == Wanted::Closed;
    let mut clues = vec![None; shape.board().squares()];
    for (i, &s) in tour.squares().iter().enumerate() {
        clues[s as usize] = Some(i as u32);
    }
    let full = Puzzle::new(shape.clone(), closed, clues.clone())?;
    let graph = shape.graph()?;
    let engine = Engine::new(&full, &graph);
    let mut scratch = engine.scratch();
    let cap = match options.difficulty {
        Difficulty::Easy => 0,
        Difficulty::Medium => 1,
        Difficulty::Hard => u32::MAX,
    };
    for group in groups(shape, options.symmetric, seed) {
        let kept: Vec<Option<u32>> = group.iter().map(|&s| clues[s as usize]).collect();
        for &s in &group {
            clues[s as usize] = None;
        }
        if !unique(&engine, &mut scratch, &clues, CHECK_BUDGET, cap, control)?.0 {
            for (&s, k) in group.iter().zip(kept) {
                clues[s as usize] = k;
            }
        }
    }
    let (is_unique, work) = unique(
        &engine,
        &mut scratch,
        &clues,
        CHECK_BUDGET,
        u32::MAX,
        control,
    )?;
    let difficulty = Difficulty::of_depth(work.depth);
    if !is_unique || difficulty != options.difficulty {
        return Ok(None);
    }
    Ok(Some(Generated {
        puzzle: Puzzle::new(shape.clone(), closed, clues)?,
        solution: tour,
        difficulty,
        work,
    }))
}

/// Whether `clues` have exactly one solution, proved within `budget` nodes
/// and guesses nested at most `cap` deep, with the work.
fn unique(
    engine: &Engine,
    scratch: &mut Scratch,
    clues: &[Option<u32>],
    budget: u64,
    cap: u32,
    control: &Control,
) -> Result<(bool, Work)> {
    let (found, complete, work) = search(engine, scratch, clues, 2, budget, cap, control)?;
    Ok((complete && found.len() == 1, work))
}
