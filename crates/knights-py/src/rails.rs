//! Joining, shattering and obfuscating covers on the rails: the functions
//! behind `join`, `shatter` and `obfuscate` and the classes' methods of
//! those names, run as the library's [`JoinRequest`], [`ShatterRequest`]
//! and [`ObfuscateRequest`] (the tour or tourney goes in as its JSON, the
//! request's file text; the answer's tour or tourney comes back as the
//! class).

use crate::classes::{PyTour, PyTourney};
use crate::convert::whole_or;
use crate::run::{run_watched, Watch};
use knights::format;
use knights::request::{JoinRequest, ObfuscateRequest, ShatterRequest, TourAnswer, TourneyAnswer};
use knights::{Board, Control, Tour, Tourney};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// A tour or tourney handed to a rails job, kept as the value until the
/// worker thread writes it as the request's text.
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

    /// The request's text: the project's JSON.
    fn text(&self) -> String {
        match self {
            Input::Tour(t) => format::tour_json(t).to_string(),
            Input::Tourney(t) => format::tourney_json(t).to_string(),
        }
    }
}

/// The tour of a library answer.
pub(crate) fn answer_tour(answer: TourAnswer) -> knights::Result<Tour> {
    let board = Board::new(answer.rows.into(), answer.cols.into())?;
    Ok(Tour::from_squares_unchecked(board, answer.squares))
}

/// The tourney of a library answer.
pub(crate) fn answer_tourney(answer: TourneyAnswer) -> knights::Result<Tourney> {
    let board = Board::new(answer.rows.into(), answer.cols.into())?;
    Ok(Tourney::from_cycles_unchecked(board, answer.cycles))
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
        let request = JoinRequest {
            cover: input.text(),
            seed,
        };
        answer_tour(request.run(&Control::new().stop(stop))?.tour)
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
        let request = ShatterRequest {
            cover: input.text(),
            seed,
        };
        answer_tourney(request.shatter(&Control::new().stop(stop))?.tourney)
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
        let request = ObfuscateRequest {
            cover: input.text(),
            seed,
            shatters,
        };
        answer_tour(request.run(&Control::new().stop(stop))?.tour)
    })?;
    Ok(PyTour { tour })
}
