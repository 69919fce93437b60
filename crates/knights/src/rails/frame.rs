//! A cover held in one of the board's 8 orientations ([`Frame`]), and the
//! symmetries that turn it ([`Sym`]). Both [`join`](super::join()) and
//! [`shatter`](super::shatter()) run their passes in a uniformly random
//! orientation so that their fixed scan order does not show in the tours;
//! the frame sits below both so that neither imports the other for it.

use rand::Rng;

/// A symmetry of the board (one of 8: transposes and mirrors), as the
/// matrix taking a move `(dx, dy)` to `(m[0][0] dx + m[0][1] dy,
/// m[1][0] dx + m[1][1] dy)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Sym([[i32; 2]; 2]);

impl Sym {
    const IDENTITY: Sym = Sym([[1, 0], [0, 1]]);

    /// Symmetry `i` of 8: bit 2 transposes, then bit 0 mirrors the columns
    /// and bit 1 the rows.
    fn nth(i: u32) -> Sym {
        let mut m = if i & 4 != 0 {
            [[0, 1], [1, 0]]
        } else {
            [[1, 0], [0, 1]]
        };
        for (bit, row) in [(1, 0), (2, 1)] {
            if i & bit != 0 {
                m[row] = [-m[row][0], -m[row][1]];
            }
        }
        Sym(m)
    }

    /// `self` after `other`.
    fn after(self, other: Sym) -> Sym {
        let (a, b) = (self.0, other.0);
        let mut m = [[0; 2]; 2];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, e) in row.iter_mut().enumerate() {
                *e = a[i][0] * b[0][j] + a[i][1] * b[1][j];
            }
        }
        Sym(m)
    }

    /// The inverse (the transpose: the matrix is orthogonal).
    fn inverse(self) -> Sym {
        let m = self.0;
        Sym([[m[0][0], m[1][0]], [m[0][1], m[1][1]]])
    }

    /// Writes the cover `links` of a `rows` x `cols` board, moved by this
    /// symmetry, to `out`; returns the new rows and columns. O(rows * cols).
    fn apply(self, links: &[u8], rows: usize, cols: usize, out: &mut Vec<u8>) -> (usize, usize) {
        let m = self.0;
        let (nr, nc) = if m[0][0] == 0 {
            (cols, rows)
        } else {
            (rows, cols)
        };
        let mut lut = [0u8; 256];
        for k in 0..8 {
            let (dx, dy) = crate::board::MOVES[k];
            let (nx, ny) = (m[0][0] * dx + m[0][1] * dy, m[1][0] * dx + m[1][1] * dy);
            let k2 = crate::board::MOVES
                .iter()
                .position(|&d| d == (nx, ny))
                .expect("a symmetry maps moves to moves");
            for (b, e) in lut.iter_mut().enumerate() {
                if b >> k & 1 == 1 {
                    *e |= 1 << k2;
                }
            }
        }
        // New index of (x, y): base + x * sx + y * sy.
        let (nr, nc) = (nr as isize, nc as isize);
        let off_x = if m[0][0] + m[0][1] < 0 { nc - 1 } else { 0 };
        let off_y = if m[1][0] + m[1][1] < 0 { nr - 1 } else { 0 };
        let base = off_y * nc + off_x;
        let sx = m[0][0] as isize + m[1][0] as isize * nc;
        let sy = m[0][1] as isize + m[1][1] as isize * nc;
        out.clear();
        out.resize(links.len(), 0);
        for (y, row) in links.chunks_exact(cols).enumerate() {
            let mut i = base + y as isize * sy;
            for &b in row {
                out[i as usize] = lut[usize::from(b)];
                i += sx;
            }
        }
        (nr as usize, nc as usize)
    }
}

/// A cover (raw bytes) held in one of the board's 8 orientations, so that a
/// pass which scans in a fixed order (row by row, moves in index order) can
/// run in a uniformly random orientation and so treat the board
/// symmetrically. Turning costs O(rows * cols).
pub(super) struct Frame {
    /// The cover, in the current orientation.
    pub links: Vec<u8>,
    /// The current orientation (applied to the original cover).
    sym: Sym,
    rows: usize,
    cols: usize,
    spare: Vec<u8>,
}

impl Frame {
    /// The cover `links` of a `rows` x `cols` board, unturned.
    pub fn new(links: Vec<u8>, rows: usize, cols: usize) -> Frame {
        Frame {
            links,
            sym: Sym::IDENTITY,
            rows,
            cols,
            spare: Vec::new(),
        }
    }

    /// Turns the cover to a uniformly random orientation drawn from `rng`
    /// (one draw of 0..8).
    pub fn turn_random<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        self.turn_to(Sym::nth(rng.random_range(0..8)));
    }

    /// Turns the cover to the orientation `next`.
    fn turn_to(&mut self, next: Sym) {
        let step = next.after(self.sym.inverse());
        if step != Sym::IDENTITY {
            (self.rows, self.cols) = step.apply(&self.links, self.rows, self.cols, &mut self.spare);
            std::mem::swap(&mut self.links, &mut self.spare);
        }
        self.sym = next;
    }

    /// The board in the current orientation.
    pub fn board(&self) -> crate::Board {
        crate::Board::new(self.rows as u64, self.cols as u64).expect("the same squares")
    }

    /// The cover turned back to the original orientation.
    pub fn finish(mut self) -> Vec<u8> {
        self.turn_to(Sym::IDENTITY);
        self.links
    }

    /// The cover in a uniformly random orientation of the original board
    /// that keeps its shape (one of 8 on a square board, of 4 otherwise:
    /// the identity, the two mirrors and the half turn), drawn from `rng`.
    /// No turn at all when the frame is in the orientation drawn.
    pub fn finish_random<R: Rng + ?Sized>(mut self, rng: &mut R) -> Vec<u8> {
        let square = self.rows == self.cols;
        let i = rng.random_range(0..if square { 8 } else { 4 });
        self.turn_to(Sym::nth(i));
        self.links
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_cover;
    use crate::{Board, Cover};

    #[test]
    fn symmetries_move_covers_and_undo() {
        let board = Board::new(6, 9).unwrap();
        let cover = crate::algorithms::tourney_methods::cover(
            board,
            crate::algorithms::tourney_methods::TourneyMethod::Warnsdorff,
            &mut crate::rng::seeded(5),
        )
        .unwrap();
        let cycles = check_cover(&cover).unwrap();
        let mut seen = Vec::new();
        for i in 0..8 {
            let s = Sym::nth(i);
            let mut out = Vec::new();
            let (r, c) = s.apply(cover.as_bytes(), 6, 9, &mut out);
            assert_eq!((r, c), if i & 4 != 0 { (9, 6) } else { (6, 9) });
            let moved = Cover::from_bytes_unchecked(Board::new(r as u64, c as u64).unwrap(), out);
            // The image is a tourney with as many cycles, and the inverse undoes it.
            assert_eq!(check_cover(&moved).unwrap(), cycles);
            let mut back = Vec::new();
            s.inverse().apply(moved.as_bytes(), r, c, &mut back);
            assert_eq!(back, cover.as_bytes());
            assert_eq!(s.after(s.inverse()), Sym::IDENTITY);
            assert!(!seen.contains(&moved), "symmetry {i} repeats another");
            seen.push(moved);
        }
        // Square (0, 0) with its moves 6 (1, 2) and 7 (2, 1): mirroring the
        // columns puts it at (8, 0) with moves 5 (-1, 2) and 4 (-2, 1).
        let mut out = Vec::new();
        Sym::nth(1).apply(cover.as_bytes(), 6, 9, &mut out);
        let b = cover.as_bytes()[0];
        let mirrored = (b >> 6 & 1) << 5 | (b >> 7 & 1) << 4;
        assert_eq!(out[8], mirrored);
    }
}
