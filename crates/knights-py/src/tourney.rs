//! Tourneys: the `Tourney` class, and joining, shattering and
//! obfuscating covers on the rails.

use crate::classes::{PyTour, PyTourney};
use crate::convert::{bad_input, board_arg, board_text, square_arg, text_arg, whole};
use crate::errors::lib;
use crate::files::read_valid;
use crate::memory::{ensure_memory, ensure_text_fits};
use crate::pictures::{self, Item};
use crate::run::{guard, run_watched, Watch};
use crate::tour::{svg, PAIR_BYTES};
use knights::format;
use knights::format::Checked;
use knights::rails;
use knights::request::{JobRequest, TourneyRequest};
use knights::stats::MoveCounts;
use knights::{Control, Cover, Tourney};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyIterator};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

#[pymethods]
impl PyTourney {
    /// A tourney from its cycles, each a list of ``(row, col)``, checked.
    #[new]
    fn new(py: Python<'_>, board: &Bound<'_, PyAny>, cycles: &Bound<'_, PyAny>) -> PyResult<Self> {
        let b = board_arg(py, board)?;
        let mut all = Vec::new();
        for cycle in cycles.try_iter()? {
            let mut squares = Vec::new();
            for s in cycle?.try_iter()? {
                squares.push(square_arg(py, b, &s?)?);
            }
            all.push(squares);
        }
        let tourney = guard(py, || {
            let t = Tourney::from_cycles_unchecked(b, all);
            knights::check::check_tourney(&t)?;
            Ok(t)
        })?;
        Ok(PyTourney { tourney })
    }

    /// The tourney in the project's JSON, checked.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        match read_valid(py, &text_arg(py, text)?)? {
            Checked::Tourney(tourney) => Ok(PyTourney { tourney }),
            Checked::Tour(_) => bad_input(
                py,
                "the text is a tour, not a tourney; read it with Tour.from_json()".into(),
            ),
        }
    }

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

    /// The board as ``"ROWSxCOLS"``.
    #[getter]
    fn board(&self) -> String {
        self.tourney.board().to_string()
    }

    /// The cycles, each a list of ``(row, col)``; lists too large for
    /// this machine's memory raise ``MemoryError``.
    #[getter]
    fn cycles(&self) -> PyResult<Vec<Vec<(u32, u32)>>> {
        let board = self.tourney.board();
        let what = format!("a list of the cycles of this {board} tourney");
        ensure_memory(&what, (board.squares() as u64).saturating_mul(PAIR_BYTES))?;
        let cycles = self.tourney.cycles().iter();
        Ok(cycles
            .map(|c| c.iter().map(|&s| board.coords(s)).collect())
            .collect())
    }

    /// The number of rails: pairs of parallel moves that can be switched.
    #[getter]
    fn rails(&self, py: Python<'_>) -> PyResult<usize> {
        let cover = lib(py, Cover::from_tourney(&self.tourney))?;
        Ok(rails::count_rails(&cover))
    }

    /// The number of cycles.
    fn __len__(&self) -> usize {
        self.tourney.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.cycles()?.into_pyobject(py)?.try_iter()
    }

    /// The tourney in the project's JSON: ``{"rows", "cols", "cycles"}``.
    fn to_json(&self) -> PyResult<String> {
        ensure_text_fits("the JSON", self.tourney.board())?;
        Ok(format::tourney_json(&self.tourney).to_string())
    }

    /// An SVG picture of the tourney, one colour a cycle.
    #[pyo3(signature = (animate=false))]
    fn to_svg(&self, animate: bool) -> PyResult<String> {
        svg(self.tourney.board(), animate, |o| {
            format::tourney_svg(&self.tourney, o).to_string()
        })
    }

    /// The tourney as a PNG picture (``bytes``): the picture
    /// :meth:`to_svg` draws, the same bytes on every machine.
    ///
    /// >>> tourney("6x6").to_png()[:8]
    /// b'\x89PNG\r\n\x1a\n'
    fn to_png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        pictures::png(py, Item::Tourney(self.tourney.clone()))
    }

    /// Saves the tourney to ``path`` (a ``str`` or path) in ``format``:
    /// ``"png"``, ``"svg"``, ``"animated-svg"``, ``"json"`` or ``"moves"``
    /// (``"grid"`` too: a tourney's grid is its move list, as on the command
    /// line). Without ``format`` the file's extension chooses, as
    /// :meth:`Tour.save` does. A GIF, which draws one tour step by step, an
    /// unknown format or extension raise :class:`BadInputError` (a
    /// ``ValueError``) and write nothing; the file is written whole or not
    /// at all.
    #[pyo3(signature = (path, format=None))]
    fn save(&self, py: Python<'_>, path: PathBuf, format: Option<&str>) -> PyResult<()> {
        pictures::save(py, Item::Tourney(self.tourney.clone()), path, format)
    }

    /// The independent checker's verdict, such as ``"tourney of 16 cycles on 8x8"``
    /// (as :func:`check` gives it).
    fn check(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::files::check(slf.py(), slf.as_any(), None)
    }

    /// One closed tour from the tourney (see :func:`join`).
    #[pyo3(signature = (seed=None), text_signature = "($self, seed=0)")]
    fn join(slf: &Bound<'_, Self>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyTour> {
        crate::rails::join(slf.py(), slf.as_any(), seed)
    }

    /// The tourney with rails switched at random (see :func:`shatter`).
    #[pyo3(signature = (seed=None), text_signature = "($self, seed=0)")]
    fn shatter(slf: &Bound<'_, Self>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyTourney> {
        crate::rails::shatter(slf.py(), slf.as_any(), seed)
    }

    /// One closed tour, shattered and joined again (see :func:`obfuscate`).
    #[pyo3(signature = (shatters=None, seed=None), text_signature = "($self, shatters=16, seed=0)")]
    fn obfuscate(
        slf: &Bound<'_, Self>,
        shatters: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyTour> {
        crate::rails::obfuscate(slf.py(), slf.as_any(), shatters, seed)
    }

    /// The move counts of the tourney (for ``knights.stats``).
    fn _move_counts(&self) -> (Vec<u64>, Vec<u64>) {
        let m = MoveCounts::of_tourney(&self.tourney);
        (m.moves.to_vec(), m.relative.to_vec())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Option<bool> {
        let other = other.cast::<PyTourney>().ok()?;
        Some(self.tourney == other.get().tourney)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        let board = self.tourney.board();
        (board.rows(), board.cols(), self.tourney.cycles()).hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!(
            "<knights.Tourney {}, {} cycles>",
            self.tourney.board(),
            self.tourney.len()
        )
    }
}

/// One tourney: the arguments as the library's [`TourneyRequest`], run by
/// the library; the Python class holds the answer's cycles.
#[pyfunction]
pub(crate) fn tourney(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    generator: String,
    seed: &Bound<'_, PyAny>,
) -> PyResult<PyTourney> {
    let request = TourneyRequest {
        board: board_text(board)?,
        algorithm: generator,
        seed: whole(py, "seed", seed, 64)?,
    };
    let tourney = run_watched(py, &Watch::default(), move |stop| {
        Ok(request.run(&Control::new().stop(stop))?.tourney)
    })?;
    Ok(PyTourney { tourney })
}
