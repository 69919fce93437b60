//! Rails of a cycle cover (Parberry 2020, Section 4) and the operations built on
//! them: [`join`] (a tourney into one closed tour), [`shatter`] and
//! [`obfuscate`].
//!
//! A *rail* is a pair of parallel moves of a cover, `u -> v` and `w -> x`,
//! both by the same move `p`, whose ends are joined by two knight's moves
//! `u -> w` and `v -> x` (both by the same move `c`) that are not in the
//! cover. Every rail has a topmost square `u`, a downward *primary* move `p`
//! (4 to 7) and a downward *cross* move `c` (4 to 7, `c != p`), so there are
//! at most 12 rail shapes per square (Lemma 1: each move is in at most 6
//! rails). *Switching* a rail swaps its two moves for its two cross moves:
//! four bit flips in each of four bytes of the [`Cover`], O(1). Every square
//! keeps two moves, so a tourney stays a tourney; a rail whose two moves lie on
//! different cycles joins them into one.
//!
//! # Example
//! ```
//! use knights::{Board, rails, Tourney, algorithms::TourneyMethod};
//! let board = Board::new(8, 8)?;
//! let mut cover = Tourney::builder(board).method(TourneyMethod::FourCover).cover()?;
//! assert_eq!(knights::check::check_cover(&cover)?, 16);
//! let found = rails::find_rails(&cover);
//! assert!(!found.is_empty());
//! rails::switch(&mut cover, found[0]);
//! assert!(knights::check::check_cover(&cover).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod frame;
mod join;
mod kopt;
mod posa;
mod shatter;
mod toward;

pub use join::{join, JoinOptions, JoinStats};
pub use shatter::{obfuscate, shatter, ObfuscateOptions};

use crate::board::{Geometry, Square, MOVES};
use crate::{Board, Cover, Result, Tour};

/// Obfuscates a closed tour, keeping its start: [`obfuscate`] with
/// `shatters` shatters on its cover, walked again from the same square in a
/// direction drawn at random (a fixed rule for the direction would be a
/// trace of its own: the turns next to the start would favour one side).
///
/// # Errors
/// [`crate::Error::Unsupported`] for an open tour (rails switch the moves of
/// a cycle cover, and an open tour is not one).
///
/// # Example
/// ```
/// use knights::{Tour, rails};
/// let tour = Tour::builder("16x16".parse()?).closed().build()?;
/// let obfuscated = rails::obfuscate_tour(tour.clone(), 16, &mut knights::rng::seeded(1))?;
/// assert!(obfuscated.is_closed());
/// assert_eq!(obfuscated.start(), tour.start());
/// assert_ne!(obfuscated, tour);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn obfuscate_tour<R: rand::Rng + ?Sized>(
    tour: Tour,
    shatters: u32,
    rng: &mut R,
) -> Result<Tour> {
    let options = ObfuscateOptions {
        shatters,
        ..Default::default()
    };
    obfuscate_tour_with(tour, &options, rng)
}

/// [`obfuscate_tour`] with all of [`obfuscate`]'s options: the join's control
/// stops the shatters as well ([`crate::Error::Interrupted`]).
pub fn obfuscate_tour_with<R: rand::Rng + ?Sized>(
    tour: Tour,
    options: &ObfuscateOptions,
    rng: &mut R,
) -> Result<Tour> {
    if !tour.is_closed() {
        return Err(crate::Error::Unsupported(format!(
            "obfuscation needs a closed tour, and this is an open tour of {}; ask for a closed tour",
            tour.board()
        ).into()));
    }
    let mut cover = Cover::from_tour(&tour)?;
    obfuscate(&mut cover, options, rng)?;
    let start = tour.start();
    let board = tour.board();
    let links = cover.as_bytes()[start as usize];
    let ends: Vec<Square> = (0..8u8)
        .filter(|&k| links & (1 << k) != 0)
        .filter_map(|k| board.step(start, k))
        .collect();
    let second = ends.get(rng.random_range(0..ends.len().max(1))).copied();
    cover.to_tour(start, second)
}

/// One rail: its topmost square, its primary move and its cross move.
///
/// The four squares are `top`, `top + primary`, `top + cross` and
/// `top + primary + cross`; the moves `top -> top + primary` and
/// `top + cross -> top + primary + cross` are in the cover, the two cross
/// moves are not.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rail {
    /// The topmost square.
    pub top: Square,
    /// The primary move, 4 to 7 (downward).
    pub primary: u8,
    /// The cross move, 4 to 7 (downward), not the primary move.
    pub cross: u8,
}

impl Rail {
    /// The four squares `[u, v, w, x]`: `u -> v` and `w -> x` are the primary
    /// moves, `u -> w` and `v -> x` the cross moves. The rail must lie on `board`.
    pub fn squares(&self, board: Board) -> [Square; 4] {
        let step = |s, k| board.step(s, k).expect("rail lies on the board");
        let (u, p, c) = (self.top, self.primary, self.cross);
        [u, step(u, p), step(u, c), step(step(u, p), c)]
    }
}

/// Whether the rail `(u, p, c)` is present in `links` (u at row `r`, column `col`).
/// Returns its squares `[u, v, w, x]` when it is.
#[inline]
pub(crate) fn rail_at(
    g: &Geometry,
    links: &[u8],
    u: usize,
    r: u32,
    col: u32,
    p: u8,
    c: u8,
) -> Option<[usize; 4]> {
    let bu = links[u];
    if bu & (1 << p) == 0 || bu & (1 << c) != 0 {
        return None;
    }
    let w = g.step_rc(u, r, col, c)?;
    if links[w] & (1 << p) == 0 {
        return None;
    }
    let v = (u as isize + g.off[p as usize]) as usize;
    if links[v] & (1 << c) != 0 {
        return None;
    }
    let x = (v as isize + g.off[c as usize]) as usize;
    Some([u, v, w, x])
}

/// Switches the rail `(u, p, c)` with squares `[u, v, w, x]` in raw bytes.
#[inline]
pub(crate) fn switch_raw(links: &mut [u8], sq: [usize; 4], p: u8, c: u8) {
    let [u, v, w, x] = sq;
    let (bp, bc, bp4, bc4) = (1u8 << p, 1u8 << c, 1u8 << (p ^ 4), 1u8 << (c ^ 4));
    links[u] ^= bp | bc;
    links[v] ^= bp4 | bc;
    links[w] ^= bp | bc4;
    links[x] ^= bp4 | bc4;
}

/// Per row and per column, the downward moves (bits 4 to 7) that stay on the
/// board; a square's mask is the AND of its row's and its column's.
pub(crate) fn down_masks(g: &Geometry) -> (Vec<u8>, Vec<u8>) {
    let rows = (0..g.rows)
        .map(|r| {
            let one = if r + 1 < g.rows { 0x90 } else { 0 }; // moves 4, 7: dy = 1
            let two = if r + 2 < g.rows { 0x60 } else { 0 }; // moves 5, 6: dy = 2
            one | two
        })
        .collect();
    let cols = (0..g.cols)
        .map(|c| {
            let mut m = 0u8;
            for (k, &(dx, _)) in MOVES.iter().enumerate().skip(4) {
                let nc = c as i64 + dx as i64;
                if nc >= 0 && nc < g.cols as i64 {
                    m |= 1 << k;
                }
            }
            m
        })
        .collect();
    (rows, cols)
}

/// The first rail with topmost square `u` (whose downward moves on the board
/// are `ok`) for which `take` says yes; its squares, primary and cross move.
#[inline]
pub(crate) fn first_rail(
    g: &Geometry,
    links: &[u8],
    u: usize,
    ok: u8,
    mut take: impl FnMut([usize; 4]) -> bool,
) -> Option<([usize; 4], u8, u8)> {
    let bu = links[u];
    let mut down = bu & 0xF0;
    while down != 0 {
        let p = down.trailing_zeros() as u8;
        down &= down - 1;
        let v = (u as isize + g.off[p as usize]) as usize;
        let mut cand = ok & !bu & !links[v] & 0xF0;
        while cand != 0 {
            let c = cand.trailing_zeros() as u8;
            cand &= cand - 1;
            let w = (u as isize + g.off[c as usize]) as usize;
            if links[w] & (1 << p) != 0 {
                let x = (v as isize + g.off[c as usize]) as usize;
                let sq = [u, v, w, x];
                if take(sq) {
                    return Some((sq, p, c));
                }
            }
        }
    }
    None
}

/// The cross moves that can go with primary move `p` (both downward).
#[inline]
pub(crate) fn crosses(p: u8) -> impl Iterator<Item = u8> {
    (4..8u8).filter(move |&c| c != p)
}

/// Every rail of a cover (any set of moves; usually a tourney or a tour), in
/// order of topmost square, primary move and cross move (Algorithm 1).
///
/// # Complexity
/// O(rows * cols): at most 12 shapes per square, each tested in O(1).
///
/// # Example
/// ```
/// use knights::{Cover, rails};
/// let tour = knights::Tour::builder("8x8".parse()?).closed()
///     .algorithm(knights::algorithms::Warnsdorff::default()).seed(3).build()?;
/// let cover = Cover::from_tour(&tour)?;
/// assert!(rails::find_rails(&cover).len() > 8);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn find_rails(cover: &Cover) -> Vec<Rail> {
    let mut out = Vec::new();
    for_each_rail(cover, |rail, _| out.push(rail));
    out
}

/// The number of rails of a cover (the paper's Rail Conjecture says
/// Theta(n^2) for closed tours of n x n).
///
/// # Complexity
/// O(rows * cols), no allocation.
///
/// # Example
/// ```
/// use knights::{rails, Tourney, algorithms::TourneyMethod};
/// let cover = Tourney::builder("4x4".parse()?).method(TourneyMethod::FourCover).cover()?;
/// assert_eq!(rails::count_rails(&cover), rails::find_rails(&cover).len());
/// # Ok::<(), knights::Error>(())
/// ```
pub fn count_rails(cover: &Cover) -> usize {
    let mut n = 0;
    for_each_rail(cover, |_, _| n += 1);
    n
}

/// Calls `f(rail, [u, v, w, x])` for every rail of the cover.
fn for_each_rail(cover: &Cover, mut f: impl FnMut(Rail, [usize; 4])) {
    let board = cover.board();
    let g = Geometry::new(board);
    let links = cover.as_bytes();
    let mut u = 0usize;
    for r in 0..g.rows {
        for col in 0..g.cols {
            let down = links[u] & 0xF0;
            if down != 0 {
                for p in 4..8u8 {
                    if down & (1 << p) == 0 {
                        continue;
                    }
                    for c in crosses(p) {
                        if let Some(sq) = rail_at(&g, links, u, r, col, p, c) {
                            let rail = Rail {
                                top: u as Square,
                                primary: p,
                                cross: c,
                            };
                            f(rail, sq);
                        }
                    }
                }
            }
            u += 1;
        }
    }
}

/// Switches a rail: its two moves leave the cover and its two cross moves
/// join it. Afterwards the same four squares form the rail
/// `(top, cross, primary)`.
///
/// # Complexity
/// O(1).
///
/// # Panics
/// If `rail` is not a rail of `cover` (its moves absent or its cross moves present).
pub fn switch(cover: &mut Cover, rail: Rail) {
    let board = cover.board();
    let [u, v, w, x] = rail.squares(board);
    let (p, c) = (rail.primary, rail.cross);
    assert!(
        cover.has(u, p) && cover.has(w, p) && !cover.has(u, c) && !cover.has(v, c),
        "{rail:?} is not a rail of this cover"
    );
    let _ = x;
    cover.remove(u, p);
    cover.remove(w, p);
    cover.add(u, c);
    cover.add(v, c);
}

/// Labels the cycles of a 2-regular cover: `labels[s]` is the index of the
/// cycle through `s` (in order of lowest square); returns the labels and the
/// cycle sizes.
///
/// # Complexity
/// O(rows * cols).
pub(crate) fn label_cycles(g: &Geometry, links: &[u8]) -> (Vec<u32>, Vec<u32>) {
    walk_cycles(g, links, |_, _| {})
}

/// Walks every cycle of a 2-regular cover from its lowest square, calling
/// `visit(square, position along the cycle)` on each square; returns the
/// cycle labels and sizes as [`label_cycles`] does.
///
/// # Complexity
/// O(rows * cols).
pub(crate) fn walk_cycles(
    g: &Geometry,
    links: &[u8],
    mut visit: impl FnMut(usize, u32),
) -> (Vec<u32>, Vec<u32>) {
    const NONE: u32 = u32::MAX;
    let n = links.len();
    let mut labels = vec![NONE; n];
    let mut sizes = Vec::new();
    for s in 0..n {
        if labels[s] != NONE {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0u32;
        walk_cycle(g, links, s, |cur| {
            labels[cur] = id;
            visit(cur, size);
            size += 1;
        });
        sizes.push(size);
    }
    (labels, sizes)
}

/// Walks the cycle of a 2-regular cover through `start`, calling
/// `visit(square)` on each of its squares in order, `start` first.
#[inline]
pub(crate) fn walk_cycle(g: &Geometry, links: &[u8], start: usize, mut visit: impl FnMut(usize)) {
    let mut cur = start;
    let mut back = 0u8; // bit of the move leading back to the previous square
    loop {
        visit(cur);
        let k = (links[cur] & !back).trailing_zeros() as u8;
        let next = (cur as isize + g.off[k as usize]) as usize;
        if next == start {
            return;
        }
        back = 1 << (k ^ 4);
        cur = next;
    }
}

/// A union-find over cycle indices (path halving, union by size).
pub(crate) struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    pub fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    #[inline]
    pub fn find(&mut self, mut a: u32) -> u32 {
        while self.parent[a as usize] != a {
            let gp = self.parent[self.parent[a as usize] as usize];
            self.parent[a as usize] = gp;
            a = gp;
        }
        a
    }

    /// Joins the sets of `a` and `b` (roots); false when they were one set.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        self.parent[small as usize] = big;
        self.size[big as usize] += self.size[small as usize];
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::tourney_methods::{cover as tourney, TourneyMethod};
    use crate::check::check_cover;

    #[test]
    fn rails_are_rails_and_switch_back() {
        for (r, c, seed) in [(8, 8, 1), (6, 10, 2), (12, 12, 3), (5, 6, 4)] {
            let board = Board::new(r, c).unwrap();
            let mut rng = crate::rng::seeded(seed);
            let cover = tourney(board, TourneyMethod::Warnsdorff, &mut rng).unwrap();
            let rails = find_rails(&cover);
            assert!(!rails.is_empty());
            for rail in rails {
                let [u, v, w, x] = rail.squares(board);
                let (p, k) = (rail.primary, rail.cross);
                assert!(cover.has(u, p) && cover.has(w, p));
                assert_eq!(board.step(v, k), Some(x));
                assert!(!cover.has(u, k) && !cover.has(v, k));
                let mut once = cover.clone();
                switch(&mut once, rail);
                check_cover(&once).unwrap();
                let back = Rail {
                    top: rail.top,
                    primary: k,
                    cross: p,
                };
                assert!(find_rails(&once).contains(&back));
                switch(&mut once, back);
                assert_eq!(once, cover);
            }
        }
    }

    #[test]
    fn every_move_is_in_at_most_six_rails() {
        let board = Board::new(10, 10).unwrap();
        let cover = tourney(board, TourneyMethod::Warnsdorff, &mut crate::rng::seeded(9)).unwrap();
        let mut per_move = std::collections::HashMap::new();
        for rail in find_rails(&cover) {
            let [u, v, w, x] = rail.squares(board);
            *per_move.entry((u, v)).or_insert(0) += 1;
            *per_move.entry((w, x)).or_insert(0) += 1;
        }
        assert!(per_move.values().all(|&n| n <= 6));
    }

    #[test]
    fn labels_count_cycles() {
        let board = Board::new(12, 16).unwrap();
        let cover = tourney(board, TourneyMethod::FourCover, &mut crate::rng::seeded(0)).unwrap();
        let (labels, sizes) = label_cycles(&Geometry::new(board), cover.as_bytes());
        assert_eq!(sizes.len(), check_cover(&cover).unwrap());
        assert!(sizes.iter().all(|&s| s == 4));
        assert_eq!(labels.len(), 192);
    }
}
