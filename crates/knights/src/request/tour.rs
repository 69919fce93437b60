//! Tours and tourneys.

use serde::{Deserialize, Serialize};

use super::{place, within};
use crate::algorithms::{Algorithm, Generator};
use crate::{Board, Control, Result, Tour, TourBuilder, Tourney, Wanted};

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
    /// The start square, `ROW,COL`.
    #[serde(default)]
    pub start: Option<String>,
    /// The end square, `ROW,COL` (needs a start).
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

    /// Every check of the request.
    pub fn validate(&self) -> Result<()> {
        self.builder().map(drop)
    }

    /// The tour builder the request stands for.
    fn builder(&self) -> Result<TourBuilder> {
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
        Ok(builder)
    }

    /// The tour.
    pub fn run(&self, control: &Control) -> Result<TourAnswer> {
        let (tour, algorithm) = self.tour(control)?;
        Ok(TourAnswer::of(&tour, algorithm, self.seed))
    }

    /// The tour itself and the algorithm asked for, for a door that writes
    /// the tour as a file (its holes, wrapping and leaper with it).
    pub fn tour(&self, control: &Control) -> Result<(Tour, Algorithm)> {
        let builder = self.builder()?.control(control);
        Ok((builder.build()?, builder.algorithm_asked()))
    }
}

/// A tour: its board and squares in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TourAnswer {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// Whether the last square is a move from the first.
    pub closed: bool,
    /// The squares in the knight's order (row-major numbers).
    pub squares: Vec<u32>,
    /// The algorithm that made it.
    pub algorithm: String,
    /// The seed it was made with.
    pub seed: u64,
}

impl TourAnswer {
    /// The answer holding `tour`.
    pub(crate) fn of(tour: &Tour, algorithm: Algorithm, seed: u64) -> TourAnswer {
        TourAnswer {
            rows: tour.board().rows(),
            cols: tour.board().cols(),
            closed: tour.is_closed(),
            squares: tour.squares().to_vec(),
            algorithm: algorithm.name().into(),
            seed,
        }
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

impl TourneyRequest {
    /// Every check of the request.
    pub fn validate(&self) -> Result<()> {
        self.parts().map(drop)
    }

    fn parts(&self) -> Result<(Board, Generator)> {
        Ok((self.board.parse()?, self.algorithm.parse()?))
    }

    /// The tourney.
    pub fn run(&self, control: &Control) -> Result<TourneyAnswer> {
        let (board, generator) = self.parts()?;
        let tourney = Tourney::builder(board)
            .generator(generator)
            .seed(self.seed)
            .control(control)
            .cover()?
            .to_tourney()?;
        Ok(TourneyAnswer::of(&tourney))
    }
}

/// A tourney: its board and cycles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TourneyAnswer {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// The cycles, each a list of squares.
    pub cycles: Vec<Vec<u32>>,
}

impl TourneyAnswer {
    /// The answer holding `tourney`.
    pub(crate) fn of(tourney: &Tourney) -> TourneyAnswer {
        TourneyAnswer {
            rows: tourney.board().rows(),
            cols: tourney.board().cols(),
            cycles: tourney.cycles().to_vec(),
        }
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
}
