//! The middle of an even board that neither part holds: on an odd width
//! its two edges whose ends lie equally far from the centre column, added
//! to the lower part's final states (see the `meet_paths` module notes,
//! "Even rows").

use super::boundary::Boundary;
use super::table::each_pattern;
use crate::count::strategy::halves::MAX_WIDTH;

/// The edges between the two separator rows that neither part holds
/// (their ends equally far from the centre column), added to the lower
/// part's final states one by one, and the bottom patterns that meet some top
/// pattern. The squares' degrees become final path by path of the middle
/// graph; a pattern's index is its degrees in base 3, the squares numbered
/// in that order (then its terminals), so that the squares final so far are
/// the low digits: after each edge, the state must agree on the squares
/// with no edge left with some pattern that meets a top one.
pub(super) struct Middle {
    /// Edges in order, path by path.
    pub(super) edges: Vec<(u8, u8)>,
    /// After how many edges which squares become final.
    pub(super) checks: Vec<(usize, Vec<u8>)>,
    /// The base 3 digit weight of each square.
    pub(super) weight: [u32; 2 * MAX_WIDTH],
    /// For each check, the bottom patterns on the squares final then, as a
    /// bitmap over the low digits and the terminals.
    pub(super) bits: Vec<Vec<u64>>,
    /// For each check, 3 to the number of squares final then.
    pub(super) planes: Vec<u32>,
}

impl Middle {
    pub(super) fn new(w: usize, top_patterns: impl Iterator<Item = u64>) -> Middle {
        let seps = 2 * w;
        let nbrs = |s: usize| -> Vec<usize> {
            let (r, c) = (s / w, s % w);
            [c.wrapping_sub(2), c + 2]
                .into_iter()
                .filter(|&c2| c2 < w && c + c2 == w - 1)
                .map(|c2| (1 - r) * w + c2)
                .collect()
        };
        let mut order = Vec::new();
        let mut edges = Vec::new();
        let mut checks = Vec::new();
        // Lone squares first, then each path from one of its ends.
        let lone: Vec<u8> = (0..seps)
            .filter(|&s| nbrs(s).is_empty())
            .map(|s| s as u8)
            .collect();
        order.extend(&lone);
        checks.push((0, lone));
        for s in 0..seps {
            if order.contains(&(s as u8)) || nbrs(s).len() != 1 {
                continue;
            }
            // A square's degree is final after its last edge: each square
            // of the path after the edge to the next, the last one with it.
            let (mut prev, mut at) = (usize::MAX, s);
            while let Some(next) = nbrs(at).into_iter().find(|&x| x != prev) {
                edges.push((at as u8, next as u8));
                let mut done = vec![at as u8];
                if nbrs(next).len() == 1 {
                    done.push(next as u8);
                }
                order.extend(&done);
                checks.push((edges.len(), done));
                (prev, at) = (at, next);
            }
        }
        let mut weight = [0u32; 2 * MAX_WIDTH];
        for (i, &s) in order.iter().enumerate() {
            weight[s as usize] = 3u32.pow(i as u32);
        }
        // The squares final at each check, as a prefix of `order`.
        let mut finals = Vec::new();
        let mut digits = 0usize;
        for (_, squares) in &checks {
            digits += squares.len();
            finals.push(digits);
        }
        let plane = |j: usize| 3usize.pow(finals[j] as u32);
        let mut bits: Vec<Vec<u64>> = (0..finals.len())
            .map(|j| vec![0u64; (3 * plane(j)).div_ceil(64)])
            .collect();
        // The last check from the patterns, each one before it from the
        // next: its low digits.
        let last = finals.len() - 1;
        for k in top_patterns {
            each_pattern(k, seps, |b, _| {
                let (degrees, term) = (b as u32, (b >> 32) as usize);
                let index: usize = order
                    .iter()
                    .map(|&s| ((degrees >> (2 * s)) & 3) as usize * weight[s as usize] as usize)
                    .sum();
                let i = index + term * plane(last);
                bits[last][i / 64] |= 1 << (i % 64);
            });
        }
        for j in (0..last).rev() {
            let (lower, upper) = bits.split_at_mut(j + 1);
            for (word, &set) in upper[0].iter().enumerate() {
                let mut set = set;
                while set != 0 {
                    let i = word * 64 + set.trailing_zeros() as usize;
                    set &= set - 1;
                    let (term, index) = (i / plane(j + 1), i % plane(j + 1));
                    let p = index % plane(j) + term * plane(j);
                    lower[j][p / 64] |= 1 << (p % 64);
                }
            }
        }
        let planes = finals.iter().map(|&d| 3u32.pow(d as u32)).collect();
        Middle {
            edges,
            checks,
            weight,
            bits,
            planes,
        }
    }

    /// Calls `f` with every bottom state that the lower part's state `b`
    /// makes with edges of the middle and that may meet a top state.
    pub(super) fn expand(&self, b: Boundary, f: &mut impl FnMut(&Boundary)) {
        self.from(b, 0, 0, 0, f);
    }

    /// Goes on from edge `e` and check `check`, with `index` the base 3
    /// value of the squares final so far.
    pub(super) fn from(
        &self,
        b: Boundary,
        e: usize,
        check: usize,
        index: u32,
        f: &mut impl FnMut(&Boundary),
    ) {
        let (mut check, mut index) = (check, index);
        if check < self.checks.len() && self.checks[check].0 == e {
            for &s in &self.checks[check].1 {
                index += ((b.degrees >> (2 * s)) & 3) * self.weight[s as usize];
            }
            let i = (index + u32::from(b.term) * self.planes[check]) as usize;
            if self.bits[check][i / 64] >> (i % 64) & 1 == 0 {
                return;
            }
            check += 1;
        }
        match self.edges.get(e) {
            None => f(&b),
            Some(&(u, v)) => {
                self.from(b, e + 1, check, index, f);
                if let Some(j) = joined(&b, u as usize, v as usize) {
                    self.from(j, e + 1, check, index, f);
                }
            }
        }
    }
}

/// The boundary `b` with the edge between separator squares `u` and `v`
/// added: a new path, a path extended, or two paths joined into one (a
/// path to a terminal inside the part stays one), or `None` where a square
/// would get a third edge, a cycle would close, or two paths to terminals
/// would join (the whole path, leaving the top part's squares out).
pub(super) fn joined(b: &Boundary, u: usize, v: usize) -> Option<Boundary> {
    let deg = |s: usize| (b.degrees >> (2 * s)) & 3;
    let mate = |s: usize| ((b.mates >> (4 * s)) & 15) as usize;
    let (du, dv) = (deg(u), deg(v));
    if du == 2 || dv == 2 {
        return None;
    }
    let mut out = *b;
    out.degrees += (1 << (2 * u)) + (1 << (2 * v));
    let set =
        |m: &mut u64, s: usize, t: usize| *m = (*m & !(15 << (4 * s))) | ((t as u64) << (4 * s));
    let m = &mut out.mates;
    match (du, dv) {
        (0, 0) => {
            set(m, u, v);
            set(m, v, u);
        }
        (0, _) | (_, 0) => {
            let (new, old) = if du == 0 { (u, v) } else { (v, u) };
            let p = mate(old);
            if p == old {
                set(m, new, new);
            } else {
                set(m, new, p);
                set(m, p, new);
            }
            set(m, old, 0);
        }
        _ => {
            let (mu, mv) = (mate(u), mate(v));
            if mu == v || (mu == u && mv == v) {
                return None;
            }
            if mu == u {
                set(m, mv, mv);
            } else if mv == v {
                set(m, mu, mu);
            } else {
                set(m, mu, mv);
                set(m, mv, mu);
            }
            set(m, u, 0);
            set(m, v, 0);
        }
    }
    Some(out)
}
