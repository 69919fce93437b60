//! The concentric braided tourney (Parberry 2020, Section 6).
//!
//! A *ring* is the band of width 2 around the edge of a rectangle of at least
//! 4 x 4. On the top and bottom sides of a ring every square is joined to the
//! two squares of the other row of the band two columns to either side (moves
//! (+-2, +-1)); on the left and right sides, to the two squares of the other
//! column two rows up and down; a corner square takes one move from each of
//! its two sides. The strands of this rule weave around the ring like a braid.
//! Rings are peeled off the board until the centre is empty (the shorter side
//! divisible by 4) or is 6 squares wide; a 6 x 6 centre takes a fixed closed
//! tour, a longer 6-wide centre a Warnsdorff tourney.
//!
//! Both sides must be even and at least 4.
//!
//! # Complexity
//! O(rows * cols), O(1) per square.

use rand::Rng;

use super::walks;
use crate::board::move_for;
use crate::{memory, Board, Cover, Error, Result};

/// A closed tour of 6 x 6: the step number of every square, row-major.
const CENTRE_6X6: [u8; 36] = [
    6, 9, 34, 21, 0, 11, //
    27, 20, 7, 10, 33, 22, //
    8, 5, 26, 35, 12, 1, //
    19, 28, 17, 14, 23, 32, //
    4, 15, 30, 25, 2, 13, //
    29, 18, 3, 16, 31, 24, //
];

/// The cover byte of the square at (`lr`, `lc`) of a ring of `h` x `w`.
fn ring_byte(lr: i64, lc: i64, h: i64, w: i64) -> u8 {
    let mut bits = 0u8;
    let mut add = |dr: i64, dc: i64| {
        let (r, c) = (lr + dr, lc + dc);
        if (0..h).contains(&r) && (0..w).contains(&c) {
            bits |= 1 << move_for(dc, dr).expect("ring moves are knight's moves");
        }
    };
    for partner in [
        (lr < 2).then(|| 1 - lr),
        (lr >= h - 2).then(|| 2 * h - 3 - lr),
    ]
    .into_iter()
    .flatten()
    {
        add(partner - lr, -2);
        add(partner - lr, 2);
    }
    for partner in [
        (lc < 2).then(|| 1 - lc),
        (lc >= w - 2).then(|| 2 * w - 3 - lc),
    ]
    .into_iter()
    .flatten()
    {
        add(-2, partner - lc);
        add(2, partner - lc);
    }
    bits
}

/// The concentric braided tourney of a board with both sides even and at
/// least 4. `rng` is used only for a centre of 6 x k with k > 6.
///
/// # Example
/// ```
/// use knights::{Tourney, algorithms::TourneyMethod};
/// let cover = Tourney::builder("10x10".parse()?).method(TourneyMethod::Braid).cover()?;
/// assert!(knights::check::check_cover(&cover)? > 1);
/// # Ok::<(), knights::Error>(())
/// ```
pub(crate) fn braid<R: Rng + ?Sized>(board: Board, rng: &mut R) -> Result<Cover> {
    let (rows, cols) = (i64::from(board.rows()), i64::from(board.cols()));
    if rows % 2 != 0 || cols % 2 != 0 || rows < 4 || cols < 4 {
        return Err(Error::Unsupported(
            format!(
                "the braided tourney needs both sides even and at least 4, and {board} has not"
            )
            .into(),
        )
        .with_hint(crate::Hint::USE_WARNSDORFF));
    }
    let m = rows.min(cols);
    let rings = if m % 4 == 0 { m / 4 } else { (m - 6) / 4 };
    let mut links = memory::try_vec(board, "braided tourney", 1, 0u8)?;
    let mut i = 0usize;
    for r in 0..rows {
        for c in 0..cols {
            let t = r.min(c).min(rows - 1 - r).min(cols - 1 - c) / 2;
            if t < rings {
                let o = 2 * t;
                links[i] = ring_byte(r - o, c - o, rows - 2 * o, cols - 2 * o);
            }
            i += 1;
        }
    }
    if m % 4 == 2 {
        let o = 2 * rings;
        let centre = Board::new((rows - 2 * o) as u64, (cols - 2 * o) as u64)?;
        let inner = if centre.rows() == 6 && centre.cols() == 6 {
            centre_6x6()
        } else {
            walks::warnsdorff(centre, &walks::WalkOptions::default(), rng)?
        };
        let ccols = centre.cols() as usize;
        for (j, &b) in inner.as_bytes().iter().enumerate() {
            let (r, c) = ((j / ccols) as i64 + o, (j % ccols) as i64 + o);
            links[(r * cols + c) as usize] = b;
        }
    }
    Ok(Cover::from_bytes_unchecked(board, links))
}

/// The fixed closed tour of the 6 x 6 centre.
fn centre_6x6() -> Cover {
    let mut order = [0usize; 36];
    for (s, &n) in CENTRE_6X6.iter().enumerate() {
        order[n as usize] = s;
    }
    let board = Board::new(6, 6).expect("6x6 is a board");
    let mut cover = Cover::empty(board).expect("36 bytes fit");
    for i in 0..36 {
        let (a, b) = (order[i] as u32, order[(i + 1) % 36] as u32);
        cover.add(
            a,
            board.move_between(a, b).expect("the centre tour is a tour"),
        );
    }
    cover
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_cover;

    #[test]
    fn braids_are_tourneys_on_even_boards() {
        let mut rng = crate::rng::seeded(1);
        for r in (4..=24).step_by(2) {
            for c in (4..=24).step_by(2) {
                let b = Board::new(r, c).unwrap();
                let cover = braid(b, &mut rng).unwrap();
                check_cover(&cover).unwrap_or_else(|e| panic!("{b}: {e}"));
            }
        }
    }

    #[test]
    fn square_braids_have_four_cycles_per_ring() {
        for n in [8u64, 12, 16] {
            let cover = braid(Board::new(n, n).unwrap(), &mut crate::rng::seeded(0)).unwrap();
            assert_eq!(check_cover(&cover).unwrap(), n as usize, "{n}x{n}");
        }
    }

    #[test]
    fn the_centre_is_a_closed_tour() {
        assert_eq!(check_cover(&centre_6x6()).unwrap(), 1);
    }

    #[test]
    fn refuses_odd_or_narrow_boards() {
        for (r, c) in [(5, 8), (8, 7), (2, 8)] {
            assert!(braid(Board::new(r, c).unwrap(), &mut crate::rng::seeded(0)).is_err());
        }
    }
}
