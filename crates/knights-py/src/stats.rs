//! Statistics over many generated tours or tourneys.

use crate::convert::{board_arg, kind_arg, whole};
use crate::errors::lib;
use crate::run::{run_watched, Watch};
use knights::algorithms::Algorithm;
use knights::stats::Job;
use knights::{Error, Kind};
use pyo3::prelude::*;

/// The summary of `count` tours (or raw tourneys with `tourneys`) as JSON:
/// move and relative-move frequencies, their deviations, and the figures
/// (rails of closed tours, cycles of tourneys, the share of closed tours).
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
    let count = whole(py, "count", count, 64)?;
    let seed = whole(py, "seed", seed, 64)?;
    const MAX: u64 = 10_000_000;
    let board = board_arg(py, board)?;
    let algorithm: Algorithm = lib(py, algorithm.parse())?;
    let kind = if obfuscate {
        Some(Kind::Closed)
    } else {
        kind_arg(py, kind)?
    };
    if count == 0 || count > MAX {
        return lib(
            py,
            Err(Error::Unsupported(format!(
                "count must be between 1 and {MAX}, not {count}"
            ))),
        );
    }
    let generator = match (tourneys, algorithm) {
        (false, _) => None,
        (true, Algorithm::Tourney(g)) => Some(g),
        (true, _) => {
            return lib(
                py,
                Err(Error::Unsupported(
                    "tourneys=True needs a tourney generator: algorithm='tourney', 'braid', 'four-cover', 'neural' or 'divide'".into(),
                )),
            )
        }
    };
    let job = match generator {
        Some(g) => Job::Tourney(g),
        None => Job::Tour(algorithm, kind.into(), obfuscate.then_some(16)),
    };
    run_watched(py, &Watch::default(), move |stop| {
        let control = knights::Control::new().stop(stop);
        let summary = knights::stats::Summary::builder(board, job)
            .samples(count)
            .seed(seed)
            .control(&control)
            .run()?;
        serde_json::to_string(&summary)
            .map_err(|e| Error::Internal(format!("the summary did not serialise: {e}")))
    })
}
