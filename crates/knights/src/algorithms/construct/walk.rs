//! Checking a cover's degrees, and turning a closed tour into an open one.

use crate::board::Square;
use crate::{Board, Error, Result};

/// Whether every square has two moves (closed), or all but two squares have
/// two and those two have one (open, `ends` given).
pub(crate) fn degrees_ok(links: &[u8], ends: Option<[Square; 2]>) -> bool {
    let twos = links.iter().filter(|&&b| b.count_ones() == 2).count();
    match ends {
        None => twos == links.len(),
        Some([a, b]) => {
            twos + 2 == links.len()
                && a != b
                && links[a as usize].count_ones() == 1
                && links[b as usize].count_ones() == 1
        }
    }
}

/// Turns a closed tour, as a path from its start, into an open one with the
/// same start by one Posa rotation: with s0..s(n-1), when s(n-1) is a
/// knight's move from si, the path s0..si s(n-1) s(n-2)..s(i+1) ends at
/// s(i+1); pick i so that s(i+1) is not a knight's move from s0, and as
/// late as possible, so that little is reversed.
///
/// # Complexity
/// O(rows * cols).
pub(crate) fn open_up(board: Board, squares: &mut [Square]) -> Result<()> {
    if rotate_once(board, squares).is_ok() {
        return Ok(());
    }
    // Two rotations: move the end once anywhere, then try again.
    let n = squares.len();
    let last = squares[n - 1];
    let targets: Vec<Square> = board.neighbours(last).map(|(_, t)| t).collect();
    for i in 0..n - 2 {
        if targets.contains(&squares[i]) {
            squares[i + 1..].reverse();
            if rotate_once(board, squares).is_ok() {
                return Ok(());
            }
            squares[i + 1..].reverse();
        }
    }
    Err(Error::GaveUp(format!(
        "no rotation of the constructed closed tour of {board} gives an open tour from the same start"
    )))
}

fn rotate_once(board: Board, squares: &mut [Square]) -> Result<()> {
    let n = squares.len();
    let (first, last) = (squares[0], squares[n - 1]);
    let targets: Vec<Square> = board.neighbours(last).map(|(_, t)| t).collect();
    let found = (0..n - 2).rev().find(|&i| {
        targets.contains(&squares[i]) && board.move_between(squares[i + 1], first).is_none()
    });
    match found {
        Some(i) => {
            squares[i + 1..].reverse();
            Ok(())
        }
        None => Err(Error::GaveUp(format!(
            "no rotation of the constructed closed tour of {board} gives an open tour from the same start"
        ))),
    }
}
