//! The core of the search for semimagic tours symmetric under the half
//! turn: number `k + N/2` stands on the square opposite number `k` (the
//! board turned through 180 degrees), so the search walks only the first
//! half of the tour, `N/2` steps instead of `N`.
//!
//! Such a tour is closed (number `N/2` is a knight's move from the square
//! opposite number 1), and its line sums follow from the first half alone.
//! A row `r` and its opposite row `n-1-r` hold `2n` squares in `n`
//! opposite pairs, one square of each pair in the first half. Writing `A`
//! and `B` for the sums of the first-half numbers in the two rows and `a`,
//! `b` for how many there are, row `r` sums to `A + B + b N/2` and row
//! `n-1-r` to `A + B + a N/2`. Both are the magic constant exactly when
//! `a = b = n/2` and `A + B = n(n² + 2)/4`; the same for columns. So the
//! pruning, after each square placed:
//! - **half rows**: no row or column takes more than `n/2` first-half
//!   squares;
//! - **pair bounds**: each pair of opposite lines still needs
//!   `n(n² + 2)/4 - (A + B)` from its empty first-half places, of known
//!   parities (the colours; opposite squares share a colour), within the
//!   least and greatest sums of the numbers left ([`can_take`]);
//! - **dead ends**: every empty square needs two ways in or out among the
//!   empty squares and the four ends of the two half paths.

use super::geometry::{can_take, Geometry};
use crate::Square;

/// The state of one half-turn search: the first half of the path so far.
#[derive(Clone, Debug)]
pub(crate) struct Mirror<'g> {
    g: &'g Geometry,
    nn: usize,
    /// `N/2`: the first half's length, and the shift to the opposite half.
    half: u32,
    /// What each pair of opposite lines' first-half numbers sum to.
    target: u64,
    /// The number on each square (0: empty).
    num: Vec<u32>,
    /// Empty neighbours of each square.
    deg: Vec<u8>,
    /// First-half squares in each line (rows, then columns).
    count: Vec<u8>,
    /// Sum of the first-half numbers of each pair of opposite lines (row
    /// pairs, then column pairs).
    sum: Vec<u64>,
    /// Empty first-half places of each pair taking odd / even numbers.
    empty: Vec<[u64; 2]>,
    /// Whether a square takes odd numbers (the start's colour).
    odd: Vec<bool>,
    /// The first half: the squares numbered 1, 2, ...
    path: Vec<Square>,
    /// The whole tour, once the first half closes.
    full: Vec<Square>,
}

impl<'g> Mirror<'g> {
    /// The path of the one square `start`; `None` off the board.
    pub fn new(g: &'g Geometry, start: usize) -> Option<Mirror<'g>> {
        let n = g.n;
        let nn = n * n;
        if start >= nn || n % 2 == 1 {
            return None;
        }
        let colour = |s: usize| (s / n + s % n) % 2;
        let odd: Vec<bool> = (0..nn).map(|s| colour(s) == colour(start)).collect();
        // A pair of opposite lines has n opposite pairs of squares, half
        // of each colour: n/2 first-half places of each parity.
        let per = (n / 2) as u64;
        let mut m = Mirror {
            g,
            nn,
            half: (nn / 2) as u32,
            target: (n * (nn + 2) / 4) as u64,
            num: vec![0; nn],
            deg: g.count.clone(),
            count: vec![0; 2 * n],
            sum: vec![0; n],
            empty: vec![[per, per]; n],
            odd,
            path: Vec::with_capacity(nn / 2),
            full: Vec::new(),
        };
        m.set(start, 1);
        m.path.push(start as Square);
        Some(m)
    }

    /// The square opposite `s`.
    fn opposite(&self, s: usize) -> usize {
        self.nn - 1 - s
    }

    /// The pairs of opposite lines through `s`: its row pair, its column
    /// pair.
    fn pairs(&self, s: usize) -> [usize; 2] {
        let n = self.g.n;
        let fold = |i: usize| i.min(n - 1 - i);
        [fold(s / n), n / 2 + fold(s % n)]
    }

    /// Puts `k` on `s` and `k + N/2` opposite.
    fn set(&mut self, s: usize, k: u32) {
        let n = self.g.n;
        let o = self.opposite(s);
        self.num[s] = k;
        self.num[o] = k + self.half;
        for t in [s, o] {
            for &u in self.g.neighbours(t) {
                self.deg[u as usize] -= 1;
            }
        }
        self.count[s / n] += 1;
        self.count[n + s % n] += 1;
        let p = usize::from(!self.odd[s]);
        for l in self.pairs(s) {
            self.sum[l] += u64::from(k);
            self.empty[l][p] -= 1;
        }
    }

    /// Takes `s`'s number and its opposite's back.
    fn clear(&mut self, s: usize) {
        let n = self.g.n;
        let o = self.opposite(s);
        let k = self.num[s];
        self.num[s] = 0;
        self.num[o] = 0;
        for t in [s, o] {
            for &u in self.g.neighbours(t) {
                self.deg[u as usize] += 1;
            }
        }
        self.count[s / n] -= 1;
        self.count[n + s % n] -= 1;
        let p = usize::from(!self.odd[s]);
        for l in self.pairs(s) {
            self.sum[l] -= u64::from(k);
            self.empty[l][p] += 1;
        }
    }

    /// The whole tour once complete, else the first half so far.
    pub fn path(&self) -> &[Square] {
        if self.full.is_empty() {
            &self.path
        } else {
            &self.full
        }
    }

    /// Whether the first half is complete (and closes the tour).
    pub fn is_full(&self) -> bool {
        !self.full.is_empty()
    }

    fn current(&self) -> usize {
        self.path[self.path.len() - 1] as usize
    }

    /// Whether `s` may take a first-half number: empty, and its row and
    /// column have first-half places left.
    fn open(&self, s: usize) -> bool {
        let n = self.g.n;
        let cap = (n / 2) as u8;
        self.num[s] == 0 && self.count[s / n] < cap && self.count[n + s % n] < cap
    }

    /// The squares the knight may step to next, each with its empty
    /// neighbours (before pruning).
    pub fn moves(&self) -> ([(u8, usize); 8], usize) {
        let mut out = [(0u8, 0usize); 8];
        let mut len = 0;
        for &t in self.g.neighbours(self.current()) {
            let t = t as usize;
            if self.open(t) {
                out[len] = (self.deg[t], t);
                len += 1;
            }
        }
        (out, len)
    }

    /// Numbers `s` next (and its opposite) and keeps it when the pruning
    /// allows; `false` (nothing changed) otherwise.
    pub fn try_step(&mut self, s: usize) -> bool {
        let from = self.current();
        if self.is_full() || !self.open(s) || !self.g.adjacent(from, s) {
            return false;
        }
        let k = self.path.len() as u32 + 1;
        let first = self.path[0] as usize;
        if k == self.half && !self.g.adjacent(s, self.opposite(first)) {
            return false;
        }
        self.set(s, k);
        self.path.push(s as Square);
        if self.dead_end(from, s) || !self.lines_ok() {
            self.undo();
            return false;
        }
        if k == self.half {
            self.full = self.path.clone();
            let opposite: Vec<Square> = self
                .path
                .iter()
                .map(|&t| self.opposite(t as usize) as Square)
                .collect();
            self.full.extend(opposite);
        }
        true
    }

    /// Takes back the last square numbered.
    pub fn undo(&mut self) {
        self.full.clear();
        if self.path.len() > 1 {
            if let Some(s) = self.path.pop() {
                self.clear(s as usize);
            }
        }
    }

    /// The ends of the two half paths: the first square, the knight's,
    /// and their opposites.
    fn ends(&self, at: usize) -> [usize; 4] {
        let first = self.path[0] as usize;
        [first, self.opposite(first), at, self.opposite(at)]
    }

    /// Whether empty square `f` has fewer than two ways in or out.
    fn stuck(&self, f: usize, ends: &[usize; 4]) -> bool {
        let at_ends = ends.iter().filter(|&&e| self.g.adjacent(f, e)).count();
        usize::from(self.deg[f]) + at_ends < 2
    }

    /// Whether some square can no longer be entered and left: the
    /// neighbours of the new squares (`at` and its opposite) and of the
    /// ones left (`from` and its opposite, no longer ends) are checked.
    fn dead_end(&self, from: usize, at: usize) -> bool {
        if self.path.len() as u32 == self.half {
            return false;
        }
        let first = self.path[0] as usize;
        if self.deg[at] == 0 || self.deg[first] == 0 {
            return true;
        }
        let ends = self.ends(at);
        [at, self.opposite(at), from, self.opposite(from)]
            .iter()
            .flat_map(|&t| self.g.neighbours(t))
            .map(|&f| f as usize)
            .any(|f| self.num[f] == 0 && self.stuck(f, &ends))
    }

    /// Checks every empty square and pair of lines (after a prefix is
    /// placed).
    pub fn all_free_ok(&self) -> bool {
        if self.is_full() {
            return true;
        }
        let at = self.current();
        let ends = self.ends(at);
        let first = self.path[0] as usize;
        (self.deg[at] > 0 && self.deg[first] > 0)
            && (0..self.nn).all(|f| self.num[f] != 0 || !self.stuck(f, &ends))
            && self.lines_ok()
    }

    /// The bounds of every pair of opposite lines.
    fn lines_ok(&self) -> bool {
        let k = self.path.len() as u64;
        self.sum
            .iter()
            .zip(&self.empty)
            .all(|(&sum, &[odd, even])| {
                self.target
                    .checked_sub(sum)
                    .is_some_and(|need| can_take(need, odd, even, k, u64::from(self.half)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magic::tests::tour_of;

    /// Wenzelides' tour (c. 1849, as Schubert prints it in 1898),
    /// symmetric under the half turn; from the test data.
    const WENZELIDES: [[u64; 8]; 8] = [
        [47, 10, 23, 64, 49, 2, 59, 6],
        [22, 63, 48, 9, 60, 5, 50, 3],
        [11, 46, 61, 24, 1, 52, 7, 58],
        [62, 21, 12, 45, 8, 57, 4, 51],
        [19, 36, 25, 40, 13, 44, 53, 30],
        [26, 39, 20, 33, 56, 29, 14, 43],
        [35, 18, 37, 28, 41, 16, 31, 54],
        [38, 27, 34, 17, 32, 55, 42, 15],
    ];

    #[test]
    fn wenzelides_first_half_walks_through_and_closes_into_his_tour() {
        let squares = tour_of(&WENZELIDES).squares().to_vec();
        let g = Geometry::new(8);
        let mut m = Mirror::new(&g, squares[0] as usize).unwrap();
        for &s in &squares[1..32] {
            assert!(m.try_step(s as usize), "step to {s} refused");
        }
        assert!(m.is_full());
        assert_eq!(m.path(), &squares[..]);
        m.undo();
        assert!(!m.is_full());
        assert_eq!(m.path(), &squares[..31]);
    }

    #[test]
    fn the_square_opposite_a_numbered_one_is_taken() {
        let squares = tour_of(&WENZELIDES).squares().to_vec();
        let g = Geometry::new(8);
        let mut m = Mirror::new(&g, squares[0] as usize).unwrap();
        // The opposite of a square taken is taken too.
        let taken = 63 - squares[0] as usize;
        assert!(!m.try_step(taken));
        // Every step the search could take keeps the first square.
        let (moves, len) = m.moves();
        assert!(len > 0 && moves[..len].iter().all(|&(_, s)| s != taken));
    }
}
