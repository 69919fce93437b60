//! Magic knight's tours: recognise them ([`sums`]) and look for them
//! ([`search`]).
//!
//! A tour numbered from 1 is **semimagic** when its rows all sum alike and
//! its columns all sum alike, and **magic** when, on a square board, the
//! two main diagonals also give the magic constant `n(n²+1)/2`. (Jelliss
//! and the 2003 enumeration call the first "magic" and the second
//! "diagonally magic"; knights follows the magic-square words.) On 8x8
//! there are 140 semimagic tours up to the 16 symmetries (8 of the board,
//! and reversal) and no magic one (Meyrignac, Stertenbrink and others,
//! 2003); 17 of them are symmetric under the half turn (number `k + 32`
//! opposite `k`), which the search looks at first: their first half
//! decides them, a tree small enough to search through in seconds.
//!
//! # Example
//! ```
//! use knights::{magic, Tour};
//! let tour = Tour::builder("8x8".parse().unwrap()).build().unwrap();
//! let sums = magic::sums(&tour).unwrap();
//! assert_eq!(sums.rows.len(), 8);
//! assert_eq!(sums.rows.iter().sum::<u64>(), 64 * 65 / 2);
//! ```

use serde::Serialize;

use crate::Tour;

mod eight;
mod engine;
pub mod enumerate;
mod geometry;
mod mirror;
pub mod search;
mod walk;

#[cfg(test)]
mod enumerate_tests;
#[cfg(test)]
mod search_tests;

/// How magic a numbered tour is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Magic {
    /// Some row or column sums differ from the others.
    No,
    /// Every row sums alike and every column sums alike.
    Semimagic,
    /// Semimagic on a square board, with both main diagonals summing to
    /// the magic constant too.
    Magic,
}

impl Magic {
    /// The word for it: `no`, `semimagic`, `magic`.
    pub fn name(self) -> &'static str {
        match self {
            Magic::No => "no",
            Magic::Semimagic => "semimagic",
            Magic::Magic => "magic",
        }
    }
}

/// The line sums of a tour numbered from 1 in the knight's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineSums {
    /// How magic the tour is.
    pub magic: Magic,
    /// The sum of each row, top to bottom.
    pub rows: Vec<u64>,
    /// The sum of each column, left to right.
    pub cols: Vec<u64>,
    /// On a square board, the sums of the main diagonal (top left to
    /// bottom right) and of the other one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagonals: Option<[u64; 2]>,
}

impl LineSums {
    /// One line for people: `semimagic: rows sum to 260, columns to 260;
    /// diagonals 264 and 256`, or what differs.
    pub fn describe(&self) -> String {
        let line = |what: &str, sums: &[u64]| match sums.iter().min() == sums.iter().max() {
            true => format!("{what} sum to {}", sums.first().copied().unwrap_or(0)),
            false => format!(
                "{what} sum to {} .. {}",
                sums.iter().min().copied().unwrap_or(0),
                sums.iter().max().copied().unwrap_or(0)
            ),
        };
        let mut text = format!(
            "{}: {}, {}",
            match self.magic {
                Magic::No => "not magic",
                m => m.name(),
            },
            line("rows", &self.rows),
            line("columns", &self.cols)
        );
        if let Some([a, b]) = self.diagonals {
            text.push_str(&format!("; diagonals {a} and {b}"));
        }
        text
    }
}

/// The line sums of `tour` numbered 1, 2, ... in its order; `None` on a
/// board with holes (whose rows hold different numbers of squares).
pub fn sums(tour: &Tour) -> Option<LineSums> {
    if tour.shape().holes().next().is_some() {
        return None;
    }
    let board = tour.board();
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let mut row_sums = vec![0u64; rows];
    let mut col_sums = vec![0u64; cols];
    let mut diagonals = [0u64; 2];
    for (i, &s) in tour.squares().iter().enumerate() {
        let (r, c) = board.coords(s);
        let (r, c, n) = (r as usize, c as usize, i as u64 + 1);
        row_sums[r] += n;
        col_sums[c] += n;
        if rows == cols && r == c {
            diagonals[0] += n;
        }
        if rows == cols && r + c + 1 == cols {
            diagonals[1] += n;
        }
    }
    let alike = |v: &[u64]| v.iter().all(|&x| x == v[0]);
    let semimagic = alike(&row_sums) && alike(&col_sums);
    let diagonals = (rows == cols).then_some(diagonals);
    let magic = match diagonals {
        Some([a, b]) if semimagic && a == row_sums[0] && b == row_sums[0] => Magic::Magic,
        _ if semimagic => Magic::Semimagic,
        _ => Magic::No,
    };
    Some(LineSums {
        magic,
        rows: row_sums,
        cols: col_sums,
        diagonals,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The semimagic tour Dudeney printed (Amusements in Mathematics,
    /// 1917, problem 412), rows top to bottom: the repository's example.
    pub(crate) fn dudeney() -> [[u64; 8]; 8] {
        let text = include_str!("../../../../examples/data/dudeney_semimagic.txt");
        let mut grid = [[0; 8]; 8];
        for (r, line) in text.lines().enumerate() {
            for (c, n) in line.split_whitespace().enumerate() {
                grid[r][c] = n.parse().unwrap();
            }
        }
        grid
    }

    pub(crate) fn tour_of(grid: &[[u64; 8]; 8]) -> Tour {
        let mut squares = vec![0; 64];
        for (r, row) in grid.iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                squares[n as usize - 1] = (r * 8 + c) as u32;
            }
        }
        Tour::new("8x8".parse().unwrap(), squares).unwrap()
    }

    #[test]
    fn dudeneys_tour_is_semimagic_with_its_diagonals_off_by_four() {
        let sums = sums(&tour_of(&dudeney())).unwrap();
        assert_eq!(sums.magic, Magic::Semimagic);
        assert_eq!(sums.rows, vec![260; 8]);
        assert_eq!(sums.cols, vec![260; 8]);
        assert_eq!(sums.diagonals, Some([264, 256]));
        assert_eq!(
            sums.describe(),
            "semimagic: rows sum to 260, columns sum to 260; diagonals 264 and 256"
        );
    }

    #[test]
    fn a_built_tour_is_not_magic_and_its_sums_add_up() {
        let tour = Tour::builder("8x8".parse().unwrap()).build().unwrap();
        let sums = sums(&tour).unwrap();
        assert_eq!(sums.magic, Magic::No);
        assert_eq!(sums.cols.iter().sum::<u64>(), 64 * 65 / 2);
        assert!(sums.describe().starts_with("not magic: rows sum to "));
    }
}
