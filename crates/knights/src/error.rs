//! The library's error type: each variant says what was wrong and, where it
//! helps, what would be right.

use crate::check::Fault;

/// Everything that can go wrong in the library.
///
/// The `Display` text of every variant is one or two plain sentences meant to
/// be shown to a user as it is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A board size that could not be read, or is out of range.
    #[error("{0}")]
    Board(String),
    /// The request needs more memory than this machine has available.
    #[error(
        "a {what} on {rows}x{cols} needs about {needed} of memory, but {available}; ask for a smaller board"
    )]
    TooLarge {
        /// What was being built.
        what: &'static str,
        /// Rows of the board.
        rows: u32,
        /// Columns of the board.
        cols: u32,
        /// Human-readable amount needed.
        needed: String,
        /// What is available, as a phrase ("only 7.5 GiB is available").
        available: String,
    },
    /// A count whose states would need more disk than its budget
    /// (`--max-disk`) or than the file system has free; the text names
    /// what it would need, and a count with a work directory keeps its
    /// checkpoint for resuming once there is room.
    #[error("{0}")]
    OverDisk(String),
    /// No tour (or tourney) of the requested kind exists; the text gives the theorem.
    #[error("{0}")]
    NoTour(String),
    /// A search ran out of its budget (nodes, attempts, restarts) before it
    /// found an answer.
    #[error("{0}")]
    GaveUp(String),
    /// The caller stopped the work (a raised stop flag, Ctrl-C).
    #[error("{0}")]
    Interrupted(String),
    /// A fault of the library itself, never of the input; reported so that
    /// a front end can answer instead of crashing.
    #[error("internal error: {0}; please report it")]
    Internal(String),
    /// A request that is well formed but not supported by the chosen method.
    #[error("{0}")]
    Unsupported(String),
    /// Input that could not be read as any supported format.
    #[error("{0}")]
    Parse(String),
    /// Input that was read but is not a valid tour or tourney.
    #[error(transparent)]
    Invalid(#[from] Fault),
}

/// What kind of failure an [`Error`] is, for the front ends to report in
/// one place: the command line maps it to an exit status, the web server to
/// an HTTP status, the Python package to an exception class.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// The input or the request is malformed: a bad board, file, option or
    /// combination of options (exit status 2, HTTP 400, `ValueError`).
    BadInput,
    /// A valid request with no answer: no tour of that kind exists, the file
    /// is not a valid tour, or a search ran out of its budget (exit status 1,
    /// HTTP 422).
    NoAnswer,
    /// The request is over a limit of this machine: memory or disk (exit
    /// status 2, HTTP 413).
    OverLimit,
    /// The caller stopped the work (exit status 130, HTTP 503).
    Interrupted,
    /// A fault of the library (exit status 70, HTTP 500).
    Internal,
}

impl Error {
    /// The error's category.
    ///
    /// # Example
    /// ```
    /// use knights::{Board, Category, Tour};
    /// let e = "0x0".parse::<Board>().unwrap_err();
    /// assert_eq!(e.category(), Category::BadInput);
    /// let e = Tour::builder("4x4".parse()?).build().unwrap_err();
    /// assert_eq!(e.category(), Category::NoAnswer);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn category(&self) -> Category {
        match self {
            Error::Board(_) | Error::Parse(_) | Error::Unsupported(_) => Category::BadInput,
            Error::NoTour(_) | Error::GaveUp(_) | Error::Invalid(_) => Category::NoAnswer,
            Error::TooLarge { .. } | Error::OverDisk(_) => Category::OverLimit,
            Error::Interrupted(_) => Category::Interrupted,
            Error::Internal(_) => Category::Internal,
        }
    }
}

/// At most the first 60 characters of `text` (trimmed), with "..." when
/// cut: how errors quote bad input, so a huge input never fills the terminal.
///
/// # Example
/// ```
/// assert_eq!(knights::excerpt(" 8x8 "), "8x8");
/// assert_eq!(knights::excerpt(&"9".repeat(100)).len(), 63);
/// ```
pub fn excerpt(text: &str) -> String {
    const MAX: usize = 60;
    let t = text.trim();
    match t.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &t[..cut]),
        None => t.to_string(),
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
