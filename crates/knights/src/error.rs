//! The library's error type: each variant says what was wrong and, where it
//! helps, what would be right. Advice that a caller acts on through an
//! option (a larger budget, another method) is a [`Hint`], so that each
//! front end can name the option in its own words (a flag, a query
//! parameter, a keyword argument); the library's own text names none.

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
    /// A count whose states would need more disk than its budget or than
    /// the file system has free; a count with a work directory keeps its
    /// checkpoint for resuming once there is room.
    #[error(
        "the count stopped before square {square} of {squares}: its states would need about {} on disk ({} now and about {} for the next square), more than {budget}",
        crate::memory::human_bytes(*needed),
        crate::memory::human_bytes(*now),
        crate::memory::human_bytes(*next)
    )]
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
    },
    /// A count whose states are projected, from the squares counted so
    /// far, to need far more disk than its budget at their peak: it stops
    /// early rather than run for days into a wall.
    #[error(
        "the count stopped after square {square} of {squares}: its states are projected to need at least {} on disk at their peak (after square {peak_square}), more than a thousand times {budget}; a count this large is out of reach here",
        crate::memory::human_bytes(*needed)
    )]
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
    },
    /// A count past its memory bound or its disk budget in a way the
    /// other variants do not describe (a frontier too large to split into
    /// buckets that fit even on disk, a join's states past the disk); the
    /// text says which limit and by how much.
    #[error("{0}")]
    OverBudget(String),
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
    /// Reading or writing a file failed (a full disk, a failing device, a
    /// path that cannot be created): a fault of the machine, not of the
    /// request. The source is the system's error.
    #[error("could not {doing}: {}", crate::memory::io_phrase(source))]
    Io {
        /// What was being done, as a phrase after "could not" ("write the
        /// checkpoint manifest /tmp/w/manifest.json").
        doing: String,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// An error with advice a caller follows through an option; the text
    /// says the advice in plain words, and a front end shows
    /// [`Error::unhinted`] followed by the hint in its own words.
    #[error("{error}; {hint}")]
    Hinted {
        /// The error itself.
        error: Box<Error>,
        /// What would help.
        hint: Hint,
    },
}

/// Advice that an error gives, which a caller follows by setting an option:
/// its `Display` says it in plain words ("allow more search nodes"), and each
/// front end names its own option for it (the command line `--max-nodes N`,
/// the web server `max-nodes=`, Python `max_nodes=`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Hint {
    /// Allow the work a larger budget of this kind.
    #[error("{}", match .0 {
        Budget::Nodes => "allow the search more nodes",
        Budget::Attempts => "allow more attempts",
        Budget::Memory => "allow the count more memory",
        Budget::Disk => "allow the count more disk",
    })]
    Raise(Budget),
    /// Use this method of counting or estimating (as its name is spelt,
    /// "forward", "sis").
    #[error("use the {0} method")]
    UseMethod(&'static str),
    /// Use this algorithm, which works on any board ("warnsdorff").
    #[error("use the {0} algorithm")]
    UseAlgorithm(&'static str),
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

/// A budget that a [`Hint`] asks to raise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
            Error::TooLarge { .. }
            | Error::OverDisk { .. }
            | Error::OutOfReach { .. }
            | Error::OverBudget(_) => Category::OverLimit,
            Error::Interrupted(_) => Category::Interrupted,
            Error::Internal(_) => Category::Internal,
            Error::Io { .. } => Category::Io,
            Error::Hinted { error, .. } => error.category(),
        }
    }

    /// This error with advice that a caller follows through an option.
    pub fn with_hint(self, hint: Hint) -> Error {
        Error::Hinted {
            error: Box::new(self),
            hint,
        }
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
        match self {
            Error::Hinted { hint, .. } => Some(*hint),
            _ => None,
        }
    }

    /// The error without its hint: what a front end shows before the hint
    /// in its own words.
    pub fn unhinted(&self) -> &Error {
        match self {
            Error::Hinted { error, .. } => error.unhinted(),
            e => e,
        }
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
mod tests {
    use super::*;

    /// The lines of `text` outside comments and before its test module.
    fn code_lines(text: &str) -> impl Iterator<Item = &str> {
        text.lines()
            .take_while(|line| line.trim() != "#[cfg(test)]")
            .filter(|line| !line.trim_start().starts_with("//"))
    }

    /// Whether `line` has a string literal holding a flag ("--max-nodes"):
    /// a `--` and a letter after an odd number of quotes.
    fn names_a_flag(line: &str) -> bool {
        line.match_indices("--").any(|(at, _)| {
            let in_string = line[..at].matches('"').count() % 2 == 1;
            let letter = line[at + 2..].starts_with(|c: char| c.is_ascii_lowercase());
            in_string && letter
        })
    }

    fn rust_files(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, files);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
                files.push(path);
            }
        }
    }

    /// No message of the library names a command-line flag: advice is a
    /// [`Hint`] that each front end says in its own words.
    #[test]
    fn no_library_string_names_a_flag() {
        let mut files = Vec::new();
        rust_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        assert!(files.len() > 20, "{files:?}");
        let mut flags = Vec::new();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in code_lines(&text).filter(|l| names_a_flag(l)) {
                flags.push(format!("{}: {}", path.display(), line.trim()));
            }
        }
        assert!(flags.is_empty(), "{flags:#?}");
        assert!(names_a_flag(r#"    "raise --max-nodes","#));
        assert!(!names_a_flag("    x -= 1; // --max-nodes"));
    }

    /// Errors that advise something carry it as a hint, and their text
    /// says it in plain words.
    #[test]
    fn advice_is_a_hint_in_plain_words() {
        let gave_up = crate::count::Counter::new("6x6".parse().unwrap())
            .max_memory(1000)
            .tours()
            .unwrap_err();
        assert_eq!(gave_up.hint(), Some(Hint::Raise(Budget::Memory)));
        assert!(matches!(gave_up, Error::OverBudget(_)));
        assert_eq!(gave_up.category(), Category::OverLimit);
        let text = gave_up.to_string();
        assert!(text.ends_with("; allow the count more memory"), "{text}");

        let over = Error::OverDisk {
            square: 3,
            squares: 36,
            needed: 3 << 30,
            now: 1 << 30,
            next: 2 << 30,
            budget: "the disk budget of 2.0 GiB".into(),
            hint: None,
        }
        .with_hint(Hint::ResumeWithRoom);
        assert_eq!(over.category(), Category::OverLimit);
        let text = over.to_string();
        assert!(
            text.starts_with("the count stopped before square 3 of 36"),
            "{text}"
        );
        assert!(text.contains("resume it once there is room"), "{text}");
        assert!(!text.contains("--"), "{text}");

        let far = Error::OutOfReach {
            square: 24,
            squares: 144,
            needed: 3 << 50,
            peak_square: 125,
            budget: "the disk budget of 2.0 GiB".into(),
            hint: None,
        };
        assert_eq!(far.category(), Category::OverLimit);
        assert_eq!(
            far.to_string(),
            "the count stopped after square 24 of 144: its states are projected to need at least 3.0 PiB on disk at their peak (after square 125), more than a thousand times the disk budget of 2.0 GiB; a count this large is out of reach here"
        );
    }

    /// A failed file operation is its own category and keeps the system's
    /// error as its source, without the error number in its text.
    #[test]
    fn io_errors_keep_their_source() {
        use std::error::Error as _;
        let e = Error::io(
            "write /x/checkpoint.json",
            std::io::Error::from_raw_os_error(28),
        );
        assert_eq!(e.category(), Category::Io);
        assert!(e.source().is_some());
        let text = e.to_string();
        assert!(
            text.starts_with("could not write /x/checkpoint.json: "),
            "{text}"
        );
        assert!(!text.contains("os error"), "{text}");
    }
}
