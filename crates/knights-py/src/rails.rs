//! Joining, shattering and obfuscating covers on the rails: the functions
//! behind `join`, `shatter` and `obfuscate` and the classes' methods of
//! those names, run as the library's [`JoinRequest`], [`ShatterRequest`]
//! and [`ObfuscateRequest`] jobs on a plan of the tour or tourney itself
//! (no file text to read again); the answer's tour or tourney comes back as
//! the class.

use crate::classes::{PyTour, PyTourney};
use crate::convert::whole_or;
use crate::run::{run_watched, Watch};
use knights::request::{
    CoverPlan, JobRequest, JoinRequest, ObfuscatePlan, ObfuscateRequest, ShatterRequest,
};
use knights::{Control, Tour, Tourney};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// A tour or tourney handed to a rails job.
enum Input {
    Tour(Tour),
    Tourney(Tourney),
}

impl Input {
    /// The tour or tourney `x`, or a `TypeError` naming `what` for anything
    /// else (whether it is closed is the library's question).
    fn of(x: &Bound<'_, PyAny>, what: &str) -> PyResult<Input> {
        if let Ok(t) = x.cast::<PyTour>() {
            return Ok(Input::Tour(t.get().tour.clone()));
        }
        if let Ok(t) = x.cast::<PyTourney>() {
            return Ok(Input::Tourney(t.get().tourney.clone()));
        }
        Err(PyTypeError::new_err(format!(
            "{what} needs a knights.Tour (closed) or a knights.Tourney"
        )))
    }

    /// The plan of a rails job on the tour or tourney itself (a tour must
    /// be closed: the library's refusal otherwise).
    fn plan(&self, seed: u64) -> knights::Result<CoverPlan> {
        match self {
            Input::Tour(t) => CoverPlan::of_tour(t, seed),
            Input::Tourney(t) => CoverPlan::of_tourney(t, seed),
        }
    }
}

/// One closed tour from a tourney (a tour keeps its start).
#[pyfunction]
#[pyo3(signature = (x, seed))]
pub(crate) fn join(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTour> {
    let seed = whole_or(py, "seed", seed, 64, 0)?;
    let input = Input::of(x, "join")?;
    let tour = run_watched(py, &Watch::default(), move |stop| {
        let plan = input.plan(seed)?;
        Ok(JoinRequest::run_plan(plan, &Control::new().stop(stop))?
            .tour
            .tour)
    })?;
    Ok(PyTour { tour })
}

/// Rails switched at random: a tourney.
#[pyfunction]
#[pyo3(signature = (x, seed))]
pub(crate) fn shatter(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTourney> {
    let seed = whole_or(py, "seed", seed, 64, 0)?;
    let input = Input::of(x, "shatter")?;
    let tourney = run_watched(py, &Watch::default(), move |stop| {
        let plan = input.plan(seed)?;
        let answer = ShatterRequest::run_plan(plan, &Control::new().stop(stop))?;
        Ok(answer.tourney.tourney)
    })?;
    Ok(PyTourney { tourney })
}

/// Shattered and joined `shatters` times (a tour keeps its start).
#[pyfunction]
#[pyo3(signature = (x, shatters, seed))]
pub(crate) fn obfuscate(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    shatters: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTour> {
    let shatters = whole_or(py, "shatters", shatters, 32, 16)? as u32;
    let seed = whole_or(py, "seed", seed, 64, 0)?;
    let input = Input::of(x, "obfuscate")?;
    let tour = run_watched(py, &Watch::default(), move |stop| {
        let plan = ObfuscatePlan::new(input.plan(seed)?, shatters)?;
        Ok(
            ObfuscateRequest::run_plan(plan, &Control::new().stop(stop))?
                .tour
                .tour,
        )
    })?;
    Ok(PyTour { tour })
}
