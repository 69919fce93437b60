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
/// or, where the package chooses for the caller (a count's method, memory
/// and files), as what to do in Python.
fn hint_in_keywords(hint: Hint) -> String {
    match hint {
        Hint::Raise(Budget::Nodes) => "allow more with max_nodes=".into(),
        Hint::Raise(Budget::Attempts) => "allow more with max_attempts=".into(),
        Hint::Raise(Budget::Memory) => {
            "the package counts within this machine's memory; free some, or count a smaller board".into()
        }
        Hint::Raise(Budget::Disk) => {
            "the package counts within the free space of TMPDIR; set TMPDIR to a folder on a disk with more room".into()
        }
        Hint::AlgorithmOptions => "the options are tie=, max_attempts= and max_nodes=".into(),
        Hint::UseAlgorithm(algorithm) => format!("use algorithm='{}'", algorithm.name()),
        Hint::UseMethod(method) => format!(
            "the package chooses a count's method; the {} method is the command line's (knights count --method {})",
            method.name(),
            method.name()
        ),
        Hint::UseEstimateMethod(method) => format!("use method='{}'", method.name()),
        Hint::AskClosed => "count kind='closed'".into(),
        Hint::ClosedFromStart => "ask kind='closed' with only start=".into(),
        Hint::Classic(true) => "decrypt it with classic=True".into(),
        Hint::Classic(false) => "leave out classic=True".into(),
        Hint::Resume
        | Hint::ResumeOrFresh
        | Hint::DontResume
        | Hint::StartFresh
        | Hint::ResumeWithRoom => {
            "the package keeps no checkpoint of a count; call it again to count afresh".into()
        }
        Hint::MoreRoom => "set TMPDIR to a folder on a disk with more room".into(),
        Hint::MoreTimeOrSamples => "allow more seconds=, or give samples=N".into(),
    }
}

/// A library error's message in Python's words: its sentence, then its
/// hint as a keyword argument ([`hint_in_keywords`]).
fn in_python_words(e: &Error) -> String {
    match e.hint() {
        Some(hint) => format!("{}; {}", e.unhinted(), hint_in_keywords(hint)),
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

/// Every hint of the library as `(the library's words, Python's words)`,
/// for the package's test that Python words each one in its own way.
#[pyfunction]
pub(crate) fn hint_words() -> Vec<(String, String)> {
    Hint::every()
        .into_iter()
        .map(|hint| (hint.to_string(), hint_in_keywords(hint)))
        .collect()
}
