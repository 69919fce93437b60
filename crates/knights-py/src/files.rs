//! Reading and checking tour texts (JSON, numbered grids, move lists).

use crate::run::guard;
use crate::tour::PyTour;
use crate::tourney::PyTourney;
use knights::format::{self, Valid};
use pyo3::prelude::*;

/// Reads and checks a tour or tourney (JSON, a numbered grid or a move list).
#[pyfunction]
pub(crate) fn read(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    let valid = guard(py, || format::read(text)?.into_valid())?;
    Ok(match valid {
        Valid::Tour(tour) => Py::new(py, PyTour { tour })?.into_any(),
        Valid::Tourney(tourney) => Py::new(py, PyTourney { tourney })?.into_any(),
    })
}

/// The checker's verdict on a text, or its first fault as an error.
#[pyfunction]
pub(crate) fn check_text(py: Python<'_>, text: &str) -> PyResult<String> {
    guard(py, || {
        let doc = format::read(text)?;
        Ok(doc.check()?.to_string())
    })
}
