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
    /// No tour (or tourney) of the requested kind exists; the text gives the theorem.
    #[error("{0}")]
    NoTour(String),
    /// A search stopped before it found an answer (budget, restarts or interruption).
    #[error("{0}")]
    GaveUp(String),
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

impl Error {
    /// Whether the error is about the input or usage (exit status 2) rather
    /// than a valid request without an answer (exit status 1).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::Board(_) | Error::Parse(_) | Error::TooLarge { .. } | Error::Unsupported(_)
        )
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
