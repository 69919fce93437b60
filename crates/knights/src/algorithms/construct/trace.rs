//! Writing the ordered tour block by block: the hot loop of the construction.
//!
//! Almost every square keeps the two moves of its block's base tour; only
//! the few squares touched by a join differ. So the tour is written as runs
//! along the base tours, in their precomputed order (each position of a
//! base knows its square's offset from the block's corner, the position
//! before and after it, and its base byte): a run stops at the first square
//! whose byte in the cover differs from its base byte, and from there one
//! step follows the cover's own moves into the next block or run. No
//! dependent chain of loads through the board, no division per square.
//!
//! The result is proved as it is written. Every square the walk passes has
//! two moves (the base bytes are checked data; a joined square's byte is
//! counted when the walk steps off it), moves are symmetric (every switch
//! sets both ends), and the walk fails if it comes back to its start (or
//! reaches the other end of a path) before it has written every square, and
//! unless it closes up (or ends on the path's end) right after: so it has
//! followed one cycle (or path) through every square.

use super::base::Pattern;
use super::layout::Blocks;
use crate::board::{Square, MOVES};
use crate::{memory, Board, Error, Result};

/// No position (past the ends of a path).
const NONE: u16 = u16::MAX;
/// No move.
const NO_MOVE: u8 = 8;

/// A pattern laid out by position along its cycles (or path), for a board
/// of a given width.
struct Prep {
    /// Offset of each position's square from the block's corner.
    off: Vec<u32>,
    /// Local row and column of each position.
    rc: Vec<(u8, u8)>,
    /// The base byte of each position.
    byte: Vec<u8>,
    /// The next and previous positions along the cycle (or path).
    succ: Vec<u16>,
    pred: Vec<u16>,
    /// The moves from each position to the next and the previous one.
    to_succ: Vec<u8>,
    to_pred: Vec<u8>,
    /// The position of each local square (row-major).
    pos: Vec<u16>,
    /// Columns of the block.
    w: u32,
}

impl Prep {
    fn new(p: &Pattern, cols: u32) -> Prep {
        let n = p.links.len();
        let w = p.cols;
        let mut len = vec![0u16; usize::from(p.parts)];
        for &l in &p.label {
            len[usize::from(l)] += 1;
        }
        let lo: Vec<u16> = len
            .iter()
            .scan(0u16, |acc, &l| {
                let at = *acc;
                *acc += l;
                Some(at)
            })
            .collect();
        let path = p.ends.is_some();
        let mut out = Prep {
            off: vec![0; n],
            rc: vec![(0, 0); n],
            byte: vec![0; n],
            succ: vec![NONE; n],
            pred: vec![NONE; n],
            to_succ: vec![NO_MOVE; n],
            to_pred: vec![NO_MOVE; n],
            pos: vec![0; n],
            w,
        };
        for local in 0..n {
            let (r, c) = (local as u32 / w, local as u32 % w);
            let l = usize::from(p.label[local]);
            let q = lo[l] + p.order[local];
            let qi = usize::from(q);
            out.pos[local] = q;
            out.off[qi] = r * cols + c;
            out.rc[qi] = (r as u8, c as u8);
            out.byte[qi] = p.links[local];
            let last = lo[l] + len[l] - 1;
            if q < last {
                out.succ[qi] = q + 1;
            } else if !path {
                out.succ[qi] = lo[l];
            }
            if q > lo[l] {
                out.pred[qi] = q - 1;
            } else if !path {
                out.pred[qi] = last;
            }
        }
        let move_to = |a: usize, b: u16| -> u8 {
            if b == NONE {
                return NO_MOVE;
            }
            let ((ar, ac), (br, bc)) = (out.rc[a], out.rc[usize::from(b)]);
            crate::board::move_for(i64::from(bc) - i64::from(ac), i64::from(br) - i64::from(ar))
                .unwrap_or(NO_MOVE)
        };
        let to_succ: Vec<u8> = (0..n).map(|q| move_to(q, out.succ[q])).collect();
        let to_pred: Vec<u8> = (0..n).map(|q| move_to(q, out.pred[q])).collect();
        out.to_succ = to_succ;
        out.to_pred = to_pred;
        out
    }
}

/// Where the walk is: a square, its row and column, its block and position.
#[derive(Copy, Clone)]
struct At {
    sq: Square,
    r: u32,
    c: u32,
    block: usize,
    q: u16,
}

/// The squares of the tour the cover `links` (built from `blocks`)
/// describes, from `start`: around the cycle for a closed tour (`end` =
/// `None`; first by the start's lowest-numbered move), along the path to
/// `end` for an open one.
///
/// # Complexity
/// O(rows * cols) time; the output is 4 bytes per square.
pub(crate) fn trace(
    board: Board,
    blocks: &Blocks,
    links: &[u8],
    start: Square,
    end: Option<Square>,
) -> Result<Vec<Square>> {
    let n = board.squares();
    let cols = board.cols();
    let closed = end.is_none();
    let broken = || {
        Error::GaveUp(format!(
            "the construction's moves on {board} do not form one {} through every square",
            if closed { "cycle" } else { "path" }
        ))
    };
    memory::ensure_fits(board, "tour", 4)?;
    let mut out: Vec<Square> = Vec::new();
    out.try_reserve_exact(n).map_err(|_| Error::TooLarge {
        what: "tour",
        rows: board.rows(),
        cols: board.cols(),
        needed: memory::human_bytes(n as u64 * 4),
        available: memory::human_bytes(memory::available_bytes().unwrap_or(0)),
    })?;
    out.push(start);
    if n == 1 {
        return Ok(out);
    }
    let preps: Vec<Prep> = blocks.patterns.iter().map(|p| Prep::new(p, cols)).collect();
    let strips = blocks.strips();
    let band_of_row = owners(&blocks.ys);
    let strip_of_col = owners(&blocks.xs);
    let delta = MOVES.map(|(dx, dy)| (i64::from(dy) * i64::from(cols) + i64::from(dx)) as u32);
    let locate = |sq: Square, r: u32, c: u32| -> At {
        let (i, j) = (band_of_row[r as usize], strip_of_col[c as usize]);
        let block = i as usize * strips + j as usize;
        let p = &preps[usize::from(blocks.of[block])];
        let local = (r - blocks.ys[i as usize]) * p.w + (c - blocks.xs[j as usize]);
        At {
            sq,
            r,
            c,
            block,
            q: p.pos[local as usize],
        }
    };
    let other_end = end.unwrap_or(start);
    let (sr, sc) = board.coords(start);
    let mut at = locate(start, sr, sc);
    // The move the walk came in by, as a bit (the start: none, or for a
    // closed tour its higher move, so that it leaves by the lower one).
    let first = links[start as usize];
    let mut from: u8 = match end {
        None if first.count_ones() == 2 => 1 << (7 - first.leading_zeros()),
        Some(_) if first.count_ones() == 1 => 0,
        _ => return Err(broken()),
    };
    loop {
        // One step by the cover's own moves, from a square off its base.
        let here = links[at.sq as usize];
        let want = if at.sq == start && !closed { 1 } else { 2 };
        if here.count_ones() != want || here & from != from {
            return Err(broken());
        }
        let k = (here & !from).trailing_zeros() as usize;
        let (dx, dy) = MOVES[k];
        let sq = at.sq.wrapping_add(delta[k]);
        let (r, c) = (at.r.wrapping_add_signed(dy), at.c.wrapping_add_signed(dx));
        if out.len() == n {
            // Every square written: this step must close the cycle.
            return if closed && sq == start {
                Ok(out)
            } else {
                Err(broken())
            };
        }
        out.push(sq);
        if sq == other_end {
            return if out.len() == n && !closed {
                Ok(out)
            } else {
                Err(broken())
            };
        }
        at = locate(sq, r, c);
        from = 1 << (k ^ 4);
        let block = at.block;
        let p = &preps[usize::from(blocks.of[block])];
        let mut q = usize::from(at.q);
        if links[sq as usize] != p.byte[q] {
            continue; // a joined square: step by its own moves again
        }
        // On the base: run along it, away from where the walk came from.
        let back = (k ^ 4) as u8;
        let forward = if p.to_pred[q] == back {
            true
        } else if p.to_succ[q] == back {
            false
        } else {
            return Err(broken());
        };
        let (next, to_back) = if forward {
            (&p.succ, &p.to_pred)
        } else {
            (&p.pred, &p.to_succ)
        };
        let (i, j) = (block / strips, block % strips);
        let (y, x) = (blocks.ys[i], blocks.xs[j]);
        let origin = y * cols + x;
        let room = n - out.len();
        let mut written = 0;
        loop {
            let nq = next[q];
            if nq == NONE {
                return Err(broken());
            }
            q = usize::from(nq);
            let s = origin + p.off[q];
            if written == room {
                // Every square written: the cycle must close on the start.
                return if closed && s == start {
                    Ok(out)
                } else {
                    Err(broken())
                };
            }
            out.push(s);
            written += 1;
            if links[s as usize] != p.byte[q] || s == start || s == other_end {
                if s == start || s == other_end {
                    return if s == other_end && !closed && out.len() == n {
                        Ok(out)
                    } else {
                        Err(broken())
                    };
                }
                let (lr, lc) = p.rc[q];
                at = At {
                    sq: s,
                    r: y + u32::from(lr),
                    c: x + u32::from(lc),
                    block,
                    q: q as u16,
                };
                from = 1 << to_back[q];
                break;
            }
        }
    }
}

/// For each row (or column), the index of the band (or strip) holding it.
fn owners(offsets: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(*offsets.last().unwrap_or(&0) as usize);
    for (i, w) in offsets.windows(2).enumerate() {
        out.extend(std::iter::repeat(i as u32).take((w[1] - w[0]) as usize));
    }
    out
}
