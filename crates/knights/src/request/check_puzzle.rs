//! The check job's puzzles (`knights check PUZZLE`, `knights check
//! SOLUTION --puzzle PUZZLE`): a puzzle file is read and its solution
//! counted up to two under the solve's default budget; a filled grid is
//! checked by the one checker, then against the puzzle's clues.

use serde_json::Value;

use super::{CheckAnswer, SolveRequest};
use crate::format::{self, read_puzzle, Parsed};
use crate::puzzle::Puzzle;
use crate::request::JobRequest;
use crate::{Control, Error, Result, Square, Tour};

/// Whether `text` is a puzzle file rather than a tour's: its first word
/// is `puzzle`, or it is a JSON object with `clues`.
pub fn is_puzzle(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') {
        return serde_json::from_str::<Value>(t).is_ok_and(|v| v.get("clues").is_some());
    }
    t.split_whitespace().next() == Some("puzzle")
}

/// What the check of a puzzle, or of a solution against one, reads.
#[derive(Clone, Debug)]
pub enum PuzzleCheck {
    /// A puzzle to validate: its solutions are counted.
    Puzzle {
        /// The puzzle, as read.
        puzzle: Puzzle,
        /// Its text, for the solve request.
        text: String,
    },
    /// A filled grid to check against a puzzle.
    Solution {
        /// The puzzle.
        puzzle: Puzzle,
        /// The grid's squares in the order numbered, on the puzzle's
        /// shape, or why it is no numbering of every square.
        squares: std::result::Result<Vec<Square>, String>,
    },
}

impl PuzzleCheck {
    /// The puzzle check of `text`, a puzzle file.
    pub fn puzzle(text: &str) -> Result<PuzzleCheck> {
        Ok(PuzzleCheck::Puzzle {
            puzzle: read_puzzle(text)?,
            text: text.to_string(),
        })
    }

    /// The check of `text`, a filled grid in any tour format or in the
    /// puzzle's own form, against `puzzle_text`.
    pub fn solution(text: &str, puzzle_text: &str) -> Result<PuzzleCheck> {
        let puzzle = read_puzzle(puzzle_text)?;
        let squares = if is_puzzle(text) {
            filled_squares(&read_puzzle(text)?)
        } else {
            document_squares(&format::read(text)?, &puzzle)
        };
        Ok(PuzzleCheck::Solution { puzzle, squares })
    }

    /// The board of the puzzle (for a door's size caps).
    pub fn board(&self) -> crate::Board {
        match self {
            PuzzleCheck::Puzzle { puzzle, .. } | PuzzleCheck::Solution { puzzle, .. } => {
                puzzle.shape().board()
            }
        }
    }

    /// The verdict.
    pub fn run(self, control: &Control) -> Result<CheckAnswer> {
        match self {
            PuzzleCheck::Puzzle { puzzle, text } => validate(&puzzle, text, control),
            PuzzleCheck::Solution { puzzle, squares } => Ok(match solves(&puzzle, squares) {
                Ok(verdict) => CheckAnswer {
                    valid: true,
                    verdict,
                    magic: None,
                },
                Err(fault) => CheckAnswer {
                    valid: false,
                    verdict: fault,
                    magic: None,
                },
            }),
        }
    }
}

/// `a valid puzzle of 8x8 (closed), 14 numbers given; exactly one
/// solution`, or what is wrong: no solution, several, or not decided.
fn validate(puzzle: &Puzzle, text: String, control: &Control) -> Result<CheckAnswer> {
    let shape = puzzle.shape();
    let kind = if puzzle.closed() { "closed" } else { "open" };
    let given = puzzle.given();
    let what = format!(
        "puzzle of {shape} ({kind}), {given} number{} given",
        if given == 1 { "" } else { "s" }
    );
    let (valid, verdict) = match SolveRequest::new(&text).run(control) {
        Ok(super::SolveAnswer::Solutions(a)) if a.unique => {
            (true, format!("a valid {what}; exactly one solution"))
        }
        Ok(super::SolveAnswer::Solutions(a)) if a.count > 1 => (
            false,
            format!("a {what}, but it has several solutions; give more numbers"),
        ),
        Ok(_) => (
            false,
            format!("a {what}, but the search ran out of its budget before it proved one solution unique"),
        ),
        Err(e @ Error::NoTour(_)) => (false, format!("a {what}, but {}", e.unhinted())),
        Err(e @ Error::GaveUp(_)) => (
            false,
            format!("a {what}, but whether it has a solution is unknown: {}", e.unhinted()),
        ),
        Err(e) => return Err(e),
    };
    Ok(CheckAnswer {
        valid,
        verdict,
        magic: None,
    })
}

/// The squares of a puzzle's grid with every square numbered, in order.
fn filled_squares(filled: &Puzzle) -> std::result::Result<Vec<Square>, String> {
    let blank = filled.cells() - filled.given();
    if blank > 0 {
        return Err(format!(
            "the grid leaves {blank} square{} blank",
            if blank == 1 { "" } else { "s" }
        ));
    }
    let mut squares = vec![0; filled.cells()];
    for (s, step) in filled.clues().iter().enumerate() {
        if let Some(step) = step {
            squares[*step as usize] = s as Square;
        }
    }
    Ok(squares)
}

/// The squares of a tour file in order, unchecked; a tourney or another
/// board is no solution.
fn document_squares(doc: &Parsed, puzzle: &Puzzle) -> std::result::Result<Vec<Square>, String> {
    let board = doc.board();
    let want = puzzle.shape().board();
    if board != want {
        return Err(format!(
            "the solution is on {board}, and the puzzle is on {want}"
        ));
    }
    let index = |(r, c): (i64, i64)| board.square(r as u32, c as u32);
    match doc {
        Parsed::Tour { squares, .. } => Ok(squares.iter().map(|&rc| index(rc)).collect()),
        Parsed::Grid { numbers, base, .. } => {
            let path = crate::check::grid_to_path(board.rows(), board.cols(), numbers, *base)
                .map_err(|f| f.to_string())?;
            Ok(path.into_iter().map(index).collect())
        }
        Parsed::Tourney { .. } => {
            Err("the file holds a tourney; a puzzle's solution is one tour".into())
        }
    }
}

/// `closed tour on 6x6, solving the puzzle`, or the first fault: the
/// checker's, the kind's, or the first clue (row-major) the numbering
/// does not keep.
fn solves(
    puzzle: &Puzzle,
    squares: std::result::Result<Vec<Square>, String>,
) -> std::result::Result<String, String> {
    let squares = squares?;
    let shape = puzzle.shape();
    let tour = Tour::on(shape, squares).map_err(|e| e.to_string())?;
    let kind = crate::check::check_tour(&tour).map_err(|f| f.to_string())?;
    if puzzle.closed() && kind != crate::Kind::Closed {
        return Err(
            "the puzzle is closed, and the solution's last number is not a move from its first"
                .into(),
        );
    }
    let board = shape.board();
    let mut step_of = vec![0u32; board.squares()];
    for (i, &s) in tour.squares().iter().enumerate() {
        step_of[s as usize] = i as u32;
    }
    let base = puzzle.base();
    for (s, clue) in puzzle.clues().iter().enumerate() {
        let Some(clue) = *clue else { continue };
        if step_of[s] != clue {
            return Err(format!(
                "{} holds {} in the solution, but the puzzle gives {} there",
                crate::play::At::of(board, s as Square),
                step_of[s] + base,
                clue + base
            ));
        }
    }
    debug_assert!(puzzle.is_solved_by(&tour));
    Ok(format!("{kind} tour on {shape}, solving the puzzle"))
}
