//! The dry run of a count: its projected states, disk and time, without
//! counting (`knights count --dry-run`, `GET /api/dry-run`,
//! `knights.dry_run`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::count::CountPlan;
use super::{refuse, CountOf, CountRequest, JobRequest};
use crate::count::{Counter, Method, Projection, Source, SquareOrder};
use crate::{Control, Kind, Result};

/// The dry run of a count request: the same request, planned the same way
/// (shape, kind, method, order of the squares, the sweep over lengths or
/// cells), so that no option the count uses is left out of its
/// projection. Symmetric tours are projected on the half turn's quotient
/// graph; classes, one count per symmetry of the board, are not. Serialised as the count request it holds:
/// `{"dry-run": {"board": "8x8"}}`.
///
/// # Example
/// ```
/// use knights::request::{CountRequest, DryRunRequest, JobRequest};
/// use knights::{Control, Kind};
/// let request = DryRunRequest(CountRequest { kind: Kind::Open, ..CountRequest::new("5x5") });
/// let answer = request.run(&Control::new())?;
/// assert_eq!(answer.projection.steps, 25);
/// assert_eq!(serde_json::to_value(&answer)?["method"], "forward");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DryRunRequest(pub CountRequest);

/// What a count is projected to need, with what it was asked.
///
/// Serialised as `knights count --dry-run --json` writes it (see
/// docs/formats.md): `board`, `kind`, `dry_run` (true), `of`, `method`
/// (forward or meet, as it would run), `order`, `projected_peak_states`,
/// `peak_step`, `steps`, `projected_disk_bytes`, `projected_seconds`,
/// `source`, `measured_steps`, `trial_seconds`, `free_disk_bytes`,
/// `states_per_step`, `work_dir`.
#[derive(Clone, Debug)]
pub struct DryRunAnswer {
    /// The board (with its holes, wrapping and leaper).
    pub board: String,
    /// Whether the board is plain: no holes, wrapping or other leaper.
    pub plain: bool,
    /// Closed or open.
    pub kind: Kind,
    /// What the count would count.
    pub of: CountOf,
    /// The order of the squares.
    pub order: SquareOrder,
    /// The projection.
    pub projection: Projection,
    /// Where the states would go on disk: the work directory, else the
    /// system's temporary directory.
    pub work_dir: PathBuf,
    /// The bytes free on the disk of `work_dir`, where the system says.
    pub free_disk_bytes: Option<u64>,
    /// The disk bound the count was given, if any.
    pub max_disk: Option<u64>,
}

impl DryRunAnswer {
    /// The method the count would run: meet if it meets in the middle,
    /// else forward.
    pub fn method(&self) -> Method {
        match self.projection.join {
            Some(_) => Method::Meet,
            None => Method::Forward,
        }
    }

    /// Where the figures come from.
    pub fn source(&self) -> Source {
        self.projection.source.unwrap_or(Source::Nothing)
    }
}

/// The shape of a [`DryRunAnswer`] in JSON.
#[derive(Serialize)]
struct AnswerJson<'a> {
    board: &'a str,
    kind: Kind,
    dry_run: bool,
    of: CountOf,
    method: Method,
    order: &'static str,
    projected_peak_states: u64,
    peak_step: usize,
    steps: usize,
    projected_disk_bytes: u64,
    projected_seconds: f64,
    source: &'static str,
    measured_steps: usize,
    trial_seconds: f64,
    free_disk_bytes: Option<u64>,
    states_per_step: &'a [u64],
    work_dir: String,
}

impl Serialize for DryRunAnswer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let p = &self.projection;
        AnswerJson {
            board: &self.board,
            kind: self.kind,
            dry_run: true,
            of: self.of,
            method: self.method(),
            order: self.order.name(),
            projected_peak_states: p.peak_states,
            peak_step: p.peak_step,
            steps: p.steps,
            projected_disk_bytes: p.disk_bytes,
            projected_seconds: p.seconds,
            source: self.source().describe(),
            measured_steps: p.measured_steps,
            trial_seconds: p.trial.as_secs_f64(),
            free_disk_bytes: self.free_disk_bytes,
            states_per_step: &p.states_per_step,
            work_dir: self.work_dir.display().to_string(),
        }
        .serialize(s)
    }
}

impl PartialEq for DryRunAnswer {
    /// Answers are equal when they project the same count the same way;
    /// the trial's times and the free disk may differ.
    fn eq(&self, other: &DryRunAnswer) -> bool {
        let key = |a: &DryRunAnswer| {
            let p = &a.projection;
            (
                a.board.clone(),
                a.kind,
                a.of,
                a.order,
                a.method(),
                p.steps,
                p.peak_states,
                p.states_per_step.clone(),
            )
        };
        key(self) == key(other)
    }
}

impl JobRequest for DryRunRequest {
    type Plan = CountPlan;
    type Answer = DryRunAnswer;

    fn plan(&self) -> Result<CountPlan> {
        let plan = self.0.plan()?;
        if plan.of() == CountOf::Classes {
            return refuse(
                "a dry run projects tours, symmetric tours, all lengths or all cells; classes run a count for every symmetry of the board, which it does not model".into(),
            );
        }
        Ok(plan)
    }

    fn run_plan(plan: CountPlan, control: &Control) -> Result<DryRunAnswer> {
        let shape = plan.shape();
        let projection = if !shape.is_plain() {
            plan.counter(Counter::on_shape(shape), control, None)
                .project()?
        } else {
            let counter = plan.counter(Counter::new(shape.board()), control, None);
            match plan.of() {
                CountOf::AllLengths => counter.all_lengths_projection()?,
                CountOf::AllCells => counter.all_cells_projection()?,
                CountOf::Symmetric => counter.symmetric_projection()?,
                _ => counter.project()?,
            }
        };
        let options = plan.options();
        let work_dir = options.work_dir.clone().unwrap_or_else(std::env::temp_dir);
        Ok(DryRunAnswer {
            board: shape.to_string(),
            plain: shape.is_plain(),
            kind: options.kind,
            of: plan.of(),
            order: options.order,
            projection,
            free_disk_bytes: crate::memory::free_disk_bytes(&work_dir),
            work_dir,
            max_disk: options.max_disk,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;

    #[test]
    fn a_dry_run_projects_the_plan_and_refuses_what_it_does_not_model() {
        let a = round_trip(Request::DryRun(DryRunRequest(CountRequest {
            staggered: true,
            kind: Kind::Open,
            ..CountRequest::new("5x5")
        })));
        let a = &a["dry-run"];
        assert_eq!(a["dry_run"], true);
        assert_eq!(a["order"], "staggered");
        assert_eq!(a["method"], "forward");
        assert_eq!(a["steps"], 25);
        let classes = DryRunRequest(CountRequest::classes("6x6"));
        let said = classes.validate().unwrap_err().to_string();
        assert!(
            said.contains("classes run a count for every symmetry"),
            "{said}"
        );
        // Symmetric tours: the half turn's quotient graph, 18 squares on 6x6.
        let symmetric = round_trip(Request::DryRun(DryRunRequest(CountRequest {
            of: CountOf::Symmetric,
            ..CountRequest::new("6x6")
        })));
        let a = &symmetric["dry-run"];
        assert_eq!(
            (a["of"].as_str(), a["steps"].as_u64()),
            (Some("symmetric"), Some(18))
        );
    }
}
