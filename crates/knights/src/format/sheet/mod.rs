//! Printable sheets: boards to solve by hand, several to a page, and their
//! solutions (see `docs/formats.md`, "Sheets").
//!
//! A [`Sheet`] is a title, a line of instructions and its boards; each
//! [`SheetBoard`] is a shape with some squares given their step numbers
//! (a worksheet's start as 1, its end when asked, a puzzle's clues) and,
//! when known, the tour that solves it. [`sheet_svg`] draws one page of
//! it, the worksheet or the solution, as SVG in millimetres; with the
//! `raster` feature [`sheet_png`] draws the same page at 150 dots an inch.
//!
//! The boards are laid out in the grid of columns and rows that gives the
//! largest squares; a page holds at most [`MAX_BOARDS`] boards, of at most
//! [`MAX_SIDE`] squares a side, whose squares are at least [`MIN_CELL_MM`]
//! millimetres wide, so that a step number can be written in each by hand.

mod draw;

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::Square;
use crate::{Error, Result, Shape, Tour, Wanted};

pub use draw::sheet_svg;

/// The most boards on one page.
pub const MAX_BOARDS: usize = 16;
/// The most squares a side of a board on a sheet (more is too big to
/// solve by hand).
pub const MAX_SIDE: u32 = 32;
/// The narrowest square, in millimetres, a board of a sheet is drawn with.
pub const MIN_CELL_MM: f64 = 5.0;
/// The widest square, in millimetres (a small board alone is not blown up).
const MAX_CELL_MM: f64 = 18.0;
/// The page's margin, in millimetres.
const MARGIN: f64 = 12.0;
/// The height of the title and the instructions, in millimetres.
const HEADER: f64 = 18.0;
/// The room between boards, in millimetres.
const GAP: f64 = 6.0;
/// The band of the labels (rank numbers left, files below), in squares.
const LABELS: f64 = 0.8;
/// The height of a board's caption, in millimetres.
const CAPTION: f64 = 6.0;

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

/// Where the boards go: `columns` x `rows` slots of `slot` millimetres,
/// squares of `cell` millimetres.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    pub columns: usize,
    pub rows: usize,
    pub slot: (f64, f64),
    pub cell: f64,
}

/// The grid of slots for boards of `sides` (rows, columns) on `paper`
/// that gives the largest squares (the fewest columns among equals), and
/// that square's width; no check of the limits.
fn best_layout(sides: &[(u32, u32)], paper: Paper) -> Layout {
    let (w, h) = paper.size_mm();
    let (aw, ah) = (w - 2.0 * MARGIN, h - 2.0 * MARGIN - HEADER);
    let n = sides.len().max(1);
    let mut best: Option<Layout> = None;
    for columns in 1..=n {
        let rows = n.div_ceil(columns);
        let slot = (
            (aw - (columns - 1) as f64 * GAP) / columns as f64,
            (ah - (rows - 1) as f64 * GAP) / rows as f64,
        );
        let cell = sides
            .iter()
            .map(|&(r, c)| {
                let across = slot.0 / (f64::from(c) + LABELS);
                let down = (slot.1 - CAPTION) / (f64::from(r) + LABELS);
                across.min(down)
            })
            .fold(MAX_CELL_MM, f64::min);
        if best.is_none_or(|b| cell > b.cell + 1e-9) {
            best = Some(Layout {
                columns,
                rows,
                slot,
                cell,
            });
        }
    }
    best.expect("at least one column")
}

/// The layout of boards of `sides` on `paper`, or the refusal of a sheet
/// that cannot be solved by hand: no boards, more than [`MAX_BOARDS`], a
/// board of more than [`MAX_SIDE`] squares a side, or squares narrower
/// than [`MIN_CELL_MM`] (the sentence says how many boards would fit).
pub(crate) fn layout(sides: &[(u32, u32)], paper: Paper) -> Result<Layout> {
    if sides.is_empty() || sides.len() > MAX_BOARDS {
        return Err(Error::Refused(
            format!(
                "a sheet holds 1 to {MAX_BOARDS} boards, not {}",
                sides.len()
            )
            .into(),
        ));
    }
    if let Some(&(r, c)) = sides.iter().find(|&&(r, c)| r.max(c) > MAX_SIDE) {
        return Err(Error::Refused(
            format!(
                "a {r}x{c} board is too big to solve by hand on paper; a sheet takes boards of at most {MAX_SIDE} rows and {MAX_SIDE} columns"
            )
            .into(),
        ));
    }
    let layout = best_layout(sides, paper);
    if layout.cell + 1e-9 < MIN_CELL_MM {
        let fit = (1..sides.len())
            .rev()
            .find(|&k| best_layout(&sides[..k], paper).cell + 1e-9 >= MIN_CELL_MM)
            .unwrap_or(1);
        return Err(Error::Refused(
            format!(
                "{} boards this size do not fit on one {} page with squares of at least {MIN_CELL_MM} mm, wide enough to write in; ask for at most {fit}",
                sides.len(),
                paper.name().to_uppercase()
            )
            .into(),
        ));
    }
    Ok(layout)
}

/// Checks that boards of `sides` fit on one page of `paper` (see
/// [`sheet_svg`] for the limits), before any tour is made for them.
pub fn check_fits(sides: &[(u32, u32)], paper: Paper) -> Result<()> {
    layout(sides, paper).map(|_| ())
}

/// The PNG of a sheet's page (the picture [`sheet_svg`] draws), at 150
/// dots an inch: 1240 x 1754 pixels on A4, 1275 x 1650 on Letter.
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::{sheet_png, Sheet, SheetBoard, SheetOptions}};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// let board = SheetBoard::find_tour(tour, false, "3x4".into());
/// let sheet = Sheet { title: "Tours".into(), note: String::new(), boards: vec![board] };
/// let png = sheet_png(&sheet, SheetOptions::default())?;
/// assert_eq!(&png[..4], b"\x89PNG");
/// # Ok::<(), knights::Error>(())
/// ```
#[cfg(feature = "raster")]
pub fn sheet_png(sheet: &Sheet, options: SheetOptions) -> Result<Vec<u8>> {
    let (w, h) = options.paper.size_px();
    super::svg_to_png(&draw::sheet_svg_sized(
        sheet,
        options,
        &w.to_string(),
        &h.to_string(),
    )?)
}

#[cfg(test)]
mod tests;
