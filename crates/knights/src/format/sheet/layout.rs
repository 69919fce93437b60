//! Where a sheet's boards go on the page, and the limits of a sheet that
//! can be solved by hand.

use super::model::Paper;
use crate::{Error, Result};

/// The most boards on one page.
pub const MAX_BOARDS: usize = 16;
/// The most squares a side of a board on a sheet (more is too big to
/// solve by hand).
pub const MAX_SIDE: u32 = 32;
/// The narrowest square, in millimetres, a board of a sheet is drawn with.
pub const MIN_CELL_MM: f64 = 5.0;
/// The widest square, in millimetres (a small board alone is not blown up).
pub(super) const MAX_CELL_MM: f64 = 18.0;
/// The page's margin, in millimetres.
pub(super) const MARGIN: f64 = 12.0;
/// The height of the title and the instructions, in millimetres.
pub(super) const HEADER: f64 = 18.0;
/// The room between boards, in millimetres.
pub(super) const GAP: f64 = 6.0;
/// The band of the labels (rank numbers left, files below), in squares.
pub(super) const LABELS: f64 = 0.8;
/// The height of a board's caption, in millimetres.
pub(super) const CAPTION: f64 = 6.0;

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
/// [`super::sheet_svg`] for the limits), before any tour is made for them.
pub fn check_fits(sides: &[(u32, u32)], paper: Paper) -> Result<()> {
    layout(sides, paper).map(|_| ())
}
