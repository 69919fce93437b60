//! Tourneys: the `Tourney` class, and joining, shattering and
//! obfuscating covers on the rails.

use crate::convert::board_arg;
use crate::errors::lib;
use crate::memory::{ensure_text_fits, uint32_bytes};
use crate::run::{run_watched, Watch};
use crate::tour::PyTour;
use knights::algorithms::Generator;
use knights::format::{self, SvgOptions};
use knights::rails::{self, JoinOptions, ObfuscateOptions};
use knights::stats::MoveCounts;
use knights::{Cover, Error, Tourney};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

/// A checked tourney (the Python `knights.Tourney` wraps one).
#[pyclass(frozen, module = "knights._native", name = "NativeTourney")]
pub(crate) struct PyTourney {
    pub(crate) tourney: Tourney,
}

#[pymethods]
impl PyTourney {
    /// Rows of the board.
    #[getter]
    fn rows(&self) -> u32 {
        self.tourney.board().rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> u32 {
        self.tourney.board().cols()
    }

    fn __len__(&self) -> usize {
        self.tourney.len()
    }

    /// The cycles' squares one cycle after the other, as native-endian
    /// `uint32` square numbers (`row * cols + col`), and each cycle's length.
    fn cycle_bytes<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyByteArray>, Vec<usize>)> {
        let cycles = self.tourney.cycles();
        let squares = cycles.iter().flatten().copied();
        let bytes = uint32_bytes(py, squares, cycles.iter().map(Vec::len).sum())?;
        Ok((bytes, cycles.iter().map(Vec::len).collect()))
    }

    /// The tourney as the project's JSON.
    fn to_json(&self) -> PyResult<String> {
        ensure_text_fits("the JSON", self.tourney.board())?;
        Ok(format::tourney_json(&self.tourney).to_string())
    }

    /// The tourney as an SVG picture.
    fn to_svg(&self, animate: bool) -> PyResult<String> {
        ensure_text_fits("the SVG picture", self.tourney.board())?;
        let options = SvgOptions {
            animate,
            ..SvgOptions::default()
        };
        Ok(format::tourney_svg(&self.tourney, options).to_string())
    }

    /// Equality of board and cycles.
    fn same(&self, other: &PyTourney) -> bool {
        self.tourney == other.tourney
    }

    /// The checker's verdict: `"tourney of 16 cycles on 8x8"`.
    fn check(&self, py: Python<'_>) -> PyResult<String> {
        let t = &self.tourney;
        let cycles = lib(py, knights::check::check_tourney(t).map_err(Error::from))?;
        Ok(knights::check::Verdict::Tourney {
            rows: t.board().rows(),
            cols: t.board().cols(),
            cycles,
        }
        .to_string())
    }

    /// The number of rails.
    fn rails(&self, py: Python<'_>) -> PyResult<usize> {
        let cover = lib(py, Cover::from_tourney(&self.tourney))?;
        Ok(rails::count_rails(&cover))
    }

    /// The move counts of the tourney.
    fn move_counts(&self) -> (Vec<u64>, Vec<u64>) {
        let m = MoveCounts::of_tourney(&self.tourney);
        (m.moves.to_vec(), m.relative.to_vec())
    }
}

/// One tourney through [`Tourney::builder`].
#[pyfunction]
pub(crate) fn tourney(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    generator: &str,
    seed: u64,
) -> PyResult<PyTourney> {
    let board = board_arg(py, board)?;
    let generator: Generator = lib(py, generator.parse())?;
    let request = Tourney::builder(board).generator(generator).seed(seed);
    let tourney = run_watched(py, &Watch::default(), move |stop| {
        request.cover_with_stop(&stop)?.to_tourney()
    })?;
    Ok(PyTourney { tourney })
}

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
pub(crate) fn join(py: Python<'_>, x: &Bound<'_, PyAny>, seed: u64) -> PyResult<PyTour> {
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
pub(crate) fn shatter(py: Python<'_>, x: &Bound<'_, PyAny>, seed: u64) -> PyResult<PyTourney> {
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
pub(crate) fn obfuscate(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    shatters: u32,
    seed: u64,
) -> PyResult<PyTour> {
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
