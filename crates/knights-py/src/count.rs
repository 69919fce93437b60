//! Exact counts of tours, with progress reported to a Python callback.

use crate::convert::{bad_input, board_arg, kind_arg};
use crate::run::{run_watched, Watch};
use knights::count;
use knights::request::{CountOf, CountRequest};
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
    let board = board_arg(py, board)?;
    let Some(kind) = kind_arg(py, kind)? else {
        return bad_input(
            py,
            "a count is of closed or of open tours; give kind='closed' or kind='open'".into(),
        );
    };
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
    let request = CountRequest {
        kind,
        of,
        directed,
        ..CountRequest::new(&board.to_string())
    };
    let watch = Watch::default();
    let calls_back = watch.clone();
    let answer = run_watched(py, &watch, move |stop| {
        let control = knights::Control::new().stop(stop).progress(move |p| {
            let (Some(f), Some(p)) = (&progress, p.frontier) else {
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
    })?;
    big_int(py, answer.count)
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
