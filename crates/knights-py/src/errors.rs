//! Library errors as Python exceptions: the one place where
//! [`knights::Error::category`] chooses the exception class, and where the
//! library's command-line words become Python's.

use knights::{Category, Error};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// The exception class for a library error: the one place where
/// [`knights::Error::category`] is mapped to Python (the classes themselves
/// are in `knights/_errors.py`, so that they can also be `ValueError`s).
fn error_class(e: &Error) -> &'static str {
    match e.category() {
        Category::BadInput => "BadInputError",
        Category::NoAnswer => match e {
            Error::NoTour(_) => "NoTourError",
            Error::Invalid(_) => "InvalidTourError",
            _ => "GaveUpError",
        },
        Category::OverLimit => "OverLimitError",
        Category::Interrupted => "StoppedError",
        Category::Internal => "InternalError",
        _ => "KnightsError",
    }
}

/// The command line's words in the library's messages, as a Python caller
/// says them: keyword arguments instead of flags (applied in order).
const PYTHON_WORDS: &[(&str, &str)] = &[
    (
        "the options are tie, max-attempts and max-nodes",
        "the options are tie=, max_attempts= and max_nodes=",
    ),
    ("Allow more with --max-nodes", "Allow more with max_nodes="),
    ("raise --max-nodes", "raise max_nodes="),
    ("(--max-attempts)", "(max_attempts=)"),
    ("more --max-attempts", "more max_attempts="),
    ("another tie-break", "another tie="),
    (
        "--algorithm construct, warnsdorff, backtrack or hybrid",
        "algorithm='construct', 'warnsdorff', 'backtrack' or 'hybrid'",
    ),
    ("--algorithm warnsdorff", "algorithm='warnsdorff'"),
    ("--algorithm hybrid", "algorithm='hybrid'"),
    ("drop --classic", "leave out classic=True"),
    ("without --classic", "with classic=False"),
    ("with --classic", "with classic=True"),
    (
        "(ask --closed with only --start)",
        "(ask kind='closed' with only start=)",
    ),
    ("drop --open", "count kind='closed'"),
    // A count from Python chooses its method and works in the temporary folder.
    ("; use --method forward", ""),
    (" (--max-disk sets the budget)", ""),
    (
        "; give it a --work-dir on a disk with more room, or more --max-memory",
        "; set TMPDIR to a folder on a disk with more room",
    ),
    ("max-attempts", "max_attempts"),
    ("max-nodes", "max_nodes"),
];

/// A library message in Python's words ([`PYTHON_WORDS`]).
fn python_words(message: String) -> String {
    PYTHON_WORDS.iter().fold(message, |m, (cli, py)| {
        if m.contains(cli) {
            m.replace(cli, py)
        } else {
            m
        }
    })
}

/// A library error as the Python exception of its category, with the
/// library's sentences in Python's words as its message.
fn to_pyerr(py: Python<'_>, e: &Error) -> PyErr {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let class = ERRORS
        .get_or_try_init(py, || py.import("knights._errors").map(Bound::unbind))
        .and_then(|m| m.bind(py).getattr(error_class(e)));
    match class {
        Ok(class) => PyErr::from_value(match class.call1((python_words(e.to_string()),)) {
            Ok(exc) => exc,
            Err(err) => return err,
        }),
        Err(err) => err,
    }
}

/// A library result as a Python result.
pub(crate) fn lib<T>(py: Python<'_>, r: knights::Result<T>) -> PyResult<T> {
    r.map_err(|e| to_pyerr(py, &e))
}
