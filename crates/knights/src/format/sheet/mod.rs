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
mod layout;
mod model;

pub use draw::sheet_svg;
pub use layout::{check_fits, MAX_BOARDS, MAX_SIDE, MIN_CELL_MM};
pub use model::{caption, Paper, Sheet, SheetBoard, SheetOptions, NOTE, NOTE_CLOSED};

/// The PNG of a sheet's page (the picture [`sheet_svg`] draws), at 150
/// dots an inch: 1240 x 1754 pixels on A4, 1275 x 1650 on Letter.
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::sheet::{sheet_png, Sheet, SheetBoard, SheetOptions}};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// let board = SheetBoard::find_tour(tour, false, "3x4".into());
/// let sheet = Sheet { title: "Tours".into(), note: String::new(), boards: vec![board] };
/// let png = sheet_png(&sheet, SheetOptions::default())?;
/// assert_eq!(&png[..4], b"\x89PNG");
/// # Ok::<(), knights::Error>(())
/// ```
#[cfg(feature = "raster")]
pub fn sheet_png(sheet: &Sheet, options: SheetOptions) -> crate::Result<Vec<u8>> {
    let (w, h) = options.paper.size_px();
    crate::format::svg_to_png(&draw::sheet_svg_sized(
        sheet,
        options,
        &w.to_string(),
        &h.to_string(),
    )?)
}

#[cfg(test)]
mod tests;
