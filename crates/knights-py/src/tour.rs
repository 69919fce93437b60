//! Tours: the `Tour` class and the functions that make one.

use crate::classes::{PyTour, PyTourney};
use crate::convert::{
    bad_input, board_arg, board_text, pair_text, square_arg, square_text, text_arg, wanted_arg,
    whole, LEAPER,
};
use crate::errors::lib;
use crate::files::read_valid;
use crate::memory::{ensure_memory, ensure_text_fits, uint32_bytes};
use crate::pictures::{self, Item};
use crate::run::{guard, run_inline, run_watched, Watch};
use knights::algorithms::{Algorithm, TourneyMethod};
use knights::format::Checked;
use knights::format::{self, SvgOptions};
use knights::rails;
use knights::request::{JobRequest, TourRequest};
use knights::stats::MoveCounts;
use knights::{Board, Control, Cover, Tour};
use pyo3::exceptions::{PyImportError, PyIndexError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyBytes, PyIterator};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

/// An SVG picture of a tour or tourney of `board`, drawn by `draw` with
/// the options asked: the one body of both classes' `to_svg` (the
/// notebook's `_repr_svg_` over it is in `knights/__init__.py`).
pub(crate) fn svg(
    board: Board,
    animate: bool,
    draw: impl FnOnce(SvgOptions) -> String,
) -> PyResult<String> {
    ensure_text_fits("the SVG picture", board)?;
    Ok(draw(SvgOptions {
        animate,
        ..SvgOptions::default()
    }))
}

/// Bytes a `(row, col)` pair takes in a Python list: the list's slot, the
/// tuple and two ints (those up to 256 are shared, larger ones are not).
pub(crate) const PAIR_BYTES: u64 = 8 + 56 + 2 * 32;

/// Bytes a step number takes in a Python list of rows: the slot and the int.
const NUMBER_BYTES: u64 = 8 + 32;

/// `(row, col)` pairs of `squares` on `board`, after `ensure_memory` has
/// checked that the list fits.
pub(crate) fn pairs(board: Board, squares: &[u32], what: &str) -> PyResult<Vec<(u32, u32)>> {
    ensure_memory(what, (squares.len() as u64).saturating_mul(PAIR_BYTES))?;
    Ok(squares.iter().map(|&s| board.coords(s)).collect())
}

#[pymethods]
impl PyTour {
    /// A tour from its squares, checked by the independent checker.
    #[new]
    fn new(py: Python<'_>, board: &Bound<'_, PyAny>, squares: &Bound<'_, PyAny>) -> PyResult<Self> {
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

    /// The tour in the project's JSON (a ``str`` or a parsed ``dict``),
    /// checked by the independent checker.
    ///
    /// >>> Tour.from_json('{"rows": 1, "cols": 1, "squares": [[0, 0]]}')
    /// <knights.Tour 1x1 open, 1 squares from (0, 0) to (0, 0)>
    /// >>> Tour.from_json('{"rows": 3, "cols": 3, "squares": [[0, 0]]}')
    /// Traceback (most recent call last):
    /// ...
    /// knights.InvalidTourError: 8 squares of the 3x3 board are never visited, the first being (0, 1)
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        match read_valid(py, &text_arg(py, text)?)? {
            Checked::Tour(tour) => Ok(PyTour { tour }),
            Checked::Tourney(_) => bad_input(
                py,
                "the text is a tourney, not a tour; read it with knights.read() or Tourney.from_json()"
                    .into(),
            ),
        }
    }

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

    /// The board as ``"ROWSxCOLS"``.
    #[getter]
    fn board(&self) -> String {
        self.tour.board().to_string()
    }

    /// Whether the last square is a knight's move from the first.
    #[getter]
    fn closed(&self) -> bool {
        self.tour.is_closed()
    }

    /// ``"closed"`` or ``"open"``.
    #[getter]
    fn kind(&self) -> &'static str {
        if self.tour.is_closed() {
            "closed"
        } else {
            "open"
        }
    }

    /// The squares in the knight's order, as ``(row, col)``; a list too
    /// large for this machine's memory raises ``MemoryError``.
    #[getter]
    fn squares(&self) -> PyResult<Vec<(u32, u32)>> {
        let what = format!("a list of the squares of this {} tour", self.tour.board());
        pairs(self.tour.board(), self.tour.squares(), &what)
    }

    /// The first square.
    #[getter]
    fn start(&self) -> (u32, u32) {
        self.tour.board().coords(self.tour.start())
    }

    /// The last square.
    #[getter]
    fn end(&self) -> (u32, u32) {
        let last = self.tour.squares()[self.tour.squares().len() - 1];
        self.tour.board().coords(last)
    }

    fn __len__(&self) -> usize {
        self.tour.squares().len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.squares()?.into_pyobject(py)?.try_iter()
    }

    fn __getitem__(&self, i: isize) -> PyResult<(u32, u32)> {
        let n = self.tour.squares().len();
        let j = if i < 0 { i + n as isize } else { i };
        match usize::try_from(j)
            .ok()
            .and_then(|j| self.tour.squares().get(j))
        {
            Some(&s) => Ok(self.tour.board().coords(s)),
            None => Err(PyIndexError::new_err(format!(
                "step {i} is not on a tour of {n} squares"
            ))),
        }
    }

    /// The numbered grid: the step at which the knight reaches each
    /// square, as a list of rows, counting from ``base`` (0 or 1); a hole
    /// of the board holds 2**32 - 1. A grid too large for this machine's
    /// memory raises ``MemoryError``.
    #[pyo3(signature = (base=0))]
    fn grid(&self, base: u32) -> PyResult<Vec<Vec<u32>>> {
        let board = self.tour.board();
        let what = format!("the grid of this {board} tour");
        ensure_memory(&what, (board.squares() as u64).saturating_mul(NUMBER_BYTES))?;
        let steps = self.steps(base);
        Ok(steps
            .chunks(board.cols() as usize)
            .map(<[u32]>::to_vec)
            .collect())
    }

    /// The numbered grid as a ``(rows, cols)`` numpy array of ``uint32``
    /// step numbers from ``base``; needs numpy (imported only here).
    ///
    /// >>> tour("5x5", seed=1).to_numpy().shape
    /// (5, 5)
    #[pyo3(signature = (base=0))]
    fn to_numpy<'py>(&self, py: Python<'py>, base: u32) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy").map_err(|_| {
            PyImportError::new_err(
                "Tour.to_numpy() needs numpy; install it with: pip install numpy",
            )
        })?;
        let board = self.tour.board();
        let steps = self.steps(base);
        let bytes = uint32_bytes(py, steps.into_iter(), board.squares())?;
        let kw = [("dtype", np.getattr("uint32")?)].into_py_dict(py)?;
        np.call_method("frombuffer", (bytes,), Some(&kw))?
            .call_method1("reshape", (board.rows(), board.cols()))
    }

    /// The tour in the project's JSON: ``{"rows", "cols", "closed", "squares"}``.
    fn to_json(&self) -> PyResult<String> {
        ensure_text_fits("the JSON", self.tour.board())?;
        Ok(format::tour_json(&self.tour).to_string())
    }

    /// The tour as a move list (``docs/formats.md``): ``notation="numeric"``
    /// (the start and the move numbers, which :func:`read` takes back) or
    /// ``"algebraic"`` (every square visited by its name, such as ``a8 b6``,
    /// on boards of at most 26 columns).
    #[pyo3(signature = (notation="numeric"))]
    fn to_moves(&self, py: Python<'_>, notation: &str) -> PyResult<String> {
        ensure_text_fits("the move list", self.tour.board())?;
        let list = format::move_list(&self.tour);
        match notation {
            "numeric" => Ok(list.to_string()),
            "algebraic" => Ok(crate::errors::lib(py, list.algebraic())?.to_string()),
            other => bad_input(
                py,
                format!(
                    "notation='{}' is not a notation; give 'numeric' or 'algebraic'",
                    knights::excerpt(other)
                ),
            ),
        }
    }

    /// An SVG picture of the tour; ``animate=True`` draws it step by step.
    #[pyo3(signature = (animate=false))]
    fn to_svg(&self, animate: bool) -> PyResult<String> {
        svg(self.tour.board(), animate, |o| {
            format::tour_svg(&self.tour, o).to_string()
        })
    }

    /// The tour as a PNG picture (``bytes``): the picture :meth:`to_svg`
    /// draws, at most 4000 pixels a side, with the font shipped in the
    /// package, so the same tour gives the same bytes on every machine.
    ///
    /// >>> tour("5x5").to_png()[:8]
    /// b'\x89PNG\r\n\x1a\n'
    fn to_png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        pictures::png(py, Item::Tour(self.tour.clone()))
    }

    /// The tour as an animated GIF (``bytes``) that draws it step by step:
    /// a frame a step on small boards, sampled steps on big ones
    /// (``docs/formats.md``, "Pictures").
    ///
    /// >>> tour("5x5").to_gif()[:6]
    /// b'GIF89a'
    fn to_gif<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        pictures::gif(py, self.tour.clone())
    }

    /// Saves the tour to ``path`` (a ``str`` or path) in ``format``:
    /// ``"png"``, ``"gif"`` (animated, step by step), ``"svg"``,
    /// ``"animated-svg"``, ``"json"``, ``"grid"`` or ``"moves"``. Without
    /// ``format`` the file's extension chooses, as ``knights tour -o FILE``
    /// does: ``.png``, ``.gif``, ``.svg``, ``.json``, ``.txt`` (the
    /// numbered grid) or ``.moves``, in any case; a name without one gets
    /// the grid. An unknown format or extension, or an extension of another
    /// format than ``format``, raises :class:`BadInputError` (a
    /// ``ValueError``) and writes nothing. The file is written whole or not
    /// at all: through a temporary file in its folder, renamed over it.
    ///
    /// >>> tour("5x5").save("tour.xyz")
    /// Traceback (most recent call last):
    /// ...
    /// knights.BadInputError: 'tour.xyz' ends in .xyz, but Tour.save writes no XYZ files. ...
    #[pyo3(signature = (path, format=None))]
    fn save(&self, py: Python<'_>, path: PathBuf, format: Option<&str>) -> PyResult<()> {
        pictures::save(py, Item::Tour(self.tour.clone()), path, format)
    }

    /// The tour's line sums, numbered 1, 2, ... in its order: a
    /// :class:`LineSums` (``magic`` is ``"no"``, ``"semimagic"``: every row
    /// sums alike and every column alike, or ``"magic"``: the diagonals too),
    /// or ``None`` on a board with holes.
    ///
    /// >>> import knights
    /// >>> s = knights.tour("8x8").magic
    /// >>> s.magic, len(s.rows), sum(s.cols)
    /// ('no', 8, 2080)
    #[getter]
    fn magic<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        crate::magic::line_sums(py, &self.tour)
    }

    /// The independent checker's verdict, such as ``"closed tour on 8x8"``
    /// (as :func:`check` gives it).
    fn check(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::files::check(slf.py(), slf.as_any(), None)
    }

    /// The move counts of the tour (for ``knights.stats``).
    fn _move_counts(&self) -> (Vec<u64>, Vec<u64>) {
        let m = MoveCounts::of_tour(&self.tour);
        (m.moves.to_vec(), m.relative.to_vec())
    }

    /// The number of rails (pairs of parallel moves that can be switched)
    /// of a closed tour; an open tour raises :class:`BadInputError`.
    fn rails(&self, py: Python<'_>) -> PyResult<usize> {
        if !self.tour.is_closed() {
            return bad_input(
                py,
                "rails are counted on closed tours, and this tour is open".into(),
            );
        }
        let cover = lib(py, Cover::from_tour(&self.tour))?;
        Ok(rails::count_rails(&cover))
    }

    /// The closed tour shattered into a tourney (see :func:`shatter`).
    #[pyo3(signature = (seed=None), text_signature = "($self, seed=0)")]
    fn shatter(slf: &Bound<'_, Self>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyTourney> {
        crate::rails::shatter(slf.py(), slf.as_any(), seed)
    }

    /// The closed tour obfuscated (see :func:`obfuscate`).
    #[pyo3(signature = (shatters=None, seed=None), text_signature = "($self, shatters=16, seed=0)")]
    fn obfuscate(
        slf: &Bound<'_, Self>,
        shatters: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTour> {
        crate::rails::obfuscate(slf.py(), slf.as_any(), shatters, seed)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Option<bool> {
        let other = other.cast::<PyTour>().ok()?;
        Some(self.tour == other.get().tour)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (
            self.tour.board().rows(),
            self.tour.board().cols(),
            self.tour.squares(),
        )
            .hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!(
            "<knights.Tour {} {}, {} squares from {:?} to {:?}>",
            self.tour.board(),
            self.kind(),
            self.tour.squares().len(),
            self.start(),
            self.end()
        )
    }

    fn __str__(&self) -> PyResult<String> {
        ensure_text_fits("the numbered grid", self.tour.board())?;
        Ok(format::grid(&self.tour, 0)
            .to_string()
            .trim_end_matches('\n')
            .to_string())
    }
}

impl PyTour {
    /// The step numbers from `base`, row-major; a hole holds `2**32 - 1`.
    fn steps(&self, base: u32) -> Vec<u32> {
        let mut steps = vec![u32::MAX; self.tour.board().squares()];
        for (i, &s) in self.tour.squares().iter().enumerate() {
            steps[s as usize] = i as u32 + base;
        }
        steps
    }
}

/// One tour: the keyword arguments as the library's [`TourRequest`],
/// validated and run by the library.
#[pyfunction]
#[pyo3(signature = (board, kind, start, algorithm, seed, obfuscate, end, wrap, leaper, holes, tie, max_attempts, max_nodes))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tour(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    start: Option<&Bound<'_, PyAny>>,
    algorithm: String,
    seed: &Bound<'_, PyAny>,
    obfuscate: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    wrap: Option<String>,
    leaper: Option<&Bound<'_, PyAny>>,
    holes: Option<String>,
    tie: Option<String>,
    max_attempts: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTour> {
    let request = TourRequest {
        holes,
        wrap,
        leaper: leaper.map(|l| pair_text(l, LEAPER)).transpose()?,
        kind: wanted_arg(py, kind)?,
        algorithm,
        seed: whole(py, "seed", seed, 64)?,
        start: start.map(square_text).transpose()?,
        end: end.map(square_text).transpose()?,
        tie,
        max_attempts: max_attempts
            .map(|n| whole(py, "max_attempts", n, 32).map(|n| n as u32))
            .transpose()?,
        max_nodes: max_nodes
            .map(|n| whole(py, "max_nodes", n, 64))
            .transpose()?,
        obfuscate: obfuscate
            .map(|n| whole(py, "obfuscate", n, 32).map(|n| n as u32))
            .transpose()?,
        ..TourRequest::new(&board_text(board)?)
    };
    if is_quick(&request) {
        let answer = run_inline(py, || request.run(&Control::new()))?;
        return Ok(PyTour { tour: answer.tour });
    }
    let answer = run_watched(py, &Watch::default(), move |stop| {
        request.run(&Control::new().stop(stop))
    })?;
    Ok(PyTour { tour: answer.tour })
}

/// Whether a tour is done in about a millisecond at most, so that the
/// worker thread and the watch for Ctrl-C (some 20 microseconds) would
/// cost more than they are worth: on the plain board with no end and no
/// options (a larger budget may make even a small board's search long),
/// the linear-time methods up to 100x100, Warnsdorff's rule (bounded
/// restarts) up to 32x32. A board or algorithm the library cannot read is
/// not quick (the library refuses it).
fn is_quick(r: &TourRequest) -> bool {
    let plain = r.holes.is_none() && r.wrap.is_none() && r.leaper.is_none() && r.end.is_none();
    let options = r.tie.is_some() || r.max_attempts.is_some() || r.max_nodes.is_some();
    if !plain || options {
        return false;
    }
    let Ok(board) = r.board.parse::<Board>() else {
        return false;
    };
    let n = board.squares();
    match r.algorithm.parse() {
        Ok(
            Algorithm::Auto
            | Algorithm::Construct
            | Algorithm::Tourney(
                TourneyMethod::FourCover | TourneyMethod::Braid | TourneyMethod::Divide,
            ),
        ) => n <= 10_000,
        Ok(Algorithm::Warnsdorff(_)) => n <= 1024,
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
