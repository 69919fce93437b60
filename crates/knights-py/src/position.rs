//! `knights.Position`: a partial path played by hand. It is made as the
//! library's position request is planned (so its refusals are every
//! door's), holds the library's [`Position`], and answers through the
//! position job's own `run_plan`, so its verdicts and hints are the ones
//! the command line and the server give.

use knights::play::Position;
use knights::request::{
    JobRequest, PositionAnswer, PositionPlan, PositionRequest, DEFAULT_MAX_NODES,
};
use knights::{Control, Square};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::convert::{bad_input, board_text, pair_text, text_arg, wanted_arg, whole_or, LEAPER};
use crate::errors::lib;
use crate::run::{run_watched, Watch};

/// The `TypeError` for a square that is neither a pair nor text.
const SQUARE_OR_TEXT: &str =
    "a square is a pair (row, col) of whole numbers such as (0, 0), or text such as '0,0'";

/// A square argument as the text the library reads: `(r, c)` as `r,c`,
/// text as it is.
fn square_text(square: &Bound<'_, PyAny>) -> PyResult<String> {
    match square.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => pair_text(square, SQUARE_OR_TEXT),
    }
}

/// One legal next square and what the oracle knows of it.
#[pyclass(frozen, get_all, module = "knights", name = "Hint")]
pub(crate) struct PyHint {
    /// The square, `(row, col)`.
    square: (u32, u32),
    /// Its row.
    row: u32,
    /// Its column.
    col: u32,
    /// Its unvisited neighbours once it is played.
    onward: usize,
    /// `"safe"` (known to keep a finish), `"losing"` or `"unknown"`.
    status: String,
    /// Why the move loses, when it does.
    reason: Option<String>,
}

#[pymethods]
impl PyHint {
    fn __repr__(&self) -> String {
        format!(
            "<knights.Hint {:?} {}, {} onward>",
            self.square, self.status, self.onward
        )
    }
}

/// A partial path on a board (holes, wrapped edges, another leaper) with
/// its goal: play and undo moves, list the legal ones, and ask whether the
/// path can still be finished and which moves keep a finish.
///
/// >>> p = Position("5x5", path=[(0, 0)])
/// >>> p.legal_moves
/// [(1, 2), (2, 1)]
/// >>> p.play("1,2"); p.path
/// [(0, 0), (1, 2)]
/// >>> p.finishable()
/// True
/// >>> p.undo()
/// (1, 2)
#[pyclass(module = "knights", name = "Position")]
pub(crate) struct PyPosition {
    position: Position,
    /// The last answer: its budget, whether it judged the moves, and it;
    /// dropped when the path changes.
    answer: Option<(u64, bool, PositionAnswer)>,
}

impl PyPosition {
    fn at(&self, s: Square) -> (u32, u32) {
        self.position.shape().board().coords(s)
    }

    /// The position job's answer under `max_nodes`, kept until the path
    /// changes; `hints` judges every legal move too.
    fn answer(
        &mut self,
        py: Python<'_>,
        max_nodes: Option<&Bound<'_, PyAny>>,
        hints: bool,
    ) -> PyResult<PositionAnswer> {
        let budget = whole_or(py, "max_nodes", max_nodes, 64, DEFAULT_MAX_NODES)?;
        if budget == 0 {
            return bad_input(
                py,
                format!("max_nodes must be from 1 to {}, not 0", u64::MAX),
            );
        }
        if let Some((b, h, a)) = &self.answer {
            if *b == budget && (*h || !hints) {
                return Ok(a.clone());
            }
        }
        let plan = PositionPlan {
            position: self.position.clone(),
            max_nodes: budget,
            hints,
        };
        let a = run_watched(py, &Watch::default(), move |stop| {
            PositionRequest::run_plan(plan, &Control::new().stop(stop))
        })?;
        self.answer = Some((budget, hints, a.clone()));
        Ok(a)
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (board, *, holes=None, wrap=None, leaper=None, kind="any", end=None, path=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        holes: Option<String>,
        wrap: Option<String>,
        leaper: Option<&Bound<'_, PyAny>>,
        kind: &str,
        end: Option<&Bound<'_, PyAny>>,
        path: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPosition> {
        let squares = match path {
            Some(p) => p
                .try_iter()
                .map_err(|_| PyTypeError::new_err("path is an iterable of squares"))?
                .map(|s| square_text(&s?))
                .collect::<PyResult<Vec<_>>>()?,
            None => Vec::new(),
        };
        let request = PositionRequest {
            holes,
            wrap,
            leaper: leaper.map(|l| pair_text(l, LEAPER)).transpose()?,
            kind: wanted_arg(py, kind)?,
            end: end.map(square_text).transpose()?,
            path: squares,
            ..PositionRequest::new(&board_text(board)?)
        };
        Self::planned(py, &request)
    }

    /// The position of a partial path written in a tour format (a grid
    /// with `.` for the squares not yet visited, JSON, a move list).
    #[staticmethod]
    #[pyo3(signature = (text, *, kind="any", end=None))]
    fn read(
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        kind: &str,
        end: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPosition> {
        let request = PositionRequest {
            kind: wanted_arg(py, kind)?,
            end: end.map(square_text).transpose()?,
            ..lib(py, PositionRequest::read(&text_arg(py, text)?))?
        };
        Self::planned(py, &request)
    }

    #[getter]
    fn rows(&self) -> u32 {
        self.position.shape().board().rows()
    }

    #[getter]
    fn cols(&self) -> u32 {
        self.position.shape().board().cols()
    }

    /// The goal: `"closed"`, `"open"` or `"either"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.position.goal().name()
    }

    #[getter]
    fn path(&self) -> Vec<(u32, u32)> {
        self.position.path().iter().map(|&s| self.at(s)).collect()
    }

    #[getter]
    fn legal_moves(&self) -> Vec<(u32, u32)> {
        self.position
            .legal_moves()
            .into_iter()
            .map(|s| self.at(s))
            .collect()
    }

    /// The squares not yet on the path.
    #[getter]
    fn left(&self) -> usize {
        self.position.left()
    }

    /// `"closed"` or `"open"` once the path covers every square (by the
    /// checker), else `None`.
    #[getter]
    fn finished(&self) -> Option<&'static str> {
        self.position.finished().map(|k| k.name())
    }

    /// Whether the path is a finished tour of the goal, ending where asked.
    #[getter]
    fn won(&self) -> bool {
        self.position.is_won()
    }

    /// Plays `square`, `(row, col)` or text such as `"2,3"`.
    fn play(&mut self, py: Python<'_>, square: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = square_text(square)?;
        let s = lib(py, self.position.shape().parse_square(&text))?;
        lib(py, self.position.play(s))?;
        self.answer = None;
        Ok(())
    }

    /// Takes back the last square played: it, or `None` for the empty path.
    fn undo(&mut self) -> Option<(u32, u32)> {
        let s = self.position.undo()?;
        self.answer = None;
        Some(self.at(s))
    }

    /// `"finishable"`, `"not-finishable"` or `"unknown"` (the search ran
    /// out of `max_nodes`).
    #[pyo3(signature = (max_nodes=None))]
    fn verdict(
        &mut self,
        py: Python<'_>,
        max_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<&'static str> {
        Ok(self.answer(py, max_nodes, false)?.verdict)
    }

    /// `True`, `False`, or `None` when the search ran out of `max_nodes`.
    #[pyo3(signature = (max_nodes=None))]
    fn finishable(
        &mut self,
        py: Python<'_>,
        max_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<bool>> {
        Ok(match self.answer(py, max_nodes, false)?.verdict {
            "finishable" => Some(true),
            "not-finishable" => Some(false),
            _ => None,
        })
    }

    /// Why the path cannot be finished, in one sentence; `None` otherwise.
    #[pyo3(signature = (max_nodes=None))]
    fn reason(
        &mut self,
        py: Python<'_>,
        max_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<String>> {
        Ok(self.answer(py, max_nodes, false)?.reason)
    }

    /// The squares that finish the path, when it can be finished.
    #[pyo3(signature = (max_nodes=None))]
    fn completion(
        &mut self,
        py: Python<'_>,
        max_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Vec<(u32, u32)>>> {
        let a = self.answer(py, max_nodes, false)?;
        Ok(a.completion
            .map(|c| c.into_iter().map(|s| self.at(s)).collect()))
    }

    /// Every legal next square judged: safe moves first (fewest onward
    /// moves first), then unknown, then losing ones.
    #[pyo3(signature = (max_nodes=None))]
    fn hints(
        &mut self,
        py: Python<'_>,
        max_nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<PyHint>> {
        let a = self.answer(py, max_nodes, true)?;
        Ok(a.hints
            .into_iter()
            .map(|h| PyHint {
                square: (h.row, h.col),
                row: h.row,
                col: h.col,
                onward: h.onward,
                status: h.status.to_string(),
                reason: h.reason,
            })
            .collect())
    }

    fn __len__(&self) -> usize {
        self.position.path().len()
    }

    fn __repr__(&self) -> String {
        let shape = self.position.shape();
        let at = match self.position.path().last() {
            Some(&s) => format!(", at {:?}", self.at(s)),
            None => String::new(),
        };
        format!(
            "<knights.Position {shape}, {} of {} squares{at}, goal {}>",
            self.position.path().len(),
            shape.squares(),
            self.kind()
        )
    }
}

impl PyPosition {
    /// The position of `request`, planned by the library.
    fn planned(py: Python<'_>, request: &PositionRequest) -> PyResult<PyPosition> {
        let plan = lib(py, request.plan())?;
        Ok(PyPosition {
            position: plan.position,
            answer: None,
        })
    }
}
