//! Clue puzzles ("Numbering Knights"): a board with a few squares already
//! numbered, the rest to number so that consecutive numbers are a leaper's
//! move apart (and, for a closed puzzle, the last number a move from the
//! first). A good puzzle has exactly one solution, and this module proves
//! it: [`Puzzle::solutions`] counts solutions up to a limit, so "unique"
//! means that no second one exists; [`Puzzle::next_step`] gives one
//! deduction at a time with its reason; [`generate`] removes clues from a
//! tour while the solution stays unique, to a [`Difficulty`] measured by
//! the solver's own work.
//!
//! The solver works on the move graph of play's [`crate::play::Position`]
//! (the same [`crate::shape::Graph`] for every shape: holes, wrapped edges,
//! other leapers): propagation first, then search.
//!
//! # Example
//! ```
//! use knights::puzzle::Puzzle;
//! use knights::Control;
//! let puzzle: Puzzle = "puzzle 3x4 open\n 1  .  .  .\n .  .  .  .\n .  .  . 12\n".parse()?;
//! let found = puzzle.solutions(2, 100_000, &Control::new())?;
//! assert!(found.complete);
//! assert!(found.tours.len() <= 2);
//! # Ok::<(), knights::Error>(())
//! ```

mod engine;
mod explain;
mod generate;
mod solve;
#[cfg(test)]
mod tests;

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::Square;
use crate::{Error, Result, Shape, Tour};

pub use generate::{generate, GenerateOptions, Generated};
pub use solve::{Deduction, NextStep, Solutions, Work};

/// A puzzle's board may have at most this many rows and as many columns:
/// larger boards are not solved by hand, and the bound keeps the solver's
/// memory small.
pub const MAX_SIDE: u32 = 32;

/// [`Error::Board`] unless a board of `rows` x `cols` is within
/// [`MAX_SIDE`]: the one sentence every door says for a puzzle too big.
pub(crate) fn fits(rows: u64, cols: u64) -> Result<()> {
    if rows > u64::from(MAX_SIDE) || cols > u64::from(MAX_SIDE) {
        return Err(Error::Board(
            format!("a puzzle of {rows}x{cols} is too big; a puzzle has at most {MAX_SIDE} rows and {MAX_SIDE} columns").into(),
        ));
    }
    Ok(())
}

/// A clue puzzle: a shape, whether the numbering closes, and the given
/// numbers (steps counted from 0; [`Puzzle::base`] says how they are
/// written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    shape: Shape,
    closed: bool,
    base: u32,
    clues: Vec<Option<u32>>,
}

impl Puzzle {
    /// The puzzle on `shape` with `clues`, one entry per square of the
    /// board, row-major (`None` a blank, `Some(step)` a given step counted
    /// from 0), written from 1.
    ///
    /// # Errors
    /// [`Error::Board`] for a board over [`MAX_SIDE`], a clue list of
    /// another length than the board's squares, a clue on a hole, a step
    /// outside `0..cells` or a step given twice.
    pub fn new(shape: Shape, closed: bool, clues: Vec<Option<u32>>) -> Result<Puzzle> {
        let board = shape.board();
        fits(u64::from(board.rows()), u64::from(board.cols()))?;
        if clues.len() != board.squares() {
            return Err(Error::Board(
                format!(
                    "a puzzle of {board} needs {} entries, one per square, not {}",
                    board.squares(),
                    clues.len()
                )
                .into(),
            ));
        }
        let cells = shape.squares();
        let mut seen = vec![None; cells];
        for (s, clue) in clues.iter().enumerate() {
            let Some(step) = *clue else { continue };
            let at = crate::play::At::of(board, s as Square);
            if shape.is_hole(s as Square) {
                return Err(Error::Board(
                    format!("{at} is a hole and cannot hold a number").into(),
                ));
            }
            let slot = seen.get_mut(step as usize).ok_or_else(|| {
                Error::Board(
                    format!(
                        "the number {} on {at} is outside 1..={cells}, the squares of the board",
                        step + 1
                    )
                    .into(),
                )
            })?;
            if let Some(other) = slot.replace(at) {
                return Err(Error::Board(
                    format!(
                        "the number {} is given twice, on {other} and on {at}",
                        step + 1
                    )
                    .into(),
                ));
            }
        }
        Ok(Puzzle {
            shape,
            closed,
            base: 1,
            clues,
        })
    }

    /// The clues of `tour`'s squares in `keep`, on `tour`'s shape.
    ///
    /// # Errors
    /// As [`Puzzle::new`] (a board over [`MAX_SIDE`]).
    pub fn from_tour(tour: &Tour, keep: &[Square]) -> Result<Puzzle> {
        let shape = tour.shape();
        let mut clues = vec![None; shape.board().squares()];
        let mut step_of = vec![0u32; shape.board().squares()];
        for (i, &s) in tour.squares().iter().enumerate() {
            step_of[s as usize] = i as u32;
        }
        for &s in keep {
            clues[s as usize] = Some(step_of[s as usize]);
        }
        Puzzle::new(shape, tour.is_closed(), clues)
    }

    /// The same puzzle, its numbers written from `base` (0 or 1).
    pub fn with_base(mut self, base: u32) -> Puzzle {
        self.base = base.min(1);
        self
    }

    /// The board with its holes, wrapping and leaper.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// Whether the last number must be a move from the first.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The number the first step is written as: 0 or 1.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The given steps, one entry per square of the board, row-major.
    pub fn clues(&self) -> &[Option<u32>] {
        &self.clues
    }

    /// How many numbers the solution has: the squares that are not holes.
    pub fn cells(&self) -> usize {
        self.shape.squares()
    }

    /// How many squares are given.
    pub fn given(&self) -> usize {
        self.clues.iter().flatten().count()
    }

    /// Whether `tour` solves this puzzle: a tour of this shape and kind
    /// (by the one checker, [`crate::check`]) that numbers every given
    /// square as given, counting from its first square.
    pub fn is_solved_by(&self, tour: &Tour) -> bool {
        if tour.shape() != self.shape || tour.squares().len() != self.cells() {
            return false;
        }
        let Ok(kind) = crate::check::check_tour(tour) else {
            return false;
        };
        if self.closed && kind != crate::Kind::Closed {
            return false;
        }
        tour.squares()
            .iter()
            .enumerate()
            .all(|(i, &s)| self.clues[s as usize].is_none_or(|c| c as usize == i))
    }
}

impl FromStr for Puzzle {
    type Err = Error;

    /// Reads a puzzle file in either form ([`crate::format::read_puzzle`]).
    fn from_str(text: &str) -> Result<Puzzle> {
        crate::format::read_puzzle(text)
    }
}

/// How hard a puzzle is, by the solver's own work to solve it and prove
/// its solution unique (`solutions(2, ..)`, docs/formats.md, "Puzzles").
///
/// The solver propagates (clues fix their steps; each step stays within a
/// move of the step before and after, so within reach of the clues; a
/// square only one number can take gets it; colours alternate; a square
/// whose only way in and only way out are one square is dropped) and,
/// where propagation stalls, guesses the square of the step with the
/// fewest left, propagating each guess. The grade is the deepest nesting
/// of guesses ([`Work::depth`]): *easy* 0 (propagation alone), *medium* 1
/// (every guess is settled by propagation alone), *hard* 2 or more.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Difficulty {
    /// Solved by propagation alone: no guess.
    Easy,
    /// Each guess the search makes is settled by propagation alone.
    #[default]
    Medium,
    /// A guess must be followed by another before propagation settles it.
    Hard,
}

impl Difficulty {
    /// Its name: `easy`, `medium` or `hard`.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// The grade of a search whose guesses nested `depth` deep: easy for
    /// 0, medium for 1, hard for more.
    pub fn of_depth(depth: u32) -> Difficulty {
        match depth {
            0 => Difficulty::Easy,
            1 => Difficulty::Medium,
            _ => Difficulty::Hard,
        }
    }

    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];
}

impl std::fmt::Display for Difficulty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Difficulty {
    type Err = Error;

    fn from_str(s: &str) -> Result<Difficulty> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Difficulty::Easy),
            "medium" => Ok(Difficulty::Medium),
            "hard" => Ok(Difficulty::Hard),
            _ => Err(Error::Parse(
                format!(
                    "'{}' is not a difficulty; use easy, medium or hard",
                    crate::excerpt(s)
                )
                .into(),
            )),
        }
    }
}
