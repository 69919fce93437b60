//! Tours: the `Tour` class and the functions that make one.

use crate::convert::{board_arg, kind_arg, shape_arg, shape_square, square_arg};
use crate::errors::lib;
use crate::memory::{ensure_text_fits, uint32_bytes};
use crate::run::{guard, run_inline, run_watched, Watch};
use knights::algorithms::{Algorithm, Generator};
use knights::format::{self, SvgOptions};
use knights::rails;
use knights::stats::MoveCounts;
use knights::{Board, Cover, Error, Tour};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

/// A checked tour (the Python `knights.Tour` wraps one).
#[pyclass(frozen, module = "knights._native", name = "NativeTour")]
pub(crate) struct PyTour {
    pub(crate) tour: Tour,
}

#[pymethods]
impl PyTour {
    /// Rows of the board.
    #[getter]
    fn rows(&self) -> u32 {
        self.tour.board().rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> u32 {
        self.tour.board().cols()
    }

    /// Whether the last square is a knight's move from the first.
    #[getter]
    fn closed(&self) -> bool {
        self.tour.is_closed()
    }

    fn __len__(&self) -> usize {
        self.tour.squares().len()
    }

    /// The squares in order, as native-endian `uint32` square numbers
    /// (`row * cols + col`), from which Python builds its lists.
    fn order_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        uint32_bytes(
            py,
            self.tour.squares().iter().copied(),
            self.tour.squares().len(),
        )
    }

    /// Square `i` of the tour as `(row, col)`.
    fn square(&self, i: usize) -> Option<(u32, u32)> {
        let s = *self.tour.squares().get(i)?;
        Some(self.tour.board().coords(s))
    }

    /// The step numbers, row-major, as native-endian `uint32` bytes; a
    /// hole of the board holds `2**32 - 1`.
    fn step_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        let board = self.tour.board();
        // Written in place: no copy of a 4-bytes-a-square buffer.
        PyByteArray::new_with(py, board.squares() * 4, |bytes| {
            bytes.fill(0xff);
            for (i, &s) in self.tour.squares().iter().enumerate() {
                let at = s as usize * 4;
                bytes[at..at + 4].copy_from_slice(&(i as u32).to_ne_bytes());
            }
            Ok(())
        })
    }

    /// The numbered grid as text.
    fn grid_text(&self, base: u32) -> PyResult<String> {
        ensure_text_fits("the numbered grid", self.tour.board())?;
        Ok(format::grid(&self.tour, base).to_string())
    }

    /// The tour as the project's JSON.
    fn to_json(&self) -> PyResult<String> {
        ensure_text_fits("the JSON", self.tour.board())?;
        Ok(format::tour_json(&self.tour).to_string())
    }

    /// The tour as a move list.
    fn move_list(&self) -> PyResult<String> {
        ensure_text_fits("the move list", self.tour.board())?;
        Ok(format::move_list(&self.tour).to_string())
    }

    /// The tour as an SVG picture.
    fn to_svg(&self, animate: bool) -> PyResult<String> {
        ensure_text_fits("the SVG picture", self.tour.board())?;
        let options = SvgOptions {
            animate,
            ..SvgOptions::default()
        };
        Ok(format::tour_svg(&self.tour, options).to_string())
    }

    /// Equality of board and squares in order.
    fn same(&self, other: &PyTour) -> bool {
        self.tour == other.tour
    }

    /// The checker's verdict: `"closed tour on 8x8"`.
    fn check(&self, py: Python<'_>) -> PyResult<String> {
        let kind = lib(
            py,
            knights::check::check_tour(&self.tour).map_err(Error::from),
        )?;
        Ok(format!("{} tour on {}", kind.name(), self.tour.board()))
    }

    /// The move counts of the tour.
    fn move_counts(&self) -> (Vec<u64>, Vec<u64>) {
        let m = MoveCounts::of_tour(&self.tour);
        (m.moves.to_vec(), m.relative.to_vec())
    }

    /// The number of rails (switchable pairs of moves) of a closed tour.
    fn rails(&self, py: Python<'_>) -> PyResult<usize> {
        let cover = lib(py, Cover::from_tour(&self.tour))?;
        Ok(rails::count_rails(&cover))
    }
}

/// One tour through [`Tour::builder`], with the algorithm's options set
/// by name (`options` as name, text pairs).
#[pyfunction]
#[pyo3(signature = (board, kind, start, algorithm, seed, options, obfuscate, end=None, wrap=None, leaper=None, holes=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tour(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    start: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    seed: u64,
    options: Vec<(String, String)>,
    obfuscate: Option<u32>,
    end: Option<&Bound<'_, PyAny>>,
    wrap: Option<&str>,
    leaper: Option<&str>,
    holes: Option<&str>,
) -> PyResult<PyTour> {
    let board = board_arg(py, board)?;
    let shape = shape_arg(py, board, wrap, leaper, holes)?;
    let kind = kind_arg(py, kind)?;
    let start = start.map(|s| shape_square(py, &shape, s)).transpose()?;
    let end = end.map(|s| shape_square(py, &shape, s)).transpose()?;
    let mut algorithm: Algorithm = lib(py, algorithm.parse())?;
    for (name, value) in &options {
        lib(py, algorithm.set_option(name, value))?;
    }
    // Options (a larger budget) may make even a small board's search long.
    let quick =
        shape.is_plain() && end.is_none() && options.is_empty() && is_quick(board, algorithm);
    let mut request = Tour::builder(board)
        .shape(shape)
        .kind(kind)
        .start_at(start)
        .end_at(end)
        .algorithm(algorithm)
        .seed(seed);
    if let Some(shatters) = obfuscate {
        request = request.obfuscate(shatters);
    }
    let tour = if quick {
        run_inline(py, || request.build())?
    } else {
        run_watched(py, &Watch::default(), move |stop| {
            request.stop_flag(stop).build()
        })?
    };
    Ok(PyTour { tour })
}

/// Whether a tour is done in about a millisecond at most, so that the
/// worker thread and the watch for Ctrl-C (some 20 microseconds) would
/// cost more than they are worth: the linear-time methods on boards up to
/// 100x100, Warnsdorff's rule (bounded restarts) up to 32x32.
fn is_quick(board: Board, algorithm: Algorithm) -> bool {
    let n = board.squares();
    match algorithm {
        Algorithm::Auto
        | Algorithm::Construct
        | Algorithm::Tourney(Generator::FourCover | Generator::Braid | Generator::Divide) => {
            n <= 10_000
        }
        Algorithm::Warnsdorff(_) => n <= 1024,
        _ => false,
    }
}

/// The algorithms: name, one-line description and option names.
#[pyfunction]
pub(crate) fn algorithms() -> Vec<(&'static str, String, Vec<&'static str>)> {
    Algorithm::ALL
        .iter()
        .map(|a| (a.name(), a.about().to_string(), a.option_names().to_vec()))
        .collect()
}

/// A tour from its squares, checked by the independent checker.
#[pyfunction]
pub(crate) fn tour_from_squares(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    squares: &Bound<'_, PyAny>,
) -> PyResult<PyTour> {
    let b = board_arg(py, board)?;
    let mut order = Vec::new();
    for s in squares.try_iter()? {
        order.push(square_arg(py, b, &s?)?);
    }
    let tour = guard(py, || {
        let tour = Tour::from_squares_unchecked(b, order);
        knights::check::check_tour(&tour)?;
        Ok(tour)
    })?;
    Ok(PyTour { tour })
}
