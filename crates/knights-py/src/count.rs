//! Exact counts of tours, with progress reported to a Python callback.

use crate::convert::{bad_input, board_arg, count_kind};
use crate::run::{run_watched, Watch};
use knights::count;
use knights::request::{CountAnswer, CountOf, CountRequest, JobRequest};
use pyo3::prelude::*;

/// An exact count of tours (undirected unless `directed`; with
/// `symmetric`, of those a half turn leaves unchanged; with `classes`, of
/// their classes under the board's symmetries), run as the library's
/// [`CountRequest`]. `progress` is called with
/// `(step, steps, states, peak, on_disk)` after every square.
#[pyfunction]
#[pyo3(name = "count", signature = (board, kind, directed, symmetric, classes, progress))]
pub(crate) fn count_tours(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    directed: bool,
    symmetric: bool,
    classes: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let (board, kind) = count_args(py, board, kind)?;
    let of = match (symmetric, classes) {
        (false, false) => CountOf::Tours,
        (true, false) => CountOf::Symmetric,
        (false, true) => CountOf::Classes,
        (true, true) => {
            return bad_input(
                py,
                "symmetric and classes are two different counts; give one of them".into(),
            )
        }
    };
    let answer = run_count(py, &board, kind, of, directed, progress)?;
    big_int(py, answer.count)
}

/// Every prefix of a strip in one pass: with `cells`, the tours of the
/// first `c` cells for every `c` (as `(c, count)`), else the tours of every
/// length (as `("WxL", count)`), run as the library's [`CountRequest`] of
/// [`CountOf::AllCells`] or [`CountOf::AllLengths`].
#[pyfunction]
#[pyo3(name = "count_sweep", signature = (board, kind, directed, cells, progress))]
pub(crate) fn count_sweep(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    directed: bool,
    cells: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let (board, kind) = count_args(py, board, kind)?;
    let of = if cells {
        CountOf::AllCells
    } else {
        CountOf::AllLengths
    };
    let answer = run_count(py, &board, kind, of, directed, progress)?;
    let list = pyo3::types::PyList::empty(py);
    for c in &answer.cells {
        list.append((c.cells, big_int(py, c.count)?))?;
    }
    for l in &answer.lengths {
        list.append((l.board.as_str(), big_int(py, l.count)?))?;
    }
    Ok(list.into_any().unbind())
}

/// The board (as the request's text) and the kind of a count or sweep,
/// read by the library; a kind that is not one of closed and open is
/// refused.
fn count_args(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
) -> PyResult<(String, knights::Kind)> {
    Ok((board_arg(py, board)?.to_string(), count_kind(py, kind)?))
}

/// Runs a count request with the GIL released, `progress` called with
/// `(step, steps, states, peak, on_disk)` after every square.
fn run_count(
    py: Python<'_>,
    board: &str,
    kind: knights::Kind,
    of: CountOf,
    directed: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<CountAnswer> {
    let request = CountRequest {
        kind,
        of,
        directed,
        ..CountRequest::new(board)
    };
    let watch = Watch::default();
    let calls_back = watch.clone();
    run_watched(py, &watch, move |stop| {
        let control = knights::Control::new().stop(stop).progress(move |p| {
            // Called once a square: not within one.
            let (Some(f), Some(p)) = (&progress, p.frontier.filter(|f| f.within.is_none())) else {
                return;
            };
            Python::attach(|py| {
                let args = (p.step, p.steps, p.states, p.peak, p.on_disk);
                if let Err(e) = f.call1(py, args) {
                    calls_back.fail(e);
                }
            });
        });
        request.run(&control)
    })
}

/// A count as a Python `int`, exact at any size.
fn big_int(py: Python<'_>, n: count::Count) -> PyResult<Py<PyAny>> {
    match n.to_u128() {
        Some(x) => Ok(x.into_pyobject(py)?.into_any().unbind()),
        None => Ok(py
            .get_type::<pyo3::types::PyInt>()
            .call1((n.to_string(),))?
            .unbind()),
    }
}
