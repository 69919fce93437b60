//! Reading and checking tour texts (JSON, numbered grids, move lists).

use crate::classes::{PyTour, PyTourney};
use crate::convert::text_arg;
use crate::errors::invalid;
use crate::run::guard;
use knights::format::{self, Checked, Parsed};
use knights::request::{CheckAnswer, CheckPlan, CheckRequest, JobRequest};
use knights::Control;
use pyo3::prelude::*;

/// Reads and checks a tour or tourney (JSON, a numbered grid or a move list).
#[pyfunction]
pub(crate) fn read(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    Ok(match read_valid(py, &text_arg(py, text)?)? {
        Checked::Tour(tour) => Py::new(py, PyTour { tour })?.into_any(),
        Checked::Tourney(tourney) => Py::new(py, PyTourney { tourney })?.into_any(),
    })
}

/// The checker's verdict on a tour, tourney or text, the library's
/// [`CheckRequest`] job (a tour or tourney goes in as itself, a text as
/// the request's); what is no valid tour raises `InvalidTourError` with
/// the verdict. With `puzzle` (a `Puzzle` or its text), the request's
/// `puzzle`: the tour or filled grid must solve it.
#[pyfunction]
#[pyo3(signature = (x, puzzle=None))]
pub(crate) fn check(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    puzzle: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    if let Some(puzzle) = puzzle {
        let text = match x.cast::<PyTour>() {
            Ok(t) => format::tour_json(&t.get().tour).to_string(),
            Err(_) => text_arg(py, x)?,
        };
        let request = CheckRequest {
            text,
            puzzle: Some(crate::puzzle::puzzle_arg(py, puzzle)?),
        };
        let answer = guard(py, || {
            CheckRequest::run_plan(request.plan()?, &Control::new())
        })?;
        return verdict(py, answer);
    }
    let doc = if let Ok(t) = x.cast::<PyTour>() {
        Ok(Parsed::of_tour(&t.get().tour))
    } else if let Ok(t) = x.cast::<PyTourney>() {
        Ok(Parsed::of_tourney(&t.get().tourney))
    } else {
        Err(text_arg(py, x)?)
    };
    let answer = guard(py, || {
        let doc = doc
            .map(CheckPlan::from)
            .or_else(|text| CheckRequest::new(text).plan())?;
        CheckRequest::run_plan(doc, &Control::new())
    })?;
    verdict(py, answer)
}

/// The verdict of a valid answer, or `InvalidTourError` with it.
fn verdict(py: Python<'_>, answer: CheckAnswer) -> PyResult<String> {
    if answer.valid {
        Ok(answer.verdict)
    } else {
        Err(invalid(py, answer.verdict))
    }
}

/// A tour or tourney text, read and checked by the library.
pub(crate) fn read_valid(py: Python<'_>, text: &str) -> PyResult<Checked> {
    guard(py, || format::read(text)?.into_checked())
}
