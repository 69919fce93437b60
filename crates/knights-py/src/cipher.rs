//! The knight's-tour cipher: keys from tours or key descriptions.

use crate::classes::PyTour;
use crate::run::{guard, run_watched, Watch};
use knights::cipher::{self, Key, KeySpec, Mode};
use knights::{StopFlag, Tour};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Where a cipher key comes from: a tour, or a key description whose tour
/// is generated (a search that may be long) on the worker thread.
enum KeySource {
    Tour(Tour),
    Spec(KeySpec),
}

impl KeySource {
    /// The key: the tour checked, or the description's tour generated.
    fn key(self, stop: &StopFlag) -> knights::Result<Key> {
        match self {
            KeySource::Tour(tour) => Key::new(tour),
            KeySource::Spec(spec) => Key::from_spec_with_stop(&spec, stop),
        }
    }
}

/// The cipher key: a tour, or a key description such as `"8x8,seed=5"`
/// (read here; its tour is generated later, by [`KeySource::key`]).
fn key_arg(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<KeySource> {
    if let Ok(t) = key.cast::<PyTour>() {
        return Ok(KeySource::Tour(t.get().tour.clone()));
    }
    if let Ok(s) = key.cast::<PyString>() {
        let text = s.to_cow()?;
        return guard(py, || Ok(KeySource::Spec(text.parse()?)));
    }
    Err(PyTypeError::new_err(
        "a key is a knights.Tour or a key description such as '8x8,seed=5'",
    ))
}

/// Enciphers (or with `decrypt`, deciphers) `text`.
#[pyfunction]
#[pyo3(name = "cipher")]
pub(crate) fn run_cipher(
    py: Python<'_>,
    text: &str,
    key: &Bound<'_, PyAny>,
    classic: bool,
    decrypt: bool,
) -> PyResult<String> {
    let key = key_arg(py, key)?;
    let mode = if classic { Mode::Classic } else { Mode::Exact };
    let text = text.to_string();
    run_watched(py, &Watch::default(), move |stop| {
        let key = key.key(&stop)?;
        if decrypt {
            cipher::decrypt(&key, &text, mode)
        } else {
            cipher::encrypt(&key, &text, mode)
        }
    })
}
