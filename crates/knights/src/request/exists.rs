//! Whether a tour exists, and why.

use serde::{Deserialize, Serialize};

use super::{place, within, JobRequest};
use crate::algorithms::TourSpec;
use crate::exists::ExistsVerdict;
use crate::{exists, Control, Result, Shape, Wanted};

/// Whether a tour of a kind exists (`knights exists`, `GET /api/exists`,
/// `knights.exists`): by the theorems on a plain board, else by the
/// necessary conditions, the theorems and a search under a node budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ExistsRequest {
    /// The board.
    pub board: String,
    /// Holes: the rows of a board file, separated by newlines or `/`.
    #[serde(default)]
    pub holes: Option<String>,
    /// Wrapped edges: none, rows, cols or both.
    #[serde(default)]
    pub wrap: Option<String>,
    /// Another leaper than the knight, `A,B`.
    #[serde(default)]
    pub leaper: Option<String>,
    /// The kind asked about; either: a closed tour if there is one, else
    /// an open one.
    #[serde(default)]
    pub kind: Wanted,
    /// The start square, `ROW,COL` or a name such as `c3`
    /// ([`Board::parse_square`](crate::Board::parse_square)).
    #[serde(default)]
    pub start: Option<String>,
    /// The end square, written as the start (needs a start).
    #[serde(default)]
    pub end: Option<String>,
    /// Node budget of the search where no theorem decides (1 or more,
    /// default 10,000,000); the answer is unknown when it runs out.
    #[serde(default = "ten_million")]
    pub max_nodes: u64,
}

fn ten_million() -> u64 {
    10_000_000
}

/// Yes, no or unknown, with the grounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExistsAnswer {
    /// `yes`, `no` or `unknown`.
    pub answer: String,
    /// The kind the answer is about (for either on a plain board: closed
    /// if a closed tour exists, else open).
    pub kind: Wanted,
    /// Why, in a sentence or two.
    pub reason: String,
    /// The theorem that decides it, on a plain board.
    pub theorem: Option<String>,
}

impl ExistsRequest {
    /// Whether `board` has a tour of either kind, with every default.
    pub fn new(board: &str) -> ExistsRequest {
        ExistsRequest {
            board: board.into(),
            holes: None,
            wrap: None,
            leaper: None,
            kind: Wanted::Either,
            start: None,
            end: None,
            max_nodes: ten_million(),
        }
    }

    /// The shape the question is about: the board with its holes, wrapped
    /// edges and leaper.
    pub fn shape(&self) -> Result<Shape> {
        place::shape(
            &self.board,
            self.holes.as_deref(),
            self.wrap.as_deref(),
            self.leaper.as_deref(),
        )
    }
}

/// An [`ExistsRequest`] checked: the question as a search's spec, the kind
/// asked about and the node budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExistsPlan {
    /// The question as a search's spec (its stop flag is the run's).
    pub spec: TourSpec,
    /// The kind asked about.
    pub kind: Wanted,
    /// Node budget of the search.
    pub max_nodes: u64,
}

impl JobRequest for ExistsRequest {
    type Plan = ExistsPlan;
    type Answer = ExistsAnswer;

    fn plan(&self) -> Result<ExistsPlan> {
        let max_nodes = within("max-nodes", self.max_nodes, 1, u64::MAX)?;
        let shape = self.shape()?;
        let (start, end) = place::ends(&shape, self.start.as_deref(), self.end.as_deref())?;
        let spec = TourSpec {
            kind: self.kind,
            start,
            end,
            ..TourSpec::on(shape)
        };
        Ok(ExistsPlan {
            spec,
            kind: self.kind,
            max_nodes,
        })
    }

    /// The answer.
    fn run_plan(plan: ExistsPlan, control: &Control) -> Result<ExistsAnswer> {
        let spec = TourSpec {
            control: control.clone(),
            ..plan.spec
        };
        if spec.is_plain() && spec.start.is_none() {
            return Ok(plain(spec.board, plan.kind));
        }
        let d = exists::decide(&spec, plan.max_nodes)?;
        Ok(ExistsAnswer {
            answer: d.answer.word().into(),
            kind: plan.kind,
            reason: d.reason,
            theorem: None,
        })
    }
}

/// The theorems' answer on a plain board.
fn plain(board: crate::Board, kind: Wanted) -> ExistsAnswer {
    let closed = exists::closed_tour(board);
    let open = exists::open_tour(board);
    let (kind, e, reason) = match kind {
        Wanted::Closed => (Wanted::Closed, &closed, closed.reason.clone()),
        Wanted::Open => (Wanted::Open, &open, open.reason.clone()),
        Wanted::Either if closed.exists => (Wanted::Closed, &closed, closed.reason.clone()),
        Wanted::Either => (
            Wanted::Open,
            &open,
            format!(
                "{}; no closed tour: {} ({})",
                open.reason, closed.reason, closed.theorem
            ),
        ),
    };
    let answer = if e.exists {
        ExistsVerdict::Yes
    } else {
        ExistsVerdict::No
    };
    ExistsAnswer {
        answer: answer.word().into(),
        kind,
        reason,
        theorem: Some(e.theorem.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;

    fn request(board: &str, kind: Wanted) -> ExistsRequest {
        ExistsRequest {
            board: board.into(),
            holes: None,
            wrap: None,
            leaper: None,
            kind,
            start: None,
            end: None,
            max_nodes: ten_million(),
        }
    }

    #[test]
    fn either_kind_answers_closed_first_then_open() {
        let a = round_trip(Request::Exists(request("8x8", Wanted::Either)));
        assert_eq!(
            (a["exists"]["answer"].as_str(), a["exists"]["kind"].as_str()),
            (Some("yes"), Some("closed"))
        );
        let a = round_trip(Request::Exists(request("3x4", Wanted::Either)));
        assert_eq!(
            (a["exists"]["answer"].as_str(), a["exists"]["kind"].as_str()),
            (Some("yes"), Some("open"))
        );
        assert!(a["exists"]["reason"]
            .as_str()
            .unwrap()
            .contains("no closed tour"));
        let a = round_trip(Request::Exists(ExistsRequest {
            holes: Some("..../..../..../...#".into()),
            ..request("4x4", Wanted::Either)
        }));
        assert_eq!(a["exists"]["kind"], "either");
        assert!(
            ["yes", "no"].contains(&a["exists"]["answer"].as_str().unwrap()),
            "{a}"
        );
    }

    #[test]
    fn a_budget_of_nothing_and_holes_of_another_board_are_refused() {
        let e = ExistsRequest {
            max_nodes: 0,
            ..request("8x8", Wanted::Closed)
        };
        assert!(e.validate().unwrap_err().to_string().contains("max-nodes"));
        let e = ExistsRequest {
            holes: Some("../..".into()),
            ..request("8x8", Wanted::Closed)
        };
        assert!(e.validate().unwrap_err().to_string().contains("holes"));
    }
}
