//! The typed request model: one request and one answer type for every job
//! (tour, tourney, join, shatter, obfuscate, exists, count, dry run, estimate,
//! encrypt, decrypt, stats, check), so that the command line, the web
//! server and Python read their arguments into the same values, refuse
//! the same bad input with the same sentence, and serialise the same
//! answers.
//!
//! A request is plain data ([`serde`], field names in kebab-case as on the
//! command line, unknown fields refused, defaults as the command line's).
//! Each request is a [`JobRequest`]: its `plan()` makes every check the doors
//! made on their own and reads the request into typed values once; its
//! `run_plan(plan, &Control)` calls the library and returns the answer,
//! which carries domain values (a tour, a tourney) rather than their JSON.
//! A refusal is an [`Error`] of the bad-input category whose sentence names
//! the request's field in plain words, never a command-line flag.
//!
//! # Example
//! ```
//! use knights::request::{Answer, CountRequest, JobRequest, Request};
//! use knights::Control;
//! let request: Request = serde_json::from_str(r#"{"count": {"board": "6x6", "directed": true}}"#)?;
//! let Answer::Count(answer) = request.run(&Control::new())? else { unreachable!() };
//! assert_eq!(answer.count.to_string(), "19724");
//! let classes = CountRequest { directed: true, ..CountRequest::classes("6x6") };
//! assert!(classes.validate().unwrap_err().to_string().contains("directed"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod check_puzzle;
mod cipher;
mod count;
mod dry_run;
mod estimate;
mod exists;
mod magic;
mod place;
mod position;
mod puzzle;
mod rails;
mod sheet;
mod stats;
mod tour;

use serde::{Deserialize, Serialize};

pub use check_puzzle::{is_puzzle, PuzzleCheck};
pub use cipher::{CipherAnswer, CipherPlan, CipherRequest, DecryptRequest, EncryptRequest};
pub use count::{CountAnswer, CountOf, CountPlan, CountRequest, LengthCount};
pub use dry_run::{DryRunAnswer, DryRunRequest};
pub use estimate::{EstimateAnswer, EstimatePlan, EstimateRequest};
pub use exists::{ExistsAnswer, ExistsPlan, ExistsRequest};
pub use magic::{
    EnumerationSummary, MagicAnswer, MagicPlan, MagicRequest, MagicTour, DEFAULT_MAGIC_NODES,
};
pub use place::shape;
pub use position::{PositionAnswer, PositionPlan, PositionRequest, DEFAULT_MAX_NODES};
pub use puzzle::{
    PuzzleAnswer, PuzzlePlan, PuzzleRequest, SolutionsAnswer, SolveAnswer, SolvePlan, SolveRequest,
    StepAnswer, DEFAULT_SOLVE_NODES,
};
pub use rails::{
    CheckAnswer, CheckPlan, CheckRequest, CoverPlan, JoinAnswer, JoinRequest, ObfuscatePlan,
    ObfuscateRequest, ShatterAnswer, ShatterRequest,
};
pub use sheet::{SheetAnswer, SheetPlan, SheetRequest};
pub use stats::{StatsPlan, StatsRequest};
pub use tour::{TourAnswer, TourPlan, TourRequest, TourneyAnswer, TourneyPlan, TourneyRequest};

use crate::stats::Summary;
use crate::{Control, Error, Result};

/// One job of the request model. A request is plain data; [`JobRequest::plan`]
/// makes every check once and reads the request into typed values (the
/// plan), so that nothing is parsed or checked again; [`JobRequest::run_plan`]
/// runs a plan under a [`Control`] into a typed answer that carries domain
/// values (a [`crate::Tour`], a [`crate::Tourney`]), so that no door
/// rebuilds them. A door holding typed values builds the request typed;
/// strings are read at the serde edge only.
pub trait JobRequest {
    /// The request checked and read into typed values: what a run needs.
    type Plan;
    /// What a run answers.
    type Answer: Serialize;

    /// Every check of the request, into its plan, without running it.
    fn plan(&self) -> Result<Self::Plan>;

    /// Runs `plan` under `control`.
    fn run_plan(plan: Self::Plan, control: &Control) -> Result<Self::Answer>;

    /// Every check of the request, without running it.
    fn validate(&self) -> Result<()> {
        self.plan().map(|_| ())
    }

    /// Plans the request and runs the plan under `control`.
    fn run(&self, control: &Control) -> Result<Self::Answer> {
        Self::run_plan(self.plan()?, control)
    }
}

/// A request for one job, named by its job: `{"tour": {"board": "8x8"}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Request {
    /// One tour.
    Tour(TourRequest),
    /// One tourney (cycle cover).
    Tourney(TourneyRequest),
    /// A closed tour or tourney joined into one closed tour.
    Join(JoinRequest),
    /// A closed tour or tourney shattered into a tourney.
    Shatter(ShatterRequest),
    /// A closed tour or tourney shattered and joined again.
    Obfuscate(ObfuscateRequest),
    /// Whether a tour exists, and why.
    Exists(ExistsRequest),
    /// An exact count.
    Count(CountRequest),
    /// A count's projected states, disk and time, without counting.
    DryRun(DryRunRequest),
    /// An estimated count.
    Estimate(EstimateRequest),
    /// A text enciphered.
    Encrypt(EncryptRequest),
    /// A text deciphered.
    Decrypt(DecryptRequest),
    /// Move statistics of many tours or tourneys.
    Stats(StatsRequest),
    /// A tour or tourney checked.
    Check(CheckRequest),
    /// A position in play: its moves, verdict and hints.
    Position(PositionRequest),
    /// A clue puzzle generated.
    Puzzle(PuzzleRequest),
    /// A clue puzzle solved, or one step of it.
    Solve(SolveRequest),
    /// Semimagic tours looked for, or enumerated.
    Magic(MagicRequest),
}

/// The answer to a [`Request`], of the same job.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// A tour.
    Tour(TourAnswer),
    /// A tourney.
    Tourney(TourneyAnswer),
    /// The joined tour.
    Join(JoinAnswer),
    /// The shattered tourney.
    Shatter(ShatterAnswer),
    /// The obfuscated tour.
    Obfuscate(JoinAnswer),
    /// Yes, no or unknown, with the grounds.
    Exists(ExistsAnswer),
    /// The count.
    Count(Box<CountAnswer>),
    /// The count's projection.
    DryRun(Box<DryRunAnswer>),
    /// The estimate.
    Estimate(EstimateAnswer),
    /// The ciphertext.
    Encrypt(CipherAnswer),
    /// The plain text.
    Decrypt(CipherAnswer),
    /// The statistics.
    Stats(Box<Summary>),
    /// The checker's verdict.
    Check(CheckAnswer),
    /// The position's moves, verdict and hints.
    Position(Box<PositionAnswer>),
    /// The generated puzzle.
    Puzzle(Box<PuzzleAnswer>),
    /// The solutions, or one step.
    Solve(SolveAnswer),
    /// The semimagic tours found.
    Magic(Box<MagicAnswer>),
}

impl Request {
    /// Every check of the request, without running it.
    pub fn validate(&self) -> Result<()> {
        match self {
            Request::Tour(r) => JobRequest::validate(r),
            Request::Tourney(r) => JobRequest::validate(r),
            Request::Join(r) => JobRequest::validate(r),
            Request::Shatter(r) => JobRequest::validate(r),
            Request::Obfuscate(r) => JobRequest::validate(r),
            Request::Exists(r) => JobRequest::validate(r),
            Request::Count(r) => JobRequest::validate(r),
            Request::DryRun(r) => JobRequest::validate(r),
            Request::Estimate(r) => JobRequest::validate(r),
            Request::Encrypt(r) => JobRequest::validate(r),
            Request::Decrypt(r) => JobRequest::validate(r),
            Request::Stats(r) => JobRequest::validate(r),
            Request::Check(r) => JobRequest::validate(r),
            Request::Position(r) => JobRequest::validate(r),
            Request::Puzzle(r) => JobRequest::validate(r),
            Request::Solve(r) => JobRequest::validate(r),
            Request::Magic(r) => JobRequest::validate(r),
        }
    }

    /// Validates the request and runs it under `control`.
    pub fn run(&self, control: &Control) -> Result<Answer> {
        Ok(match self {
            Request::Tour(r) => Answer::Tour(JobRequest::run(r, control)?),
            Request::Tourney(r) => Answer::Tourney(JobRequest::run(r, control)?),
            Request::Join(r) => Answer::Join(JobRequest::run(r, control)?),
            Request::Shatter(r) => Answer::Shatter(JobRequest::run(r, control)?),
            Request::Obfuscate(r) => Answer::Obfuscate(JobRequest::run(r, control)?),
            Request::Exists(r) => Answer::Exists(JobRequest::run(r, control)?),
            Request::Count(r) => Answer::Count(Box::new(JobRequest::run(r, control)?)),
            Request::DryRun(r) => Answer::DryRun(Box::new(JobRequest::run(r, control)?)),
            Request::Estimate(r) => Answer::Estimate(JobRequest::run(r, control)?),
            Request::Encrypt(r) => Answer::Encrypt(JobRequest::run(r, control)?),
            Request::Decrypt(r) => Answer::Decrypt(JobRequest::run(r, control)?),
            Request::Stats(r) => Answer::Stats(Box::new(JobRequest::run(r, control)?)),
            Request::Check(r) => Answer::Check(JobRequest::run(r, control)?),
            Request::Position(r) => Answer::Position(Box::new(JobRequest::run(r, control)?)),
            Request::Puzzle(r) => Answer::Puzzle(Box::new(JobRequest::run(r, control)?)),
            Request::Solve(r) => Answer::Solve(JobRequest::run(r, control)?),
            Request::Magic(r) => Answer::Magic(Box::new(JobRequest::run(r, control)?)),
        })
    }
}

/// A refusal of the request's field `field`: `sentence` says what is wrong
/// and what would be right.
fn refuse<T>(sentence: String) -> Result<T> {
    Err(Error::Refused(sentence.into()))
}

/// `value` if it lies in `low..=high`, else a refusal naming `what`.
fn within<T: PartialOrd + std::fmt::Display + Copy>(
    what: &str,
    value: T,
    low: T,
    high: T,
) -> Result<T> {
    if value < low || value > high {
        return refuse(format!("{what} must be from {low} to {high}, not {value}"));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request survives a trip through JSON, and its answer serialises.
    pub(crate) fn round_trip(request: Request) -> serde_json::Value {
        let text = serde_json::to_string(&request).unwrap();
        let back: Request = serde_json::from_str(&text).unwrap();
        assert_eq!(back, request, "{text}");
        let answer = request.run(&Control::new()).unwrap();
        serde_json::to_value(&answer).unwrap()
    }

    #[test]
    fn unknown_fields_and_jobs_are_refused() {
        let e = serde_json::from_str::<Request>(r#"{"tour": {"board": "8x8", "colour": 1}}"#);
        assert!(e.unwrap_err().to_string().contains("colour"));
        let e = serde_json::from_str::<Request>(r#"{"dance": {"board": "8x8"}}"#);
        assert!(e.is_err());
    }

    #[test]
    fn a_request_names_its_job() {
        let r: Request = serde_json::from_str(r#"{"tour": {"board": "5x5"}}"#).unwrap();
        let answer = round_trip(r);
        assert_eq!(answer["tour"]["squares"].as_array().unwrap().len(), 25);
    }

    #[test]
    fn refusals_are_bad_input_and_name_no_flag() {
        let bad = [
            Request::Count(CountRequest {
                directed: true,
                ..CountRequest::classes("6x6")
            }),
            Request::Stats(StatsRequest {
                samples: 0,
                ..StatsRequest::new("8x8")
            }),
            Request::Tour(TourRequest {
                end: Some("0,1".into()),
                ..TourRequest::new("8x8")
            }),
        ];
        for r in bad {
            let e = r.validate().unwrap_err();
            assert_eq!(e.category(), crate::Category::BadInput, "{e}");
            assert!(!e.to_string().contains("--"), "{e}");
        }
    }
}
