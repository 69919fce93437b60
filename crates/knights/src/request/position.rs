//! A position in play: the legal moves, the oracle's verdict and the hints.

use serde::{Deserialize, Serialize};

use super::{place, within, JobRequest};
use crate::play::{HintLine, Outlook, Position};
use crate::shape::{Leaper, Wrap};
use crate::{Control, Kind, Result, Wanted};

/// The node budget of the oracle for a whole answer (the position's
/// verdict and its hints) when the request gives none.
pub const DEFAULT_MAX_NODES: u64 = 30_000;

/// A partial path and its goal: what can be played next, whether it can be
/// finished, and which moves keep a finish.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct PositionRequest {
    /// The board, `ROWSxCOLS` or one number.
    pub board: String,
    /// Holes: the rows of a board file (`.` a square, `#` a hole),
    /// separated by newlines or `/`.
    #[serde(default)]
    pub holes: Option<String>,
    /// Wrapped edges: none, rows, cols or both.
    #[serde(default)]
    pub wrap: Option<String>,
    /// Another leaper than the knight, `A,B`.
    #[serde(default)]
    pub leaper: Option<String>,
    /// The squares played, in order, each `ROW,COL` or a name such as `c3` (docs/formats.md, Square names).
    #[serde(default)]
    pub path: Vec<String>,
    /// The kind of tour to finish (default either).
    #[serde(default)]
    pub kind: Wanted,
    /// The square the tour must end on, `ROW,COL` or a name such as `c3`.
    #[serde(default)]
    pub end: Option<String>,
    /// Node budget of the oracle's search for the whole answer, the
    /// position's verdict and the hints together (1 or more; default
    /// [`DEFAULT_MAX_NODES`]). A move not judged within it is `unknown`.
    /// Nodes, not time: the same request gives the same answer anywhere.
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// Whether to judge every legal next square (default yes).
    #[serde(default = "yes")]
    pub hints: bool,
}

fn yes() -> bool {
    true
}

impl PositionRequest {
    /// The empty path on `board`, every default.
    pub fn new(board: &str) -> PositionRequest {
        PositionRequest {
            board: board.into(),
            holes: None,
            wrap: None,
            leaper: None,
            path: Vec::new(),
            kind: Wanted::Either,
            end: None,
            max_nodes: None,
            hints: true,
        }
    }

    /// The request of a partial path in any tour format
    /// ([`crate::format::read_partial`]): its board, holes, wrapping,
    /// leaper and path, every other field the default.
    ///
    /// # Errors
    /// [`crate::Error::Parse`] for text that is no partial path.
    pub fn read(text: &str) -> Result<PositionRequest> {
        let partial = crate::format::read_partial(text)?;
        let shape = &partial.shape;
        let board = shape.board();
        let holes = (shape.hole_count() > 0).then(|| {
            (0..board.rows())
                .map(|r| {
                    (0..board.cols())
                        .map(|c| {
                            if shape.is_hole(board.square(r, c)) {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/")
        });
        Ok(PositionRequest {
            holes,
            wrap: (shape.wrap() != Wrap::None).then(|| shape.wrap().to_string()),
            leaper: (shape.leaper() != Leaper::KNIGHT).then(|| shape.leaper().to_string()),
            path: partial
                .path
                .iter()
                .map(|(r, c)| format!("{r},{c}"))
                .collect(),
            ..PositionRequest::new(&board.to_string())
        })
    }
}

/// A position request read into the position and its budget.
#[derive(Clone, Debug)]
pub struct PositionPlan {
    /// The position.
    pub position: Position,
    /// The node budget of the whole answer.
    pub max_nodes: u64,
    /// Whether to judge the legal next squares.
    pub hints: bool,
}

impl JobRequest for PositionRequest {
    type Plan = PositionPlan;
    type Answer = PositionAnswer;

    fn plan(&self) -> Result<PositionPlan> {
        let shape = place::shape(
            &self.board,
            self.holes.as_deref(),
            self.wrap.as_deref(),
            self.leaper.as_deref(),
        )?;
        let end = self
            .end
            .as_deref()
            .map(|e| shape.parse_square(e))
            .transpose()?;
        let path = self
            .path
            .iter()
            .map(|s| shape.parse_square(s))
            .collect::<Result<Vec<_>>>()?;
        let max_nodes = within(
            "max-nodes",
            self.max_nodes.unwrap_or(DEFAULT_MAX_NODES),
            1,
            u64::MAX,
        )?;
        let position = Position::new(shape, self.kind, end)?.with_path(&path)?;
        Ok(PositionPlan {
            position,
            max_nodes,
            hints: self.hints,
        })
    }

    fn run_plan(plan: PositionPlan, control: &Control) -> Result<PositionAnswer> {
        let p = &plan.position;
        let (verdict, hints) = if plan.hints {
            let judged = p.judge(plan.max_nodes, control)?;
            let hints = judged.hints.iter().map(|h| p.hint_line(h)).collect();
            (judged.verdict, hints)
        } else {
            (p.verdict(plan.max_nodes, control)?, Vec::new())
        };
        let board = p.shape().board();
        let (reason, completion) = match &verdict {
            Outlook::Finishable(rest) => (None, Some(rest.clone())),
            Outlook::NotFinishable(r) => (Some(r.to_string()), None),
            Outlook::Unknown => (None, None),
        };
        Ok(PositionAnswer {
            rows: board.rows(),
            cols: board.cols(),
            holes: p.shape().holes().collect(),
            path: p.path().to_vec(),
            left: p.left(),
            finished: p.finished(),
            won: p.is_won(),
            legal_moves: p.legal_moves(),
            verdict: verdict.word(),
            reason_kind: match &verdict {
                Outlook::NotFinishable(r) => Some(r.kind()),
                _ => None,
            },
            reason,
            completion,
            hints,
        })
    }
}

/// What a position answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct PositionAnswer {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// The board's holes, as row-major square numbers (for drawing it).
    pub holes: Vec<u32>,
    /// The path, as row-major square numbers.
    pub path: Vec<u32>,
    /// Squares not yet on the path.
    pub left: usize,
    /// The kind of tour the path is, when it covers every square.
    pub finished: Option<Kind>,
    /// Whether the path is a finished tour of the goal, ending where asked.
    pub won: bool,
    /// The legal next squares, as row-major square numbers.
    pub legal_moves: Vec<u32>,
    /// `finishable`, `not-finishable` or `unknown`.
    pub verdict: &'static str,
    /// Why not, in one sentence, when not finishable.
    pub reason: Option<String>,
    /// The kind of reason (see [`crate::play::Reason::kind`]).
    pub reason_kind: Option<&'static str>,
    /// The squares that finish the path, when finishable.
    pub completion: Option<Vec<u32>>,
    /// Every legal next square judged, safe moves first.
    pub hints: Vec<HintLine>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{Answer, Request};

    #[test]
    fn a_position_request_answers_moves_verdict_and_hints() {
        let r: Request = serde_json::from_str(
            r#"{"position": {"board": "5x5", "path": ["0,0", "1,2"], "max-nodes": 100000}}"#,
        )
        .unwrap();
        let Answer::Position(a) = r.run(&Control::new()).unwrap() else {
            panic!("a position answer")
        };
        assert_eq!(a.path, vec![0, 7]);
        assert_eq!(a.verdict, "finishable");
        assert_eq!(a.completion.as_ref().map(Vec::len), Some(23));
        assert!(a.hints.iter().any(|h| h.status == "safe"));
        let json = serde_json::to_value(&a).unwrap();
        assert!(json["legal-moves"].is_array());
    }

    #[test]
    fn bad_positions_are_refused_in_one_sentence() {
        for (path, words) in [
            (vec!["0,0", "0,1"], "not one move from"),
            (vec!["0,0", "1,2", "0,0"], "already on the path"),
            (vec!["9,9"], "not a square"),
        ] {
            let r = PositionRequest {
                path: path.into_iter().map(String::from).collect(),
                ..PositionRequest::new("5x5")
            };
            let e = r.validate().unwrap_err();
            assert_eq!(e.category(), crate::Category::BadInput, "{e}");
            assert!(e.to_string().contains(words), "{e}");
        }
        let e = serde_json::from_str::<PositionRequest>(r#"{"board": "5x5", "goal": "closed"}"#);
        assert!(e.unwrap_err().to_string().contains("goal"));
    }

    #[test]
    fn a_partial_path_in_a_file_reads_into_its_request() {
        let r = PositionRequest::read(" 0 . .\n . # 1\n . . .\n").unwrap();
        assert_eq!(
            (r.board.as_str(), r.holes.as_deref()),
            ("3x3", Some(".../.#./..."))
        );
        assert_eq!(r.path, vec!["0,0", "1,2"]);
        let json =
            r#"{"rows": 5, "cols": 5, "wrap": "both", "leaper": [1, 3], "squares": [[0, 0]]}"#;
        let r = PositionRequest::read(json).unwrap();
        assert_eq!(
            (r.wrap.as_deref(), r.leaper.as_deref()),
            (Some("both"), Some("1,3"))
        );
        assert!(r.validate().is_ok());
    }
}
