//! Numbered grids: the step number of every square, one line per row.
//!
//! Written right-aligned in columns of equal width, separated by a space.
//! Read leniently: any run of blanks, base 0 or 1, the `|` and `+---+` box
//! drawing of Mahmoud's course report (Mahmoud n.d.), and the row and column
//! labels of the cipher article (The Knight's Tour, n.d.).

use std::fmt;

use super::{board_of, Chunked, Parsed};
use crate::check::Coord;
use crate::{Error, Result, Tour};

/// A tour as a numbered grid.
pub struct Grid<'a> {
    tour: &'a Tour,
    base: u32,
}

/// The numbered grid of a tour, counting from `base` (0 or 1).
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::grid};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// assert_eq!(grid(&tour, 1).to_string(), " 1  4  7 10\n12  9  2  5\n 3  6 11  8\n");
/// # Ok::<(), knights::Error>(())
/// ```
pub fn grid(tour: &Tour, base: u32) -> Grid<'_> {
    Grid { tour, base }
}

impl fmt::Display for Grid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.tour.board();
        let steps = self.tour.step_numbers();
        let largest = u64::from(self.base) + self.tour.squares().len() as u64 - 1;
        let width = largest.to_string().len();
        let mut out = Chunked::new(f);
        for row in steps.chunks(b.cols() as usize) {
            for (i, &n) in row.iter().enumerate() {
                if i > 0 {
                    out.str(" ")?;
                }
                if n == u32::MAX {
                    // A hole.
                    for _ in 1..width {
                        out.str(" ")?;
                    }
                    out.str("#")?;
                    continue;
                }
                out.int_padded(u64::from(n) + u64::from(self.base), width)?;
            }
            out.str("\n")?;
        }
        out.finish()?;
        Ok(())
    }
}

/// Whether a line is only box drawing (`+---+---+`, `|`, `=`), so carries no numbers.
fn is_rule(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '+' | '-' | '=' | '|' | ' ' | '\t'))
}

/// Reads a numbered grid.
pub fn parse_grid(text: &str) -> Result<Parsed> {
    let (board, numbers) = grid_numbers(text, false)?;
    let base = if numbers.contains(&0) { 0 } else { 1 };
    if numbers.contains(&HOLE) {
        return with_holes(board, &numbers, base);
    }
    Ok(Parsed::Grid {
        board,
        numbers,
        base,
    })
}

/// The board and the numbers of a grid, row-major: step numbers, [`HOLE`]
/// for `#`, and, where `unvisited` allows it, [`UNVISITED`] for `.` (a
/// partial path's grid).
pub(super) fn grid_numbers(text: &str, unvisited: bool) -> Result<(crate::Board, Vec<u64>)> {
    // Up to 8 bytes per number of at least 2 characters, twice (rows, then
    // the flattened numbers), and the growth of the vectors.
    crate::memory::ensure_input_fits("grid", text.len(), 12)?;
    let mut rows: Vec<(usize, Vec<u64>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() || is_rule(line) {
            continue;
        }
        let mut numbers = Vec::new();
        for token in line.split(|c: char| c.is_whitespace() || c == '|') {
            match token {
                "" => continue,
                "#" => numbers.push(HOLE),
                "." if unvisited => numbers.push(UNVISITED),
                _ => numbers.push(step_number(line_no, token, unvisited)?),
            }
        }
        rows.push((line_no, numbers));
    }
    strip_labels(&mut rows);
    let Some((_, first)) = rows.first() else {
        return Err(Error::Parse("the grid has no numbers".into()));
    };
    let cols = first.len();
    if let Some((line_no, row)) = rows.iter().find(|(_, r)| r.len() != cols) {
        return Err(Error::Parse(format!(
            "line {line_no} of the grid has {} numbers but the first row has {cols}; every row needs the same count",
            row.len()
        ).into()));
    }
    let board = board_of(rows.len() as u64, cols as u64)?;
    Ok((board, rows.into_iter().flat_map(|(_, r)| r).collect()))
}

/// A step number of a grid's line `line_no`.
fn step_number(line_no: usize, token: &str, unvisited: bool) -> Result<u64> {
    token.parse::<u64>().map_err(|_| {
        let allowed = if unvisited {
            "whole numbers, '.' for a square not yet visited and '#' for a hole"
        } else {
            "whole numbers"
        };
        Error::Parse(format!(
            "line {line_no} of the grid has '{}', which is not a step number; a grid has only {allowed} separated by blanks",
            crate::excerpt(token)
        ).into())
    })
}

/// A `.` in a partial path's grid: a square not yet visited.
pub(super) const UNVISITED: u64 = u64::MAX - 1;

/// A `#` in a grid: a hole.
pub(super) const HOLE: u64 = u64::MAX;

/// The squares a grid numbers, in the order of their numbers (which must
/// be `base..base + k` for its `k` numbered squares, `.` and `#` not
/// counted), and its holes. A number outside those steps is refused in the
/// words of `outside(number, square, k)`; a step written twice, as such.
pub(super) fn numbered(
    board: crate::Board,
    numbers: &[u64],
    base: u64,
    outside: impl Fn(u64, Coord, usize) -> String,
) -> Result<(Vec<Coord>, Vec<Coord>)> {
    let cols = u64::from(board.cols());
    let at = |i: usize| ((i as u64 / cols) as i64, (i as u64 % cols) as i64);
    let holes: Vec<Coord> = (0..numbers.len())
        .filter(|&i| numbers[i] == HOLE)
        .map(at)
        .collect();
    let count = numbers
        .iter()
        .filter(|&&n| n != HOLE && n != UNVISITED)
        .count();
    let mut squares = vec![None; count];
    for (i, &n) in numbers.iter().enumerate() {
        if n == HOLE || n == UNVISITED {
            continue;
        }
        let step = n.wrapping_sub(base);
        let slot = squares
            .get_mut(step as usize)
            .filter(|_| n >= base)
            .ok_or_else(|| Error::Parse(outside(n, at(i), count).into()))?;
        if slot.is_some() {
            return Err(Error::Parse(
                format!("step {n} is written twice in the grid").into(),
            ));
        }
        *slot = Some(at(i));
    }
    let squares = squares
        .into_iter()
        .map(|s| s.expect("every step is written once"))
        .collect();
    Ok((squares, holes))
}

/// A grid with holes (`#`), as the tour it numbers: the squares in the
/// order of their numbers, which must be `base..base + squares`.
fn with_holes(board: crate::Board, numbers: &[u64], base: u64) -> Result<Parsed> {
    let (squares, holes) = numbered(board, numbers, base, |n, at, open| {
        format!(
            "the number {n} at {at:?} is outside the steps {base}..={} of a board with {open} squares",
            base + open as u64 - 1
        )
    })?;
    Ok(Parsed::Tour {
        board,
        closed: None,
        squares,
        shape: super::shape_of(
            board,
            &holes,
            crate::shape::Wrap::None,
            crate::shape::Leaper::KNIGHT,
        )?,
    })
}

/// Removes the column header `0 1 2 ...` and the row labels of a labelled
/// grid (as the cipher article prints its tour), if every row carries its label.
fn strip_labels(rows: &mut Vec<(usize, Vec<u64>)>) {
    let Some((_, header)) = rows.first() else {
        return;
    };
    let cols = header.len();
    let is_header = header.iter().enumerate().all(|(i, &n)| n == i as u64);
    let labelled = rows.len() > 1
        && rows[1..]
            .iter()
            .enumerate()
            .all(|(r, (_, row))| row.len() == cols + 1 && row[0] == r as u64);
    if is_header && labelled {
        rows.remove(0);
        for (_, row) in rows.iter_mut() {
            row.remove(0);
        }
    }
}
