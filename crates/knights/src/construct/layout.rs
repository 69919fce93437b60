//! How a board is cut into blocks, which base each block gets, and how the
//! blocks' cycles are joined into one.
//!
//! The rows are cut into bands and the columns into strips whose sizes come
//! from small sets for which base tours are kept (see [`super::base`]); each
//! block of the grid gets a copy of a base. The blocks are then joined one
//! at a time along a spanning tree of the block grid: each new block `B`,
//! untouched so far, is joined to its already joined neighbour `A` by one
//! switch of two moves. With a move (a, b) of the joined part and a move
//! (c, d) of one of B's cycles, where a-c and b-d are knight's moves, the
//! switch removes (a, b) and (c, d) and adds (a, c) and (b, d). The two were
//! different components, so the result is one cycle (or one path, when the
//! joined part is a path). Every switch keeps every square's number of moves,
//! so at the end there is one cycle or one path through every square.

use super::base::{self, Kind, Pattern};
use super::join::{join_block, Grid, Rect};
use crate::{memory, Board, Error, Result};

/// Widths of the 4-row blocks covered by two cycles ([`Kind::Pair`]).
#[cfg(test)]
pub(crate) const PAIR_WIDTHS: [u32; 5] = [5, 6, 7, 8, 9];

/// Cuts `n` into parts of 6, 8 and 10 (mostly 8): every even `n >= 6`, and 0.
pub(crate) fn split_even(n: u32) -> Option<Vec<u32>> {
    if n % 2 == 1 || n == 2 || n == 4 {
        return None;
    }
    let (q, r) = (n / 8, n % 8);
    let mut parts = vec![8; q as usize];
    match r {
        0 => {}
        6 => parts.push(6),
        2 => *parts.last_mut()? = 10,
        _ => {
            // r == 4: 8 + 4 = 12 = 6 + 6
            parts.pop()?;
            parts.extend([6, 6]);
        }
    }
    Some(parts)
}

/// Cuts `n` into parts from 5 to 10 (mostly 8): every `n >= 5`, and 0.
pub(crate) fn split_any(n: u32) -> Option<Vec<u32>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if n < 5 {
        return None;
    }
    if n <= 10 {
        return Some(vec![n]);
    }
    let (q, r) = (n / 8, n % 8);
    let mut parts = vec![8; q as usize];
    match r {
        0 => {}
        5..=7 => parts.push(r),
        _ => {
            parts.pop();
            match 8 + r {
                t @ (9 | 10) => parts.push(t),
                11 => parts.extend([5, 6]),
                _ => parts.extend([6, 6]),
            }
        }
    }
    Some(parts)
}

/// Cuts `n` into parts of 10 to 18 for 3-row blocks: every even `n >= 10`, and 0.
pub(crate) fn split_three(n: u32) -> Option<Vec<u32>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if n % 2 == 1 || n < 10 {
        return None;
    }
    let mut parts = vec![10; (n / 10 - 1) as usize];
    parts.push(10 + n % 10);
    Some(parts)
}

/// Cuts `n` into parts of [`PAIR_WIDTHS`] for 4-row blocks: every `n >= 5`, and 0.
pub(crate) fn split_pair(n: u32) -> Option<Vec<u32>> {
    let mut parts = split_any(n)?;
    if let Some(at) = parts.iter().position(|&p| p == 10) {
        parts.splice(at..=at, [5, 5]);
    }
    Some(parts)
}

/// A board cut into blocks, with an optional special block (the one that
/// holds the path of an open tour).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub rows: Vec<u32>,
    pub cols: Vec<u32>,
    /// (band, strip, pattern) of the block holding a path.
    pub special: Option<(usize, usize, Pattern)>,
}

/// The kind of base an ordinary block of this size gets.
fn kind_for(h: u32, w: u32) -> Kind {
    if h == 4 || w == 4 {
        Kind::Pair
    } else {
        Kind::Closed
    }
}

impl Layout {
    /// The band and strip of the block where joining starts.
    fn root(&self) -> (usize, usize) {
        self.special.as_ref().map_or((0, 0), |&(i, j, _)| (i, j))
    }

    /// The patterns of the ordinary blocks, by size.
    fn patterns(&self) -> Result<Vec<((u32, u32), Pattern)>> {
        let mut out: Vec<((u32, u32), Pattern)> = Vec::new();
        let count = |parts: &[u32], x: u32| parts.iter().filter(|&&p| p == x).count();
        for &h in &self.rows {
            for &w in &self.cols {
                if out.iter().any(|(s, _)| *s == (h, w)) {
                    continue;
                }
                let special = self.special.as_ref().map_or(0, |(i, j, _)| {
                    usize::from((self.rows[*i], self.cols[*j]) == (h, w))
                });
                if count(&self.rows, h) * count(&self.cols, w) == special {
                    continue; // only the special block has this size
                }
                let p = base::pattern(kind_for(h, w), h, w).ok_or_else(|| {
                    Error::Unsupported(
                        format!("the construction has no base block of {h}x{w}").into(),
                    )
                })?;
                out.push(((h, w), p));
            }
        }
        Ok(out)
    }

    /// Which pattern each block gets, with the blocks' offsets.
    pub fn blocks(&self) -> Result<Blocks> {
        let mut patterns: Vec<Pattern> = Vec::new();
        let mut sizes: Vec<(u32, u32)> = Vec::new();
        for ((h, w), p) in self.patterns()? {
            sizes.push((h, w));
            patterns.push(p);
        }
        let special = self.special.as_ref().map(|(i, j, p)| {
            patterns.push(p.clone());
            (*i, *j)
        });
        let mut of = Vec::with_capacity(self.rows.len() * self.cols.len());
        for (i, &h) in self.rows.iter().enumerate() {
            for (j, &w) in self.cols.iter().enumerate() {
                let k = if special == Some((i, j)) {
                    patterns.len() - 1
                } else {
                    sizes
                        .iter()
                        .position(|&s| s == (h, w))
                        .expect("a pattern for every size")
                };
                of.push(k as u16);
            }
        }
        Ok(Blocks {
            ys: offsets(&self.rows),
            xs: offsets(&self.cols),
            patterns,
            of,
            touched: Vec::new(),
        })
    }

    /// The cover of the bases, copied block by block (row by row of the
    /// board, so it is written once, in order), and, when `join` is set,
    /// joined into one cycle or path. Returns the cover and the blocks, with
    /// every square a join touched.
    ///
    /// # Complexity
    /// O(rows * cols): one copy per square and a bounded search per block.
    pub fn build(&self, board: Board, join: bool) -> Result<(Vec<u8>, Blocks)> {
        let n = board.squares();
        let mut blocks = self.blocks()?;
        memory::ensure_fits(board, "construction", 5)?;
        let mut links: Vec<u8> = Vec::new();
        links
            .try_reserve_exact(n)
            .map_err(|_| memory::too_large(board, "construction", n as u64))?;
        let strips = self.cols.len();
        for (i, &h) in self.rows.iter().enumerate() {
            for rr in 0..h as usize {
                for j in 0..strips {
                    let p = blocks.pattern(i, j);
                    let w = p.cols as usize;
                    links.extend_from_slice(&p.links[rr * w..rr * w + w]);
                }
            }
        }
        debug_assert_eq!(links.len(), n);
        if !join {
            return Ok((links, blocks));
        }
        let (ys, xs) = (&blocks.ys, &blocks.xs);
        // Boards with a side of 3 are walked square by square from their
        // cover, so their joins need not note what they change.
        let note = board.rows() != 3 && board.cols() != 3;
        let mut grid = Grid {
            links: &mut links,
            rows: i64::from(board.rows()),
            cols: i64::from(board.cols()),
            touched: Vec::with_capacity(if note {
                self.rows.len() * self.cols.len() * 4
            } else {
                0
            }),
            ys,
            xs,
            band_of_row: if note { owners(ys) } else { Vec::new() },
            strip_of_col: if note { owners(xs) } else { Vec::new() },
        };
        let rect = |i: usize, j: usize| Rect {
            y: i64::from(ys[i]),
            x: i64::from(xs[j]),
            h: i64::from(self.rows[i]),
            w: i64::from(self.cols[j]),
        };
        let mut cache = Vec::new();
        tree(
            self.rows.len(),
            self.cols.len(),
            self.root(),
            &mut |i, j, parent| {
                let a = parent.map(|(pi, pj)| rect(pi, pj));
                join_block(&mut grid, rect(i, j), blocks.pattern(i, j), a, &mut cache)
            },
        )?;
        let touched = grid.touched;
        blocks.touched = touched;
        Ok((links, blocks))
    }
}

/// The blocks of a layout: their offsets and the pattern each one gets.
#[derive(Clone, Debug)]
pub(crate) struct Blocks {
    /// Start row of each band, with the number of rows at the end.
    pub ys: Vec<u32>,
    /// Start column of each strip, with the number of columns at the end.
    pub xs: Vec<u32>,
    /// The distinct patterns (the special block's last).
    pub patterns: Vec<Pattern>,
    /// The pattern of each block, band by band.
    pub of: Vec<u16>,
    /// Every square whose moves a join changed (some more than once), as
    /// (block, index in the block), blocks numbered band by band; empty on
    /// boards with a side of 3 (walked square by square).
    pub touched: Vec<(u32, u16)>,
}

impl Blocks {
    /// The number of strips.
    pub fn strips(&self) -> usize {
        self.xs.len() - 1
    }

    /// The pattern of the block in band `i` and strip `j`.
    pub fn pattern(&self, i: usize, j: usize) -> &Pattern {
        &self.patterns[usize::from(self.of[i * self.strips() + j])]
    }
}

/// For each row (or column), the index of the band (or strip) holding it,
/// from the start offsets of the parts (with the total at the end).
pub(crate) fn owners(offsets: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(*offsets.last().unwrap_or(&0) as usize);
    for (i, w) in offsets.windows(2).enumerate() {
        out.extend(std::iter::repeat_n(i as u32, (w[1] - w[0]) as usize));
    }
    out
}

/// Start offsets of the parts, with the total at the end.
fn offsets(parts: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(parts.len() + 1);
    let mut at = 0;
    out.push(0);
    for &p in parts {
        at += p;
        out.push(at);
    }
    out
}

/// Calls `visit(band, strip, parent)` for every block in joining order,
/// each with its parent (a neighbour visited earlier; `None` for the root):
/// along the root's band outwards, then band by band outwards, each band
/// starting from the root's strip. Stops at the first error.
fn tree(
    bands: usize,
    strips: usize,
    root: (usize, usize),
    visit: &mut dyn FnMut(usize, usize, Option<(usize, usize)>) -> Result<()>,
) -> Result<()> {
    let (i0, j0) = root;
    let mut band = |i: usize, first_parent: Option<(usize, usize)>| -> Result<()> {
        visit(i, j0, first_parent)?;
        for j in j0 + 1..strips {
            visit(i, j, Some((i, j - 1)))?;
        }
        for j in (0..j0).rev() {
            visit(i, j, Some((i, j + 1)))?;
        }
        Ok(())
    };
    band(i0, None)?;
    for i in i0 + 1..bands {
        band(i, Some((i - 1, j0)))?;
    }
    for i in (0..i0).rev() {
        band(i, Some((i + 1, j0)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_add_up_and_use_known_sizes() {
        for n in 0..400 {
            if let Some(p) = split_even(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| [6, 8, 10].contains(x)), "{n}: {p:?}");
            } else {
                assert!(n % 2 == 1 || n == 2 || n == 4, "{n}");
            }
            if let Some(p) = split_any(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| (5..=10).contains(x)), "{n}: {p:?}");
            } else {
                assert!((1..5).contains(&n), "{n}");
            }
            if let Some(p) = split_three(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| [10, 12, 14, 16, 18].contains(x)), "{n}");
            } else {
                assert!(n % 2 == 1 || (1..10).contains(&n), "{n}");
            }
            if let Some(p) = split_pair(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| PAIR_WIDTHS.contains(x)), "{n}");
            } else {
                assert!((1..5).contains(&n), "{n}");
            }
        }
    }

    #[test]
    fn the_tree_reaches_every_block_from_a_neighbour() {
        for (bands, strips) in [(1, 1), (1, 5), (4, 1), (3, 4)] {
            for i0 in 0..bands {
                for j0 in 0..strips {
                    let mut t = Vec::new();
                    tree(bands, strips, (i0, j0), &mut |i, j, p| {
                        t.push((i, j, p));
                        Ok(())
                    })
                    .unwrap();
                    assert_eq!(t.len(), bands * strips);
                    assert_eq!(t[0], (i0, j0, None));
                    for (n, &(i, j, parent)) in t.iter().enumerate().skip(1) {
                        let (pi, pj) = parent.unwrap();
                        assert_eq!(i.abs_diff(pi) + j.abs_diff(pj), 1);
                        assert!(t[..n].iter().any(|&(a, b, _)| (a, b) == (pi, pj)));
                    }
                }
            }
        }
    }
}
