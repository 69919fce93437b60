//! A tourney (cycle cover) as the ordered lists of its cycles.

use crate::board::Square;
use crate::{check, Board, Error, Result};

/// A tourney: vertex-disjoint cycles of knight's moves covering every square
/// (Parberry 2020). A closed tour is a tourney with one cycle.
///
/// For rail switching, the compact [`Cover`](crate::Cover) form is the working one;
/// this is the form that is read, written and drawn.
///
/// # Example
/// ```
/// use knights::{Board, Tourney};
/// // The four 4-cycles of a 4x4 board.
/// let b = Board::new(4, 4)?;
/// let sq = |r, c| b.square(r, c);
/// let cycles = vec![
///     vec![sq(0, 0), sq(1, 2), sq(3, 3), sq(2, 1)],
///     vec![sq(0, 3), sq(2, 2), sq(3, 0), sq(1, 1)],
///     vec![sq(0, 1), sq(2, 0), sq(3, 2), sq(1, 3)],
///     vec![sq(0, 2), sq(1, 0), sq(3, 1), sq(2, 3)],
/// ];
/// let t = Tourney::new(b, cycles)?;
/// assert_eq!(t.len(), 4);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tourney {
    board: Board,
    cycles: Vec<Vec<Square>>,
}

impl Tourney {
    /// A tourney from its cycles, checked by the independent checker.
    pub fn new(board: Board, cycles: Vec<Vec<Square>>) -> Result<Tourney> {
        if let Some(&bad) = cycles
            .iter()
            .flatten()
            .find(|&&s| s as usize >= board.squares())
        {
            return Err(Error::Parse(
                format!(
                    "square index {bad} is outside the {board} board, whose squares are 0..{}",
                    board.squares()
                )
                .into(),
            ));
        }
        let t = Tourney { board, cycles };
        check::check_tourney(&t)?;
        Ok(t)
    }

    /// A tourney from cycles the caller guarantees to be valid.
    pub fn from_cycles_unchecked(board: Board, cycles: Vec<Vec<Square>>) -> Tourney {
        Tourney { board, cycles }
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The cycles, each in knight's order.
    pub fn cycles(&self) -> &[Vec<Square>] {
        &self.cycles
    }

    /// The number of cycles (the paper's "size").
    pub fn len(&self) -> usize {
        self.cycles.len()
    }

    /// Whether there are no cycles (never true for a valid tourney).
    pub fn is_empty(&self) -> bool {
        self.cycles.is_empty()
    }

    /// The cycles, giving up the tourney.
    pub fn into_cycles(self) -> Vec<Vec<Square>> {
        self.cycles
    }
}
