//! The oracle's answers: a completion, a reason that is a proof, or
//! unknown.

use std::fmt;

use serde::Serialize;

use crate::board::Square;
use crate::{Board, Kind};

/// A square named by its row and column, as messages name squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct At {
    /// The row, from 0 at the top.
    pub row: u32,
    /// The column, from 0 at the left.
    pub col: u32,
}

impl At {
    /// Square `s` of `board`.
    pub fn of(board: Board, s: Square) -> At {
        let (row, col) = board.coords(s);
        At { row, col }
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// Why a position cannot be finished: each a proof, said in one sentence
/// that names the squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A theorem (or the construction's own proof) says no tour of the
    /// goal exists here; the sentence gives it.
    NoTour(String),
    /// The knight has no unvisited square to move to.
    Stuck {
        /// The knight's square.
        at: At,
        /// Unvisited squares.
        left: usize,
    },
    /// An unvisited square that no unvisited square, nor the knight's, is
    /// a move from.
    Unreachable {
        /// The square.
        square: At,
    },
    /// An unvisited square that only the knight's square can enter and
    /// that has no way on, while other squares are left.
    Trapped {
        /// The square.
        square: At,
        /// Unvisited squares.
        left: usize,
    },
    /// The unvisited squares fall into parts a path cannot all reach.
    Split {
        /// An unvisited square the path cannot reach.
        square: At,
        /// The knight's square, if the path has one.
        from: Option<At>,
    },
    /// Two unvisited squares each have one way in left, so each would have
    /// to be the last square.
    DeadEnds {
        /// The first dead end.
        first: At,
        /// The second.
        second: At,
    },
    /// A dead end (the tour must end there) that is not the end square.
    DeadEndNotEnd {
        /// The dead end.
        square: At,
        /// The end square asked for.
        end: At,
    },
    /// A dead end (the tour must end there) that is not next to the start,
    /// so a closed tour cannot end there.
    DeadEndNotClosing {
        /// The dead end.
        square: At,
        /// The start of the path.
        start: At,
    },
    /// A square with one move, where a closed tour must enter and leave
    /// every square.
    OneMove {
        /// The square.
        square: At,
    },
    /// The unvisited squares' colours cannot alternate along one path.
    Colours {
        /// The knight's square, if the path has one.
        at: Option<At>,
        /// Unvisited squares of the knight's colour (of the first colour
        /// for the empty path).
        same: usize,
        /// Unvisited squares of the other colour.
        other: usize,
    },
    /// Colours alternate, so the path ends on a colour that cannot be the
    /// last square's.
    WrongColourEnd {
        /// The knight's square.
        at: At,
        /// Unvisited squares.
        left: usize,
        /// The end square, or the start for a closed tour.
        target: At,
        /// Whether the target is the start of a closed tour.
        closing: bool,
    },
    /// No unvisited square next to the start is left to close on.
    ClosingCutOff {
        /// The start.
        start: At,
    },
    /// The end square is on the path before the path is finished.
    EndTaken {
        /// The end square.
        end: At,
    },
    /// A closed tour was asked for with an end square not next to the start.
    EndNotClosing {
        /// The end square.
        end: At,
        /// The start.
        start: At,
    },
    /// The path covers every square but is not the kind wanted.
    WrongKind {
        /// What it is.
        found: Kind,
        /// What was wanted.
        wanted: Kind,
    },
    /// The path covers every square but ends elsewhere than asked.
    WrongEnd {
        /// Its last square.
        last: At,
        /// The end square asked for.
        end: At,
    },
    /// An exhaustive search found no completion.
    Searched {
        /// Positions searched.
        nodes: u64,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NoTour(s) => f.write_str(s),
            Reason::Stuck { at, left } => write!(f, "the knight on {at} has no unvisited square to move to, and {left} squares are left"),
            Reason::Unreachable { square } => write!(f, "nothing can still enter {square}: no unvisited square, nor the knight's, is a move from it"),
            Reason::Trapped { square, left } => write!(f, "{square} can only be entered from the knight's square and has no way on, so it would have to be the last square, but {left} squares are left"),
            Reason::Split { square, from: Some(from) } => write!(f, "the unvisited squares fall into parts that a path from the knight on {from} cannot all reach: {square} is cut off from the part it would enter first"),
            Reason::Split { square, from: None } => write!(f, "the squares fall into parts: {square} cannot be reached from the others"),
            Reason::DeadEnds { first, second } => write!(f, "{first} and {second} each have only one way in left, so each would have to be the last square, and a tour has only one"),
            Reason::DeadEndNotEnd { square, end } => write!(f, "{square} has only one way in left, so the tour would have to end there, but it must end on {end}"),
            Reason::DeadEndNotClosing { square, start } => write!(f, "{square} has only one way in left, so the tour would have to end there, but it is not a move from the start {start}, so the tour could not close"),
            Reason::OneMove { square } => write!(f, "{square} has only one move, and a closed tour must enter and leave every square by two"),
            Reason::Colours { at: Some(at), same, other } => write!(f, "a path from the knight on {at} alternates colours, so it cannot cover the unvisited squares, {same} of the knight's colour and {other} of the other"),
            Reason::Colours { at: None, same, other } => write!(f, "a tour alternates colours, so it cannot cover {same} squares of one colour and {other} of the other"),
            Reason::WrongColourEnd { at, left, target, closing: true } => write!(f, "a path from the knight on {at} through the {left} unvisited squares alternates colours and ends on the colour of the start {target}, so it cannot close"),
            Reason::WrongColourEnd { at, left, target, closing: false } => write!(f, "a path from the knight on {at} through the {left} unvisited squares alternates colours and cannot end on the colour of the end square {target}"),
            Reason::ClosingCutOff { start } => write!(f, "every square a move from the start {start} is visited, so the tour cannot close"),
            Reason::EndTaken { end } => write!(f, "the end square {end} is already on the path, and squares are left"),
            Reason::EndNotClosing { end, start } => write!(f, "a closed tour must end a move from its start {start}, and the end square {end} is not"),
            Reason::WrongKind { found, wanted } => write!(f, "the path covers every square but is {found}, not {wanted}"),
            Reason::WrongEnd { last, end } => write!(f, "the path covers every square but ends on {last}, not on the end square {end}"),
            Reason::Searched { nodes } => write!(f, "an exhaustive search of {nodes} positions found no way to finish"),
        }
    }
}

impl Reason {
    /// A short name of the kind of reason, for answers: `no-tour`, `stuck`,
    /// `unreachable`, `trapped`, `split`, `dead-ends`, `colours`,
    /// `closing-cut-off`, `end`, `finished` or `searched`.
    pub fn kind(&self) -> &'static str {
        match self {
            Reason::NoTour(_) => "no-tour",
            Reason::Stuck { .. } => "stuck",
            Reason::Unreachable { .. } => "unreachable",
            Reason::Trapped { .. } => "trapped",
            Reason::Split { .. } => "split",
            Reason::DeadEnds { .. }
            | Reason::DeadEndNotEnd { .. }
            | Reason::DeadEndNotClosing { .. }
            | Reason::OneMove { .. } => "dead-ends",
            Reason::Colours { .. } | Reason::WrongColourEnd { .. } => "colours",
            Reason::ClosingCutOff { .. } => "closing-cut-off",
            Reason::EndTaken { .. } | Reason::EndNotClosing { .. } => "end",
            Reason::WrongKind { .. } | Reason::WrongEnd { .. } => "finished",
            Reason::Searched { .. } => "searched",
        }
    }
}

/// The oracle's answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outlook {
    /// The path can be finished: the squares that finish it, in order.
    Finishable(Vec<Square>),
    /// It cannot, and why.
    NotFinishable(Reason),
    /// The node budget ran out first.
    Unknown,
}

impl Outlook {
    /// `finishable`, `not-finishable` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            Outlook::Finishable(_) => "finishable",
            Outlook::NotFinishable(_) => "not-finishable",
            Outlook::Unknown => "unknown",
        }
    }
}
