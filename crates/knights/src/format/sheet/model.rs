//! What a sheet is: its paper, its boards (each a shape with numbered
//! given squares and, when known, its solution), and how to draw it.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::Square;
use crate::{Error, Result, Shape, Tour, Wanted};

/// The paper of a sheet, portrait.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    /// A4, 210 x 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 x 11 inches (215.9 x 279.4 mm).
    Letter,
}

impl Paper {
    /// Its width and height in millimetres.
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// Its width and height in pixels at 150 dots an inch (a sheet's PNG).
    pub fn size_px(self) -> (u32, u32) {
        let (w, h) = self.size_mm();
        let px = |mm: f64| (mm / 25.4 * 150.0).round() as u32;
        (px(w), px(h))
    }

    /// Its name: `a4` or `letter`.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }
}

impl FromStr for Paper {
    type Err = Error;

    /// Reads `a4` or `letter`, in any case.
    fn from_str(s: &str) -> Result<Paper> {
        match s.trim().to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            _ => Err(Error::Parse(
                format!(
                    "'{}' is not a paper size; use a4 or letter",
                    crate::excerpt(s)
                )
                .into(),
            )),
        }
    }
}

/// One board of a sheet: its shape, the squares given their step numbers
/// as shown (counted from 1), a caption, and the tour that solves it, if
/// known (its squares are numbered 1, 2, ... on the solution page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetBoard {
    /// The board, its holes (drawn dark), wrapping and leaper.
    pub shape: Shape,
    /// The squares shown with a number on the worksheet, and the number.
    pub given: Vec<(Square, u32)>,
    /// The line under the board.
    pub caption: String,
    /// The tour that solves the board, numbered on the solution page.
    pub solution: Option<Tour>,
}

impl SheetBoard {
    /// A worksheet's board to find `tour` on: its start given as 1 and,
    /// with `show_end`, its end as the number of squares.
    pub fn find_tour(tour: Tour, show_end: bool, caption: String) -> SheetBoard {
        let mut given = vec![(tour.start(), 1)];
        let n = tour.squares().len();
        if show_end && n > 1 {
            given.push((tour.end(), n as u32));
        }
        SheetBoard {
            shape: tour.shape(),
            given,
            caption,
            solution: Some(tour),
        }
    }
}

/// The instructions of a worksheet of tours.
pub const NOTE: &str =
    "Number the squares 1, 2, 3, ... in the order a knight visits them, each square once.";
/// The instructions of a worksheet of closed tours.
pub const NOTE_CLOSED: &str =
    "Number the squares in the order a knight visits them, from 1; the last is a knight's move from 1.";

/// The caption of board `n` of a worksheet of tours of `kind`: `3. Closed
/// tour from c3` (squares by their algebraic names on boards of at most 26
/// columns, else `(row, col)`), and ` to f6` when the end is given.
pub fn caption(n: usize, kind: Wanted, tour: &Tour, show_end: bool) -> String {
    let board = tour.board();
    let name = |s: Square| {
        board.algebraic(s).unwrap_or_else(|| {
            let (r, c) = board.coords(s);
            format!("({r}, {c})")
        })
    };
    let what = match kind {
        Wanted::Closed => "Closed tour",
        Wanted::Open => "Open tour",
        Wanted::Either => "Tour",
    };
    let mut line = format!("{n}. {what} from {}", name(tour.start()));
    if show_end {
        line += &format!(" to {}", name(tour.end()));
    }
    line
}

/// A page of boards to solve by hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    /// The title line.
    pub title: String,
    /// The line of instructions under it.
    pub note: String,
    /// The boards, in reading order.
    pub boards: Vec<SheetBoard>,
}

impl Sheet {
    /// A worksheet of `tours` to find, each given by its start (and its
    /// end with `show_end`), captioned by its kind.
    pub fn of_tours(title: String, tours: Vec<Tour>, show_end: bool) -> Sheet {
        let all_closed = tours.iter().all(Tour::is_closed);
        let boards = tours
            .into_iter()
            .enumerate()
            .map(|(i, tour)| {
                let kind = Wanted::from(tour.kind());
                let caption = caption(i + 1, kind, &tour, show_end);
                SheetBoard::find_tour(tour, show_end, caption)
            })
            .collect();
        Sheet {
            title,
            note: if all_closed { NOTE_CLOSED } else { NOTE }.into(),
            boards,
        }
    }
}

/// How to draw a sheet.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SheetOptions {
    /// The paper.
    pub paper: Paper,
    /// The solution page: every square of a solved board numbered.
    pub solution: bool,
    /// On the solution page, the tour's path drawn thin under the numbers.
    pub path: bool,
}
