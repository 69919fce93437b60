//! What a count of a shape can be judged by before its problem is built:
//! Brégman's upper bound on its tours, the bits its counts start with,
//! and the refusal of shapes too large to count, a frontier too wide or a
//! count past the widest the counter holds, before a huge board's move
//! graph is built (it would take memory and time for nothing).

use std::f64::consts::{LN_2, PI};

use crate::count::engine::frontier::MAX_FRONTIER;
use crate::count::plan::{expected_bits, oriented, SquareOrder, PROBLEM_BYTES_PER_SQUARE};
use crate::shape::{Leaper, Wrap};
use crate::{Kind, Result, Shape, Square};

/// The bits the count of a knight's `shape` (holes, wrapping) is expected
/// to need: its rectangle's estimate, scaled by the share of the squares it
/// keeps; for a shape that wraps, at least 0.85 of [`tour_bound_bits`]
/// (wrapping adds moves, so its tours outnumber the rectangle's by far);
/// 0 for other leapers. Like [`expected_bits`] it only chooses the width
/// the counts start with, so that a long count of a shape does not go
/// through its squares again each time its counts overflow.
///
/// The share 0.85 is measured: on every torus and cylinder counted for
/// docs/records.md (3 x n tori to n = 24, cylinders 3 to 6 round) the
/// count has between 0.52 and 0.84 of the bound's bits, and near 0.75 on
/// the long ones, so the counts start as wide as they end.
pub(crate) fn shape_expected_bits(shape: &Shape, kind: Kind) -> u32 {
    if shape.leaper() != Leaper::KNIGHT {
        return 0;
    }
    let board = shape.board();
    let whole = expected_bits(board, kind).unwrap_or(0);
    let scaled = (u64::from(whole) * shape.squares() as u64 / board.squares().max(1) as u64) as u32;
    match shape.wrap() {
        Wrap::None => scaled,
        _ => scaled.max((tour_bound_bits(shape, kind) * 0.85) as u32),
    }
}

/// An upper bound, in bits, on the number of `kind` tours of `shape`, by
/// Brégman's bound on the permanent (L. M. Brégman, "Some properties of
/// nonnegative matrices and their permanents", 1973): a 0-1 matrix whose
/// rows have `r_i` ones has a permanent of at most the product of
/// `(r_i!)^(1/r_i)`. The permanent of the adjacency matrix counts the
/// covers of the squares by directed cycles, and every closed tour is such
/// a cover (twice, once each way). An open tour is a closed tour of the
/// shape with one more square, joined to every square, so it is bounded
/// the same way on that larger graph.
pub(crate) fn tour_bound_bits(shape: &Shape, kind: Kind) -> f64 {
    let extra = usize::from(kind == Kind::Open);
    let bits_of = |s: Square| match usize::from(shape.degree(s)) + extra {
        0 => 0.0,
        d => log2_factorial(d) / d as f64,
    };
    let board = shape.board();
    let mut bits = if shape.hole_count() == 0 {
        // Squares alike up to the edges' reach have the same degree.
        let reach = shape.leaper().b() as usize;
        let rows = line_classes(board.rows() as usize, reach, shape.wrap().rows());
        let cols = line_classes(board.cols() as usize, reach, shape.wrap().cols());
        rows.iter()
            .flat_map(|&(r, nr)| cols.iter().map(move |&(c, nc)| (r, c, nr * nc)))
            .map(|(r, c, many)| many as f64 * bits_of(board.square(r as u32, c as u32)))
            .sum()
    } else {
        (0..board.squares() as Square)
            .filter(|&s| !shape.is_hole(s))
            .map(bits_of)
            .sum()
    };
    let n = shape.squares();
    if extra == 1 && n > 0 {
        bits += log2_factorial(n) / n as f64;
    }
    bits
}

/// One line of each class of the `n` lines of a board along one side
/// (rows or columns), with how many lines it stands for: a square's
/// degree depends on its line only through the line's distance to the
/// edges, up to `reach`, or not at all where the lines wrap round.
fn line_classes(n: usize, reach: usize, ring: bool) -> Vec<(usize, usize)> {
    if ring {
        return vec![(0, n)];
    }
    if n <= 2 * reach + 1 {
        return (0..n).map(|i| (i, 1)).collect();
    }
    let edge = |i: usize| (i, 1);
    (0..reach)
        .map(edge)
        .chain([(reach, n - 2 * reach)])
        .chain((n - reach..n).map(edge))
        .collect()
}

/// `log2(n!)`: summed for small `n`, by Stirling's series past them.
fn log2_factorial(n: usize) -> f64 {
    if n < 256 {
        return (2..=n).map(|k| (k as f64).log2()).sum();
    }
    let x = n as f64;
    (x * x.ln() - x + 0.5 * (2.0 * PI * x).ln() + 1.0 / (12.0 * x)) / LN_2
}

/// The fewest squares the frontier of a count of `shape` in `order` must
/// hold, where it follows from the shape without building its problem: a
/// leaper `(a, b)` on a board (turned so that its rows are the shorter
/// side) of at least `2b` rows of `w >= 2a` squares has, once `b` rows are
/// taken, every square of the last `b` rows taken with a move `b` rows on,
/// to a square not yet taken: `b * w` squares (one fewer staggered, whose
/// last square of the last row waits). Wrapping and more rows only add
/// moves; holes take them away, so a shape with holes is not judged.
pub(crate) fn least_frontier(shape: &Shape, order: SquareOrder) -> Option<usize> {
    let (rows, w) = oriented(shape.board());
    let (a, b) = (shape.leaper().a() as usize, shape.leaper().b() as usize);
    (shape.hole_count() == 0 && rows >= 2 * b && w >= 2 * a)
        .then(|| b * w - usize::from(order == SquareOrder::Staggered && w > 1))
}

/// Refuses, before its problem is built, a count of `shape` that cannot
/// be made: a frontier past [`MAX_FRONTIER`] ([`least_frontier`]); a move
/// graph past the memory; or for a knight's torus or cylinder, a count
/// past `2^4096`, judged as half the bits of [`tour_bound_bits`] (the tori
/// and cylinders counted in docs/records.md have 0.52 to 0.84 of them).
/// Other leapers' counts are not judged: the bound is 8 to 14 times
/// their counts' bits, and narrow boards have none.
pub(crate) fn refuse_before_building(shape: &Shape, kind: Kind, order: SquareOrder) -> Result<()> {
    if let Some(least) = least_frontier(shape, order).filter(|&k| k > MAX_FRONTIER) {
        return Err(crate::Error::Unsupported(format!(
            "{shape}: counting its tours needs a frontier of at least {least} squares, more than the {MAX_FRONTIER} this counter supports; ask for a narrower board"
        ).into()));
    }
    crate::memory::ensure_fits(shape.board(), "count", PROBLEM_BYTES_PER_SQUARE)?;
    if shape.leaper() != Leaper::KNIGHT || shape.wrap() == Wrap::None || shape.hole_count() > 0 {
        return Ok(());
    }
    let bound = tour_bound_bits(shape, kind);
    if bound / 2.0 > 4200.0 {
        let kind = if kind == Kind::Open { "open" } else { "closed" };
        return Err(crate::Error::Unsupported(format!(
            "{shape}: its {kind} tours number about 2^{:.0} or more (tori and cylinders have over half the bits of Brégman's bound on their tours, here 2^{bound:.0}), past 2^4096, the most this counter holds",
            bound / 2.0
        ).into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::engine::frontier::Engine;
    use crate::count::plan::shape_problem;
    use crate::Board;

    /// A board with holes starts with counts wide enough for its count
    /// (the closed tours of the first 302 cells of the 6-row board, 6 x 51
    /// with four holes, need 279 bits: A383662's n = 151, counted here),
    /// and other leapers start narrow.
    #[test]
    fn shapes_start_with_counts_as_wide_as_their_rectangles_suggest() {
        let board: Board = "6x51".parse().unwrap();
        let holes: Vec<_> = (2..6).map(|r| board.square(r, 50)).collect();
        let shape = Shape::new(board).with_holes(&holes).unwrap();
        let bits = shape_expected_bits(&shape, Kind::Closed);
        assert!((279..512).contains(&bits), "{bits}");
        let zebra = Shape::new(board).with_leaper(Leaper::new(2, 3).unwrap());
        assert_eq!(shape_expected_bits(&zebra, Kind::Closed), 0);
    }

    /// The bound holds over counts from docs/records.md (brute force
    /// checks the first two), and a wrapped shape starts with counts as
    /// wide as its count needs: the closed tours of the 3 x 24 torus,
    /// 2^109.4, start in 128 bits, not 64 (a restart before).
    #[test]
    fn wrapped_shapes_start_wide_enough_under_a_true_bound() {
        let wrapped = |b: &str, wrap: Wrap| Shape::new(b.parse().unwrap()).with_wrap(wrap);
        for (board, wrap, kind, count) in [
            ("3x4", Wrap::Both, Kind::Closed, 14_934f64),
            ("4x4", Wrap::Both, Kind::Open, 45_696.0),
            ("5x20", Wrap::Rows, Kind::Closed, 2f64.powf(134.5)),
            ("3x24", Wrap::Both, Kind::Closed, 2f64.powf(109.4)),
        ] {
            let shape = wrapped(board, wrap);
            let bound = tour_bound_bits(&shape, kind);
            assert!(count.log2() <= bound, "{board}: {bound}");
        }
        let bits = shape_expected_bits(&wrapped("3x24", Wrap::Both), Kind::Closed);
        assert!((110..=128).contains(&bits), "{bits}");
        // A plain board's bound is far above its count (2^43.6 for 8 x 8).
        let plain = Shape::new("8x8".parse().unwrap());
        assert!((80.0..100.0).contains(&tour_bound_bits(&plain, Kind::Closed)));
    }

    /// The bound read by classes of lines is the bound read square by
    /// square, and huge shapes are refused at once, before their move
    /// graph is built: a frontier too wide (the 20000 x 20000 torus, once
    /// an allocation failure), or a torus's count past 2^4096 (3 x 2000000,
    /// once minutes of building); the 3 x 24 torus is not.
    #[test]
    fn huge_shapes_are_refused_before_their_problem_is_built() {
        let shape = |b: &str, wrap: Wrap, leaper: (u32, u32)| {
            Shape::new(b.parse().unwrap())
                .with_wrap(wrap)
                .with_leaper(Leaper::new(leaper.0, leaper.1).unwrap())
        };
        for (board, wrap, leaper) in [
            ("3x4", Wrap::Both, (1, 2)),
            ("5x7", Wrap::Rows, (1, 2)),
            ("6x9", Wrap::Cols, (1, 2)),
            ("7x7", Wrap::None, (1, 2)),
            ("9x11", Wrap::Both, (2, 3)),
            ("10x13", Wrap::None, (1, 4)),
        ] {
            let s = shape(board, wrap, leaper);
            for kind in [Kind::Closed, Kind::Open] {
                let extra = usize::from(kind == Kind::Open);
                let mut by_square: f64 = (0..s.board().squares() as Square)
                    .map(|q| usize::from(s.degree(q)) + extra)
                    .map(|d| (1..=d).map(|k| (k as f64).log2()).sum::<f64>() / d as f64)
                    .sum();
                let n = s.squares();
                by_square +=
                    extra as f64 * (1..=n).map(|k| (k as f64).log2()).sum::<f64>() / n as f64;
                let by_class = tour_bound_bits(&s, kind);
                assert!(
                    (by_class - by_square).abs() < 1e-9 * by_square,
                    "{board} {wrap}"
                );
            }
        }
        let refusal = |b: &str, wrap: Wrap| {
            refuse_before_building(&shape(b, wrap, (1, 2)), Kind::Closed, SquareOrder::Rows)
                .err()
                .map(|e| e.to_string())
        };
        assert!(refusal("20000x20000", Wrap::Both)
            .unwrap()
            .contains("at least 40000 squares"));
        assert!(refusal("16x16", Wrap::Both)
            .unwrap()
            .contains("at least 32 squares"));
        assert!(refusal("3x2000000", Wrap::Both)
            .unwrap()
            .contains("past 2^4096"));
        assert_eq!(refusal("3x24", Wrap::Both), None);
        assert_eq!(refusal("15x15", Wrap::Rows), None);
    }

    /// The least frontier is no more than the frontier the program finds,
    /// for the knight, the zebra and the giraffe, in every order.
    #[test]
    fn the_least_frontier_is_a_lower_bound() {
        for (board, leaper) in [
            ("5x3", (1, 2)),
            ("8x6", (1, 2)),
            ("7x9", (1, 2)),
            ("6x4", (2, 3)),
            ("9x5", (1, 4)),
        ] {
            for wrap in [Wrap::None, Wrap::Rows, Wrap::Cols] {
                for order in [
                    SquareOrder::Rows,
                    SquareOrder::OutsideIn,
                    SquareOrder::Staggered,
                ] {
                    let s = Shape::new(board.parse().unwrap())
                        .with_wrap(wrap)
                        .with_leaper(Leaper::new(leaper.0, leaper.1).unwrap());
                    let least = least_frontier(&s, order).expect(board);
                    let p = shape_problem(&s, Kind::Closed, None, order).unwrap();
                    match Engine::new(&p) {
                        Ok(e) => assert!(
                            least <= e.width,
                            "{board} {wrap} {order:?}: {least} > {}",
                            e.width
                        ),
                        Err(_) => assert!(least > MAX_FRONTIER || wrap != Wrap::None),
                    }
                }
            }
        }
    }
}
