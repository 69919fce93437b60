//! Shatter and obfuscate (Parberry 2020, Section 7, Algorithm 3).
//!
//! *Shatter* switches a random set of pairwise vertex-disjoint rails: one
//! scan of the board, offering every rail that shares no square with a rail
//! already switched, and switching it with probability 1/2. Each switch keeps
//! every square at two moves and either keeps its cycle or splits it, so a
//! tourney results. *Obfuscate* shatters `k` times (16 by default, as in the
//! paper) and then [joins](super::join) the pieces into one closed tour,
//! hiding the artifacts of the method that made the tour. Every pass, and
//! the join, runs in a uniformly random orientation of the board (see
//! [`Frame`]), and the result is left in a uniformly random orientation that
//! keeps the board's shape, so that neither the method's scan order nor the
//! generator's orientation shows in the moves of the tour.

use rand::Rng;

use super::frame::Frame;
use super::join::join_in_frame;
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
/// let tour = knights::Tour::builder("8x8".parse()?).closed()
///     .algorithm(knights::algorithms::Warnsdorff::default()).build_with(&mut rng)?;
/// let mut cover = Cover::from_tour(&tour)?;
/// let switched = rails::shatter(&mut cover, &mut rng)?;
/// assert!(switched > 0);
/// assert!(check::check_cover(&cover)? >= 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn shatter<R: Rng + ?Sized>(cover: &mut Cover, rng: &mut R) -> Result<usize> {
    require_two_moves(cover)?;
    let board = cover.board();
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let mut frame = Frame::new(cover.as_bytes().to_vec(), rows, cols);
    let switched = shatter_passes(&mut frame, 1, rng);
    *cover = Cover::from_bytes_unchecked(board, frame.finish());
    Ok(switched as usize)
}

/// Refuses a cover with a square that has not exactly two moves.
fn require_two_moves(cover: &Cover) -> Result<()> {
    match cover.as_bytes().iter().position(|b| b.count_ones() != 2) {
        Some(s) => Err(Error::Unsupported(format!(
            "square {s} has {} chosen moves, so this is not a tour or tourney and cannot be shattered",
            cover.links(s as u32).count_ones()
        ).into())),
        None => Ok(()),
    }
}

/// Rows of used flags a shatter pass keeps: a rail with topmost square in
/// row r has its squares in rows r to r + 4.
const WINDOW: usize = 5;

/// The used flags of one shatter pass over rows r to r + 4, kept in a ring
/// of [`WINDOW`] rows with a margin of 2 columns on each side (so that the
/// flags of squares off the board can be read, and are false).
struct Used {
    flags: Vec<bool>,
    stride: usize,
    /// Start of each of the rows r .. r + 4 in `flags`, plus 2 (the margin).
    base: [usize; WINDOW],
}

impl Used {
    fn new(cols: usize) -> Used {
        let stride = cols + 4;
        Used {
            flags: vec![false; WINDOW * stride],
            stride,
            base: [2; WINDOW],
        }
    }

    /// Moves the window to rows r .. r + 4: row r + 4 is new and cleared.
    fn enter_row(&mut self, r: usize) {
        for d in 0..WINDOW {
            self.base[d] = (r + d) % WINDOW * self.stride + 2;
        }
        let b = self.base[WINDOW - 1] - 2;
        self.flags[b..b + self.stride].fill(false);
    }

    /// The flag of the square `dy` rows below the current row, in column `col` (may be -2..cols+2).
    #[inline]
    fn at(&self, dy: usize, col: isize) -> usize {
        (self.base[dy] as isize + col) as usize
    }
}

/// The rows and columns down and across of each move (`MOVES`).
const DY: [usize; 8] = [0, 0, 0, 0, 1, 2, 2, 1];

/// One shatter pass over row `r` (see [`shatter`]); its used flags must be
/// at row `r` (after [`Used::enter_row`]); returns the rails switched.
///
/// Rows with three or more rows below them take a branch-free test of all
/// 12 rail shapes at once (see [`shapes`]); the last rows take
/// [`first_rail`]. Both offer the same rails in the same order (primary move,
/// then cross move) and draw the same coins.
#[allow(clippy::too_many_arguments)]
fn shatter_row<R: Rng + ?Sized>(
    g: &Geometry,
    links: &mut [u8],
    used: &mut Used,
    r: usize,
    row_mask: u8,
    col_masks: &[u8],
    coins: &mut Coins,
    rng: &mut R,
) -> usize {
    let cols = g.cols as usize;
    let base = r * cols;
    let dx = |k: u8| crate::board::MOVES[k as usize].0 as isize;
    let mut switched = 0;
    let mark = |used: &mut Used, col: usize, p: u8, c: u8| {
        let col = col as isize;
        let (i0, i1) = (used.at(0, col), used.at(DY[p as usize], col + dx(p)));
        let i2 = used.at(DY[c as usize], col + dx(c));
        let i3 = used.at(DY[p as usize] + DY[c as usize], col + dx(p) + dx(c));
        for i in [i0, i1, i2, i3] {
            used.flags[i] = true;
        }
    };
    if r + 3 < g.rows as usize {
        for (col, &cm) in col_masks.iter().enumerate() {
            let u = base + col;
            let ci = col as isize;
            // No branch on the square itself: a used square has no shapes.
            let free = u16::from(!used.flags[used.at(0, ci)]).wrapping_neg();
            let mut busy = 0u16;
            for k in 4..8u8 {
                busy |= u16::from(used.flags[used.at(DY[k as usize], ci + dx(k))]) << (k - 4);
            }
            let mut m = shapes(g, links, busy, u, links[u], row_mask & cm) & free;
            while m != 0 {
                let i = m.trailing_zeros() as u8;
                m &= m - 1;
                let (p, c) = (4 + i / 4, 4 + i % 4);
                let xi = used.at(DY[p as usize] + DY[c as usize], ci + dx(p) + dx(c));
                if used.flags[xi] || !coins.flip(rng) {
                    continue;
                }
                let v = (u as isize + g.off[p as usize]) as usize;
                let w = (u as isize + g.off[c as usize]) as usize;
                let x = (v as isize + g.off[c as usize]) as usize;
                switch_raw(links, [u, v, w, x], p, c);
                mark(used, col, p, c);
                switched += 1;
                break;
            }
        }
        return switched;
    }
    for (col, &cm) in col_masks.iter().enumerate() {
        let u = base + col;
        if used.flags[used.at(0, col as isize)] || links[u] & 0xF0 == 0 {
            continue;
        }
        let at = |s: usize| used.at(s / cols - r, (s % cols) as isize);
        let found = first_rail(g, links, u, row_mask & cm, |sq| {
            !(used.flags[at(sq[1])] || used.flags[at(sq[2])] || used.flags[at(sq[3])])
                && coins.flip(rng)
        });
        if let Some((sq, p, c)) = found {
            switch_raw(links, sq, p, c);
            mark(used, col, p, c);
            switched += 1;
        }
    }
    switched
}

/// One shatter pass over the whole board, on raw bytes (see [`shatter`]).
pub(crate) fn shatter_raw<R: Rng + ?Sized>(g: &Geometry, links: &mut [u8], rng: &mut R) -> usize {
    let (row_masks, col_masks) = down_masks(g);
    let mut used = Used::new(g.cols as usize);
    let mut coins = Coins::default();
    let mut switched = 0;
    for (r, &rm) in row_masks.iter().enumerate() {
        used.enter_row(r);
        switched += shatter_row(g, links, &mut used, r, rm, &col_masks, &mut coins, rng);
    }
    switched
}

/// `passes` shatter passes, each scanning the board in a uniformly random
/// one of its 8 orientations (drawn from `rng`, then the pass's coins from
/// its own stream seeded from `rng`). One pass scans row by row and offers
/// the rails of each square in a fixed order of shapes, which favours some
/// shapes (on its own it makes steep moves about 3% more common than flat
/// ones after 16 passes); averaged over the orientations the pass treats
/// the board symmetrically: a cover and its image under any symmetry of the
/// board are shattered alike (in distribution). Returns the rails switched;
/// the frame is left in the last pass's orientation.
///
/// # Complexity
/// O(rows * cols * passes) time, one extra byte per square.
pub(super) fn shatter_passes<R: Rng + ?Sized>(frame: &mut Frame, passes: u32, rng: &mut R) -> u64 {
    let mut switched = 0u64;
    for _ in 0..passes {
        frame.turn_random(rng);
        let mut stream = crate::rng::seeded(rng.random());
        let g = Geometry::new(frame.board());
        switched += shatter_raw(&g, &mut frame.links, &mut stream) as u64;
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
/// board `ok`) whose squares `v` and `w` are not used (bit k - 4 of `busy`:
/// the square u + move k is used), as a 16-bit matrix:
/// bit `(p - 4) * 4 + (c - 4)` for primary move `p` and cross move `c`.
/// Branch-free; `u` must have at least three rows below it.
#[inline]
fn shapes(g: &Geometry, links: &[u8], busy: u16, u: usize, bu: u8, ok: u8) -> u16 {
    // Row k - 4: the downward moves of the square u + move k.
    let mut d = 0u16;
    for k in 4..8 {
        let s = (u as isize + g.off[k]) as usize;
        d |= u16::from(links[s] >> 4) << ((k - 4) * 4);
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
/// times, then joins it into one closed tour, in place, and (with at least
/// one shatter) turns the result by a uniformly random symmetry of the board
/// that keeps its shape (one of 8 on a square board, of 4 otherwise).
///
/// # Complexity
/// O(rows * cols * shatters) plus the join.
///
/// # Example
/// ```
/// use knights::{check, rails, Cover};
/// let mut rng = knights::rng::seeded(4);
/// let tour = knights::Tour::builder("12x12".parse()?).closed()
///     .algorithm(knights::algorithms::Warnsdorff::default()).build_with(&mut rng)?;
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
    crate::exists::require(board, crate::Wanted::Closed)?;
    if options.shatters == 0 {
        return join(cover, &options.join, rng);
    }
    require_two_moves(cover)?;
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let mut frame = Frame::new(cover.as_bytes().to_vec(), rows, cols);
    for _ in 0..options.shatters {
        options.join.control.check("the obfuscation")?;
        shatter_passes(&mut frame, 1, rng);
    }
    // The join runs in the last pass's orientation, uniformly random: no
    // second turn of the board is needed.
    let stats = join_in_frame(&mut frame, &options.join, rng)?;
    *cover = Cover::from_bytes_unchecked(board, frame.finish_random(rng));
    Ok(stats)
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
            &crate::algorithms::warnsdorff::WarnsdorffOptions::closed(),
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
        let cover = crate::algorithms::tourney_methods::cover(
            board,
            crate::algorithms::tourney_methods::TourneyMethod::Warnsdorff,
            &mut crate::rng::seeded(3),
        )
        .unwrap();
        let g = Geometry::new(board);
        let links = cover.as_bytes();
        let (rm, cm) = down_masks(&g);
        let all = crate::rails::find_rails(&cover);
        for u in 0..(board.rows() as usize - 3) * 14 {
            let m = shapes(&g, links, 0, u, links[u], rm[u / 14] & cm[u % 14]);
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
    fn passes_give_tourneys_on_any_board() {
        for (r, c) in [(8, 8), (10, 12), (30, 17), (3, 10)] {
            let board = Board::new(r, c).unwrap();
            let cover = crate::construct::closed_cover(board).unwrap();
            let mut frame = Frame::new(cover.as_bytes().to_vec(), r as usize, c as usize);
            let n = shatter_passes(&mut frame, 16, &mut crate::rng::seeded(9));
            assert!(n > 0 || r < 8);
            check_cover(&Cover::from_bytes_unchecked(board, frame.finish())).unwrap();
        }
    }

    /// Steep moves (1, 2, 5, 6) minus flat ones (0, 3, 4, 7), as a
    /// fraction of all moves of a cover.
    fn steep_excess(links: &[u8]) -> f64 {
        let steep: u32 = links.iter().map(|b| (b & 0x66).count_ones()).sum();
        let all: u32 = links.iter().map(|b| b.count_ones()).sum();
        f64::from(2 * steep) / f64::from(all) - 1.0
    }

    /// The mean and standard error of `steep_excess` over `n` covers.
    fn mean_and_error(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, (var / n).sqrt())
    }

    /// On a square board a symmetric procedure gives steep and flat moves
    /// the same expected share. The braided tourney has exactly half of
    /// each; the row-by-row scan alone (every pass in the same orientation)
    /// left steep moves ahead by about 0.03 after 16 passes.
    #[test]
    fn shatter_favours_no_orientation() {
        let board = Board::new(32, 32).unwrap();
        let mut rng = crate::rng::seeded(2026);
        let braid = crate::algorithms::tourney_methods::cover(
            board,
            crate::algorithms::tourney_methods::TourneyMethod::Braid,
            &mut rng,
        )
        .unwrap();
        assert_eq!(steep_excess(braid.as_bytes()), 0.0);
        let xs: Vec<f64> = (0..400)
            .map(|_| {
                let mut frame = Frame::new(braid.as_bytes().to_vec(), 32, 32);
                shatter_passes(&mut frame, 16, &mut rng);
                steep_excess(&frame.finish())
            })
            .collect();
        let (mean, se) = mean_and_error(&xs);
        assert!(se < 0.003, "standard error {se}");
        assert!(
            mean.abs() < 0.01,
            "steep moves ahead by {mean} (standard error {se})"
        );
    }

    /// The share of each line of moves (k and k + 4, k = 0 to 3) in a cover.
    fn line_shares(links: &[u8]) -> [f64; 4] {
        let mut n = [0u32; 8];
        for &b in links {
            for (k, e) in n.iter_mut().enumerate() {
                *e += u32::from(b >> k & 1);
            }
        }
        let all: u32 = n.iter().sum();
        std::array::from_fn(|k| f64::from(n[k] + n[k + 4]) / f64::from(all))
    }

    /// The join treats the board symmetrically: a braided tourney turned by
    /// a uniformly random symmetry (a cover whose distribution is
    /// symmetric), shattered 16 times and joined, keeps each line of moves
    /// at an expected share of 1/4 when the join runs in the last pass's
    /// (random) orientation, as [`obfuscate`] does before its final turn.
    /// The same join in the input's own orientation (the join scanned row by
    /// row in a fixed orientation before) puts the line of moves 2 and 6
    /// well ahead: the control shows the test can see the bias.
    #[test]
    fn join_favours_no_orientation() {
        const N: usize = 400;
        // 4 means per run: a two-sided tail of 2.5e-4 each (1/1000 for the
        // run) is 3.7 standard errors.
        const BOUND: f64 = 4.0;
        let board = Board::new(32, 32).unwrap();
        let mut rng = crate::rng::seeded(77);
        let braid = crate::algorithms::tourney_methods::cover(
            board,
            crate::algorithms::tourney_methods::TourneyMethod::Braid,
            &mut rng,
        )
        .unwrap();
        let mut free = Vec::new();
        let mut fixed = Vec::new();
        for _ in 0..N {
            let mut turned = Frame::new(braid.as_bytes().to_vec(), 32, 32);
            turned.turn_random(&mut rng);
            for (fix, out) in [(false, &mut free), (true, &mut fixed)] {
                let mut frame = Frame::new(turned.links.clone(), 32, 32);
                shatter_passes(&mut frame, 16, &mut rng);
                if fix {
                    frame = Frame::new(frame.finish(), 32, 32);
                }
                join_in_frame(&mut frame, &JoinOptions::default(), &mut rng).unwrap();
                let links = frame.finish();
                let cover = Cover::from_bytes_unchecked(board, links);
                assert_eq!(check_cover(&cover), Ok(1));
                out.push(line_shares(cover.as_bytes()));
            }
        }
        let z = |xs: &[[f64; 4]], k: usize| {
            let col: Vec<f64> = xs.iter().map(|x| x[k]).collect();
            let (mean, se) = mean_and_error(&col);
            ((mean - 0.25) / se, mean)
        };
        for k in 0..4 {
            let (zk, mean) = z(&free, k);
            assert!(
                zk.abs() < BOUND,
                "line {k} at {mean:.5}, {zk:+.1} standard errors from 1/4"
            );
        }
        let (control, mean) = z(&fixed, 2);
        assert!(
            control > BOUND,
            "the fixed-orientation join: line 2 at {mean:.5}, {control:+.1} standard errors"
        );
    }

    #[test]
    fn shatter_refuses_a_non_tourney() {
        let mut c = Cover::empty(Board::new(5, 5).unwrap()).unwrap();
        assert!(shatter(&mut c, &mut crate::rng::seeded(0)).is_err());
    }
}
