//! The knight's-tour cipher, run as the library's [`CipherRequest`]: the
//! key is a tour (its JSON goes in as the request's key text) or a key
//! description such as `"8x8,seed=5"`, whose tour the library makes.

use crate::classes::PyTour;
use crate::run::{run_watched, Watch};
use knights::format;
use knights::request::CipherRequest;
use knights::Control;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The request's key text: a tour's JSON, or the description (or a tour
/// file's text) as given.
fn key_text(key: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(t) = key.cast::<PyTour>() {
        return Ok(format::tour_json(&t.get().tour).to_string());
    }
    if let Ok(s) = key.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
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
    text: String,
    key: &Bound<'_, PyAny>,
    classic: bool,
    decrypt: bool,
) -> PyResult<String> {
    let request = CipherRequest {
        key: key_text(key)?,
        text,
        classic,
    };
    run_watched(py, &Watch::default(), move |stop| {
        let control = Control::new().stop(stop);
        let answer = if decrypt {
            request.decrypt(&control)?
        } else {
            request.encrypt(&control)?
        };
        Ok(answer.text)
    })
}
