//! The 8x8 core of the magic search on `u64` bitboards: the same rules as
//! the generic engine (and the same move order), with free squares as one
//! mask, free-neighbour counts and a line's empty squares by colour as
//! population counts, so that a step costs no scan of the board.

use super::geometry::{can_take, Geometry};
use crate::Square;

/// The squares of each line: rows, then columns.
const LINES: [u64; 16] = {
    let mut out = [0u64; 16];
    let mut i = 0;
    while i < 8 {
        out[i] = 0xFF << (8 * i);
        out[8 + i] = 0x0101_0101_0101_0101 << i;
        i += 1;
    }
    out
};

/// The squares with `row + column` odd.
const ODD_COLOUR: u64 = 0x55AA_55AA_55AA_55AA;

/// The state of one 8x8 search: the path so far, its last square fixed.
#[derive(Clone, Debug)]
pub(crate) struct Eight<'g> {
    g: &'g Geometry,
    /// The knight neighbours of each square, as masks.
    nb: [u64; 64],
    /// Squares not yet numbered (the end not among them).
    free: u64,
    /// The last square, as a mask (empty once placed).
    end_bit: u64,
    end: usize,
    /// Squares taking odd numbers (the start's colour).
    odd: u64,
    /// Sum of each line (rows, then columns).
    sum: [u32; 16],
    /// Each line's bounds as a deadline: the line's sum can still be
    /// reached while fewer than `until[l]` squares are numbered.
    until: [u8; 16],
    /// The lines with one empty square (bit `l`).
    single: u16,
    /// The squares numbered 1, 2, ...
    path: Vec<Square>,
}

impl<'g> Eight<'g> {
    /// A path of the one square `start`, ending at `end` (the caller has
    /// checked that they can be the ends of a tour).
    pub fn new(g: &'g Geometry, start: usize, end: usize) -> Eight<'g> {
        let mut nb = [0u64; 64];
        for (s, m) in nb.iter_mut().enumerate() {
            *m = g.neighbours(s).iter().fold(0, |m, &t| m | 1 << t);
        }
        let start_colour = (start / 8 + start % 8) % 2;
        let odd = if start_colour == 1 {
            ODD_COLOUR
        } else {
            !ODD_COLOUR
        };
        let mut e = Eight {
            g,
            nb,
            free: !0,
            end_bit: 1 << end,
            end,
            odd,
            sum: [0; 16],
            until: [0; 16],
            single: 0,
            path: Vec::with_capacity(64),
        };
        e.free &= !(1u64 << end);
        for i in 0..8 {
            // Square (i, i): row i and column i.
            e.refresh(9 * i);
        }
        e.add(end, 64);
        e.place(start, 1);
        e
    }

    fn add(&mut self, s: usize, v: u32) {
        self.sum[s / 8] += v;
        self.sum[8 + s % 8] += v;
        self.refresh(s);
    }

    fn place(&mut self, s: usize, v: u32) {
        self.free &= !(1u64 << s);
        self.add(s, v);
        self.path.push(s as Square);
    }

    /// Recomputes the deadlines and single-square marks of `s`'s lines.
    fn refresh(&mut self, s: usize) {
        let table = deadlines();
        for l in [s / 8, 8 + s % 8] {
            let empty = self.free & LINES[l];
            let odd = (empty & self.odd).count_ones() as usize;
            let even = empty.count_ones() as usize - odd;
            self.until[l] = match 260u32.checked_sub(self.sum[l]) {
                Some(need) => table[odd][even][need as usize],
                None => 0,
            };
            let bit = 1u16 << l;
            if odd + even == 1 {
                self.single |= bit;
            } else {
                self.single &= !bit;
            }
        }
    }

    /// Free neighbours of `t`, the end counting as free.
    fn deg(&self, t: usize) -> u32 {
        (self.nb[t] & (self.free | self.end_bit)).count_ones()
    }

    pub fn path(&self) -> &[Square] {
        &self.path
    }

    pub fn is_full(&self) -> bool {
        self.path.len() == 64
    }

    pub fn current(&self) -> usize {
        self.path[self.path.len() - 1] as usize
    }

    pub fn moves(&self) -> ([(u8, usize); 8], usize) {
        let mut out = [(0u8, 0usize); 8];
        let mut len = 0;
        let last = self.path.len() == 63;
        let open = if last { self.end_bit } else { self.free };
        let here = self.current();
        for &t in self.g.neighbours(here) {
            let t = t as usize;
            if open & (1 << t) != 0 {
                out[len] = (self.deg(t) as u8, t);
                len += 1;
            }
        }
        (out, len)
    }

    pub fn try_step(&mut self, s: usize) -> bool {
        let from = self.current();
        if self.nb[from] & (1 << s) == 0 {
            return false;
        }
        if s == self.end {
            if self.path.len() != 63 || self.end_bit == 0 {
                return false;
            }
            self.end_bit = 0;
            self.path.push(s as Square);
            return true;
        }
        if self.free & (1 << s) == 0 {
            return false;
        }
        let k = self.path.len() as u32 + 1;
        self.place(s, k);
        if self.dead_end(from, s) || !self.lines_ok() {
            self.undo();
            return false;
        }
        true
    }

    pub fn undo(&mut self) {
        if let Some(s) = self.path.pop() {
            let s = s as usize;
            if s == self.end {
                self.end_bit = 1 << s;
            } else {
                let v = self.path.len() as u32 + 1;
                self.free |= 1 << s;
                self.sum[s / 8] -= v;
                self.sum[8 + s % 8] -= v;
                self.refresh(s);
            }
        }
    }

    /// The generic engine's dead-end rule on masks.
    fn dead_end(&self, from: usize, at: usize) -> bool {
        if self.deg(at) == 0 {
            return true;
        }
        let mut cand = self.nb[from] & (self.free | self.end_bit);
        let near_at = self.nb[at];
        while cand != 0 {
            let f = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let ways = self.deg(f) + u32::from(near_at & (1 << f) != 0);
            if ways < 1 + u32::from(f != self.end) {
                return true;
            }
        }
        false
    }

    pub fn all_free_ok(&self) -> bool {
        if self.is_full() {
            return true;
        }
        let at = self.current();
        let mut cand = self.free | self.end_bit;
        while cand != 0 {
            let f = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let ways = self.deg(f) + u32::from(self.nb[at] & (1 << f) != 0);
            if ways <= u32::from(f != self.end) {
                return false;
            }
        }
        self.lines_ok()
    }

    /// The generic engine's line bounds (as deadlines) and forced numbers
    /// (the lines with one empty square) on masks.
    fn lines_ok(&self) -> bool {
        let k = self.path.len() as u8;
        if self.until.iter().fold(false, |bad, &u| bad | (k >= u)) {
            return false;
        }
        let mut forced: [(usize, u64); 4] = [(0, 0); 4];
        let mut nforced = 0;
        let mut lines = self.single;
        while lines != 0 {
            let l = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let need = u64::from(260 - self.sum[l]);
            let s = (self.free & LINES[l]).trailing_zeros() as usize;
            if !self.reachable(s, need) {
                return false;
            }
            for &(t, v) in &forced[..nforced] {
                if t == s {
                    if v != need {
                        return false;
                    }
                } else if v == need || self.g.dist(s, t) > v.abs_diff(need) {
                    return false;
                }
            }
            if nforced < forced.len() {
                forced[nforced] = (s, need);
                nforced += 1;
            }
        }
        true
    }

    fn reachable(&self, s: usize, v: u64) -> bool {
        let k = self.path.len() as u64;
        v > k
            && v < 64
            && self.g.dist(self.current(), s) <= v - k
            && self.g.dist(s, self.end) <= 64 - v
    }
}

/// `deadlines()[odd][even][need]`: one more than the most squares that may
/// be numbered while a line with `odd` and `even` empty squares (taking
/// odd and even numbers) still lacks `need`, by the generic engine's
/// bounds (0: never; 255: always).
fn deadlines() -> &'static [[[u8; 261]; 5]; 5] {
    static TABLE: std::sync::OnceLock<Box<[[[u8; 261]; 5]; 5]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[[0u8; 261]; 5]; 5]);
        for (odd, row) in t.iter_mut().enumerate() {
            for (even, cells) in row.iter_mut().enumerate() {
                for (need, cell) in cells.iter_mut().enumerate() {
                    *cell = deadline(odd as u64, even as u64, need as u64);
                }
            }
        }
        t
    })
}

fn deadline(odd: u64, even: u64, need: u64) -> u8 {
    if odd + even == 0 {
        return if need == 0 { 255 } else { 0 };
    }
    // The bounds only tighten as k grows (the least sum rises).
    let mut until = 0;
    for k in 1..64u64 {
        if !can_take(need, odd, even, k, 63) {
            break;
        }
        until = k as u8 + 1;
    }
    until
}
