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
//! The squares a join changed are known (every join notes them), so a run
//! never reads the cover: it is a copy of precomputed offsets.
//!
//! The result is proved as it is written. Every square the walk passes has
//! two moves (the base bytes are checked data; a joined square's byte is
//! counted when the walk steps off it), moves are symmetric (every switch
//! sets both ends), and the walk fails if it comes back to its start (or
//! reaches the other end of a path) before it has written every square, and
//! unless it closes up (or ends on the path's end) right after: so it has
//! followed one cycle (or path) through every square.

use super::base::Pattern;
use super::layout::{owners, Blocks};
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
    /// The first position and the length of each position's cycle (or path).
    part: Vec<(u16, u16)>,
    /// Whether the parts are cycles (not a path).
    cyclic: bool,
    /// Columns of the block.
    w: u32,
}

impl Prep {
    /// Whether leaving base position `q` away from the move `back` goes
    /// forward along the base (`back` leads to its predecessor), backward
    /// (to its successor), or neither (`None`: `back` is off the base).
    fn away_from(&self, q: usize, back: u8) -> Option<bool> {
        if self.to_pred[q] == back {
            Some(true)
        } else if self.to_succ[q] == back {
            Some(false)
        } else {
            None
        }
    }

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
            part: vec![(0, 0); n],
            cyclic: !path,
            w,
        };
        for local in 0..n {
            let (r, c) = (local as u32 / w, local as u32 % w);
            let l = usize::from(p.label[local]);
            let q = lo[l] + p.order[local];
            let qi = usize::from(q);
            out.pos[local] = q;
            out.part[qi] = (lo[l], len[l]);
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

/// The joined cover in the form the walk reads: the blocks' patterns laid
/// out for the board, and for each block the positions whose moves a join
/// changed, with their moves. The cover itself is not needed any more.
pub(crate) struct Plan<'b> {
    blocks: &'b Blocks,
    preps: Vec<Prep>,
    band_of_row: Vec<u32>,
    strip_of_col: Vec<u32>,
    /// Where each block's changed positions start in `changed` (and end).
    first: Vec<u32>,
    /// (position, moves) of the changed squares, block by block.
    changed: Vec<(u16, u8)>,
    cols: u32,
}

impl<'b> Plan<'b> {
    /// The plan of the cover `links` built from `blocks`: every square whose
    /// byte differs from its base byte must be in `blocks.touched` (every
    /// join notes the squares it changes; a test checks it).
    ///
    /// # Complexity
    /// O(blocks + touched squares), after O(patterns) set-up.
    pub fn new(board: Board, blocks: &'b mut Blocks, links: &[u8]) -> Plan<'b> {
        let cols = board.cols();
        let touched = std::mem::take(&mut blocks.touched);
        let blocks: &'b Blocks = blocks;
        let mut plan = Plan {
            blocks,
            preps: blocks.patterns.iter().map(|p| Prep::new(p, cols)).collect(),
            band_of_row: owners(&blocks.ys),
            strip_of_col: owners(&blocks.xs),
            first: vec![0; blocks.of.len() + 1],
            changed: Vec::new(),
            cols,
        };
        // The touched squares still off their base, then a counting sort by block.
        let strips = blocks.strips();
        let mut found: Vec<(u32, u16, u8)> = Vec::with_capacity(touched.len());
        for (block, local) in touched {
            let block = block as usize;
            let p = plan.prep(block);
            let q = p.pos[usize::from(local)];
            let origin = blocks.ys[block / strips] * cols + blocks.xs[block % strips];
            let byte = links[(origin + p.off[usize::from(q)]) as usize];
            if byte != p.byte[usize::from(q)] {
                found.push((block as u32, q, byte));
                plan.first[block + 1] += 1;
            }
        }
        for b in 1..plan.first.len() {
            plan.first[b] += plan.first[b - 1];
        }
        let mut fill = plan.first.clone();
        let mut out = vec![(0u16, 0u8); found.len()];
        for (block, q, byte) in found {
            out[fill[block as usize] as usize] = (q, byte);
            fill[block as usize] += 1;
        }
        plan.changed = out;
        plan
    }

    fn prep(&self, block: usize) -> &Prep {
        &self.preps[usize::from(self.blocks.of[block])]
    }

    fn locate(&self, sq: Square, r: u32, c: u32) -> At {
        let (i, j) = (self.band_of_row[r as usize], self.strip_of_col[c as usize]);
        let block = i as usize * self.blocks.strips() + j as usize;
        let p = self.prep(block);
        let local = (r - self.blocks.ys[i as usize]) * p.w + (c - self.blocks.xs[j as usize]);
        At {
            sq,
            r,
            c,
            block,
            q: p.pos[local as usize],
        }
    }

    fn changes(&self, block: usize) -> &[(u16, u8)] {
        &self.changed[self.first[block] as usize..self.first[block + 1] as usize]
    }

    /// The moves of a square: its changed byte, or its base byte.
    fn byte(&self, at: &At) -> (u8, bool) {
        match self.changes(at.block).iter().find(|&&(q, _)| q == at.q) {
            Some(&(_, b)) => (b, true),
            None => (self.prep(at.block).byte[usize::from(at.q)], false),
        }
    }

    /// The squares of the tour from `start`: around the cycle for a closed
    /// tour (`end` = `None`; first by the start's lowest-numbered move),
    /// along the path to `end` for an open one.
    ///
    /// # Complexity
    /// O(rows * cols) time; the output is 4 bytes per square.
    pub fn trace(&self, board: Board, start: Square, end: Option<Square>) -> Result<Vec<Square>> {
        let n = board.squares();
        let cols = self.cols;
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
        memory::ensure_fits(board, "tour", 4)?;
        let mut out: Vec<Square> = Vec::new();
        out.try_reserve_exact(n)
            .map_err(|_| memory::too_large(board, "tour", n as u64 * 4))?;
        out.push(start);
        if n == 1 {
            return Ok(out);
        }
        let delta = MOVES.map(|(dx, dy)| (i64::from(dy) * i64::from(cols) + i64::from(dx)) as u32);
        let other_end = end.unwrap_or(start);
        let at_of = |s: Square| self.locate(s, s / cols, s % cols);
        let (start_at, end_at) = (at_of(start), at_of(other_end));
        let mut at = start_at;
        // The move the walk came in by, as a bit (the start: none, or for a
        // closed tour its higher move, so that it leaves by the lower one).
        let (first, _) = self.byte(&at);
        let mut from: u8 = match end {
            None if first.count_ones() == 2 => 1 << (7 - first.leading_zeros()),
            Some(_) if first.count_ones() == 1 => 0,
            _ => return Err(broken()),
        };
        loop {
            // One step by the square's own moves (it is off its base, or the start).
            let (here, _) = self.byte(&at);
            let want = if at.sq == start && !closed { 1 } else { 2 };
            if here.count_ones() != want || here & from != from {
                return Err(broken());
            }
            let k = (here & !from).trailing_zeros() as usize;
            let (dx, dy) = MOVES[k];
            let sq = at.sq.wrapping_add(delta[k]);
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
            let (r, c) = (at.r.wrapping_add_signed(dy), at.c.wrapping_add_signed(dx));
            at = self.locate(sq, r, c);
            from = 1 << (k ^ 4);
            let (byte, changed) = self.byte(&at);
            if changed {
                continue;
            }
            let p = self.prep(at.block);
            let q = usize::from(at.q);
            debug_assert_eq!(byte, p.byte[q]);
            // On the base: run along it, away from where the walk came from,
            // up to the next changed square (or the start or end).
            let back = (k ^ 4) as u8;
            let forward = p.away_from(q, back).ok_or_else(broken)?;
            let (lo, len) = p.part[q];
            let run = Run {
                forward,
                lo: usize::from(lo),
                len: usize::from(len),
                q,
            };
            let (lo, len) = (run.lo, run.len);
            let (stop, to_start, to_end) = self.stops(&run, at.block, &start_at, &end_at);
            if stop == usize::MAX
                || (!p.cyclic && wraps(forward, q - lo, stop, len))
                || (stop == to_start && !closed)
            {
                return Err(broken());
            }
            let at_end = stop == to_end;
            // The closed walk does not write the start again.
            let body = if at_end && closed { stop - 1 } else { stop };
            if out.len() + body > n {
                return Err(broken());
            }
            let y = self.blocks.ys[at.block / self.blocks.strips()];
            let x = self.blocks.xs[at.block % self.blocks.strips()];
            let origin = y * cols + x;
            run.put(&mut out, &p.off[lo..lo + len], origin, body);
            if at_end {
                return if out.len() == n {
                    Ok(out)
                } else {
                    Err(broken())
                };
            }
            let m = run.position(stop);
            let (lr, lc) = p.rc[m];
            at = At {
                sq: origin + p.off[m],
                r: y + u32::from(lr),
                c: x + u32::from(lc),
                block: at.block,
                q: m as u16,
            };
            from = 1 << if forward { p.to_pred[m] } else { p.to_succ[m] };
        }
    }

    /// The steps along `run` (in `block`) to its first stop, a changed
    /// square, the start or the end, with the steps to the start and to the
    /// end themselves (each `usize::MAX` when the run does not reach it).
    fn stops(&self, run: &Run, block: usize, start_at: &At, end_at: &At) -> (usize, usize, usize) {
        let changed = (self.changes(block).iter())
            .map(|&(m, _)| usize::from(m))
            .filter(|&m| run.holds(m))
            .map(|m| run.dist(m))
            .min()
            .unwrap_or(usize::MAX);
        let dist_to = |e: &At| {
            let m = usize::from(e.q);
            if e.block == block && run.holds(m) {
                run.dist(m)
            } else {
                usize::MAX
            }
        };
        let (to_start, to_end) = (dist_to(start_at), dist_to(end_at));
        (changed.min(to_start).min(to_end), to_start, to_end)
    }
}

/// A run along a block's base path: the part `lo..lo + len` of the base,
/// entered at position `q`, walked forward (to the successors) or back.
#[derive(Clone, Copy)]
struct Run {
    forward: bool,
    lo: usize,
    len: usize,
    q: usize,
}

impl Run {
    /// Whether position `m` of the block is in the run's part, other than `q`.
    fn holds(&self, m: usize) -> bool {
        m >= self.lo && m < self.lo + self.len && m != self.q
    }

    /// The steps from `q` to position `m` of the part, in the run's direction.
    fn dist(&self, m: usize) -> usize {
        let (q, len) = (self.q, self.len);
        let d = if self.forward {
            m + len - q
        } else {
            q + len - m
        };
        if d >= len {
            d - len
        } else {
            d
        }
    }

    /// The block position `stop` steps from `q` along the run.
    fn position(&self, stop: usize) -> usize {
        let (i, len) = (self.q - self.lo, self.len);
        let m = if self.forward {
            i + stop
        } else {
            i + len - stop
        };
        (if m >= len { m - len } else { m }) + self.lo
    }

    /// Appends the `body` squares after `q` in the run's direction to `out`,
    /// going round the part's end if need be; `offs` are the part's offsets
    /// from the block's `origin`.
    fn put(&self, out: &mut Vec<Square>, offs: &[u32], origin: u32, body: usize) {
        let (i, len) = (self.q - self.lo, self.len);
        let put = |out: &mut Vec<Square>, range: std::ops::Range<usize>| {
            let run = offs[range].iter().map(|&o| origin + o);
            if self.forward {
                out.extend(run);
            } else {
                out.extend(run.rev());
            }
        };
        if self.forward {
            let first_len = body.min(len - 1 - i);
            put(out, i + 1..i + 1 + first_len);
            put(out, 0..body - first_len);
        } else {
            let first_len = body.min(i);
            put(out, i - first_len..i);
            put(out, len - (body - first_len)..len);
        }
    }
}

/// Whether a run of `stop` steps from offset `i` of a path of `len`
/// positions would run off its end.
fn wraps(forward: bool, i: usize, stop: usize, len: usize) -> bool {
    if forward {
        i + stop >= len
    } else {
        stop > i
    }
}
