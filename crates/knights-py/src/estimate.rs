//! A count's dry run and the estimate, run as the library's
//! [`DryRunRequest`] and [`EstimateRequest`]; their answers are the dicts
//! of the answers' JSON (as `knights count --dry-run --json` and `knights
//! estimate --json` write them).

use std::path::PathBuf;

use crate::convert::{bad_input, board_text, count_kind, whole};
use crate::errors::lib;
use crate::run::{run_watched, Watch};
use knights::request::{CountOf, CountRequest, DryRunRequest, EstimateRequest, JobRequest};
use knights::Error;
use pyo3::prelude::*;

/// What a count of ``board`` would take, without counting: the projected
/// peak of its states, their disk and the time, from the table of boards
/// counted before or a short trial run (``knights count --dry-run``).
/// ``of`` is ``"tours"``, ``"all-lengths"`` or ``"all-cells"``; ``method``,
/// ``outside_in``, ``staggered``, ``wrap``, ``max_disk`` and ``work_dir``
/// are the count's. A dict: ``method`` (``"forward"`` or ``"meet"``, as
/// the count would run), ``order``, ``projected_peak_states``,
/// ``projected_disk_bytes``, ``projected_seconds``, ``source``,
/// ``steps``, ``states_per_step`` and the rest of the command line's JSON.
///
/// >>> p = dry_run("5x5", "open", staggered=True)
/// >>> p["method"], p["order"], p["steps"]
/// ('forward', 'staggered', 25)
/// >>> dry_run("3x8", "open", of="all-lengths")["steps"]
/// 24
#[pyfunction]
#[pyo3(signature = (
    board, kind = "closed", *, of = "tours", method = "auto", outside_in = false,
    staggered = false, wrap = None, max_disk = None, work_dir = None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn dry_run(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    of: &str,
    method: &str,
    outside_in: bool,
    staggered: bool,
    wrap: Option<String>,
    max_disk: Option<&Bound<'_, PyAny>>,
    work_dir: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    let request = DryRunRequest(CountRequest {
        kind: count_kind(py, kind)?,
        of: of_arg(py, of)?,
        method: lib(py, method.parse())?,
        outside_in,
        staggered,
        wrap,
        max_disk: max_disk.map(|b| whole(py, "max_disk", b, 64)).transpose()?,
        work_dir,
        ..CountRequest::new(&board_text(board)?)
    });
    let plan = lib(py, request.plan())?;
    let json = run_watched(py, &Watch::default(), move |stop| {
        let answer = DryRunRequest::run_plan(plan, &knights::Control::new().stop(stop))?;
        to_json(serde_json::to_string(&answer))
    })?;
    loads(py, &json)
}

/// An estimate of the number of tours of ``board`` by random probes
/// (``knights estimate``): ``samples`` probes (by default the method's
/// own number) or as many as ``seconds`` allow, by ``method`` (``"auto"``,
/// ``"frontier"``, ``"sis"``, ``"pruned"`` or ``"knuth"``; ``keep`` states
/// a square for the frontier method, 100000 unless given), seeded by
/// ``seed`` (0 unless given); the
/// figures of directed tours with ``directed``. A dict: ``tours``, its
/// ``tours_error`` and 95 % interval ``low`` to ``high``, the ``method``
/// that ran, ``samples``, ``hits``, ``seconds`` and the rest of the
/// command line's JSON.
///
/// >>> e = estimate("6x6", method="sis", samples=300, seed=1)
/// >>> e["method"], e["samples"], e["low"] < 9862 < e["high"]
/// ('sis', 300, True)
#[pyfunction]
#[pyo3(signature = (
    board, kind = "closed", *, directed = false, samples = None, seconds = None,
    method = "auto", keep = None, seed = None
))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn estimate(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    directed: bool,
    samples: Option<&Bound<'_, PyAny>>,
    seconds: Option<f64>,
    method: &str,
    keep: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let defaults = EstimateRequest::new("");
    let request = EstimateRequest {
        board: board_text(board)?,
        kind: count_kind(py, kind)?,
        directed,
        samples: samples.map(|n| whole(py, "samples", n, 64)).transpose()?,
        seconds,
        method: lib(py, method.parse())?,
        keep: match keep {
            Some(k) => usize::try_from(whole(py, "keep", k, 64)?).unwrap_or(usize::MAX),
            None => defaults.keep,
        },
        seed: seed
            .map(|s| whole(py, "seed", s, 64))
            .transpose()?
            .unwrap_or(0),
    };
    let plan = lib(py, request.plan())?;
    let json = run_watched(py, &Watch::default(), move |stop| {
        let answer = EstimateRequest::run_plan(plan, &knights::Control::new().stop(stop))?;
        to_json(serde_json::to_string(&answer))
    })?;
    loads(py, &json)
}

/// What a dry run projects, by the request's names.
fn of_arg(py: Python<'_>, of: &str) -> PyResult<CountOf> {
    match serde_json::from_value(serde_json::Value::String(of.into())) {
        Ok(of) => Ok(of),
        Err(_) => bad_input(
            py,
            format!(
                "'{}' is not what a count counts; of is tours, symmetric, classes, all-lengths or all-cells",
                knights::excerpt(of)
            ),
        ),
    }
}

/// An answer's JSON text, or the library's internal error.
fn to_json(text: serde_json::Result<String>) -> knights::Result<String> {
    text.map_err(|e| Error::Internal(format!("the answer did not serialise: {e}").into()))
}

/// The JSON text as Python values.
fn loads(py: Python<'_>, json: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}
