//! Magic tours: a tour's line sums (`Tour.magic`, the library's
//! [`knights::magic::sums`]) and the search for semimagic tours
//! (`knights.magic`, the library's [`MagicRequest`], planned and run by the
//! library so that its refusals and answers are every door's).

use knights::format;
use knights::magic::LineSums;
use knights::request::{JobRequest, MagicRequest};
use knights::{Control, Tour};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::classes::PyTour;
use crate::convert::{board_arg, board_text, square_text, text_arg, wanted_arg, whole};
use crate::errors::lib;
use crate::puzzle::named;
use crate::run::{run_watched, Watch};

/// The line sums of `tour` as `knights.LineSums`, or `None` on a board
/// with holes.
pub(crate) fn line_sums<'py>(py: Python<'py>, tour: &Tour) -> PyResult<Option<Bound<'py, PyAny>>> {
    knights::magic::sums(tour)
        .map(|s| {
            let LineSums {
                magic,
                rows,
                cols,
                diagonals,
            } = s;
            let diagonals = diagonals.map(|[a, b]| (a, b));
            named(py, "LineSums", (magic.name(), rows, cols, diagonals))
        })
        .transpose()
}

/// The partial path `from_` as text the request reads: text (or bytes, or
/// a parsed dict) as it is, a `Tour` as its JSON, or `(row, col)` pairs as
/// the JSON of a path on `board`.
fn path_arg(py: Python<'_>, board: &Bound<'_, PyAny>, from: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(t) = from.cast::<PyTour>() {
        return Ok(format::tour_json(&t.get().tour).to_string());
    }
    if let Ok(text) = text_arg(py, from) {
        return Ok(text);
    }
    let b = board_arg(py, board)?;
    let mut squares = Vec::new();
    for s in from.try_iter().map_err(|_| wrong_path(from))? {
        let (r, c) = s?.extract::<(i128, i128)>().map_err(|_| wrong_path(from))?;
        squares.push([r, c]);
    }
    let json = serde_json::json!({"rows": b.rows(), "cols": b.cols(), "squares": squares});
    Ok(json.to_string())
}

/// The `TypeError` of a `from_` that is no partial path.
fn wrong_path(from: &Bound<'_, PyAny>) -> PyErr {
    let what = from
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    PyTypeError::new_err(format!(
        "from_ is a partial path: (row, col) pairs, a Tour, or a path's text (a numbered grid, JSON or a move list), not {what}"
    ))
}

/// `knights.magic`: up to `limit` semimagic tours of `board` (wrapped with
/// its keyword arguments and docstring in `knights/__init__.py`).
#[pyfunction]
#[pyo3(signature = (board, kind, start, from_, seed, limit, max_nodes, symmetric))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn magic(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    from_: Option<&Bound<'_, PyAny>>,
    seed: &Bound<'_, PyAny>,
    limit: &Bound<'_, PyAny>,
    max_nodes: Option<&Bound<'_, PyAny>>,
    symmetric: bool,
) -> PyResult<Vec<PyTour>> {
    let request = MagicRequest {
        kind: kind
            .map(|k| wanted_arg(py, k))
            .transpose()?
            .unwrap_or_default(),
        start: start.map(square_text).transpose()?,
        from: from_.map(|f| path_arg(py, board, f)).transpose()?,
        seed: whole(py, "seed", seed, 64)?,
        limit: Some(whole(py, "limit", limit, 64)?),
        max_nodes: max_nodes
            .map(|n| whole(py, "max_nodes", n, 64))
            .transpose()?,
        symmetric,
        ..MagicRequest::new(&board_text(board)?)
    };
    let plan = lib(py, request.plan())?;
    let answer = run_watched(py, &Watch::default(), move |stop| {
        MagicRequest::run_plan(plan, &Control::new().stop(stop))
    })?;
    Ok(answer
        .tours
        .into_iter()
        .map(|t| PyTour { tour: t.tour })
        .collect())
}
