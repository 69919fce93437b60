//! Move statistics of many tours or tourneys.

use serde::{Deserialize, Serialize};

use super::{refuse, within, JobRequest};
use crate::algorithms::Algorithm;
use crate::stats::{Sampled, Summary};
use crate::{Board, Control, Result, Wanted};

/// The most samples a statistics request may ask for.
const MAX_SAMPLES: u64 = 10_000_000;

/// Shatters of an obfuscated sample, as `knights stats` makes them.
const SHATTERS: u32 = 16;

/// Move statistics (`knights stats`, `POST /api/stats`, `knights.stats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct StatsRequest {
    /// The board.
    pub board: String,
    /// The algorithm's name (default `auto`).
    #[serde(default = "auto")]
    pub algorithm: String,
    /// The kind of tour wanted (default either; obfuscated tours are closed).
    #[serde(default)]
    pub kind: Wanted,
    /// Number of tours or tourneys (1 to 10,000,000; default 100).
    #[serde(default = "hundred")]
    pub samples: u64,
    /// Obfuscate every tour (16 shatters, then join) before counting.
    #[serde(default)]
    pub obfuscate: bool,
    /// Sample the raw tourneys of the algorithm's tourney generator instead.
    #[serde(default)]
    pub tourneys: bool,
    /// Seed (sample i uses the i-th batch generator of this seed).
    #[serde(default = "one")]
    pub seed: u64,
}

fn auto() -> String {
    "auto".into()
}

fn hundred() -> u64 {
    100
}

fn one() -> u64 {
    1
}

impl StatsRequest {
    /// 100 samples of the default tour of `board`, seed 1.
    pub fn new(board: &str) -> StatsRequest {
        StatsRequest {
            board: board.into(),
            algorithm: auto(),
            kind: Wanted::Either,
            samples: hundred(),
            obfuscate: false,
            tourneys: false,
            seed: one(),
        }
    }
}

/// A [`StatsRequest`] checked: the board, what one sample is, how many and
/// the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsPlan {
    /// The board.
    pub board: Board,
    /// What one sample is.
    pub sample: Sampled,
    /// Number of samples.
    pub samples: u64,
    /// The seed.
    pub seed: u64,
}

impl StatsRequest {
    /// What one sample is.
    fn sample(&self, algorithm: Algorithm) -> Result<Sampled> {
        if !self.tourneys {
            // Obfuscation switches rails of a closed tour.
            let kind = if self.obfuscate {
                Wanted::Closed
            } else {
                self.kind
            };
            return Ok(Sampled::Tour(
                algorithm,
                kind,
                self.obfuscate.then_some(SHATTERS),
            ));
        }
        if self.obfuscate {
            return refuse("tourneys are sampled raw: obfuscate does not apply to them".into());
        }
        match algorithm {
            Algorithm::Tourney(g) => Ok(Sampled::Tourney(g)),
            _ => refuse(
                "sampling tourneys needs a tourney generator: algorithm tourney, braid, four-cover, neural or divide".into(),
            ),
        }
    }
}

impl JobRequest for StatsRequest {
    type Plan = StatsPlan;
    type Answer = Summary;

    fn plan(&self) -> Result<StatsPlan> {
        let board: Board = self.board.parse()?;
        let algorithm: Algorithm = self.algorithm.parse()?;
        let samples = within("samples", self.samples, 1, MAX_SAMPLES)?;
        Ok(StatsPlan {
            board,
            sample: self.sample(algorithm)?,
            samples,
            seed: self.seed,
        })
    }

    /// The statistics.
    fn run_plan(plan: StatsPlan, control: &Control) -> Result<Summary> {
        Summary::builder(plan.board, plan.sample)
            .samples(plan.samples)
            .seed(plan.seed)
            .control(control)
            .run()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;

    #[test]
    fn statistics_are_accepted_and_tourneys_of_a_tour_algorithm_refused() {
        let a = round_trip(Request::Stats(StatsRequest {
            algorithm: "warnsdorff".into(),
            samples: 5,
            ..StatsRequest::new("8x8")
        }));
        assert_eq!(a["stats"]["count"], 5);
        let bad = StatsRequest {
            tourneys: true,
            algorithm: "warnsdorff".into(),
            ..StatsRequest::new("8x8")
        };
        assert!(bad
            .validate()
            .unwrap_err()
            .to_string()
            .contains("tourney generator"));
        let none = StatsRequest {
            samples: 0,
            ..StatsRequest::new("8x8")
        };
        assert!(none.validate().unwrap_err().to_string().contains("samples"));
    }
}
