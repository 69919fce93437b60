//! Joining, shattering and obfuscating covers on the rails: the
//! functions behind `join`, `shatter` and `obfuscate` and the classes'
//! methods of those names.

use crate::classes::{PyTour, PyTourney};
use crate::convert::whole_or;
use crate::errors::lib;
use crate::run::{run_watched, Watch};
use knights::rails::{self, JoinOptions, ObfuscateOptions};
use knights::{Cover, Error};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// The cover of a closed tour or tourney, and the tour's start.
fn cover_of(py: Python<'_>, x: &Bound<'_, PyAny>, what: &str) -> PyResult<(Cover, Option<u32>)> {
    if let Ok(t) = x.cast::<PyTour>() {
        let tour = &t.get().tour;
        if !tour.is_closed() {
            return lib(
                py,
                Err(Error::Unsupported(format!(
                    "{what} needs a closed tour or a tourney, and this is an open tour of {}",
                    tour.board()
                ))),
            );
        }
        return Ok((lib(py, Cover::from_tour(tour))?, Some(tour.start())));
    }
    if let Ok(t) = x.cast::<PyTourney>() {
        return Ok((lib(py, Cover::from_tourney(&t.get().tourney))?, None));
    }
    Err(PyTypeError::new_err(format!(
        "{what} needs a knights.Tour (closed) or a knights.Tourney"
    )))
}

/// [`rails::join`]: one closed tour from a tourney.
#[pyfunction]
#[pyo3(signature = (x, seed))]
pub(crate) fn join(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTour> {
    let seed = whole_or(py, "seed", seed, 64, 0)?;
    let (mut cover, start) = cover_of(py, x, "join")?;
    let tour = run_watched(py, &Watch::default(), move |stop| {
        let mut rng = knights::rng::seeded(seed);
        let options = JoinOptions {
            stop,
            ..Default::default()
        };
        rails::join(&mut cover, &options, &mut rng)?;
        cover.to_tour(start.unwrap_or(0), None)
    })?;
    Ok(PyTour { tour })
}

/// [`rails::shatter`]: switch rails at random into a tourney.
#[pyfunction]
#[pyo3(signature = (x, seed))]
pub(crate) fn shatter(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTourney> {
    let seed = whole_or(py, "seed", seed, 64, 0)?;
    let (mut cover, _) = cover_of(py, x, "shatter")?;
    let tourney = run_watched(py, &Watch::default(), move |_stop| {
        let mut rng = knights::rng::seeded(seed);
        rails::shatter(&mut cover, &mut rng)?;
        cover.to_tourney()
    })?;
    Ok(PyTourney { tourney })
}

/// [`rails::obfuscate`]: shatter and join `shatters` times.
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
    let (mut cover, start) = cover_of(py, x, "obfuscate")?;
    let tour = run_watched(py, &Watch::default(), move |stop| {
        let mut rng = knights::rng::seeded(seed);
        let options = ObfuscateOptions {
            shatters,
            join: JoinOptions {
                stop,
                ..Default::default()
            },
        };
        rails::obfuscate(&mut cover, &options, &mut rng)?;
        cover.to_tour(start.unwrap_or(0), None)
    })?;
    Ok(PyTour { tour })
}
