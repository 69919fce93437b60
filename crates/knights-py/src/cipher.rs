//! The knight's-tour cipher, run as the library's [`EncryptRequest`] and
//! [`DecryptRequest`] jobs: the key is a tour (its plan holds the tour
//! itself) or a key description such as `"8x8,seed=5"`, whose tour the
//! library makes.

use crate::classes::PyTour;
use crate::run::{run_watched, Watch};
use knights::cipher::Key;
use knights::request::{CipherPlan, CipherRequest, DecryptRequest, EncryptRequest, JobRequest};
use knights::{Control, Tour};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A key argument: a tour, or a description (or a tour file's text).
enum KeyArg {
    Tour(Tour),
    Text(String),
}

impl KeyArg {
    /// The key argument `key`, or a `TypeError`.
    fn of(key: &Bound<'_, PyAny>) -> PyResult<KeyArg> {
        if let Ok(t) = key.cast::<PyTour>() {
            return Ok(KeyArg::Tour(t.get().tour.clone()));
        }
        if let Ok(s) = key.cast::<PyString>() {
            return Ok(KeyArg::Text(s.to_cow()?.into_owned()));
        }
        Err(PyTypeError::new_err(
            "a key is a knights.Tour or a key description such as '8x8,seed=5'",
        ))
    }

    /// The plan of enciphering or deciphering `text` under the key.
    fn plan(self, text: String, classic: bool) -> knights::Result<CipherPlan> {
        match self {
            KeyArg::Tour(tour) => Ok(CipherPlan::of_key(Key::new(tour)?, text, classic)),
            KeyArg::Text(key) => CipherRequest { key, text, classic }.plan(),
        }
    }
}

/// Enciphers (or with `decrypt`, deciphers) `text`.
#[pyfunction]
#[pyo3(name = "cipher")]
pub(crate) fn run_cipher(
    py: Python<'_>,
    text: String,
    key: &Bound<'_, PyAny>,
    classic: bool,
    decrypt: bool,
) -> PyResult<String> {
    let key = KeyArg::of(key)?;
    run_watched(py, &Watch::default(), move |stop| {
        let control = Control::new().stop(stop);
        let plan = key.plan(text, classic)?;
        let answer = if decrypt {
            DecryptRequest::run_plan(plan, &control)?
        } else {
            EncryptRequest::run_plan(plan, &control)?
        };
        Ok(answer.text)
    })
}
