//! A local fallback of [`join`](super::join): merge a cycle by a short
//! alternating closed walk (a k-opt move with k = 3 or 4), checked exactly.
//!
//! A rail and a 2-opt merge remove two moves of the cover and add two
//! knight's moves, alternating around a closed walk of length 4. When none
//! merges two cycles, a longer alternating walk may: starting at a square of
//! the cycle X, remove a cover move, add a non-cover knight's move, remove a
//! cover move, ..., and close with an added move back to the start (6 or 8
//! moves). Every square of the walk loses as many moves as it gains, so the
//! cover stays a tourney. Whether the cycles merge is decided exactly, in
//! time independent of the board: with every cycle's squares numbered in
//! order (one O(n) labelling per merge), the removed moves cut the cycles
//! they lie on into segments (paths); the added moves join segment ends, and
//! the cycles afterwards are the connected groups of segments. A walk is
//! applied only when fewer cycles result than the cycles it cuts.
//!
//! # Complexity
//! O(n) for the labelling, then O(|X| * 8^k) candidate walks from the
//! cycle X (k = 3, then 4), each checked in O(k^2): bounded by the size of X,
//! not by the board.

use super::{walk_cycles, Geometry};

/// Cycle labels, positions along the cycle and sizes of a 2-regular cover.
pub(crate) struct Order {
    pub labels: Vec<u32>,
    pub pos: Vec<u32>,
    pub sizes: Vec<u32>,
}

/// Numbers every cycle's squares in order.
///
/// # Complexity
/// O(n).
pub(crate) fn order(g: &Geometry, links: &[u8]) -> Order {
    let mut pos = vec![0u32; links.len()];
    let (labels, sizes) = walk_cycles(g, links, |s, i| pos[s] = i);
    Order { labels, pos, sizes }
}

/// Searches alternating closed walks of at most `max_pairs` removed moves
/// (3 or 4) through the cycle `x` that merge cycles, and applies the first
/// found. True when the cover now has fewer cycles (unchanged otherwise).
pub(crate) fn merge(g: &Geometry, links: &mut [u8], ord: &Order, x: u32, max_pairs: usize) -> bool {
    for pairs in 3..=max_pairs {
        let mut search = Search {
            g,
            links,
            ord,
            removed: Vec::with_capacity(pairs),
            added: Vec::with_capacity(pairs),
            pairs,
        };
        for a in 0..search.links.len() {
            if ord.labels[a] != x {
                continue;
            }
            if search.from(a, a) {
                let (removed, added) = (search.removed.clone(), search.added.clone());
                for (u, v) in removed {
                    toggle(g, links, u, v);
                }
                for (u, v) in added {
                    toggle(g, links, u, v);
                }
                return true;
            }
        }
    }
    false
}

fn toggle(g: &Geometry, links: &mut [u8], a: usize, b: usize) {
    let k = g.move_between(a, b);
    links[a] ^= 1 << k;
    links[b] ^= 1 << (k ^ 4);
}

fn same(e: (usize, usize), a: usize, b: usize) -> bool {
    e == (a, b) || e == (b, a)
}

struct Search<'a> {
    g: &'a Geometry,
    links: &'a [u8],
    ord: &'a Order,
    removed: Vec<(usize, usize)>,
    added: Vec<(usize, usize)>,
    pairs: usize,
}

impl Search<'_> {
    /// Extends the walk at `cur` (after an added move, or the start `a`):
    /// remove a cover move from `cur`, then add a non-cover move.
    fn from(&mut self, a: usize, cur: usize) -> bool {
        let g = self.g;
        let mut bits = self.links[cur];
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let nb = (cur as isize + g.off[k]) as usize;
            if self.removed.iter().any(|&e| same(e, cur, nb)) {
                continue;
            }
            self.removed.push((cur, nb));
            if self.removed.len() == self.pairs {
                // Close with nb - a.
                if nb != a
                    && g.adjacent(nb, a)
                    && self.links[nb] & (1 << g.move_between(nb, a)) == 0
                    && !self.added.iter().any(|&e| same(e, nb, a))
                {
                    self.added.push((nb, a));
                    if self.merges() {
                        return true;
                    }
                    self.added.pop();
                }
            } else {
                let (r, col) = (nb as u32 / g.cols, nb as u32 % g.cols);
                for m in 0..8u8 {
                    if self.links[nb] & (1 << m) != 0 {
                        continue;
                    }
                    let Some(c) = g.step_rc(nb, r, col, m) else {
                        continue;
                    };
                    if self.added.iter().any(|&e| same(e, nb, c)) {
                        continue;
                    }
                    self.added.push((nb, c));
                    if self.from(a, c) {
                        return true;
                    }
                    self.added.pop();
                }
            }
            self.removed.pop();
        }
        false
    }

    /// Whether applying the walk leaves fewer cycles than it cuts.
    fn merges(&self) -> bool {
        let ord = self.ord;
        // Cuts: (cycle, position of the lower end, square there, square after).
        let mut cuts: Vec<(u32, u32, usize, usize)> = self
            .removed
            .iter()
            .map(|&(u, v)| {
                let l = ord.labels[u];
                let len = ord.sizes[l as usize];
                if (ord.pos[u] + 1) % len == ord.pos[v] {
                    (l, ord.pos[u], u, v)
                } else {
                    (l, ord.pos[v], v, u)
                }
            })
            .collect();
        cuts.sort_unstable();
        // Segment j of a cycle runs from the square after cut j to the lower
        // square of the next cut of the same cycle; map squares to segments.
        let mut seg_of: Vec<(usize, usize)> = Vec::with_capacity(2 * cuts.len());
        let mut before = 0;
        let mut i = 0;
        while i < cuts.len() {
            let mut j = i;
            while j < cuts.len() && cuts[j].0 == cuts[i].0 {
                j += 1;
            }
            before += 1;
            for t in i..j {
                let next = if t + 1 < j { t + 1 } else { i };
                seg_of.push((cuts[t].3, t));
                seg_of.push((cuts[next].2, t));
            }
            i = j;
        }
        let mut parent: Vec<usize> = (0..cuts.len()).collect();
        fn find(p: &mut [usize], mut a: usize) -> usize {
            while p[a] != a {
                a = p[a];
            }
            a
        }
        let seg = |s: usize| {
            seg_of
                .iter()
                .find(|&&(q, _)| q == s)
                .map(|&(_, t)| t)
                .expect("every end of an added move is cut")
        };
        let mut after = cuts.len();
        for &(u, v) in &self.added {
            let (a, b) = (find(&mut parent, seg(u)), find(&mut parent, seg(v)));
            if a != b {
                parent[a] = b;
                after -= 1;
            }
        }
        after < before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::tourney_methods::{cover as tourney, TourneyMethod};
    use crate::check::check_cover;
    use crate::{Board, Cover};

    /// Every merge found keeps a tourney and removes at least one cycle
    /// (checked by the independent checker); failures leave the cover as is.
    #[test]
    fn merges_are_exact() {
        let mut found = 0;
        for (r, c) in [(6, 6), (8, 8), (5, 10), (10, 12), (3, 12)] {
            let board = Board::new(r, c).unwrap();
            let g = Geometry::new(board);
            for seed in 0..10 {
                let cover = tourney(
                    board,
                    TourneyMethod::Warnsdorff,
                    &mut crate::rng::seeded(seed),
                )
                .unwrap();
                let ord = order(&g, cover.as_bytes());
                let before = check_cover(&cover).unwrap();
                assert_eq!(ord.sizes.len(), before);
                for x in 0..before as u32 {
                    let mut links = cover.as_bytes().to_vec();
                    let merged = merge(&g, &mut links, &ord, x, 4);
                    let now = check_cover(&Cover::from_bytes_unchecked(board, links.clone()))
                        .unwrap_or_else(|e| panic!("{board} seed {seed}: {e}"));
                    if merged {
                        assert!(now < before, "{board} seed {seed} cycle {x}");
                        found += 1;
                    } else {
                        assert_eq!(links, cover.as_bytes());
                    }
                }
            }
        }
        assert!(found > 20, "{found}");
    }
}
