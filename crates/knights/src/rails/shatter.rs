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
pub(crate) fn shatter_raw<R: Rng + ?Sized>(
    g: &Geometry,
    links: &mut [u8],
    used: &mut [bool],
    rng: &mut R,
) -> usize {
    used.fill(false);
    let (row_masks, col_masks) = down_masks(g);
    let mut bits = 0u64;
    let mut left = 0u32;
    let mut switched = 0;
    let cols = g.cols as usize;
    for (r, &rm) in row_masks.iter().enumerate() {
        let base = r * cols;
        for (col, &cm) in col_masks.iter().enumerate() {
            let u = base + col;
            if used[u] || links[u] & 0xF0 == 0 {
                continue;
            }
            let found = first_rail(g, links, u, rm & cm, |sq| {
                if used[sq[1]] || used[sq[2]] || used[sq[3]] {
                    return false;
                }
                if left == 0 {
                    bits = rng.random();
                    left = 64;
                }
                let take = bits & 1 == 1;
                bits >>= 1;
                left -= 1;
                take
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
    fn shatter_refuses_a_non_tourney() {
        let mut c = Cover::empty(Board::new(5, 5).unwrap()).unwrap();
        assert!(shatter(&mut c, &mut crate::rng::seeded(0)).is_err());
    }
}
