//! Where a job runs: the board, its holes, wrapped edges and leaper, and
//! squares on it, read from a request's text fields in one place.

use super::refuse;
use crate::{Board, Result, Shape, Square};

/// The shape of a request's `board`, `holes` (the rows of a board file,
/// `.` a square and `#` a hole, separated by newlines or `/`, of the
/// board's size), `wrap` (none, rows, cols or both) and `leaper` (`A,B`).
pub fn shape(
    board: &str,
    holes: Option<&str>,
    wrap: Option<&str>,
    leaper: Option<&str>,
) -> Result<Shape> {
    let board: Board = board.parse()?;
    let mut shape = Shape::new(board);
    if let Some(text) = holes.filter(|t| !t.trim().is_empty()) {
        let holed = Shape::parse_board_text(&text.replace('/', "\n"))?;
        if holed.board() != board {
            return refuse(format!(
                "the holes describe a {} board, but the board is {board}; give one row of '.' and '#' per board row",
                holed.board()
            ));
        }
        shape = holed;
    }
    if let Some(w) = wrap {
        shape = shape.with_wrap(w.parse()?);
    }
    if let Some(l) = leaper.filter(|t| !t.trim().is_empty()) {
        shape = shape.with_leaper(l.parse()?);
    }
    Ok(shape)
}

/// The start and end squares (`ROW,COL`, 0-based, or names such as `c3`)
/// on `shape`; an end needs a start.
pub(crate) fn ends(
    shape: &Shape,
    start: Option<&str>,
    end: Option<&str>,
) -> Result<(Option<Square>, Option<Square>)> {
    let square = |t: Option<&str>| t.map(|s| shape.parse_square(s)).transpose();
    let (start, end) = (square(start)?, square(end)?);
    if end.is_some() && start.is_none() {
        return refuse("an end square needs a start square as well".into());
    }
    Ok((start, end))
}
