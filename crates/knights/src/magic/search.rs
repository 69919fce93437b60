//! The search for semimagic tours of n x n boards (foundation: the types
//! and signatures; the engine replaces the bodies).

use std::path::PathBuf;

use super::LineSums;
use crate::{Control, Error, Result, Square, Tour, Wanted};

/// The largest side the search takes.
pub const MAX_SIDE: u32 = 16;

/// A search for semimagic tours of the `side` x `side` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MagicSearch {
    /// The side of the square board.
    pub side: u32,
    /// Closed, open or either.
    pub kind: Wanted,
    /// The square numbered 1, if given.
    pub start: Option<Square>,
    /// A partial path to extend: its squares are numbered 1, 2, ...
    pub prefix: Vec<Square>,
    /// The seed: the order of the choices.
    pub seed: u64,
    /// The node budget (`None`: unbounded, stopped by the control only).
    pub max_nodes: Option<u64>,
    /// Stop after this many tours (`None`: go on to the budget).
    pub limit: Option<u64>,
}

impl MagicSearch {
    /// A search of the `side` x `side` board, every default.
    pub fn new(side: u32) -> MagicSearch {
        MagicSearch {
            side,
            kind: Wanted::Either,
            start: None,
            prefix: Vec::new(),
            seed: 0,
            max_nodes: None,
            limit: Some(1),
        }
    }
}

/// A semimagic tour found, checked by the one checker and by its sums.
#[derive(Clone, Debug)]
pub struct Found {
    /// The tour.
    pub tour: Tour,
    /// Its line sums.
    pub sums: LineSums,
    /// The nodes searched when it was found.
    pub nodes: u64,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// Tours found.
    pub found: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the whole space of the search was searched.
    pub complete: bool,
}

impl MagicSearch {
    /// Runs the search, giving each tour to `on_found` as it is found.
    pub fn run(
        &self,
        _control: &Control,
        _on_found: &mut dyn FnMut(&Found) -> Result<()>,
    ) -> Result<SearchReport> {
        Err(Error::GaveUp("the magic search is not built yet".into()))
    }
}

/// The exhaustive enumeration of semimagic tours, in ranges, with a
/// checkpoint to resume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// The side of the square board.
    pub side: u32,
    /// Closed, open or either.
    pub kind: Wanted,
    /// The checkpoint file: read to resume, rewritten after each range.
    pub checkpoint: Option<PathBuf>,
    /// The node budget of this run.
    pub max_nodes: Option<u64>,
}

/// How far an enumeration has come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumerationReport {
    /// Ranges finished, this run and the runs before it.
    pub ranges_done: u64,
    /// Ranges in all.
    pub ranges: u64,
    /// Semimagic tours found (start in the board's fundamental region).
    pub tours: u64,
    /// Their classes up to the 16 symmetries.
    pub classes: u64,
    /// Nodes searched, this run and the runs before it.
    pub nodes: u64,
    /// Whether every range is finished.
    pub complete: bool,
}

impl Enumeration {
    /// Runs (or resumes) the enumeration, giving each new tour to
    /// `on_found`.
    pub fn run(
        &self,
        _control: &Control,
        _on_found: &mut dyn FnMut(&Found) -> Result<()>,
    ) -> Result<EnumerationReport> {
        Err(Error::GaveUp(
            "the magic enumeration is not built yet".into(),
        ))
    }
}
