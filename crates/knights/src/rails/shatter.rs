//! Shatter and obfuscate (seed 000, Section 7, Algorithm 3).
//!
//! *Shatter* switches a random set of pairwise vertex-disjoint rails: one
//! scan of the board, offering every rail that shares no square with a rail
//! already switched, and switching it with probability 1/2. Each switch keeps
//! every square at two moves and either keeps its cycle or splits it, so a
//! tourney results. *Obfuscate* shatters `k` times (16 by default, as in the
//! paper) and then [joins](super::join) the pieces into one closed tour,
//! hiding the artifacts of the method that made the tour.

use rand::Rng;

use super::{down_masks, first_rail, join, switch_raw, Geometry, JoinOptions, JoinStats};
use crate::{Cover, Error, Result};

/// Options of [`obfuscate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfuscateOptions {
    /// How many times to shatter before joining.
    pub shatters: u32,
    /// Options of the final join.
    pub join: JoinOptions,
}

impl Default for ObfuscateOptions {
    fn default() -> Self {
        ObfuscateOptions {
            shatters: 16,
            join: JoinOptions::default(),
        }
    }
}

/// Switches a random set of pairwise vertex-disjoint rails of a tourney (or
/// tour), in place; returns how many were switched.
///
/// # Complexity
/// O(rows * cols) time, one byte per square of marks.
///
/// # Example
/// ```
/// use knights::{check, rails, Cover};
/// let mut rng = knights::rng::seeded(2);
/// let tour = knights::algorithms::warnsdorff::tour(
///     "8x8".parse()?, &knights::algorithms::warnsdorff::Options::closed(), &mut rng)?;
/// let mut cover = Cover::from_tour(&tour)?;
/// let switched = rails::shatter(&mut cover, &mut rng)?;
/// assert!(switched > 0);
/// assert!(check::check_cover(&cover)? >= 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn shatter<R: Rng + ?Sized>(cover: &mut Cover, rng: &mut R) -> Result<usize> {
    if let Some(s) = cover.as_bytes().iter().position(|b| b.count_ones() != 2) {
        return Err(Error::Unsupported(format!(
            "square {s} has {} chosen moves, so this is not a tour or tourney and cannot be shattered",
            cover.links(s as u32).count_ones()
        )));
    }
    let board = cover.board();
    let g = Geometry::new(board);
    let mut links = cover.as_bytes().to_vec();
    let mut used = vec![false; links.len()];
    let switched = shatter_raw(&g, &mut links, &mut used, rng);
    *cover = Cover::from_bytes_unchecked(board, links);
    Ok(switched)
}

/// The scan behind [`shatter`], on raw bytes.
/// `used` is scratch space of one flag per square.
///
/// Rows with three or more rows below them take a branch-free test of all
/// 12 rail shapes at once (see [`shapes`]); the last rows take
/// [`first_rail`]. Both offer the same rails in the same order (primary move,
/// then cross move) and draw the same coins, so the result does not depend
/// on which path found a rail.
pub(crate) fn shatter_raw<R: Rng + ?Sized>(
    g: &Geometry,
    links: &mut [u8],
    used: &mut [bool],
    rng: &mut R,
) -> usize {
    used.fill(false);
    let (row_masks, col_masks) = down_masks(g);
    let mut coins = Coins::default();
    let mut switched = 0;
    let cols = g.cols as usize;
    let fast_rows = (g.rows as usize).saturating_sub(3);
    for (r, &rm) in row_masks.iter().enumerate() {
        let base = r * cols;
        if r < fast_rows {
            for (col, &cm) in col_masks.iter().enumerate() {
                let u = base + col;
                // No branch on the square itself: a used square has no shapes.
                let free = u16::from(!used[u]).wrapping_neg();
                let mut m = shapes(g, links, used, u, links[u], rm & cm) & free;
                while m != 0 {
                    let i = m.trailing_zeros() as u8;
                    m &= m - 1;
                    let (p, c) = (4 + i / 4, 4 + i % 4);
                    let v = (u as isize + g.off[p as usize]) as usize;
                    let w = (u as isize + g.off[c as usize]) as usize;
                    let x = (v as isize + g.off[c as usize]) as usize;
                    if used[x] || !coins.flip(rng) {
                        continue;
                    }
                    let sq = [u, v, w, x];
                    switch_raw(links, sq, p, c);
                    for s in sq {
                        used[s] = true;
                    }
                    switched += 1;
                    break;
                }
            }
            continue;
        }
        for (col, &cm) in col_masks.iter().enumerate() {
            let u = base + col;
            if used[u] || links[u] & 0xF0 == 0 {
                continue;
            }
            let found = first_rail(g, links, u, rm & cm, |sq| {
                !(used[sq[1]] || used[sq[2]] || used[sq[3]]) && coins.flip(rng)
            });
            if let Some((sq, p, c)) = found {
                switch_raw(links, sq, p, c);
                for s in sq {
                    used[s] = true;
                }
                switched += 1;
            }
        }
    }
    switched
}

/// Random bits drawn 64 at a time.
#[derive(Default)]
struct Coins {
    bits: u64,
    left: u32,
}

impl Coins {
    #[inline]
    fn flip<R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        if self.left == 0 {
            self.bits = rng.random();
            self.left = 64;
        }
        let heads = self.bits & 1 == 1;
        self.bits >>= 1;
        self.left -= 1;
        heads
    }
}

/// The rails with topmost square `u` (links `bu`, downward moves on the
/// board `ok`) whose squares `v` and `w` are not used, as a 16-bit matrix:
/// bit `(p - 4) * 4 + (c - 4)` for primary move `p` and cross move `c`.
/// Branch-free; `u` must have at least three rows below it.
#[inline]
fn shapes(g: &Geometry, links: &[u8], used: &[bool], u: usize, bu: u8, ok: u8) -> u16 {
    // Row k - 4: the downward moves of the square u + move k; and whether it is used.
    let mut d = 0u16;
    let mut busy = 0u16;
    for k in 4..8 {
        let s = (u as isize + g.off[k]) as usize;
        d |= u16::from(links[s] >> 4) << ((k - 4) * 4);
        busy |= u16::from(used[s]) << (k - 4);
    }
    let p = u16::from((bu & 0xF0) >> 4);
    let c = u16::from((ok & !bu & 0xF0) >> 4) & !busy;
    // Rail (p, c): p in bu, c on the board and not in bu, w = u + c has p,
    // v = u + p has not c, v and w not used.
    ROWS[usize::from(p & !busy)] & (c * 0x1111) & transpose(d) & !d
}

/// `ROWS[m]`: the rows `i` of a 4x4 bit matrix with bit `i` of `m` set.
const ROWS: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut m = 0;
    while m < 16 {
        let mut i = 0;
        while i < 4 {
            if m >> i & 1 == 1 {
                t[m] |= 0xF << (4 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// Transposes a 4x4 bit matrix stored row by row in 16 bits.
#[inline]
fn transpose(mut x: u16) -> u16 {
    let t = (x ^ (x >> 3)) & 0x0A0A;
    x ^= t ^ (t << 3);
    let t = (x ^ (x >> 6)) & 0x00CC;
    x ^ t ^ (t << 6)
}

/// Obfuscates a closed tour (or tourney): shatters it `options.shatters`
/// times, then joins it into one closed tour, in place.
///
/// # Complexity
/// O(rows * cols * shatters) plus the join.
///
/// # Example
/// ```
/// use knights::{check, rails, Cover};
/// let mut rng = knights::rng::seeded(4);
/// let tour = knights::algorithms::warnsdorff::tour(
///     "12x12".parse()?, &knights::algorithms::warnsdorff::Options::closed(), &mut rng)?;
/// let mut cover = Cover::from_tour(&tour)?;
/// rails::obfuscate(&mut cover, &Default::default(), &mut rng)?;
/// assert_eq!(check::check_cover(&cover)?, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn obfuscate<R: Rng + ?Sized>(
    cover: &mut Cover,
    options: &ObfuscateOptions,
    rng: &mut R,
) -> Result<JoinStats> {
    let board = cover.board();
    crate::exists::require(board, true)?;
    if options.shatters > 0 {
        // Validates the cover, then shatters the raw bytes in place.
        shatter(cover, rng)?;
        let g = Geometry::new(board);
        let mut links = cover.as_bytes().to_vec();
        let mut used = vec![false; links.len()];
        for _ in 1..options.shatters {
            shatter_raw(&g, &mut links, &mut used, rng);
        }
        *cover = Cover::from_bytes_unchecked(board, links);
    }
    join(cover, &options.join, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_cover;
    use crate::Board;

    #[test]
    fn shatter_is_reproducible_and_valid() {
        let board = Board::new(10, 12).unwrap();
        let tour = crate::algorithms::warnsdorff::tour(
            board,
            &crate::algorithms::warnsdorff::Options::closed(),
            &mut crate::rng::seeded(1),
        )
        .unwrap();
        let cover = Cover::from_tour(&tour).unwrap();
        let run = |seed| {
            let mut c = cover.clone();
            shatter(&mut c, &mut crate::rng::seeded(seed)).unwrap();
            c
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert_ne!(a, run(8));
        assert!(check_cover(&a).unwrap() > 1);
    }

    #[test]
    fn transpose_and_shapes_match_first_rail() {
        for x in [0u16, 1, 0x8421, 0x1234, 0xFFFF, 0xA5C3] {
            let mut y = 0u16;
            for r in 0..4 {
                for c in 0..4 {
                    y |= (x >> (r * 4 + c) & 1) << (c * 4 + r);
                }
            }
            assert_eq!(transpose(x), y);
        }
        // Every rail shapes() reports is a rail, and it misses none.
        let board = Board::new(12, 14).unwrap();
        let cover = crate::algorithms::tourney::tourney(
            board,
            crate::algorithms::tourney::Generator::Warnsdorff,
            &mut crate::rng::seeded(3),
        )
        .unwrap();
        let g = Geometry::new(board);
        let links = cover.as_bytes();
        let used = vec![false; links.len()];
        let (rm, cm) = down_masks(&g);
        let all = crate::rails::find_rails(&cover);
        for u in 0..(board.rows() as usize - 3) * 14 {
            let m = shapes(&g, links, &used, u, links[u], rm[u / 14] & cm[u % 14]);
            let mine: Vec<(u8, u8)> = (0..16u8)
                .filter(|i| m >> i & 1 == 1)
                .map(|i| (4 + i / 4, 4 + i % 4))
                .collect();
            let theirs: Vec<(u8, u8)> = all
                .iter()
                .filter(|r| r.top as usize == u)
                .map(|r| (r.primary, r.cross))
                .collect();
            assert_eq!(mine, theirs, "square {u}");
        }
    }

    #[test]
    fn shatter_refuses_a_non_tourney() {
        let mut c = Cover::empty(Board::new(5, 5).unwrap()).unwrap();
        assert!(shatter(&mut c, &mut crate::rng::seeded(0)).is_err());
    }
}
