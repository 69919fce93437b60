//! Statistics over many generated tours or tourneys, run as the library's
//! [`StatsRequest`].

use crate::convert::{board_text, wanted_arg, whole};
use crate::run::{run_watched, Watch};
use knights::request::{JobRequest, StatsRequest};
use knights::Error;
use pyo3::prelude::*;

/// The summary of `count` tours (or raw tourneys with `tourneys`) as JSON:
/// move and relative-move frequencies, their deviations, and the figures
/// (rails of closed tours, cycles of tourneys, the share of closed tours).
/// The relative moves are under the one-tour form's names, `relative` and
/// `relative_std` (the command line's JSON says `relative_moves`).
#[pyfunction]
#[pyo3(signature = (board, count, algorithm, kind, seed, obfuscate, tourneys))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn stats(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
    algorithm: &str,
    kind: &str,
    seed: &Bound<'_, PyAny>,
    obfuscate: bool,
    tourneys: bool,
) -> PyResult<String> {
    let request = StatsRequest {
        board: board_text(board)?,
        algorithm: algorithm.into(),
        kind: wanted_arg(py, kind)?,
        samples: whole(py, "count", count, 64)?,
        obfuscate,
        tourneys,
        seed: whole(py, "seed", seed, 64)?,
    };
    run_watched(py, &Watch::default(), move |stop| {
        let summary = request.run(&knights::Control::new().stop(stop))?;
        let mut json = serde_json::to_value(&summary)
            .map_err(|e| Error::Internal(format!("the summary did not serialise: {e}").into()))?;
        if let Some(fields) = json.as_object_mut() {
            for (from, to) in [
                ("relative_moves", "relative"),
                ("relative_moves_std", "relative_std"),
            ] {
                if let Some(v) = fields.remove(from) {
                    fields.insert(to.into(), v);
                }
            }
        }
        Ok(json.to_string())
    })
}
