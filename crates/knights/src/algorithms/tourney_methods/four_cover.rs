//! The four-cover tourney (Parberry 2020, Section 6): every 4x4 block of the
//! board covered by its four 4-cycles.
//!
//! Each square of a 4x4 block has exactly two knight's moves that stay in
//! the block, and those moves form four 4-cycles; tiling the board with
//! blocks gives a tourney of `rows * cols / 16 * 4` cycles. Both sides must
//! be divisible by 4.
//!
//! # Complexity
//! O(rows * cols): one table look-up per square.

use crate::board::move_for;
use crate::{memory, Board, Cover, Error, Result};

/// The four 4-cycles of a 4x4 block, as (row, column) in the block.
const CYCLES: [[(i64, i64); 4]; 4] = [
    [(0, 0), (1, 2), (3, 3), (2, 1)],
    [(0, 3), (2, 2), (3, 0), (1, 1)],
    [(0, 1), (2, 0), (3, 2), (1, 3)],
    [(0, 2), (1, 0), (3, 1), (2, 3)],
];

/// The cover byte of each square of a 4x4 block, row-major.
fn block_pattern() -> [u8; 16] {
    let mut pat = [0u8; 16];
    for cycle in CYCLES {
        for i in 0..4 {
            let (a, b) = (cycle[i], cycle[(i + 1) % 4]);
            let k = move_for(b.1 - a.1, b.0 - a.0).expect("block cycles use knight's moves");
            pat[(a.0 * 4 + a.1) as usize] |= 1 << k;
            pat[(b.0 * 4 + b.1) as usize] |= 1 << (k ^ 4);
        }
    }
    pat
}

/// The four-cover tourney of a board whose sides are both divisible by 4.
///
/// # Example
/// ```
/// use knights::{Tourney, algorithms::TourneyMethod};
/// let cover = Tourney::builder("8x12".parse()?).method(TourneyMethod::FourCover).cover()?;
/// assert_eq!(knights::check::check_cover(&cover)?, 24);
/// # Ok::<(), knights::Error>(())
/// ```
pub(crate) fn four_cover(board: Board) -> Result<Cover> {
    if !board.rows().is_multiple_of(4) || !board.cols().is_multiple_of(4) {
        return Err(Error::Unsupported(
            format!("the four-cover tourney needs both sides divisible by 4, and {board} has not")
                .into(),
        )
        .with_hint(crate::Hint::USE_WARNSDORFF));
    }
    let pat = block_pattern();
    let mut links = memory::try_vec(board, "four-cover tourney", 1, 0u8)?;
    let cols = board.cols() as usize;
    for (r, row) in links.chunks_exact_mut(cols).enumerate() {
        let p = &pat[(r % 4) * 4..(r % 4) * 4 + 4];
        for (dst, src) in row.chunks_exact_mut(4).zip(std::iter::repeat(p)) {
            dst.copy_from_slice(src);
        }
    }
    Ok(Cover::from_bytes_unchecked(board, links))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_cover;

    #[test]
    fn covers_every_multiple_of_four() {
        for r in [4u64, 8, 12, 20] {
            for c in [4u64, 8, 16] {
                let b = Board::new(r, c).unwrap();
                let cover = four_cover(b).unwrap();
                assert_eq!(check_cover(&cover).unwrap(), (r * c / 4) as usize);
            }
        }
    }

    #[test]
    fn refuses_other_sides() {
        for (r, c) in [(6, 8), (8, 6), (5, 5)] {
            let e = four_cover(Board::new(r, c).unwrap()).unwrap_err();
            assert!(e.to_string().contains("divisible by 4"));
        }
    }
}
