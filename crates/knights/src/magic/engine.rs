//! The core of the magic search: a knight path numbered 1, 2, ... with its
//! last square (number `N`) fixed in advance, extended one square at a
//! time and pruned by the line sums and by dead ends.
//!
//! The pruning, after each square placed (the remaining numbers are always
//! exactly `k+1 ..= M`, `M` the largest number not yet placed):
//! - **line bounds**: the knight alternates colours, so each empty square
//!   of a row or column receives a number of a known parity; the least and
//!   greatest sums its empty squares can still receive are closed forms
//!   ([`can_take`]), and the line's missing sum must lie between them,
//!   with the right parity;
//! - **forced numbers**: a line with one empty square fixes its number,
//!   which the knight must be able to reach in time (knight distance on the
//!   empty board) and from which it must reach the last square in time;
//!   two forced squares need distinct numbers at least their distance apart;
//! - **dead ends**: every empty square but the last needs two ways in or
//!   out (free neighbours, or the knight's square), the last one one.

use super::eight::Eight;
use super::geometry::can_take;
pub(crate) use super::geometry::Geometry;
use super::mirror::Mirror;
use crate::Square;

/// The state of one search of any side: the path so far, its last square
/// fixed.
#[derive(Clone, Debug)]
pub(crate) struct Wide<'g> {
    g: &'g Geometry,
    nn: usize,
    target: u64,
    /// The number on each square (0: empty); the end holds `nn`.
    num: Vec<u32>,
    /// Free neighbours of each square (the end counts as free).
    deg: Vec<u8>,
    /// Sum of each line (rows, then columns).
    sum: Vec<u64>,
    /// Empty squares of each line taking odd / even numbers.
    empty: Vec<[u64; 2]>,
    /// Whether a square takes odd numbers (the start's colour).
    odd: Vec<bool>,
    /// The squares numbered 1, 2, ...
    path: Vec<Square>,
    /// The last square.
    end: usize,
}

impl<'g> Wide<'g> {
    /// A path of the one square `start`, ending at `end`; `None` when the
    /// two cannot be the ends of a tour (same colour, same square).
    pub fn new(g: &'g Geometry, start: usize, end: usize) -> Option<Wide<'g>> {
        let n = g.n;
        let nn = n * n;
        let colour = |s: usize| (s / n + s % n) % 2;
        if start == end || start >= nn || end >= nn || colour(start) == colour(end) {
            return None;
        }
        let odd: Vec<bool> = (0..nn).map(|s| colour(s) == colour(start)).collect();
        let mut empty = vec![[0u64; 2]; 2 * n];
        for s in 0..nn {
            let p = usize::from(!odd[s]);
            empty[s / n][p] += 1;
            empty[n + s % n][p] += 1;
        }
        let mut e = Wide {
            g,
            nn,
            target: (n * (nn + 1) / 2) as u64,
            num: vec![0; nn],
            deg: g.count.clone(),
            sum: vec![0; 2 * n],
            empty,
            odd,
            path: Vec::with_capacity(nn),
            end,
        };
        e.set(end, nn as u32);
        // The end stays a way in for its neighbours until the last step.
        for &t in g.neighbours(end) {
            e.deg[t as usize] += 1;
        }
        e.set(start, 1);
        e.path.push(start as Square);
        Some(e)
    }

    fn set(&mut self, s: usize, v: u32) {
        let n = self.g.n;
        let p = usize::from(!self.odd[s]);
        self.num[s] = v;
        for l in [s / n, n + s % n] {
            self.sum[l] += u64::from(v);
            self.empty[l][p] -= 1;
        }
        for &t in self.g.neighbours(s) {
            self.deg[t as usize] -= 1;
        }
    }

    fn clear(&mut self, s: usize) {
        let n = self.g.n;
        let p = usize::from(!self.odd[s]);
        let v = self.num[s];
        self.num[s] = 0;
        for l in [s / n, n + s % n] {
            self.sum[l] -= u64::from(v);
            self.empty[l][p] += 1;
        }
        for &t in self.g.neighbours(s) {
            self.deg[t as usize] += 1;
        }
    }

    /// The squares numbered so far (the end not among them until placed).
    pub fn path(&self) -> &[Square] {
        &self.path
    }

    /// Whether every square is numbered.
    pub fn is_full(&self) -> bool {
        self.path.len() == self.nn
    }

    /// The square the knight stands on.
    pub fn current(&self) -> usize {
        self.path[self.path.len() - 1] as usize
    }

    /// The squares the knight may step to next (before pruning).
    pub fn moves(&self) -> ([(u8, usize); 8], usize) {
        let mut out = [(0u8, 0usize); 8];
        let mut len = 0;
        let last = self.path.len() + 1 == self.nn;
        for &t in self.g.neighbours(self.current()) {
            let t = t as usize;
            if (t == self.end) == last && (self.num[t] == 0 || t == self.end) {
                out[len] = (self.deg[t], t);
                len += 1;
            }
        }
        (out, len)
    }

    /// Numbers `s` next and keeps it when the pruning allows; `false`
    /// (nothing changed) otherwise.
    pub fn try_step(&mut self, s: usize) -> bool {
        let from = self.current();
        if s == self.end {
            if self.path.len() + 1 != self.nn || !self.g.adjacent(from, s) {
                return false;
            }
            self.path.push(s as Square);
            return true;
        }
        if self.num[s] != 0 || !self.g.adjacent(from, s) {
            return false;
        }
        let k = self.path.len() as u32 + 1;
        self.set(s, k);
        self.path.push(s as Square);
        if self.dead_end(from, s) || !self.lines_ok() {
            self.undo();
            return false;
        }
        true
    }

    /// Takes back the last square numbered.
    pub fn undo(&mut self) {
        if let Some(s) = self.path.pop() {
            if s as usize != self.end {
                self.clear(s as usize);
            }
        }
    }

    /// Whether every square can still be entered and left: checks the
    /// neighbours of the square just left (`from`), whose ways out have
    /// just shrunk, and the new square `at`.
    fn dead_end(&self, from: usize, at: usize) -> bool {
        if self.deg[at] == 0 {
            return true;
        }
        for &f in self.g.neighbours(from) {
            let f = f as usize;
            if f == at || (self.num[f] != 0 && f != self.end) {
                continue;
            }
            let ways = u32::from(self.deg[f]) + u32::from(self.g.adjacent(f, at));
            if ways < 1 + u32::from(f != self.end) {
                return true;
            }
        }
        false
    }

    /// Checks every free square (after a prefix is placed): each needs two
    /// ways in or out, the end one.
    pub fn all_free_ok(&self) -> bool {
        let at = self.current();
        (0..self.nn).all(|f| {
            if f == at || (self.num[f] != 0 && f != self.end) || self.path.len() == self.nn {
                return true;
            }
            let ways = u32::from(self.deg[f]) + u32::from(self.g.adjacent(f, at));
            ways > u32::from(f != self.end)
        }) && self.lines_ok()
    }

    /// The line bounds and forced numbers of every row and column.
    fn lines_ok(&self) -> bool {
        let n = self.g.n;
        let k = self.path.len() as u64;
        let max = self.nn as u64 - 1;
        let mut forced: [(usize, u64); 4] = [(0, 0); 4];
        let mut nforced = 0;
        for l in 0..2 * n {
            let [odd, even] = self.empty[l];
            let Some(need) = self.target.checked_sub(self.sum[l]) else {
                return false;
            };
            if !can_take(need, odd, even, k, max) {
                return false;
            }
            if odd + even == 1 {
                let s = self.empty_in(l);
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
        }
        true
    }

    /// Whether square `s` can take number `v`: reached from the knight in
    /// time and reaching the end in time.
    fn reachable(&self, s: usize, v: u64) -> bool {
        let k = self.path.len() as u64;
        v > k
            && v < self.nn as u64
            && self.g.dist(self.current(), s) <= v - k
            && self.g.dist(s, self.end) <= self.nn as u64 - v
    }

    /// The one empty square of line `l`.
    fn empty_in(&self, l: usize) -> usize {
        let n = self.g.n;
        (0..n)
            .map(|i| if l < n { l * n + i } else { i * n + (l - n) })
            .find(|&s| self.num[s] == 0)
            .unwrap_or(0)
    }
}

/// The state of one search: the 8x8 core on bitboards, the generic one
/// for the other sides, or the half-turn core (first halves of tours
/// symmetric under the half turn, any side).
#[derive(Clone, Debug)]
pub(crate) enum Engine<'g> {
    Eight(Box<Eight<'g>>),
    Wide(Wide<'g>),
    Mirror(Box<Mirror<'g>>),
}

macro_rules! each {
    ($self:expr, $e:ident => $body:expr) => {
        match $self {
            Engine::Eight($e) => $body,
            Engine::Wide($e) => $body,
            Engine::Mirror($e) => $body,
        }
    };
}

impl<'g> Engine<'g> {
    /// A path of the one square `start`, ending at `end`; `None` when the
    /// two cannot be the ends of a tour (same colour, same square).
    pub fn new(g: &'g Geometry, start: usize, end: usize) -> Option<Engine<'g>> {
        let wide = Wide::new(g, start, end)?;
        Some(if g.n == 8 {
            Engine::Eight(Box::new(Eight::new(g, start, end)))
        } else {
            Engine::Wide(wide)
        })
    }

    /// The first half of a tour symmetric under the half turn, from the
    /// one square `start`; `None` off the board.
    pub fn half_turn(g: &'g Geometry, start: usize) -> Option<Engine<'g>> {
        Some(Engine::Mirror(Box::new(Mirror::new(g, start)?)))
    }

    /// The squares numbered so far (the end not among them until placed;
    /// the whole tour once full).
    pub fn path(&self) -> &[Square] {
        each!(self, e => e.path())
    }

    /// Whether every square is numbered.
    pub fn is_full(&self) -> bool {
        each!(self, e => e.is_full())
    }

    /// The squares the knight may step to next, each with its free
    /// neighbours (before pruning).
    pub fn moves(&self) -> ([(u8, usize); 8], usize) {
        each!(self, e => e.moves())
    }

    /// Numbers `s` next and keeps it when the pruning allows; `false`
    /// (nothing changed) otherwise.
    pub fn try_step(&mut self, s: usize) -> bool {
        each!(self, e => e.try_step(s))
    }

    /// Takes back the last square numbered.
    pub fn undo(&mut self) {
        each!(self, e => e.undo())
    }

    /// Checks every free square and line (after a prefix is placed).
    pub fn all_free_ok(&self) -> bool {
        each!(self, e => e.all_free_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::line_bounds;
    use super::*;
    use proptest::prelude::*;

    /// The least and greatest sums by brute force: every way to give the
    /// squares distinct numbers of their parity from `k+1 ..= max`.
    fn brute(odd: u64, even: u64, k: u64, max: u64) -> Option<(u64, u64)> {
        let odds: Vec<u64> = (k + 1..=max).filter(|v| v % 2 == 1).collect();
        let evens: Vec<u64> = (k + 1..=max).filter(|v| v % 2 == 0).collect();
        if odds.len() < odd as usize || evens.len() < even as usize {
            return None;
        }
        let lo =
            odds[..odd as usize].iter().sum::<u64>() + evens[..even as usize].iter().sum::<u64>();
        let hi = odds[odds.len() - odd as usize..].iter().sum::<u64>()
            + evens[evens.len() - even as usize..].iter().sum::<u64>();
        Some((lo, hi))
    }

    proptest! {
        #[test]
        fn line_bounds_agree_with_brute_force(odd in 0u64..5, even in 0u64..5, k in 0u64..40, extra in 0u64..30) {
            let max = k + extra + 1;
            if let Some(b) = brute(odd, even, k, max) {
                prop_assert_eq!(line_bounds(odd, even, k, max), b);
            }
        }
    }

    #[test]
    fn distances_on_8x8_are_the_known_ones() {
        let g = Geometry::new(8);
        assert_eq!(g.dist(0, 63), 6);
        assert_eq!(g.dist(0, 9), 4);
        assert_eq!(g.dist(0, 17), 1);
    }

    /// The 8x8 bitboard core takes the same steps as the generic one:
    /// random walks from random ends, every candidate tried on both.
    #[test]
    fn the_8x8_core_agrees_with_the_generic_one() {
        use rand::Rng;
        let g = Geometry::new(8);
        let mut rng = crate::rng::seeded(7);
        let mut steps = 0;
        for _ in 0..300 {
            let (start, end) = (rng.random_range(0..64), rng.random_range(0..64));
            let Some(mut wide) = Wide::new(&g, start, end) else {
                continue;
            };
            let mut eight = Eight::new(&g, start, end);
            loop {
                assert_eq!(wide.all_free_ok(), eight.all_free_ok());
                assert_eq!(wide.moves(), eight.moves());
                let (moves, len) = wide.moves();
                let ok: Vec<usize> = moves[..len]
                    .iter()
                    .map(|m| m.1)
                    .filter(|&s| {
                        let (a, b) = (wide.try_step(s), eight.try_step(s));
                        assert_eq!(a, b);
                        if a {
                            wide.undo();
                            eight.undo();
                        }
                        a
                    })
                    .collect();
                if ok.is_empty() {
                    break;
                }
                let s = ok[rng.random_range(0..ok.len())];
                assert!(wide.try_step(s) && eight.try_step(s));
                assert_eq!(wide.path(), eight.path());
                steps += 1;
            }
        }
        assert!(steps > 3000, "{steps} steps");
    }

    #[test]
    fn an_engine_needs_ends_of_two_colours() {
        let g = Geometry::new(6);
        assert!(Engine::new(&g, 0, 2).is_none());
        assert!(Engine::new(&g, 0, 1).is_some());
    }
}
