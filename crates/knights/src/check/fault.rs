//! What the checker answers: the verdict on a valid document, or the
//! first fault it found, in one sentence.

use std::fmt;

use crate::Kind;

/// A square as (row, column), signed so that off-board input can be reported.
pub type Coord = (i64, i64);

/// What a valid document turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A tour of the given kind.
    Tour {
        /// Rows of the board.
        rows: u32,
        /// Columns of the board.
        cols: u32,
        /// Closed or open.
        kind: Kind,
    },
    /// A tourney (cycle cover) with the given number of cycles.
    Tourney {
        /// Rows of the board.
        rows: u32,
        /// Columns of the board.
        cols: u32,
        /// Number of cycles.
        cycles: usize,
    },
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Tour { rows, cols, kind } => {
                let k = if *kind == Kind::Closed {
                    "closed"
                } else {
                    "open"
                };
                write!(f, "{k} tour on {rows}x{cols}")
            }
            Verdict::Tourney { rows, cols, cycles } => {
                let s = if *cycles == 1 { "" } else { "s" };
                write!(f, "tourney of {cycles} cycle{s} on {rows}x{cols}")
            }
        }
    }
}

/// The first fault found in a tour or tourney.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Fault {
    /// Nothing to check.
    #[error("the {0} lists no squares")]
    Empty(&'static str),
    /// A square of the path that is a hole of the board.
    #[error("step {step} is at ({}, {}), which is a hole of the board", .at.0, .at.1)]
    OnHole {
        /// Step number (0-based) of the offending square.
        step: usize,
        /// Where it is.
        at: Coord,
    },
    /// A square outside the board.
    #[error("step {step} is at ({}, {}), which is off the {rows}x{cols} board", .at.0, .at.1)]
    OffBoard {
        /// Step number (0-based) of the offending square.
        step: usize,
        /// Where it is.
        at: Coord,
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
    /// A square visited twice.
    #[error("square ({}, {}) is visited twice, at steps {first} and {second}", .at.0, .at.1)]
    Repeated {
        /// The square.
        at: Coord,
        /// Its first step number.
        first: usize,
        /// Its second step number.
        second: usize,
    },
    /// Two consecutive squares that are not a knight's move apart.
    #[error("the step from ({}, {}) to ({}, {}) at step {step} is not a knight's move", .from.0, .from.1, .to.0, .to.1)]
    NotKnightMove {
        /// Step number of the second square.
        step: usize,
        /// First square.
        from: Coord,
        /// Second square.
        to: Coord,
    },
    /// Squares never visited.
    #[error("{count} square{} of the {rows}x{cols} board {} never visited, the first being ({}, {})", if *.count == 1 { "" } else { "s" }, if *.count == 1 { "is" } else { "are" }, .first.0, .first.1)]
    Missing {
        /// How many.
        count: usize,
        /// The first in row-major order.
        first: Coord,
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
    /// The document says closed, but the ends are not a knight's move apart.
    #[error("the tour is marked closed, but its last square ({}, {}) is not a knight's move from its first ({}, {})", .last.0, .last.1, .first.0, .first.1)]
    NotClosed {
        /// First square.
        first: Coord,
        /// Last square.
        last: Coord,
    },
    /// The document says open, but the ends are a knight's move apart.
    #[error("the tour is marked open, but its last square ({}, {}) is a knight's move from its first ({}, {}), so it is closed", .last.0, .last.1, .first.0, .first.1)]
    NotOpen {
        /// First square.
        first: Coord,
        /// Last square.
        last: Coord,
    },
    /// A cycle of a tourney that does not close.
    #[error("cycle {cycle} does not close: its last square ({}, {}) is not a knight's move from its first ({}, {})", .last.0, .last.1, .first.0, .first.1)]
    CycleOpen {
        /// Cycle index (0-based).
        cycle: usize,
        /// First square.
        first: Coord,
        /// Last square.
        last: Coord,
    },
    /// A cycle with fewer than three squares.
    #[error("cycle {cycle} has {len} square{}; a cycle needs at least 4", if *.len == 1 { "" } else { "s" })]
    CycleTooShort {
        /// Cycle index (0-based).
        cycle: usize,
        /// Its length.
        len: usize,
    },
    /// A number in a grid outside the range of steps.
    #[error("the number {number} at ({}, {}) is outside the steps {lo}..={hi} of a {rows}x{cols} board", .at.0, .at.1)]
    GridNumber {
        /// The number as written.
        number: u64,
        /// Where.
        at: Coord,
        /// Smallest allowed.
        lo: u64,
        /// Largest allowed.
        hi: u64,
        /// Board rows.
        rows: u32,
        /// Board columns.
        cols: u32,
    },
    /// A step number written on two squares of a grid.
    #[error("step {number} is written twice, at ({}, {}) and ({}, {})", .first.0, .first.1, .second.0, .second.1)]
    GridDuplicate {
        /// The number as written.
        number: u64,
        /// First square with it.
        first: Coord,
        /// Second square with it.
        second: Coord,
    },
    /// A square of a cover with a number of links other than two.
    #[error("square ({}, {}) has {degree} chosen move{} where a cycle cover needs exactly 2", .at.0, .at.1, if *.degree == 1 { "" } else { "s" })]
    CoverDegree {
        /// The square.
        at: Coord,
        /// Its number of chosen moves.
        degree: u32,
    },
    /// A chosen move whose other end does not choose it back, or leaves the board.
    #[error("square ({}, {}) chooses move {mv}, which {}", .at.0, .at.1, if *.off_board { "leaves the board" } else { "its destination does not choose back" })]
    CoverAsymmetric {
        /// The square.
        at: Coord,
        /// The move.
        mv: u8,
        /// Whether the move leaves the board.
        off_board: bool,
    },
}
