//! Tour and tourney JSON, as `docs/formats.md` fixes them.
//!
//! Writing streams square by square, so a tour of any size is written
//! without building its text in memory. Reading reports the JSON path of
//! the first value that is not what it should be.

use std::fmt;

use serde::Deserialize;

use super::{board_of, Chunked, Parsed};
use crate::shape::{Leaper, Wrap};
use crate::{Board, Error, Result, Tour, Tourney};

/// A tour as JSON, with optional extra keys (written after the fixed ones).
pub struct TourJson<'a> {
    tour: &'a Tour,
    extra: serde_json::Map<String, serde_json::Value>,
}

/// A tourney as JSON.
pub struct TourneyJson<'a> {
    tourney: &'a Tourney,
    extra: serde_json::Map<String, serde_json::Value>,
}

/// The JSON of a tour.
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::tour_json};
/// let tour = Tour::new(Board::new(1, 1)?, vec![0])?;
/// assert_eq!(tour_json(&tour).to_string(),
///            r#"{"rows":1,"cols":1,"closed":false,"squares":[[0,0]]}"#);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tour_json(tour: &Tour) -> TourJson<'_> {
    TourJson {
        tour,
        extra: Default::default(),
    }
}

/// The JSON of a tourney.
pub fn tourney_json(tourney: &Tourney) -> TourneyJson<'_> {
    TourneyJson {
        tourney,
        extra: Default::default(),
    }
}

impl TourJson<'_> {
    /// Adds an extra key (algorithm, seed, timing, ...).
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }
}

impl TourneyJson<'_> {
    /// Adds an extra key (algorithm, seed, timing, ...).
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }
}

fn write_squares(f: &mut fmt::Formatter<'_>, board: Board, squares: &[u32]) -> fmt::Result {
    let mut out = Chunked::new(f);
    out.str("[")?;
    for (i, &s) in squares.iter().enumerate() {
        let (r, c) = board.coords(s);
        out.str(if i > 0 { ",[" } else { "[" })?;
        out.int(u64::from(r))?;
        out.str(",")?;
        out.int(u64::from(c))?;
        out.str("]")?;
    }
    out.str("]")?;
    out.finish()
}

fn write_extra(
    f: &mut fmt::Formatter<'_>,
    extra: &serde_json::Map<String, serde_json::Value>,
) -> fmt::Result {
    for (k, v) in extra {
        write!(f, ",{}:{}", serde_json::Value::from(k.as_str()), v)?;
    }
    Ok(())
}

impl fmt::Display for TourJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.tour.board();
        write!(f, r#"{{"rows":{},"cols":{},"#, b.rows(), b.cols())?;
        if !self.tour.is_plain() {
            let shape = self.tour.shape();
            if shape.hole_count() > 0 {
                f.write_str(r#""holes":["#)?;
                for (i, h) in shape.holes().enumerate() {
                    let (r, c) = b.coords(h);
                    write!(f, "{}[{r},{c}]", if i > 0 { "," } else { "" })?;
                }
                f.write_str("],")?;
            }
            if shape.wrap() != crate::shape::Wrap::None {
                write!(f, r#""wrap":"{}","#, shape.wrap())?;
            }
            if shape.leaper() != crate::shape::Leaper::KNIGHT {
                let l = shape.leaper();
                write!(f, r#""leaper":[{},{}],"#, l.a(), l.b())?;
            }
        }
        write!(f, r#""closed":{},"squares":"#, self.tour.is_closed())?;
        write_squares(f, b, self.tour.squares())?;
        write_extra(f, &self.extra)?;
        f.write_str("}")
    }
}

impl fmt::Display for TourneyJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.tourney.board();
        write!(f, r#"{{"rows":{},"cols":{},"cycles":["#, b.rows(), b.cols())?;
        for (i, cycle) in self.tourney.cycles().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write_squares(f, b, cycle)?;
        }
        f.write_str("]")?;
        write_extra(f, &self.extra)?;
        f.write_str("}")
    }
}

/// Tour and tourney JSON alike, read straight into vectors (no
/// intermediate JSON tree, which would take about ten times the text).
#[derive(Deserialize)]
struct DocumentIn {
    rows: u64,
    cols: u64,
    #[serde(default)]
    closed: Option<bool>,
    #[serde(default)]
    squares: Option<Vec<(i64, i64)>>,
    #[serde(default)]
    cycles: Option<Vec<Vec<(i64, i64)>>>,
    #[serde(default)]
    holes: Option<Vec<(i64, i64)>>,
    #[serde(default)]
    wrap: Option<String>,
    #[serde(default)]
    leaper: Option<(u32, u32)>,
}

const NEITHER: &str =
    "the JSON object has neither a \"squares\" key (a tour) nor a \"cycles\" key (a tourney)";

/// Which of the two keys a JSON object has, read without building anything.
#[derive(Deserialize)]
struct Keys {
    squares: Option<serde::de::IgnoredAny>,
    cycles: Option<serde::de::IgnoredAny>,
}

/// Reads tour or tourney JSON (told apart by a `squares` or `cycles` key).
pub fn parse_json(text: &str) -> Result<Parsed> {
    // The syntax first, without building anything.
    serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(|e| {
        Error::Parse(format!(
            "the input is not valid JSON: {} (expected an object such as {{\"rows\": 8, \"cols\": 8, \"squares\": [[0, 0], ...]}})",
            crate::excerpt(&e.to_string())
        ).into())
    })?;
    if !text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
    {
        return Err(Error::Parse("the JSON is not an object; expected {\"rows\": R, \"cols\": C, \"squares\": [...]} or {\"rows\": R, \"cols\": C, \"cycles\": [...]}".into()));
    }
    let keys: Keys = serde_json::from_str(text).map_err(|e| {
        Error::Parse(format!("the JSON is malformed: {}", crate::excerpt(&e.to_string())).into())
    })?;
    let what = match (keys.squares, keys.cycles) {
        (Some(_), _) => "tour",
        (None, Some(_)) => "tourney",
        (None, None) => return Err(Error::Parse(NEITHER.into())),
    };
    crate::memory::ensure_input_fits("JSON", text.len(), 8)?;
    let mut de = serde_json::Deserializer::from_str(text.trim_start_matches('\u{feff}'));
    let doc: DocumentIn = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        Error::Parse(
            format!(
                "the {what} JSON is malformed at {}: {}",
                crate::excerpt(&path),
                crate::excerpt(&e.inner().to_string())
            )
            .into(),
        )
    })?;
    let board = board_of(doc.rows, doc.cols)?;
    let wrap: Wrap = doc.wrap.as_deref().unwrap_or("none").parse()?;
    let leaper = match doc.leaper {
        Some((a, b)) => Leaper::new(a, b)?,
        None => Leaper::KNIGHT,
    };
    let shape = super::shape_of(board, doc.holes.as_deref().unwrap_or(&[]), wrap, leaper)?;
    match (doc.squares, doc.cycles) {
        (Some(squares), _) => Ok(Parsed::Tour {
            board,
            closed: doc.closed,
            squares,
            shape,
        }),
        (None, Some(_)) if shape.is_some() => Err(Error::Parse(
            "tourneys are read on the plain board only; this one has holes, wrapping or a leaper"
                .into(),
        )),
        (None, Some(cycles)) => Ok(Parsed::Tourney { board, cycles }),
        (None, None) => Err(Error::Parse(NEITHER.into())),
    }
}
