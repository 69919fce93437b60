//! Tours and tourneys.

use serde::{Deserialize, Serialize, Serializer};

use super::{place, within, JobRequest};
use crate::algorithms::{Algorithm, TourneyMethod};
use crate::{Board, Control, Result, Square, Tour, TourBuilder, Tourney, Wanted};

/// One tour of a board (`knights tour`, `GET /api/tour`, `knights.tour`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct TourRequest {
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
    /// The kind of tour wanted (default either).
    #[serde(default)]
    pub kind: Wanted,
    /// The algorithm's name (default `auto`).
    #[serde(default = "auto")]
    pub algorithm: String,
    /// Seed of the random choices.
    #[serde(default)]
    pub seed: u64,
    /// The start square, `ROW,COL` or a name such as `c3`
    /// ([`Board::parse_square`](crate::Board::parse_square)).
    #[serde(default)]
    pub start: Option<String>,
    /// The end square, written as the start (needs a start).
    #[serde(default)]
    pub end: Option<String>,
    /// Warnsdorff's tie-break.
    #[serde(default)]
    pub tie: Option<String>,
    /// Attempts allowed to the methods that restart (1 or more).
    #[serde(default)]
    pub max_attempts: Option<u32>,
    /// Node budget of the backtracking searches (1 or more).
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// Obfuscate the closed tour with this many shatters (0 to 1000).
    #[serde(default)]
    pub obfuscate: Option<u32>,
}

fn auto() -> String {
    "auto".into()
}

/// The most shatters an obfuscation may ask for.
const MAX_SHATTERS: u32 = 1000;

impl TourRequest {
    /// A tour of `board` with every default.
    pub fn new(board: &str) -> TourRequest {
        TourRequest {
            board: board.into(),
            holes: None,
            wrap: None,
            leaper: None,
            kind: Wanted::Either,
            algorithm: auto(),
            seed: 0,
            start: None,
            end: None,
            tie: None,
            max_attempts: None,
            max_nodes: None,
            obfuscate: None,
        }
    }
}

/// A [`TourRequest`] checked: the tour builder it stands for.
#[derive(Clone, Debug)]
pub struct TourPlan {
    builder: TourBuilder,
    seed: u64,
}

impl TourPlan {
    /// The algorithm asked for, with its options.
    pub fn algorithm(&self) -> Algorithm {
        self.builder.algorithm_asked()
    }
}

impl JobRequest for TourRequest {
    type Plan = TourPlan;
    type Answer = TourAnswer;

    fn plan(&self) -> Result<TourPlan> {
        let shape = place::shape(
            &self.board,
            self.holes.as_deref(),
            self.wrap.as_deref(),
            self.leaper.as_deref(),
        )?;
        let (start, end) = place::ends(&shape, self.start.as_deref(), self.end.as_deref())?;
        let mut algorithm: Algorithm = self.algorithm.parse()?;
        if let Some(tie) = &self.tie {
            algorithm.set_option("tie", tie)?;
        }
        if let Some(n) = self.max_attempts {
            within("max-attempts", n, 1, u32::MAX)?;
            algorithm.set_option("max-attempts", &n.to_string())?;
        }
        if let Some(n) = self.max_nodes {
            within("max-nodes", n, 1, u64::MAX)?;
            algorithm.set_option("max-nodes", &n.to_string())?;
        }
        let mut builder = Tour::builder(shape.board())
            .shape(shape)
            .kind(self.kind)
            .start_at(start)
            .end_at(end)
            .algorithm(algorithm)
            .seed(self.seed);
        if let Some(n) = self.obfuscate {
            builder = builder.obfuscate(within("obfuscate", n, 0, MAX_SHATTERS)?);
        }
        Ok(TourPlan {
            builder,
            seed: self.seed,
        })
    }

    /// The tour (with its holes, wrapping and leaper, for a door that
    /// writes it as a file) and the algorithm asked for.
    fn run_plan(plan: TourPlan, control: &Control) -> Result<TourAnswer> {
        let builder = plan.builder.control(control);
        Ok(TourAnswer {
            tour: builder.build()?,
            algorithm: builder.algorithm_asked(),
            seed: plan.seed,
        })
    }
}

/// A tour and how it was made. It serialises as the tour's board and
/// squares in order: `{"rows", "cols", "closed", "squares", "algorithm",
/// "seed"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourAnswer {
    /// The tour.
    pub tour: Tour,
    /// The algorithm that made it.
    pub algorithm: Algorithm,
    /// The seed it was made with.
    pub seed: u64,
}

impl Serialize for TourAnswer {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        /// The answer's JSON.
        #[derive(Serialize)]
        struct Wire<'a> {
            rows: u32,
            cols: u32,
            closed: bool,
            squares: &'a [Square],
            algorithm: &'static str,
            seed: u64,
        }
        let board = self.tour.board();
        Wire {
            rows: board.rows(),
            cols: board.cols(),
            closed: self.tour.is_closed(),
            squares: self.tour.squares(),
            algorithm: self.algorithm.name(),
            seed: self.seed,
        }
        .serialize(serializer)
    }
}

/// One tourney (`knights tourney`, `GET /api/tourney`, `knights.tourney`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct TourneyRequest {
    /// The board.
    pub board: String,
    /// The generator's name (default `warnsdorff`).
    #[serde(default = "warnsdorff")]
    pub algorithm: String,
    /// Seed of the random choices.
    #[serde(default)]
    pub seed: u64,
}

fn warnsdorff() -> String {
    "warnsdorff".into()
}

/// A [`TourneyRequest`] checked: the board, the generator and the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TourneyPlan {
    /// The board.
    pub board: Board,
    /// The generator.
    pub generator: TourneyMethod,
    /// The seed.
    pub seed: u64,
}

impl JobRequest for TourneyRequest {
    type Plan = TourneyPlan;
    type Answer = TourneyAnswer;

    fn plan(&self) -> Result<TourneyPlan> {
        Ok(TourneyPlan {
            board: self.board.parse()?,
            generator: self.algorithm.parse()?,
            seed: self.seed,
        })
    }

    fn run_plan(plan: TourneyPlan, control: &Control) -> Result<TourneyAnswer> {
        let tourney = Tourney::builder(plan.board)
            .method(plan.generator)
            .seed(plan.seed)
            .control(control)
            .cover()?
            .to_tourney()?;
        Ok(TourneyAnswer { tourney })
    }
}

/// A tourney. It serialises as its board and cycles: `{"rows", "cols",
/// "cycles"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourneyAnswer {
    /// The tourney.
    pub tourney: Tourney,
}

impl Serialize for TourneyAnswer {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        /// The answer's JSON.
        #[derive(Serialize)]
        struct Wire<'a> {
            rows: u32,
            cols: u32,
            cycles: &'a [Vec<Square>],
        }
        let board = self.tourney.board();
        Wire {
            rows: board.rows(),
            cols: board.cols(),
            cycles: self.tourney.cycles(),
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;

    #[test]
    fn a_tour_is_accepted_and_an_end_alone_refused() {
        let answer = round_trip(Request::Tour(TourRequest {
            kind: Wanted::Closed,
            start: Some("0,0".into()),
            ..TourRequest::new("6x6")
        }));
        assert_eq!(answer["tour"]["closed"], true);
        let e = TourRequest {
            end: Some("0,1".into()),
            ..TourRequest::new("6x6")
        };
        assert!(e.validate().unwrap_err().to_string().contains("end square"));
        let e = TourRequest {
            obfuscate: Some(5000),
            ..TourRequest::new("8x8")
        };
        assert!(e.validate().unwrap_err().to_string().contains("obfuscate"));
    }

    #[test]
    fn a_tourney_is_accepted_and_an_unknown_generator_refused() {
        let answer = round_trip(Request::Tourney(TourneyRequest {
            board: "8x8".into(),
            algorithm: "four-cover".into(),
            seed: 0,
        }));
        assert!(answer["tourney"]["cycles"].as_array().unwrap().len() > 1);
        let bad = TourneyRequest {
            board: "8x8".into(),
            algorithm: "nope".into(),
            seed: 0,
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn the_answer_carries_the_tour_with_its_shape_and_serialises_as_before() {
        let request = TourRequest {
            holes: Some("#..../...../...../...../.....".into()),
            ..TourRequest::new("5x5")
        };
        let answer = request.run(&Control::new()).unwrap();
        assert_eq!(answer.tour.shape().hole_count(), 1);
        assert_eq!(answer.tour.squares().len(), 24);
        let plain = TourRequest::new("5x5").run(&Control::new()).unwrap();
        let squares: Vec<String> = plain.tour.squares().iter().map(u32::to_string).collect();
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            format!(
                r#"{{"rows":5,"cols":5,"closed":false,"squares":[{}],"algorithm":"auto","seed":0}}"#,
                squares.join(",")
            )
        );
        let tourney = TourneyRequest {
            board: "8x8".into(),
            algorithm: "four-cover".into(),
            seed: 0,
        }
        .run(&Control::new())
        .unwrap();
        let json = serde_json::to_string(&tourney).unwrap();
        assert!(
            json.starts_with(r#"{"rows":8,"cols":8,"cycles":[["#),
            "{json}"
        );
        assert_eq!(
            serde_json::to_value(&tourney).unwrap()["cycles"],
            serde_json::json!(tourney.tourney.cycles())
        );
    }
}
