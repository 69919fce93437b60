//! Reading and checking tour texts (JSON, numbered grids, move lists).

use crate::classes::{PyTour, PyTourney};
use crate::convert::text_arg;
use crate::run::guard;
use knights::format::{self, Valid};
use pyo3::prelude::*;

/// Reads and checks a tour or tourney (JSON, a numbered grid or a move list).
#[pyfunction]
pub(crate) fn read(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    Ok(match read_valid(py, &text_arg(py, text)?)? {
        Valid::Tour(tour) => Py::new(py, PyTour { tour })?.into_any(),
        Valid::Tourney(tourney) => Py::new(py, PyTourney { tourney })?.into_any(),
    })
}

/// The checker's verdict on a text, or its first fault as an error.
#[pyfunction]
pub(crate) fn check_text(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = text_arg(py, text)?;
    guard(py, || {
        let doc = format::read(&text)?;
        Ok(doc.check()?.to_string())
    })
}

/// A tour or tourney text, read and checked by the library.
pub(crate) fn read_valid(py: Python<'_>, text: &str) -> PyResult<Valid> {
    guard(py, || format::read(text)?.into_valid())
}
