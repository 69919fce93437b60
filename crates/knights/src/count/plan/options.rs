//! [`CountOptions`]: what a count is asked, read once. The count request's
//! plan holds one, the [`Counter`](crate::count::Counter) keeps one behind its
//! builder methods, and the executor borrows it for every run, so that an
//! option is read in one place and no layer copies it into another shape.

use std::path::PathBuf;

use crate::count::{Method, MiddleEdges, SquareOrder};
use crate::Kind;

/// What a count is asked: the kind of tours, the method and order, the
/// memory and disk bounds and the work directory with its checkpoints.
/// Set through the [`Counter`](crate::count::Counter)'s builder methods (whose
/// documents say what each does), or all at once by
/// [`Counter::options`](crate::count::Counter::options).
///
/// # Example
/// ```
/// use knights::count::{CountOptions, Counter, Method};
/// let options = CountOptions { method: Method::Forward, ..CountOptions::default() };
/// assert_eq!(Counter::new("6x6".parse()?).options(options).tours()?.count, 9862);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountOptions {
    /// Closed or open tours (default closed).
    pub kind: Kind,
    /// Forward, meeting in the middle, or chosen for the board (default).
    pub method: Method,
    /// The order of the squares (default by rows).
    pub order: SquareOrder,
    /// Which part of a meet takes which edges between the middle rows of a
    /// board of even rows (default: the top the outer ones).
    pub middle: MiddleEdges,
    /// Keep the states in memory while they need fewer bytes than this
    /// (default: what the system reports as available).
    pub max_memory: Option<u64>,
    /// The most bytes the state files may take on disk (default: 80 % of
    /// the free space on their file system).
    pub max_disk: Option<u64>,
    /// Keep the states in this directory, with a checkpoint every square.
    pub work_dir: Option<PathBuf>,
    /// Continue from the checkpoint in the work directory.
    pub resume: bool,
    /// Discard the checkpoint in the work directory and start afresh.
    pub fresh: bool,
    /// Keep the state files of a finished count in the work directory.
    pub keep: bool,
    /// Never put the states in a temporary directory.
    pub memory_only: bool,
}

/// The options of a run that counts nothing of its own (a default for the
/// executor's tests and internal runs).
pub(crate) static DEFAULT: CountOptions = CountOptions {
    kind: Kind::Closed,
    method: Method::Auto,
    order: SquareOrder::Rows,
    middle: MiddleEdges::Outer,
    max_memory: None,
    max_disk: None,
    work_dir: None,
    resume: false,
    fresh: false,
    keep: false,
    memory_only: false,
};
