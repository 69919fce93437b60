//! The existence question: theorems for plain boards, a bounded search
//! beyond them.

use crate::convert::{board_arg, kind_arg, shape_arg, shape_square, whole};
use crate::run::{run_watched, Watch};
use knights::Kind;
use pyo3::prelude::*;

/// Whether a tour exists beyond the plain board (holes, wrapping, a
/// leaper, given start and end): `"yes"`, `"no"` or `"unknown"` (the
/// search of at most `max_nodes` ran out), and the reason.
#[pyfunction]
#[pyo3(signature = (board, kind, start, end, wrap, leaper, holes, max_nodes))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn decide(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    wrap: Option<&str>,
    leaper: Option<&str>,
    holes: Option<&str>,
    max_nodes: &Bound<'_, PyAny>,
) -> PyResult<(String, String)> {
    let max_nodes = whole(py, "max_nodes", max_nodes, 64)?;
    let board = board_arg(py, board)?;
    let shape = shape_arg(py, board, wrap, leaper, holes)?;
    let kind = kind_arg(py, kind)?;
    let start = start.map(|s| shape_square(py, &shape, s)).transpose()?;
    let end = end.map(|s| shape_square(py, &shape, s)).transpose()?;
    let d = run_watched(py, &Watch::default(), move |stop| {
        let spec = knights::algorithms::Spec {
            kind,
            start,
            end,
            stop,
            ..knights::algorithms::Spec::on(shape)
        };
        knights::decide::decide(&spec, max_nodes)
    })?;
    Ok((d.answer.word().to_string(), d.reason))
}

/// Whether a tour of the kind exists: the answer, the reason and the theorem.
#[pyfunction]
pub(crate) fn exists(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
) -> PyResult<(bool, String, String)> {
    let board = board_arg(py, board)?;
    let closed = knights::exists::closed_tour(board);
    let open = knights::exists::open_tour(board);
    let pick = |e: knights::exists::Existence| (e.exists, e.reason, e.theorem.to_string());
    Ok(match kind_arg(py, kind)? {
        Some(Kind::Closed) => pick(closed),
        Some(Kind::Open) => pick(open),
        None if closed.exists => pick(closed),
        None => pick(open),
    })
}
