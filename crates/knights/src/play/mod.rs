//! Play by hand: a [`Position`] is a partial path on any shape (holes,
//! wrapped edges, other leapers) with its goal (closed, open or either, an
//! end square if given). It knows the legal next squares, plays and undoes
//! moves, and asks its oracle ([`Position::verdict`]) whether the path can
//! still be finished: *finishable* with one completion, *not finishable*
//! with a [`Reason`] that is a proof, or *unknown* when the node budget
//! runs out. [`Position::judge`] (and [`Position::hints`]) judges every
//! legal next square the same way, under one node budget for the whole
//! call, so a player is told only of moves known to keep a finish.
//!
//! The oracle is the engine's own method: the linear construction where
//! it applies (an empty path, or one square, on a plain board), else a
//! search in Warnsdorff's order with the cheap proofs (a square nothing can
//! still enter, too many dead ends, parts the path cannot all reach,
//! colours that cannot balance, the closing square cut off) as pruning at
//! every node, so that a refusal found at the root is said in one sentence.
//!
//! # Example
//! ```
//! use knights::play::{Position, Outlook};
//! use knights::{Control, Wanted};
//! let mut position = Position::new("5x5".parse::<knights::Board>()?.into(), Wanted::Either, None)?;
//! position.play(0)?;
//! assert_eq!(position.legal_moves(), vec![7, 11]);
//! assert!(position.play(1).is_err());
//! let Outlook::Finishable(rest) = position.verdict(100_000, &Control::new())? else { panic!() };
//! assert_eq!(rest.len(), 24);
//! let hints = position.hints(100_000, &Control::new())?;
//! assert!(hints.iter().any(|h| h.is_safe()));
//! # Ok::<(), knights::Error>(())
//! ```

mod hints;
mod oracle;
mod reason;
mod search;
mod table;

use std::sync::Arc;

use crate::board::Square;
use crate::shape::{Graph, Shape};
use crate::{exists, Error, Kind, Result, Tour, Wanted};

pub use hints::{HintLine, Judgement, MoveHint};
pub use reason::{At, Outlook, Reason};

/// A partial path on a shape with its goal.
#[derive(Clone, Debug)]
pub struct Position {
    shape: Shape,
    graph: Arc<Graph>,
    /// The colour of each square when the move graph is connected and
    /// two-coloured (0 or 1; holes 2), else `None`.
    colours: Option<Arc<[u8]>>,
    goal: Wanted,
    end: Option<Square>,
    path: Vec<Square>,
    on_path: Vec<bool>,
}

impl Position {
    /// The empty path on `shape`, to be finished as `goal`, ending on `end`
    /// when given.
    ///
    /// # Errors
    /// [`Error::Board`] for an end square off the board or on a hole;
    /// [`Error::TooLarge`] when the move graph cannot fit in memory.
    pub fn new(shape: Shape, goal: Wanted, end: Option<Square>) -> Result<Position> {
        if let Some(e) = end {
            check_square(&shape, e, "the end square")?;
        }
        let graph = Arc::new(shape.graph()?);
        let colours = two_colouring(&shape, &graph).map(Arc::from);
        let on_path = vec![false; shape.board().squares()];
        Ok(Position {
            shape,
            graph,
            colours,
            goal,
            end,
            path: Vec::new(),
            on_path,
        })
    }

    /// The position reached from the empty path on `shape` by random legal
    /// play: a random number of moves below the number of squares, each
    /// drawn among the legal ones, stopping early where the knight is
    /// stuck. A seed gives the same position on every machine (the
    /// portable generator of [`crate::rng`]); the oracle's benchmarks and
    /// tests draw their positions this way.
    ///
    /// # Errors
    /// As [`Position::new`].
    pub fn random_play(
        shape: Shape,
        goal: Wanted,
        end: Option<Square>,
        seed: u64,
    ) -> Result<Position> {
        use rand::Rng;
        let mut rng = crate::rng::seeded(seed);
        let length = rng.random_range(0..shape.squares());
        let mut p = Position::new(shape, goal, end)?;
        for _ in 0..length {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play(moves[rng.random_range(0..moves.len())])?;
        }
        Ok(p)
    }

    /// This position with `path` played from its start, square by square.
    ///
    /// # Errors
    /// The refusal of [`Position::play`] for the first illegal square.
    pub fn with_path(mut self, path: &[Square]) -> Result<Position> {
        for &s in path {
            self.play(s)?;
        }
        Ok(self)
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The goal.
    pub fn goal(&self) -> Wanted {
        self.goal
    }

    /// The end square asked for, if any.
    pub fn end(&self) -> Option<Square> {
        self.end
    }

    /// The path so far.
    pub fn path(&self) -> &[Square] {
        &self.path
    }

    /// The squares not yet on the path.
    pub fn left(&self) -> usize {
        self.shape.squares() - self.path.len()
    }

    /// The legal next squares, in square order: every square of the shape
    /// for the empty path, else the unvisited squares one move from the
    /// last square of the path.
    pub fn legal_moves(&self) -> Vec<Square> {
        match self.path.last() {
            None => (0..self.shape.board().squares() as Square)
                .filter(|&s| !self.shape.is_hole(s))
                .collect(),
            Some(&c) => {
                let mut moves: Vec<Square> = self
                    .graph
                    .neighbours(c)
                    .iter()
                    .copied()
                    .filter(|&t| !self.on_path[t as usize])
                    .collect();
                moves.sort_unstable();
                moves
            }
        }
    }

    /// Whether `s` is a legal next square.
    pub fn is_legal(&self, s: Square) -> bool {
        if (s as usize) >= self.on_path.len() || self.shape.is_hole(s) || self.on_path[s as usize] {
            return false;
        }
        self.path.last().is_none_or(|&c| self.graph.adjacent(c, s))
    }

    /// Plays `s`.
    ///
    /// # Errors
    /// [`Error::Board`], saying why, for a square off the board, on a hole,
    /// already on the path, or not one move from the last square.
    pub fn play(&mut self, s: Square) -> Result<()> {
        check_square(&self.shape, s, "the square")?;
        let name = self.shape.name(s);
        if self.on_path[s as usize] {
            return Err(Error::Board(
                format!("{name} is already on the path; play a square that is not").into(),
            ));
        }
        if let Some(&c) = self.path.last() {
            if !self.graph.adjacent(c, s) {
                return Err(Error::Board(format!(
                    "{name} is not one move from {}, the last square of the path; the legal moves are {}",
                    self.shape.name(c),
                    self.names(&self.legal_moves())
                ).into()));
            }
        }
        self.on_path[s as usize] = true;
        self.path.push(s);
        Ok(())
    }

    /// Takes back the last square played, if any.
    pub fn undo(&mut self) -> Option<Square> {
        let s = self.path.pop()?;
        self.on_path[s as usize] = false;
        Some(s)
    }

    /// The kind of tour the path is, by the one checker, when it covers
    /// every square; `None` while squares are left.
    pub fn finished(&self) -> Option<Kind> {
        if self.left() > 0 {
            return None;
        }
        Tour::on(&self.shape, self.path.clone())
            .ok()
            .map(|t| t.kind())
    }

    /// Whether the path is a finished tour of the goal's kind ending where
    /// asked.
    pub fn is_won(&self) -> bool {
        self.finished().is_some_and(|k| self.goal.accepts(k))
            && self.end.is_none_or(|e| self.path.last() == Some(&e))
    }

    /// Squares as `(r, c), (r, c)` for messages, or `none`.
    fn names(&self, squares: &[Square]) -> String {
        if squares.is_empty() {
            return "none".into();
        }
        squares
            .iter()
            .map(|&s| self.shape.name(s))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `Ok` when `s` is a square of `shape` that is not a hole.
fn check_square(shape: &Shape, s: Square, what: &str) -> Result<()> {
    let board = shape.board();
    if s as usize >= board.squares() {
        return Err(Error::Board(
            format!(
                "{what} {s} is not a square of {board}, whose squares are 0..{}",
                board.squares()
            )
            .into(),
        ));
    }
    if shape.is_hole(s) {
        return Err(Error::Board(
            format!(
                "{what} {} is a hole of the board; name a square that is not",
                shape.name(s)
            )
            .into(),
        ));
    }
    Ok(())
}

/// The colour of each square (holes 2) when the squares that are not holes
/// form one connected, two-coloured move graph; `None` otherwise (the
/// existence tree's colouring and reach, which its quick refusals use).
pub(crate) fn two_colouring(shape: &Shape, graph: &Graph) -> Option<Vec<u8>> {
    if exists::reached(shape, graph) != shape.squares() {
        return None;
    }
    exists::two_colouring(shape, graph).map(|(colour, _)| colour)
}

#[cfg(test)]
mod tests;
