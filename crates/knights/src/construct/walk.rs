//! Walking a whole cover square by square (for boards with a side of 3,
//! whose blocks are joined so densely that the runs of [`super::trace`]
//! are too short to pay), checking a cover's degrees, and turning a closed
//! tour into an open one.

use crate::board::{Square, MOVES};
use crate::{memory, Board, Error, Result};

/// Index offsets of the eight moves on a board with `cols` columns.
fn deltas(cols: u32) -> [u32; 8] {
    MOVES.map(|(dx, dy)| (i64::from(dy) * i64::from(cols) + i64::from(dx)) as u32)
}

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

/// The squares of the tour the cover `links` describes, from `start`:
/// around the cycle for a closed tour (`end` = `None`; first by the
/// lowest-numbered move), along the path to `end` for an open one.
///
/// The walk runs from both ends at once (forward from the start, backward
/// from the other end or the start's other move) and meets in the middle:
/// two independent chains of loads instead of one, about twice as fast. It
/// fails unless the two halves meet exactly: with every square of degree 2
/// (or two ends of degree 1), that proves one cycle or path through all.
///
/// # Complexity
/// O(rows * cols) time; the output is 4 bytes per square.
pub(crate) fn walk(
    board: Board,
    links: &[u8],
    start: Square,
    end: Option<Square>,
) -> Result<Vec<Square>> {
    let n = board.squares();
    let closed = end.is_none();
    let broken = || {
        Error::GaveUp(
            format!(
                "the construction's moves on {board} do not form one {} through every square",
                if closed { "cycle" } else { "path" }
            )
            .into(),
        )
    };
    let mut out = memory::try_vec(board, "tour", 4, 0 as Square)?;
    out[0] = start;
    if n == 1 {
        return Ok(out);
    }
    let delta = deltas(board.cols());
    let first = links[start as usize];
    // The forward chain, and the backward chain with what it must not take.
    let (mut f, mut f_from, mut b, mut b_from, inner) = match end {
        None => {
            if first.count_ones() != 2 {
                return Err(broken());
            }
            let (lo, hi) = (first.trailing_zeros(), 7 - first.leading_zeros());
            (start, 1u8 << hi, start, 1u8 << lo, n - 1)
        }
        Some(e) => {
            out[n - 1] = e;
            (start, 0, e, 0, n - 2)
        }
    };
    let other_end = end.unwrap_or(start);
    let step = |cur: &mut Square, from: &mut u8| -> bool {
        let bits = links[*cur as usize] & !*from;
        let k = bits.trailing_zeros() as usize & 7;
        *cur = cur.wrapping_add(delta[k]);
        *from = 1 << (k ^ 4);
        bits != 0 && *cur != start && *cur != other_end
    };
    let forward = inner - inner / 2;
    let (front, back) = out.split_at_mut(1 + forward);
    let back = &mut back[..inner / 2];
    let mut ok = true;
    for (fs, bs) in front[1..].iter_mut().zip(back.iter_mut().rev()) {
        ok &= step(&mut f, &mut f_from);
        ok &= step(&mut b, &mut b_from);
        *fs = f;
        *bs = b;
        if !ok {
            return Err(broken());
        }
    }
    if forward > inner / 2 {
        ok &= step(&mut f, &mut f_from);
        front[forward] = f;
    }
    if !ok {
        return Err(broken());
    }
    // The halves must meet: the forward walk's next square is the backward walk's last.
    let bits = links[f as usize] & !f_from;
    let next = f.wrapping_add(delta[bits.trailing_zeros() as usize & 7]);
    if bits == 0 || next != b {
        return Err(broken());
    }
    Ok(out)
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
    ).into()))
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
        ).into())),
    }
}
