//! Library errors as Python exceptions: the one place where
//! [`knights::Error::category`] chooses the exception class, and where the
//! library's command-line words become Python's.

use knights::{Budget, Category, Error, Hint};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// The exception class for a library error: the one place where
/// [`knights::Error::category`] is mapped to Python (the classes themselves
/// are in `knights/_errors.py`, so that they can also be `ValueError`s or
/// `OSError`s).
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
        Category::Io => "FileError",
        _ => "KnightsError",
    }
}

/// Python's table of hints: each as the keyword argument that follows it,
/// or nothing where Python leaves the choice to the package (a count's
/// method and its files).
fn hint_in_keywords(hint: Hint) -> Option<String> {
    Some(match hint {
        Hint::Raise(Budget::Nodes) => "allow more with max_nodes=".into(),
        Hint::Raise(Budget::Attempts) => "allow more with max_attempts=".into(),
        Hint::AlgorithmOptions => "the options are tie=, max_attempts= and max_nodes=".into(),
        Hint::UseAlgorithm(algorithm) => format!("use algorithm='{algorithm}'"),
        Hint::AskClosed => "count kind='closed'".into(),
        Hint::ClosedFromStart => "ask kind='closed' with only start=".into(),
        Hint::Classic(true) => "decrypt it with classic=True".into(),
        Hint::Classic(false) => "leave out classic=True".into(),
        Hint::MoreRoom => "set TMPDIR to a folder on a disk with more room".into(),
        Hint::UseMethod(_)
        | Hint::Resume
        | Hint::ResumeOrFresh
        | Hint::DontResume
        | Hint::StartFresh
        | Hint::ResumeWithRoom => return None,
        other => other.to_string(),
    })
}

/// A library error's message in Python's words: its sentence, then its
/// hint as a keyword argument ([`hint_in_keywords`]).
fn in_python_words(e: &Error) -> String {
    match e.hint().map(hint_in_keywords) {
        Some(Some(words)) => format!("{}; {words}", e.unhinted()),
        Some(None) => e.unhinted().to_string(),
        None => e.to_string(),
    }
}

/// A library error as the Python exception of its category, with the
/// library's sentences in Python's words as its message; an I/O error
/// carries the system's error number as `errno`, as `OSError`s do.
fn to_pyerr(py: Python<'_>, e: &Error) -> PyErr {
    let exception = exception(py, error_class(e), in_python_words(e)).and_then(|exc| {
        if let Error::Io { source, .. } = e {
            exc.setattr("errno", source.raw_os_error())?;
        }
        Ok(exc)
    });
    match exception {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// The exception `class` of `knights._errors` with `message`.
fn exception<'py>(py: Python<'py>, class: &str, message: String) -> PyResult<Bound<'py, PyAny>> {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    ERRORS
        .get_or_try_init(py, || py.import("knights._errors").map(Bound::unbind))?
        .bind(py)
        .getattr(class)?
        .call1((message,))
}

/// The checker's verdict on what is no valid tour or tourney (the library's
/// [`knights::request::CheckAnswer`]) as Python's `InvalidTourError`, the
/// exception of the library's error for the same fault.
pub(crate) fn invalid(py: Python<'_>, verdict: String) -> PyErr {
    match exception(py, "InvalidTourError", verdict) {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// A library result as a Python result.
pub(crate) fn lib<T>(py: Python<'_>, r: knights::Result<T>) -> PyResult<T> {
    r.map_err(|e| to_pyerr(py, &e))
}
