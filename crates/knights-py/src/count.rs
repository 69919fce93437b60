//! Exact counts of tours, with progress reported to a Python callback.

use crate::convert::{board_arg, kind_arg};
use crate::errors::lib;
use crate::run::{run_watched, Watch};
use knights::count;
use knights::Error;
use pyo3::prelude::*;

/// An exact count of undirected tours (with `symmetric`, of those a half
/// turn leaves unchanged; with `classes`, of their classes under the
/// board's symmetries). `progress` is called
/// with `(step, steps, states, peak, on_disk)` after every square.
#[pyfunction]
#[pyo3(name = "count", signature = (board, kind, symmetric, classes, progress))]
pub(crate) fn count_tours(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    symmetric: bool,
    classes: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let board = board_arg(py, board)?;
    let kind = match kind_arg(py, kind)? {
        Some(k) => k,
        None => {
            return lib(
                py,
                Err(Error::Unsupported(
                    "a count is of closed or of open tours; give kind='closed' or kind='open'"
                        .into(),
                )),
            )
        }
    };
    if classes && symmetric {
        return lib(
            py,
            Err(Error::Unsupported(
                "symmetric and classes are two different counts; give one of them".into(),
            )),
        );
    }
    let watch = Watch::default();
    let calls_back = watch.clone();
    let n = run_watched(py, &watch, move |stop| {
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
        let opts = count::Options {
            kind,
            control: Some(&control),
            ..count::Options::default()
        };
        if classes {
            Ok(count::classes(board, &opts)?.classes)
        } else if symmetric {
            Ok(count::symmetric(board, &opts)?.count)
        } else {
            Ok(count::tours(board, &opts)?.count)
        }
    })?;
    big_int(py, n)
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
