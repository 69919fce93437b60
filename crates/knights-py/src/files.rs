//! Reading and checking tour texts (JSON, numbered grids, move lists).

use crate::classes::{PyTour, PyTourney};
use crate::convert::text_arg;
use crate::errors::invalid;
use crate::run::guard;
use knights::format::{self, Valid};
use knights::request::CheckRequest;
use knights::Control;
use pyo3::prelude::*;

/// Reads and checks a tour or tourney (JSON, a numbered grid or a move list).
#[pyfunction]
pub(crate) fn read(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    Ok(match read_valid(py, &text_arg(py, text)?)? {
        Valid::Tour(tour) => Py::new(py, PyTour { tour })?.into_any(),
        Valid::Tourney(tourney) => Py::new(py, PyTourney { tourney })?.into_any(),
    })
}

/// The checker's verdict on a tour, tourney or text, the library's
/// [`CheckRequest`] (a tour or tourney goes in as its JSON); what is no
/// valid tour raises `InvalidTourError` with the verdict.
#[pyfunction]
pub(crate) fn check(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = if let Ok(t) = x.cast::<PyTour>() {
        format::tour_json(&t.get().tour).to_string()
    } else if let Ok(t) = x.cast::<PyTourney>() {
        format::tourney_json(&t.get().tourney).to_string()
    } else {
        text_arg(py, x)?
    };
    let answer = guard(py, || CheckRequest { text }.run(&Control::new()))?;
    if answer.valid {
        Ok(answer.verdict)
    } else {
        Err(invalid(py, answer.verdict))
    }
}

/// A tour or tourney text, read and checked by the library.
pub(crate) fn read_valid(py: Python<'_>, text: &str) -> PyResult<Valid> {
    guard(py, || format::read(text)?.into_valid())
}
