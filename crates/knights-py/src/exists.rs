//! The existence question, run as the library's [`ExistsRequest`]:
//! theorems for plain boards, a bounded search beyond them.

use crate::convert::{board_arg, pair_text, square_text, wanted_arg, whole, LEAPER};
use crate::run::{run_watched, Watch};
use knights::request::{ExistsAnswer, ExistsRequest, JobRequest};
use pyo3::prelude::*;

/// Whether a tour exists beyond the plain board (holes, wrapping, a
/// leaper, given start and end): `"yes"`, `"no"` or `"unknown"` (the
/// search of at most `max_nodes`, the request's default unless given, ran
/// out), and the reason.
#[pyfunction]
#[pyo3(signature = (board, kind, start, end, wrap, leaper, holes, max_nodes))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn decide(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    wrap: Option<String>,
    leaper: Option<&Bound<'_, PyAny>>,
    holes: Option<String>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<(String, String)> {
    let plain = ExistsRequest::new(&board_arg(py, board)?.to_string());
    let request = ExistsRequest {
        holes,
        wrap,
        leaper: leaper.map(|l| pair_text(l, LEAPER)).transpose()?,
        kind: wanted_arg(py, kind)?,
        start: start.map(square_text).transpose()?,
        end: end.map(square_text).transpose()?,
        max_nodes: match max_nodes {
            Some(n) => whole(py, "max_nodes", n, 64)?,
            None => plain.max_nodes,
        },
        ..plain
    };
    let d = answer(py, request)?;
    Ok((d.answer, d.reason))
}

/// Whether a tour of the kind exists: the answer, the reason and the theorem.
#[pyfunction]
pub(crate) fn exists(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
) -> PyResult<(bool, String, String)> {
    let request = ExistsRequest {
        kind: wanted_arg(py, kind)?,
        ..ExistsRequest::new(&board_arg(py, board)?.to_string())
    };
    let e = answer(py, request)?;
    Ok((e.answer == "yes", e.reason, e.theorem.unwrap_or_default()))
}

/// The library's answer, the search run off the GIL.
fn answer(py: Python<'_>, request: ExistsRequest) -> PyResult<ExistsAnswer> {
    run_watched(py, &Watch::default(), move |stop| {
        request.run(&knights::Control::new().stop(stop))
    })
}
