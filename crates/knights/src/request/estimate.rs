//! Estimated counts, by random probes.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{refuse, within, JobRequest};
use crate::count::estimate::{resolve_method, KEEP};
use crate::count::{Estimate, EstimateMethod, EstimateOptions};
use crate::{Board, Control, Error, Hint, Kind, Result};

/// An estimate of the number of tours (`knights estimate`,
/// `GET /api/estimate`, `knights.estimate`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct EstimateRequest {
    /// The board.
    pub board: String,
    /// Closed (the default) or open tours.
    #[serde(default)]
    pub kind: Kind,
    /// Estimate directed tours: twice the undirected count.
    #[serde(default)]
    pub directed: bool,
    /// Number of probes (1 or more; default the method's own).
    #[serde(default)]
    pub samples: Option<u64>,
    /// Probe for this many seconds instead of a number of probes (0.001
    /// to 604800, one week; not reproducible).
    #[serde(default)]
    pub seconds: Option<f64>,
    /// How probes choose their way: auto, frontier, sis, pruned or knuth
    /// (read by its name).
    #[serde(default)]
    pub method: EstimateMethod,
    /// States a run of the frontier method keeps after each square (1 to
    /// 67108864).
    #[serde(default = "keep")]
    pub keep: usize,
    /// Seed of the probes.
    #[serde(default)]
    pub seed: u64,
}

fn keep() -> usize {
    KEEP
}

/// The longest estimate by time: one week.
const MAX_SECONDS: f64 = 604_800.0;

/// An estimate, scaled for directed tours, with the probes' figures (the
/// names `knights estimate --json` writes).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EstimateAnswer {
    /// The board.
    pub board: String,
    /// Closed or open.
    pub kind: Kind,
    /// Whether the figures are of directed tours.
    pub directed: bool,
    /// The method that ran (never auto).
    pub method: EstimateMethod,
    /// Probes made.
    pub samples: u64,
    /// Whether the estimate is exact: every run of the frontier method
    /// kept all its states.
    pub exact: bool,
    /// States a run kept after each square, for the frontier method.
    pub keep: Option<usize>,
    /// Seed of the probes.
    pub seed: u64,
    /// Probes that found a tour.
    pub hits: u64,
    /// The estimated number of tours.
    pub tours: f64,
    /// Standard error of `tours`.
    pub tours_error: f64,
    /// The low end of its 95 % interval.
    pub low: f64,
    /// The high end of its 95 % interval.
    pub high: f64,
    /// Estimated nodes of the tree the walks probe (0 for the frontier
    /// method).
    pub tree: f64,
    /// Standard error of `tree`.
    pub tree_error: f64,
    /// Seconds the probes took.
    pub seconds: f64,
    /// Sample skewness of the probes' results.
    pub skewness: f64,
    /// The largest probe result's share of their sum.
    pub largest: f64,
}

impl EstimateRequest {
    /// An estimate of the closed tours of `board` with every default.
    pub fn new(board: &str) -> EstimateRequest {
        EstimateRequest {
            board: board.into(),
            kind: Kind::Closed,
            directed: false,
            samples: None,
            seconds: None,
            method: EstimateMethod::Auto,
            keep: KEEP,
            seed: 0,
        }
    }

    /// Every check of the request, into its plan (see [`JobRequest::plan`]).
    fn checked(&self) -> Result<EstimatePlan> {
        let board: Board = self.board.parse()?;
        let method = self.method;
        within("keep", self.keep, 1, 1 << 26)?;
        let samples =
            match (self.samples, self.seconds) {
                (Some(_), Some(_)) => return refuse(
                    "give samples or seconds, not both: a number of probes, or a time to probe for"
                        .into(),
                ),
                (Some(n), None) => within("samples", n, 1, u64::MAX)?,
                (None, Some(s)) => {
                    if !(0.001..=MAX_SECONDS).contains(&s) {
                        return refuse(format!(
                            "seconds must be from 0.001 to {MAX_SECONDS} (one week), not {s}"
                        ));
                    }
                    u64::MAX
                }
                (None, None) => resolve_method(board, self.kind, method).default_samples(),
            };
        let opts = EstimateOptions {
            kind: self.kind,
            samples,
            seed: self.seed,
            method,
            seconds: self.seconds,
            keep: self.keep,
        };
        Ok(EstimatePlan {
            board,
            options: opts,
            directed: self.directed,
        })
    }
}

/// An estimate request checked and read: the board, the estimate's
/// options and whether the figures are of directed tours (see [`JobRequest`]).
#[derive(Copy, Clone, Debug)]
pub struct EstimatePlan {
    board: Board,
    options: EstimateOptions,
    directed: bool,
}

impl EstimatePlan {
    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The options of the probes.
    pub fn options(&self) -> &EstimateOptions {
        &self.options
    }

    /// The method the probes will use (auto resolved for the board and
    /// kind), for a door that names its probes before they run.
    pub fn resolved_method(&self) -> EstimateMethod {
        resolve_method(self.board, self.options.kind, self.options.method)
    }
}

impl JobRequest for EstimateRequest {
    type Plan = EstimatePlan;
    type Answer = EstimateAnswer;

    fn plan(&self) -> Result<EstimatePlan> {
        self.checked()
    }

    fn run_plan(plan: EstimatePlan, control: &Control) -> Result<EstimateAnswer> {
        let EstimatePlan {
            board,
            options: opts,
            directed,
        } = plan;
        let t0 = Instant::now();
        let e = Estimate::builder(board)
            .options(opts)
            .control(control)
            .run()?;
        let seconds = t0.elapsed().as_secs_f64();
        if e.samples == 0 {
            return Err(Error::GaveUp(
                format!("no probe finished in the {seconds:.3} s given, so there is no estimate")
                    .into(),
            )
            .with_hint(Hint::MoreTimeOrSamples));
        }
        let scale = if directed { 2.0 } else { 1.0 };
        Ok(EstimateAnswer {
            board: board.to_string(),
            kind: opts.kind,
            directed,
            method: e.method,
            samples: e.samples,
            exact: e.exact,
            keep: (e.method == EstimateMethod::Frontier).then_some(opts.keep),
            seed: opts.seed,
            hits: e.hits,
            tours: e.tours * scale,
            tours_error: e.tours_error * scale,
            low: e.low * scale,
            high: e.high * scale,
            tree: e.tree,
            tree_error: e.tree_error,
            seconds,
            skewness: e.skewness,
            largest: e.largest,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;

    #[test]
    fn an_estimate_is_accepted_and_samples_with_seconds_refused() {
        let a = round_trip(Request::Estimate(EstimateRequest {
            kind: Kind::Open,
            directed: true,
            samples: Some(20_000),
            method: EstimateMethod::Sis,
            seed: 1,
            ..EstimateRequest::new("3x4")
        }));
        let (low, high) = (
            a["estimate"]["low"].as_f64().unwrap(),
            a["estimate"]["high"].as_f64().unwrap(),
        );
        assert!(low <= 16.0 && 16.0 <= high, "{a}"); // 8 open tours, 16 directed
        let both = EstimateRequest {
            samples: Some(5),
            seconds: Some(1.0),
            ..EstimateRequest::new("8x8")
        };
        assert!(both
            .validate()
            .unwrap_err()
            .to_string()
            .contains("samples or seconds"));
        let keep = EstimateRequest {
            keep: 0,
            ..EstimateRequest::new("8x8")
        };
        assert!(keep.validate().unwrap_err().to_string().contains("keep"));
    }
}
