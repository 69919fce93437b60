//! The library's error type: each variant says what happened and, where it
//! helps, what would be right. Advice that a caller acts on through an
//! option (a larger budget, another method) is a [`Hint`] that every
//! variant carries as a field ([`Message`] in the tuple variants), so a
//! hinted error still matches its variant; each front end says the hint
//! in its own words (a flag, a query parameter, a keyword argument) with an
//! exhaustive `match`, so a new hint fails to compile until every front end
//! words it. The library's own text names no option.

use std::fmt;

use crate::algorithms::Algorithm;
use crate::check::Fault;
use crate::count::{EstimateMethod, Method};

/// The text of an error and the advice it gives, if any: the payload of
/// [`Error`]'s tuple variants. It dereferences to the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    text: String,
    hint: Option<Hint>,
}

impl Message {
    /// The text, without the hint.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The advice, if any.
    pub fn hint(&self) -> Option<Hint> {
        self.hint
    }
}

impl From<String> for Message {
    fn from(text: String) -> Message {
        Message { text, hint: None }
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::from(text.to_string())
    }
}

impl std::ops::Deref for Message {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

/// The text alone: an [`Error`]'s `Display` adds the hint.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Everything that can go wrong in the library.
///
/// The `Display` text of every variant is one or two plain sentences meant to
/// be shown to a user as it is: the text, then `; ` and the [`Hint`] in
/// plain words when there is one.
///
/// # Example
/// ```
/// use knights::{Budget, Error, Hint};
/// let e = Error::GaveUp("the search found no tour".into()).with_hint(Hint::Raise(Budget::Nodes));
/// assert!(matches!(e, Error::GaveUp(_)));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A board size that could not be read, or is out of range.
    Board(Message),
    /// The request needs more memory than this machine has available.
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
        /// The advice, if any.
        hint: Option<Hint>,
    },
    /// A count whose states would need more disk than its budget or than
    /// the file system has free; a count with a work directory keeps its
    /// checkpoint for resuming once there is room.
    OverDisk {
        /// The square (1-based) the count stopped before.
        square: usize,
        /// The squares of the count's order.
        squares: usize,
        /// Bytes the states would need on disk.
        needed: u64,
        /// Bytes of the states on disk now.
        now: u64,
        /// Bytes expected for the next square.
        next: u64,
        /// The limit it is over, as a phrase ("the disk budget of 1 GiB").
        budget: String,
        /// The advice, if any.
        hint: Option<Hint>,
    },
    /// A count whose states are projected, from the squares counted so
    /// far, to need far more disk than its budget at their peak: it stops
    /// early rather than run for days into a wall.
    OutOfReach {
        /// The squares counted.
        square: usize,
        /// The squares of the count's order.
        squares: usize,
        /// Bytes the states are projected to need at their peak.
        needed: u64,
        /// The square after which the states are projected to peak.
        peak_square: usize,
        /// The limit it is over, as a phrase ("the disk budget of 1 GiB").
        budget: String,
        /// The advice, if any.
        hint: Option<Hint>,
    },
    /// A count past its memory bound or its disk budget in a way the
    /// other variants do not describe (a frontier too large to split into
    /// buckets that fit even on disk, a join's states past the disk); the
    /// text says which limit and by how much.
    OverBudget(Message),
    /// No tour (or tourney) of the requested kind exists; the text gives the theorem.
    NoTour(Message),
    /// A search ran out of its budget (nodes, attempts, restarts) before it
    /// found an answer.
    GaveUp(Message),
    /// The caller stopped the work (a raised stop flag, Ctrl-C).
    Interrupted(Message),
    /// A fault of the library itself, never of the input; reported so that
    /// a front end can answer instead of crashing.
    Internal(Message),
    /// A request that is well formed but not supported by the chosen method.
    Unsupported(Message),
    /// A request refused for its fields: a value out of range, or fields
    /// that do not go together; the text says what would be right.
    Refused(Message),
    /// A count asked to resume where there is no checkpoint of it.
    NoCheckpoint(Message),
    /// Input that could not be read as any supported format.
    Parse(Message),
    /// A cipher key description that gives no tour. The source, kept
    /// whole, says why; its advice is said in its text in plain words, not
    /// as this error's hint, since a key is changed through its own items
    /// (`algorithm=`, `start=`), not through a front end's options.
    BadKey {
        /// The key description, as written.
        key: String,
        /// Why it gives no tour.
        source: Box<Error>,
    },
    /// Input that was read but is not a valid tour or tourney.
    Invalid(Fault),
    /// Reading or writing a file failed (a full disk, a failing device, a
    /// path that cannot be created): a fault of the machine, not of the
    /// request. The source is the system's error.
    Io {
        /// What was being done, as a phrase after "could not" ("write the
        /// checkpoint manifest /tmp/w/manifest.json").
        doing: String,
        /// The system's error.
        source: std::io::Error,
        /// The advice, if any.
        hint: Option<Hint>,
    },
}

impl From<Fault> for Error {
    fn from(fault: Fault) -> Error {
        Error::Invalid(fault)
    }
}

/// The text and then, if there is one, the hint in plain words.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.unhinted())?;
        match self.hint() {
            Some(hint) => write!(f, "; {hint}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::BadKey { source, .. } => Some(source.as_ref()),
            Error::Invalid(fault) => std::error::Error::source(fault),
            _ => None,
        }
    }
}

/// An [`Error`]'s text without its hint ([`Error::unhinted`]).
#[derive(Clone, Copy, Debug)]
pub struct Unhinted<'a>(&'a Error);

impl fmt::Display for Unhinted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::memory::human_bytes as h;
        match self.0 {
            Error::Board(m)
            | Error::OverBudget(m)
            | Error::NoTour(m)
            | Error::GaveUp(m)
            | Error::Interrupted(m)
            | Error::Unsupported(m)
            | Error::Refused(m)
            | Error::NoCheckpoint(m)
            | Error::Parse(m) => write!(f, "{m}"),
            Error::Internal(m) => write!(f, "internal error: {m}; please report it"),
            Error::TooLarge { what, rows, cols, needed, available, .. } => write!(
                f,
                "a {what} on {rows}x{cols} needs about {needed} of memory, but {available}; ask for a smaller board"
            ),
            Error::OverDisk { square, squares, needed, now, next, budget, .. } => write!(
                f,
                "the count stopped before square {square} of {squares}: its states would need about {} on disk ({} now and about {} for the next square), more than {budget}",
                h(*needed),
                h(*now),
                h(*next)
            ),
            Error::OutOfReach { square, squares, needed, peak_square, budget, .. } => write!(
                f,
                "the count stopped after square {square} of {squares}: its states are projected to need at least {} on disk at their peak (after square {peak_square}), more than a thousand times {budget}; a count this large is out of reach here",
                h(*needed)
            ),
            Error::BadKey { key, source } => write!(f, "the key '{key}' gives no tour: {source}"),
            Error::Invalid(fault) => write!(f, "{fault}"),
            Error::Io { doing, source, .. } => {
                write!(f, "could not {doing}: {}", crate::memory::io_phrase(source))
            }
        }
    }
}

/// Advice that an error gives, which a caller follows by setting an option:
/// its `Display` says it in plain words ("allow more search nodes"), and each
/// front end names its own option for it (the command line `--max-nodes N`,
/// the web server `max-nodes=`, Python `max_nodes=`) in an exhaustive
/// `match`; [`Hint::every`] lists every value for their tests.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Hint {
    /// Allow the work a larger budget of this kind.
    #[error("{}", match .0 {
        Budget::Nodes => "allow the search more nodes",
        Budget::Attempts => "allow more attempts",
        Budget::Memory => "allow the count more memory",
        Budget::Disk => "allow the count more disk",
    })]
    Raise(Budget),
    /// Count with this method.
    #[error("use the {} method", .0.name())]
    UseMethod(Method),
    /// Estimate with this method.
    #[error("use the {} method", .0.name())]
    UseEstimateMethod(EstimateMethod),
    /// Use this algorithm, which works on any board (Warnsdorff's rule).
    #[error("use the {} algorithm", .0.name())]
    UseAlgorithm(Algorithm),
    /// Use the options that algorithms take: tie, max-attempts, max-nodes.
    #[error("the options are tie, max-attempts and max-nodes")]
    AlgorithmOptions,
    /// Ask for closed tours (what is asked exists for closed tours only).
    #[error("ask for closed tours")]
    AskClosed,
    /// Ask for a closed tour with only its start square.
    #[error("ask for a closed tour with only the start square")]
    ClosedFromStart,
    /// Encipher or decipher in the classic mode (`true`) or the exact mode
    /// (`false`).
    #[error("{}", if *.0 { "use the classic mode" } else { "use the exact mode, not the classic one" })]
    Classic(bool),
    /// Resume the count from its checkpoint.
    #[error("resume the count to continue it from its checkpoint")]
    Resume,
    /// Resume the count's checkpoint, or start afresh and discard it.
    #[error("resume it, or start afresh to discard it")]
    ResumeOrFresh,
    /// There is no checkpoint: start the count without resuming.
    #[error("start the count without resuming")]
    DontResume,
    /// Start the count afresh, discarding its checkpoint.
    #[error("start the count afresh")]
    StartFresh,
    /// Give the count a work directory on a disk with more room, or more
    /// memory.
    #[error("give the count a work directory on a disk with more room, or more memory")]
    MoreRoom,
    /// The checkpoint is kept: resume once there is room (free space, or
    /// a larger disk budget).
    #[error("its checkpoint is kept: resume it once there is room (free space, or a larger disk budget)")]
    ResumeWithRoom,
    /// An estimate that finished no probe in its time: allow more time, or
    /// ask for a number of samples instead.
    #[error("allow more seconds or give a number of samples")]
    MoreTimeOrSamples,
}

impl Hint {
    /// Use Warnsdorff's rule, which works on any board.
    pub const USE_WARNSDORFF: Hint = Hint::UseAlgorithm(Algorithm::Warnsdorff(
        crate::algorithms::Warnsdorff::DEFAULT,
    ));

    /// Every hint: each variant with every value of its payload (the
    /// algorithms of [`Algorithm::ALL`]), for the front ends' tests that
    /// word each one.
    pub fn every() -> Vec<Hint> {
        // A new variant fails to compile here until it is listed below.
        let listed = |hint: Hint| match hint {
            Hint::Raise(_)
            | Hint::UseMethod(_)
            | Hint::UseEstimateMethod(_)
            | Hint::UseAlgorithm(_)
            | Hint::AlgorithmOptions
            | Hint::AskClosed
            | Hint::ClosedFromStart
            | Hint::Classic(_)
            | Hint::Resume
            | Hint::ResumeOrFresh
            | Hint::DontResume
            | Hint::StartFresh
            | Hint::MoreRoom
            | Hint::ResumeWithRoom
            | Hint::MoreTimeOrSamples => hint,
        };
        let mut every: Vec<Hint> = Budget::ALL.into_iter().map(Hint::Raise).collect();
        every.extend(Method::ALL.into_iter().map(Hint::UseMethod));
        every.extend(EstimateMethod::ALL.into_iter().map(Hint::UseEstimateMethod));
        every.extend(Algorithm::ALL.into_iter().map(Hint::UseAlgorithm));
        every.extend([
            Hint::AlgorithmOptions,
            Hint::AskClosed,
            Hint::ClosedFromStart,
            Hint::Classic(true),
            Hint::Classic(false),
            Hint::Resume,
            Hint::ResumeOrFresh,
            Hint::DontResume,
            Hint::StartFresh,
            Hint::MoreRoom,
            Hint::ResumeWithRoom,
            Hint::MoreTimeOrSamples,
        ]);
        every.into_iter().map(listed).collect()
    }
}

/// A budget that a [`Hint`] asks to raise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// The nodes of an exhaustive search.
    Nodes,
    /// The attempts (walks, restarts, runs) of a randomised search.
    Attempts,
    /// The memory of a count.
    Memory,
    /// The disk of a count.
    Disk,
}

impl Budget {
    /// Every budget.
    pub const ALL: [Budget; 4] = [
        Budget::Nodes,
        Budget::Attempts,
        Budget::Memory,
        Budget::Disk,
    ];
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
    /// Reading or writing a file failed: a fault of the machine (exit
    /// status 74, HTTP 500 or 507 when the disk is full, `OSError`).
    Io,
}

/// The hint field of an error, borrowed as `$borrow` (`&` or `&mut`):
/// the one list of where each variant keeps its hint, for [`Error::hint`]
/// and [`Error::with_hint`].
macro_rules! hint_field {
    ($error:expr, $($borrow:tt)+) => {
        match $error {
            Error::Board(m)
            | Error::OverBudget(m)
            | Error::NoTour(m)
            | Error::GaveUp(m)
            | Error::Interrupted(m)
            | Error::Internal(m)
            | Error::Unsupported(m)
            | Error::Refused(m)
            | Error::NoCheckpoint(m)
            | Error::Parse(m) => Some($($borrow)+ m.hint),
            Error::TooLarge { hint, .. }
            | Error::OverDisk { hint, .. }
            | Error::OutOfReach { hint, .. }
            | Error::Io { hint, .. } => Some(hint),
            Error::BadKey { .. } | Error::Invalid(_) => None,
        }
    };
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
            Error::Board(_)
            | Error::Parse(_)
            | Error::Unsupported(_)
            | Error::Refused(_)
            | Error::NoCheckpoint(_)
            | Error::BadKey { .. } => Category::BadInput,
            Error::NoTour(_) | Error::GaveUp(_) | Error::Invalid(_) => Category::NoAnswer,
            Error::TooLarge { .. }
            | Error::OverDisk { .. }
            | Error::OutOfReach { .. }
            | Error::OverBudget(_) => Category::OverLimit,
            Error::Interrupted(_) => Category::Interrupted,
            Error::Internal(_) => Category::Internal,
            Error::Io { .. } => Category::Io,
        }
    }

    /// This error with advice that a caller follows through an option (in
    /// place of any it had). A checker's verdict ([`Error::Invalid`]) and a
    /// bad key ([`Error::BadKey`]) take no advice and are returned as they
    /// are.
    pub fn with_hint(mut self, hint: Hint) -> Error {
        if let Some(slot) = self.hint_slot() {
            *slot = Some(hint);
        }
        self
    }

    /// Where this error keeps its hint.
    fn hint_slot(&mut self) -> Option<&mut Option<Hint>> {
        hint_field!(self, &mut)
    }

    /// The advice this error gives, if any.
    ///
    /// # Example
    /// ```
    /// use knights::{Budget, Error, Hint};
    /// let e = Error::GaveUp("the search found no tour".into()).with_hint(Hint::Raise(Budget::Nodes));
    /// assert_eq!(e.hint(), Some(Hint::Raise(Budget::Nodes)));
    /// assert_eq!(e.unhinted().to_string(), "the search found no tour");
    /// assert_eq!(e.to_string(), "the search found no tour; allow the search more nodes");
    /// ```
    pub fn hint(&self) -> Option<Hint> {
        hint_field!(self, &).copied().flatten()
    }

    /// The error's text without its hint: what a front end shows before
    /// the hint in its own words.
    pub fn unhinted(&self) -> Unhinted<'_> {
        Unhinted(self)
    }

    /// The error for a failed file operation: `doing` is what was being
    /// done, a phrase after "could not" ("write /tmp/w/manifest.json").
    pub fn io(doing: impl Into<String>, source: std::io::Error) -> Error {
        Error::Io {
            doing: doing.into(),
            source,
            hint: None,
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

#[cfg(test)]
mod tests;
