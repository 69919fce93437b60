//! Clue puzzles: the class `knights.Puzzle` and the functions
//! `knights.puzzle` and `knights.solve`. Every call is the library's
//! [`PuzzleRequest`] or [`SolveRequest`], planned and run by the library,
//! so that its refusals, answers and errors are every door's; the answers
//! come back as the named tuples of `knights._answers` (`Solutions`,
//! `Step`, `Work`). Pictures are in `puzzle_pictures.rs`.

use knights::format::{puzzle_json, puzzle_text};
use knights::puzzle::{Difficulty, Puzzle, Work};
use knights::request::{JobRequest, PuzzleRequest, SolveAnswer, SolveRequest};
use knights::{Control, Error, Tour};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use std::path::PathBuf;

use crate::classes::PyTour;
use crate::convert::{
    bad_input, board_text, pair_text, text_arg, wanted_arg, whole, whole_or, LEAPER,
};
use crate::errors::lib;
use crate::puzzle_pictures::{self, Drawing};
use crate::run::{run_watched, Watch};

/// A clue puzzle ("Numbering Knights"): a board with some squares
/// numbered, the rest to number so that consecutive numbers are a
/// knight's move apart. Make one with :func:`puzzle`, or read one in
/// either form (text or JSON, docs/formats.md "Puzzles"):
///
/// >>> p = Puzzle("puzzle 3x4 open\n 1  .  .  .\n .  .  .  .\n .  .  .  .\n")
/// >>> p.rows, p.cols, p.closed, p.given
/// (3, 4, False, 1)
/// >>> p.clues[0]
/// [1, None, None, None]
/// >>> p.solve().count
/// 2
#[pyclass(frozen, module = "knights", name = "Puzzle")]
pub(crate) struct PyPuzzle {
    pub(crate) puzzle: Puzzle,
    /// Its solution, difficulty and the solver's work, when generated.
    pub(crate) made: Option<(Tour, Difficulty, Work)>,
}

/// The class `name` of `knights._answers`, called with `args`.
pub(crate) fn named<'py>(
    py: Python<'py>,
    name: &str,
    args: impl pyo3::call::PyCallArgs<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    static ANSWERS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    ANSWERS
        .get_or_try_init(py, || py.import("knights._answers").map(Bound::unbind))?
        .bind(py)
        .getattr(name)?
        .call1(args)
}

/// The solver's work as `knights.Work`.
fn work<'py>(py: Python<'py>, w: Work) -> PyResult<Bound<'py, PyAny>> {
    named(py, "Work", (w.nodes, w.guesses, w.depth))
}

/// A puzzle argument as the text a solve request reads: a `Puzzle` as its
/// text form, text (or bytes, or a parsed JSON dict) as it is.
pub(crate) fn puzzle_arg(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(p) = x.cast::<PyPuzzle>() {
        return Ok(puzzle_text(&p.get().puzzle));
    }
    if x.is_instance_of::<PyString>()
        || x.is_instance_of::<pyo3::types::PyBytes>()
        || x.is_instance_of::<pyo3::types::PyDict>()
    {
        return text_arg(py, x);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "a puzzle is a knights.Puzzle or its text (the text form or JSON), not {}",
        x.get_type().name()?
    )))
}

impl PyPuzzle {
    /// The puzzle in `text`, read as a solve request reads it.
    fn of_text(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<PyPuzzle> {
        let plan = lib(py, SolveRequest::new(&puzzle_arg(py, text)?).plan())?;
        Ok(PyPuzzle {
            puzzle: plan.puzzle,
            made: None,
        })
    }

    /// The solve request's answer for this puzzle.
    fn run(py: Python<'_>, request: SolveRequest) -> PyResult<Py<PyAny>> {
        let plan = lib(py, request.plan())?;
        let shape = plan.puzzle.shape().clone();
        let answer = run_watched(py, &Watch::default(), move |stop| {
            SolveRequest::run_plan(plan, &Control::new().stop(stop))
        })?;
        solve_answer(py, answer, &shape)
    }

    /// The puzzle to draw, solved when asked.
    fn drawing(&self, py: Python<'_>, solution: bool) -> PyResult<Drawing<'_>> {
        Ok(Drawing {
            puzzle: &self.puzzle,
            grade: self.made.as_ref().map(|(_, d, _)| *d),
            solution: if solution {
                Some(self.solved(py)?)
            } else {
                None
            },
        })
    }

    /// The solution to draw: the generated one, else the solver's first.
    fn solved(&self, py: Python<'_>) -> PyResult<Tour> {
        if let Some((tour, _, _)) = &self.made {
            return Ok(tour.clone());
        }
        let request = SolveRequest {
            limit: 1,
            ..SolveRequest::new(&puzzle_text(&self.puzzle))
        };
        let plan = lib(py, request.plan())?;
        let shape = plan.puzzle.shape().clone();
        let answer = run_watched(py, &Watch::default(), move |stop| {
            SolveRequest::run_plan(plan, &Control::new().stop(stop))
        })?;
        match answer {
            // A solve that finds none is the request's refusal (no solution,
            // or out of budget), so a solutions answer holds one.
            SolveAnswer::Solutions(s) if !s.solutions.is_empty() => {
                lib(py, Tour::on(&shape, s.solutions[0].clone()))
            }
            _ => lib(py, Err(Error::Internal("a solve gave no solution".into()))),
        }
    }
}

/// A solve request's answer as `knights.Solutions` or `knights.Step`.
fn solve_answer(
    py: Python<'_>,
    answer: SolveAnswer,
    shape: &knights::Shape,
) -> PyResult<Py<PyAny>> {
    match answer {
        SolveAnswer::Solutions(s) => {
            let tours = s
                .solutions
                .into_iter()
                .map(|squares| lib(py, Tour::on(shape, squares)).map(|tour| PyTour { tour }))
                .collect::<PyResult<Vec<_>>>()?;
            let args = (s.count, s.unique, s.complete, tours, work(py, s.work)?);
            Ok(named(py, "Solutions", args)?.unbind())
        }
        SolveAnswer::Step(step) => {
            let square = step.at.map(|[r, c, _]| (r, c));
            let number = step.at.map(|[_, _, n]| n);
            let args = (step.outcome, square, number, step.reason);
            Ok(named(py, "Step", args)?.unbind())
        }
    }
}

#[pymethods]
impl PyPuzzle {
    /// The puzzle in ``text``: its text form or JSON (``str``, ``bytes`` or
    /// a parsed ``dict``).
    #[new]
    fn new(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::of_text(py, text)
    }

    /// The puzzle in ``text`` (either form), as ``Puzzle(text)``.
    #[staticmethod]
    fn read(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::of_text(py, text)
    }

    /// Rows of the board.
    #[getter]
    fn rows(&self) -> u32 {
        self.puzzle.shape().board().rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> u32 {
        self.puzzle.shape().board().cols()
    }

    /// Whether the last number must be a knight's move from the first.
    #[getter]
    fn closed(&self) -> bool {
        self.puzzle.closed()
    }

    /// The number the first square is written as: 1 (or 0).
    #[getter]
    fn base(&self) -> u32 {
        self.puzzle.base()
    }

    /// The grid as rows: each clue as written (from :attr:`base`), ``None``
    /// for a blank (and for a hole).
    #[getter]
    fn clues(&self) -> Vec<Vec<Option<u32>>> {
        let board = self.puzzle.shape().board();
        let base = self.puzzle.base();
        (0..board.rows())
            .map(|r| {
                (0..board.cols())
                    .map(|c| self.puzzle.clues()[board.square(r, c) as usize].map(|s| s + base))
                    .collect()
            })
            .collect()
    }

    /// How many squares are given.
    #[getter]
    fn given(&self) -> usize {
        self.puzzle.given()
    }

    /// ``"easy"``, ``"medium"`` or ``"hard"`` for a generated puzzle, else ``None``.
    #[getter]
    fn difficulty(&self) -> Option<&'static str> {
        self.made.as_ref().map(|(_, d, _)| d.name())
    }

    /// The one solution, a :class:`Tour` from the square numbered first,
    /// for a generated puzzle; else ``None`` (:meth:`solve` finds it).
    #[getter]
    fn solution(&self) -> Option<PyTour> {
        self.made
            .as_ref()
            .map(|(tour, _, _)| PyTour { tour: tour.clone() })
    }

    /// The solver's work proving a generated puzzle's solution unique, a
    /// :class:`Work`; else ``None``.
    #[getter]
    fn work<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.made.as_ref().map(|(_, _, w)| work(py, *w)).transpose()
    }

    /// The text form: the header line, then the grid.
    #[getter]
    fn text(&self) -> String {
        puzzle_text(&self.puzzle)
    }

    /// The JSON form, one line.
    fn to_json(&self) -> String {
        puzzle_json(&self.puzzle)
    }

    /// Up to ``limit`` solutions (2 proves one unique) within ``max_nodes``
    /// search nodes: a :class:`Solutions`.
    #[pyo3(signature = (limit=None, max_nodes=None), text_signature = "($self, limit=2, max_nodes=None)")]
    fn solve(
        &self,
        py: Python<'_>,
        limit: Option<&Bound<'_, PyAny>>,
        max_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let request = SolveRequest {
            limit: whole_or(py, "limit", limit, 32, 2)? as usize,
            max_nodes: max_nodes
                .map(|n| whole(py, "max_nodes", n, 64))
                .transpose()?,
            ..SolveRequest::new(&puzzle_text(&self.puzzle))
        };
        Self::run(py, request)
    }

    /// The next deduction from the clues, or from ``progress`` (this
    /// puzzle with more numbers, a :class:`Puzzle` or its text): a :class:`Step`.
    #[pyo3(signature = (progress=None, max_nodes=None))]
    fn step(
        &self,
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        max_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let request = SolveRequest {
            progress: progress.map(|p| puzzle_arg(py, p)).transpose()?,
            max_nodes: max_nodes
                .map(|n| whole(py, "max_nodes", n, 64))
                .transpose()?,
            step: true,
            ..SolveRequest::new(&puzzle_text(&self.puzzle))
        };
        Self::run(py, request)
    }

    /// The puzzle drawn as SVG (the sheet's board, its clues circled);
    /// with ``solution=True`` solved, every square numbered from 1.
    #[pyo3(signature = (solution=false))]
    fn to_svg(&self, py: Python<'_>, solution: bool) -> PyResult<String> {
        puzzle_pictures::svg(py, &self.drawing(py, solution)?)
    }

    /// The picture of :meth:`to_svg` as PNG bytes.
    #[pyo3(signature = (solution=false))]
    fn to_png<'py>(
        &self,
        py: Python<'py>,
        solution: bool,
    ) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        puzzle_pictures::png(py, &self.drawing(py, solution)?)
    }

    /// Saves the puzzle to ``path``: ``format`` ``"text"``, ``"json"``,
    /// ``"svg"`` or ``"png"``, else the one the extension names (``.txt``,
    /// ``.json``, ``.svg``, ``.png``; the text form without one), whole or
    /// not at all; ``solution=True`` draws it solved.
    #[pyo3(signature = (path, format=None, solution=false))]
    fn save(
        &self,
        py: Python<'_>,
        path: PathBuf,
        format: Option<&str>,
        solution: bool,
    ) -> PyResult<()> {
        puzzle_pictures::save(py, &self.drawing(py, solution)?, path, format)
    }

    fn __str__(&self) -> String {
        puzzle_text(&self.puzzle).trim_end_matches('\n').to_string()
    }

    fn __repr__(&self) -> String {
        let shape = self.puzzle.shape();
        let kind = if self.puzzle.closed() {
            "closed"
        } else {
            "open"
        };
        let grade = match &self.made {
            Some((_, d, _)) => format!(", {d}"),
            None => String::new(),
        };
        format!(
            "<knights.Puzzle {shape} {kind}, {} of {} given{grade}>",
            self.puzzle.given(),
            self.puzzle.cells()
        )
    }
}

/// A puzzle with exactly one solution: the keyword arguments as the
/// library's [`PuzzleRequest`], validated and run by the library.
#[pyfunction]
#[pyo3(signature = (board, difficulty, seed, symmetric, kind, holes, wrap, leaper))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn puzzle(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    difficulty: &str,
    seed: &Bound<'_, PyAny>,
    symmetric: bool,
    kind: &str,
    holes: Option<String>,
    wrap: Option<String>,
    leaper: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyPuzzle> {
    let request = PuzzleRequest {
        holes,
        wrap,
        leaper: leaper.map(|l| pair_text(l, LEAPER)).transpose()?,
        kind: wanted_arg(py, kind)?,
        difficulty: lib(py, difficulty.parse())?,
        seed: whole(py, "seed", seed, 64)?,
        symmetric,
        ..PuzzleRequest::new(&board_text(board)?)
    };
    let plan = lib(py, request.plan())?;
    let a = run_watched(py, &Watch::default(), move |stop| {
        PuzzleRequest::run_plan(plan, &Control::new().stop(stop))
    })?;
    Ok(PyPuzzle {
        puzzle: a.puzzle,
        made: Some((a.solution, a.difficulty, a.work)),
    })
}

/// Solves `puzzle` (a `Puzzle` or its text) through the library's
/// [`SolveRequest`]: its solutions, or with `step` the next deduction from
/// `progress`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit, max_nodes, step, progress))]
pub(crate) fn solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    limit: &Bound<'_, PyAny>,
    max_nodes: Option<&Bound<'_, PyAny>>,
    step: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    if progress.is_some() && !step {
        return bad_input(
            py,
            "progress is for one step; give step=True with it, or leave it out to solve".into(),
        );
    }
    let request = SolveRequest {
        progress: progress.map(|p| puzzle_arg(py, p)).transpose()?,
        limit: whole(py, "limit", limit, 32)? as usize,
        max_nodes: max_nodes
            .map(|n| whole(py, "max_nodes", n, 64))
            .transpose()?,
        step,
        ..SolveRequest::new(&puzzle_arg(py, puzzle)?)
    };
    PyPuzzle::run(py, request)
}
