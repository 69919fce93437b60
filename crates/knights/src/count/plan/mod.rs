//! The planner: which method counts a board (forward or meeting in the
//! middle, by the board's shape and the bits its count is expected to
//! need), which way the board is turned, and the frontier problems of a
//! board, a strip of rows and a shape.

pub(in crate::count) mod bound;
pub(in crate::count) mod options;
pub(in crate::count) mod tours;

use crate::count::engine::frontier::{Problem, Route};
use crate::count::strategy::halves::{self, square_colour};
use crate::{Board, Kind, Result};
use serde::Serialize;

/// How [`Counter::tours`](crate::count::Counter::tours) counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Meet in the middle for closed tours of boards with at least 6 rows
    /// and at most 8 columns (the shorter side), and for open tours from
    /// 7x5 and 6x6 on (at most 8 columns); else forward.
    #[default]
    Auto,
    /// One frontier program from the first row to the last.
    Forward,
    /// The two halves counted apart and joined (at least 4 rows and at most
    /// 8 columns; open tours at least 3 columns).
    Meet,
}

impl std::str::FromStr for Method {
    type Err = crate::Error;

    /// `auto`, `forward` or `meet` (spaces around are ignored); any other
    /// text is refused, saying which names there are.
    fn from_str(text: &str) -> Result<Method> {
        match text.trim() {
            "auto" => Ok(Method::Auto),
            "forward" => Ok(Method::Forward),
            "meet" => Ok(Method::Meet),
            other => Err(crate::Error::Unsupported(
                format!(
                    "'{}' is not a counting method; the method is auto, forward or meet",
                    crate::excerpt(other)
                )
                .into(),
            )),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Method {
    /// Read by its name (see [`Method::from_str`](std::str::FromStr)).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Method, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 3] = [Method::Auto, Method::Forward, Method::Meet];

    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Forward => "forward",
            Method::Meet => "meet",
        }
    }
}

/// The order in which a forward count takes the squares of the board
/// (turned so that its rows are the shorter side). Every order gives the
/// same count through other states, so a run in one order checks a run in
/// another.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum SquareOrder {
    /// Row by row, each row from its first square to its last.
    #[default]
    Rows,
    /// Row by row, each row from the outside in: its first square, its
    /// last, its second, its last but one, ... The squares taken are whole
    /// rows at each row's end, as by rows, and other sets between (but
    /// where the rows wrap, the squares taken of a row are an arc of the
    /// ring either way, so the states are those by rows, the rows turned).
    OutsideIn,
    /// Row by row, but each row's last square is taken after the next
    /// row's others, so that the squares taken are never whole rows (once
    /// past the first row, on a board at least two squares wide). Where
    /// the rows wrap (a cylinder or a torus), every order within the rows
    /// passes through the states by rows, up to turning the rows, and this
    /// one does not. Its frontier is a square or two wider than by rows.
    Staggered,
}

impl SquareOrder {
    /// The order's name where it is one word: "rows", "outside-in",
    /// "staggered" (a dry run's `order`).
    pub fn name(self) -> &'static str {
        match self {
            SquareOrder::Rows => "rows",
            SquareOrder::OutsideIn => "outside-in",
            SquareOrder::Staggered => "staggered",
        }
    }

    /// How a message says this order: "by rows", "from the outside in",
    /// "staggered".
    pub(crate) fn phrase(self) -> &'static str {
        match self {
            SquareOrder::Rows => "by rows",
            SquareOrder::OutsideIn => "from the outside in",
            SquareOrder::Staggered => "staggered",
        }
    }

    /// The squares `(row, column)` of `rows` rows of `w` squares, in this
    /// order.
    pub(crate) fn squares(self, rows: usize, w: usize) -> Vec<(usize, usize)> {
        match self {
            SquareOrder::Rows | SquareOrder::OutsideIn => (0..rows)
                .flat_map(|r| {
                    (0..w).map(move |p| (r, column_at(p, w, self == SquareOrder::OutsideIn)))
                })
                .collect(),
            // The last column is taken one row behind the others.
            SquareOrder::Staggered => {
                let lag = move |c: usize| usize::from(c + 1 == w);
                (0..=rows)
                    .flat_map(|d| {
                        (0..w)
                            .filter(move |&c| lag(c) <= d && d - lag(c) < rows)
                            .map(move |c| (d - lag(c), c))
                    })
                    .collect()
            }
        }
    }
}

/// The column at place `p` of a row of `w` squares taken from its first
/// square to its last, or from the outside in (first, last, second, ...).
fn column_at(p: usize, w: usize, outside_in: bool) -> usize {
    match outside_in {
        false => p,
        true if p.is_multiple_of(2) => p / 2,
        true => w - 1 - p / 2,
    }
}

/// The most bits a count may be expected to need for [`Method::Auto`] to
/// meet in the middle.
const MEET_BITS: u32 = 200;

/// The move graph of a shape in `order` of the board turned so that its
/// rows are the shorter side, holes left out; paths may end only on `ends`
/// when given.
pub(crate) fn shape_problem(
    shape: &crate::Shape,
    kind: Kind,
    ends: Option<[crate::Square; 2]>,
    order: SquareOrder,
) -> Result<Problem> {
    let board = shape.board();
    let turned = board.rows() < board.cols();
    let (rows, w) = oriented(board);
    // The square of the shape at row r, column c of the turned board.
    let square = |r: usize, c: usize| {
        if turned {
            board.square(c as u32, r as u32)
        } else {
            board.square(r as u32, c as u32)
        }
    };
    let mut index = vec![u32::MAX; board.squares()];
    let mut taken = Vec::with_capacity(shape.squares());
    for (r, c) in order.squares(rows, w) {
        let q = square(r, c);
        if !shape.is_hole(q) {
            index[q as usize] = taken.len() as u32;
            taken.push(q);
        }
    }
    let back = taken
        .iter()
        .enumerate()
        .map(|(v, &q)| {
            let mut b: Vec<(u32, u8)> = shape
                .neighbours(q)
                .map(|(_, t)| index[t as usize])
                .filter(|&u| (u as usize) < v)
                .map(|u| (u, 0))
                .collect();
            b.sort_unstable();
            b
        })
        .collect();
    let terminal_ok = match ends {
        Some(ends) => taken.iter().map(|q| ends.contains(q)).collect(),
        None => vec![true; taken.len()],
    };
    Ok(Problem {
        n: taken.len(),
        back,
        modulus: 1,
        shape: match kind {
            Kind::Closed => Route::Cycle,
            Kind::Open => Route::Path,
        },
        terminal_ok,
        external: Vec::new(),
        // The colouring is found from the graph where it is bipartite; no
        // mirror image, since holes need not be symmetric.
        colour: Vec::new(),
        twice_colour_total: 0,
        mirror: Vec::new(),
        prefixes: Vec::new(),
        row: w,
    })
}

/// Whether [`crate::count::Counter::tours`] meets in the middle on `board`: for
/// `kind`, by `method`, taking the squares in `order`.
pub(crate) fn meets(board: Board, kind: Kind, method: Method, order: SquareOrder) -> Result<bool> {
    let (rows, w) = oriented(board);
    let meet_fits = rows >= 4 && w <= halves::MAX_WIDTH && (kind == Kind::Closed || w >= 3);
    Ok(match method {
        Method::Forward => false,
        Method::Auto if order != SquareOrder::Rows => false,
        Method::Meet if order != SquareOrder::Rows => {
            return Err(crate::Error::Unsupported(format!(
                "a count taking the squares {} runs forward",
                order.phrase()
            ).into())
            .with_hint(crate::Hint::UseMethod(Method::Forward)))
        }
        // A part's partial tours must stay below 2^128 (the join multiplies
        // them as u128), so boards whose count needs more than about
        // `MEET_BITS` bits run forward.
        Method::Auto => {
            meet_fits
                && rows >= 6
                && (kind == Kind::Closed || open_meets(rows, w))
                && expected_bits(board, kind)? <= MEET_BITS
        }
        Method::Meet if meet_fits => true,
        Method::Meet => {
            return Err(crate::Error::Unsupported(format!(
                "meeting in the middle counts tours of boards with at least 4 rows and at most {} columns (open tours: at least 3), not {} tours of {board}",
                halves::MAX_WIDTH,
                if kind == Kind::Open { "open" } else { "closed" },
            ).into())
            .with_hint(crate::Hint::UseMethod(Method::Forward)))
        }
    })
}

/// Whether the default method counts the open tours of a `rows x w`
/// board (`rows >= w`, 3 to 8 columns) by meeting in the middle: from 6x5
/// and 7x4 on, where it is faster than the forward program; on smaller
/// boards and 3 columns the two are about even or the forward program is
/// faster (the measured boards: BENCHMARKS.md, "Exact counting").
pub(crate) fn open_meets(rows: usize, w: usize) -> bool {
    (w >= 4 && rows >= 7) || (w >= 5 && rows >= 6)
}

/// Bytes per square of the prepared graph and its per-square tables.
pub(crate) const PROBLEM_BYTES_PER_SQUARE: u64 = 256;

/// The bits the count of `board` is expected to need, judged from the
/// board's shape, or an error up front for a count past `2^4096`, the most
/// the counter holds. With `m` rows the number of tours grows about
/// `2^(bits * n)` in the length `n`; the rates are fitted to counts of this
/// counter (3 x 40 and 3 x 60 open: 1.79 bits a column, closed 1.64; 4 x 30
/// and 4 x 40 open: 2.24; 5 x 12 and 5 x 14 closed: 4.18; 6 x 30 and 6 x 40
/// closed: 5.0; 7 x 12 and 7 x 16 closed: 7.5; 8 x 6 and 8 x 8 closed: 9),
/// and open counts of 5 rows or more get 16 bits more. Wider boards are
/// judged by the 8-row rate, a lower bound: the estimate only chooses the
/// width the counts start with (they widen when they overflow, which costs
/// a restart), and only boards estimated past `2^4200` are refused, so none
/// that fits is.
pub(crate) fn expected_bits(board: Board, kind: Kind) -> Result<u32> {
    let (n, m) = oriented(board);
    // (bits at the reference length, reference length, bits per column).
    let (at, from, rate) = match (m, kind) {
        (0..=2, _) => return Ok(0),
        (3, Kind::Open) => (102.0, 60.0, 1.79),
        (3, Kind::Closed) => (86.1, 60.0, 1.64),
        (4, _) => (89.5, 40.0, 2.24),
        (5, _) => (40.4, 14.0, 4.18),
        (6, _) => (217.0, 40.0, 5.0),
        (7, _) => (95.0, 16.0, 7.5),
        (_, _) => (43.6, 8.0, 9.0),
    };
    let open = if kind == Kind::Open && m >= 5 {
        16.0
    } else {
        0.0
    };
    let bits = at + open + rate * (n as f64 - from);
    if bits > 4200.0 {
        let kind = if kind == Kind::Open { "open" } else { "closed" };
        return Err(crate::Error::Unsupported(format!(
            "the number of {kind} tours of {board} is about 2^{bits:.0} (boards of {m} rows gain about {rate} bits a column), past 2^4096, the most this counter holds (knights estimate gives the order of magnitude)"
        ).into()));
    }
    // A margin, so that a slightly low estimate does not cost a restart.
    Ok((bits.max(0.0) * 1.05 + 8.0) as u32)
}

pub(crate) fn oriented(board: Board) -> (usize, usize) {
    let (r, c) = (board.rows() as usize, board.cols() as usize);
    (r.max(c), r.min(c))
}

/// The whole knight graph in row-major order of the oriented board.
pub(crate) fn board_problem(board: Board, kind: Kind) -> Problem {
    let (rows, w) = oriented(board);
    strip_problem(rows, w, kind, SquareOrder::Rows)
}

/// The knight graph of `rows` rows of `w` squares, taken in `order`.
pub(crate) fn strip_problem(rows: usize, w: usize, kind: Kind, order: SquareOrder) -> Problem {
    let squares = order.squares(rows, w);
    let n = rows * w;
    // The place in the order of the square at row r, column c.
    let mut place = vec![0u32; n];
    for (i, &(r, c)) in squares.iter().enumerate() {
        place[r * w + c] = i as u32;
    }
    let index = |r: usize, c: usize| place[r * w + c];
    let colour = |s: usize| square_colour(squares[s].0, squares[s].1);
    let mut back = vec![Vec::new(); n];
    for (v, &(r, c)) in squares.iter().enumerate() {
        // The moves back to earlier rows first, in the order the checkpoints'
        // fingerprints were made with; the others are earlier only when
        // staggered.
        for (dr, dc) in [
            (-1i64, -2i64),
            (-1, 2),
            (-2, -1),
            (-2, 1),
            (1, -2),
            (1, 2),
            (2, -1),
            (2, 1),
        ] {
            let (rr, cc) = (r as i64 + dr, c as i64 + dc);
            if rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < w {
                let u = index(rr as usize, cc as usize);
                if (u as usize) < v {
                    back[v].push((u, 0));
                }
            }
        }
    }
    Problem {
        n,
        back,
        modulus: 1,
        shape: match kind {
            Kind::Closed => Route::Cycle,
            Kind::Open => Route::Path,
        },
        terminal_ok: vec![true; n],
        external: Vec::new(),
        colour: (0..n).map(colour).collect(),
        twice_colour_total: 2 * (0..n).map(|s| i32::from(colour(s))).sum::<i32>(),
        mirror: squares.iter().map(|&(r, c)| index(r, w - 1 - c)).collect(),
        prefixes: Vec::new(),
        row: w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::engine::executor::{self, RunOptions};
    use crate::count::{engine::frontier, strategy::meet_paths, Count};
    use crate::shape::Wrap;
    use crate::Shape;

    /// Each order takes every square once; by rows and from the outside in
    /// the squares taken are whole rows at each row's end, staggered never
    /// past the first row.
    #[test]
    fn every_order_takes_every_square_once() {
        for (rows, w) in [(1, 1), (1, 5), (4, 1), (5, 2), (6, 3), (7, 8)] {
            for order in [
                SquareOrder::Rows,
                SquareOrder::OutsideIn,
                SquareOrder::Staggered,
            ] {
                let squares = order.squares(rows, w);
                let mut seen = squares.clone();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), rows * w, "{rows}x{w} {order:?}");
                assert!(seen.iter().all(|&(r, c)| r < rows && c < w));
                for k in (2 * w..rows * w).step_by(w) {
                    let whole = squares[..k].iter().all(|&(r, _)| r < k / w);
                    assert_eq!(
                        whole,
                        order != SquareOrder::Staggered || w == 1,
                        "{rows}x{w} {order:?} {k}"
                    );
                }
            }
        }
    }

    /// Keeping states up to the left-right mirror image after each row
    /// changes no count and saves states.
    #[test]
    fn mirror_images_merge_without_changing_counts() {
        for (text, kind) in [
            ("6x5", Kind::Open),
            ("5x6", Kind::Closed),
            ("4x7", Kind::Open),
        ] {
            let board: Board = text.parse().unwrap();
            let with = board_problem(board, kind);
            let without = Problem {
                mirror: Vec::new(),
                ..with.clone()
            };
            let a = executor::run(&with, &RunOptions::default()).unwrap();
            let b = executor::run(&without, &RunOptions::default()).unwrap();
            assert_eq!(a.count, b.count, "{text}");
            assert!(a.count != Count::ZERO, "{text}");
            assert!(a.peak < b.peak, "{text}: {} against {}", a.peak, b.peak);
        }
    }

    /// Keys that no run makes (random bytes in a state file whose checksum
    /// was forged too) expand without a panic (a ranked key with an odd
    /// number of paired ends divided by zero).
    #[test]
    fn random_keys_expand_without_a_panic() {
        let p = strip_problem(10, 6, Kind::Open, crate::count::SquareOrder::Rows);
        for engine in [
            frontier::Engine::new(&p).unwrap(),
            frontier::Engine::ranked(&p).unwrap(),
        ] {
            let mut x = 0x2545_F491_4F6C_DD1Du64;
            for step in engine.steps.iter().skip(12).take(24) {
                for _ in 0..2000 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let key = u128::from(x) & ((1u128 << engine.key_bits.min(127)) - 1);
                    let mut seen = 0usize;
                    engine.expand(step, key, |_| seen += 1);
                    assert!(seen <= 64);
                }
            }
        }
    }

    /// The nibble keys of narrow boards and the ranked keys are two
    /// encodings of the same states: the program with either gives the same
    /// counts, and a part's final states (here without mirror images, whose
    /// representatives differ between the encodings) the same boundaries.
    #[test]
    fn nibble_and_ranked_keys_agree() {
        use rustc_hash::FxHashMap;
        type Final = Vec<(Vec<u8>, u128)>;
        fn reference(e: &frontier::Engine) -> (u128, Final) {
            let mut layer: FxHashMap<u128, u128> = FxHashMap::default();
            layer.insert(e.start_key(), 1);
            let mut done = 0u128;
            for step in &e.steps {
                let mut next: FxHashMap<u128, u128> = FxHashMap::default();
                for (&key, &count) in &layer {
                    e.expand(step, key, |s| match s {
                        Some(k) => *next.entry(k).or_default() += count,
                        None => done += count,
                    });
                }
                layer = next;
            }
            let k = e.final_frontier.len();
            let mut fin: Final = layer
                .iter()
                .map(|(&key, &count)| {
                    let (st, mate) = e.final_roles(key);
                    ([&st[..k], &mate[..k]].concat(), count)
                })
                .collect();
            fin.sort_unstable();
            (done, fin)
        }
        let mut problems: Vec<Problem> = [
            ("5x5", Kind::Open),
            ("4x7", Kind::Open),
            ("3x10", Kind::Closed),
            ("6x5", Kind::Closed),
            ("6x4", Kind::Open),
        ]
        .into_iter()
        .map(|(text, kind)| board_problem(text.parse().unwrap(), kind))
        .collect();
        // 7 wide: the frontier takes 15 slots, the step all 16 nibbles.
        for (rows, kind) in [(4, Kind::Open), (6, Kind::Closed)] {
            problems.push(strip_problem(
                rows,
                7,
                kind,
                crate::count::SquareOrder::Rows,
            ));
        }
        for (rows, w) in [(6, 4), (5, 5), (5, 7)] {
            for mut p in meet_paths::part_problems(rows, w, Default::default()) {
                p.mirror.clear();
                problems.push(p);
            }
        }
        for p in &problems {
            let nibbles = frontier::Engine::new(p).unwrap();
            let ranked = frontier::Engine::ranked(p).unwrap();
            assert!(nibbles.nibble_keys && !ranked.nibble_keys);
            let (a, b) = (reference(&nibbles), reference(&ranked));
            assert!(a.0 > 0 || !a.1.is_empty());
            assert_eq!(a, b, "a problem of {} vertices", p.n);
        }
    }

    /// The runs of `p` as it is and with every colour 0 (which turns the
    /// colour test off).
    fn with_and_without_colours(p: &Problem) -> (executor::Run, executor::Run) {
        let uncoloured = Problem {
            colour: vec![0; p.n],
            twice_colour_total: 0,
            ..p.clone()
        };
        (
            executor::run(p, &RunOptions::default()).unwrap(),
            executor::run(&uncoloured, &RunOptions::default()).unwrap(),
        )
    }

    /// The colour test of open states keeps every count and saves
    /// states: against the same program with every colour 0 (which turns
    /// it off).
    #[test]
    fn colour_pruning_keeps_open_counts() {
        for text in ["5x5", "4x6", "3x8", "3x7"] {
            let board: Board = text.parse().unwrap();
            let (a, b) = with_and_without_colours(&board_problem(board, Kind::Open));
            assert_eq!(a.count, b.count, "{text}");
            assert!(a.generated < b.generated, "{text}");
        }
    }

    /// In a sweep over cells the colour test judges a state by every
    /// prefix still to come: every prefix's count is kept, and states are
    /// saved, against the same sweep with every colour 0.
    #[test]
    fn colour_pruning_keeps_every_prefix_count() {
        for (rows, w) in [(5, 5), (6, 4), (8, 3), (4, 7)] {
            let mut pruned = strip_problem(rows, w, Kind::Open, crate::count::SquareOrder::Rows);
            pruned.prefixes = (1..pruned.n).collect();
            pruned.mirror.clear();
            let (a, b) = with_and_without_colours(&pruned);
            assert_eq!(a.prefix_counts, b.prefix_counts, "{rows}x{w}");
            assert_eq!(a.count, b.count, "{rows}x{w}");
            assert!(a.prefix_counts.iter().any(|c| c.1 != Count::ZERO));
            assert!(a.generated < b.generated, "{rows}x{w}");
        }
    }

    #[test]
    fn counts_are_the_same_at_every_width() {
        // 3 x 60 open needs about 102 bits: from 64-bit counts the run widens.
        for (text, kind) in [
            ("5x6", Kind::Open),
            ("3x60", Kind::Open),
            ("6x6", Kind::Closed),
        ] {
            let p = board_problem(text.parse().unwrap(), kind);
            let seen: Vec<Count> = [0, 128, 256, 4096]
                .into_iter()
                .map(|bits| {
                    let opts = RunOptions {
                        count_bits: bits,
                        ..RunOptions::default()
                    };
                    executor::run(&p, &opts).unwrap().count
                })
                .collect();
            assert!(seen.windows(2).all(|w| w[0] == w[1]), "{text}: {seen:?}");
            assert!(seen[0] != Count::ZERO);
        }
    }

    /// A cylinder whose rows are rings is projected row by row at its
    /// rings' length: its moves across the seam reach back farther than
    /// the row and a half that the edges' rule reads a rectangle's rows
    /// from (the 6 x 13 cylinder's dry run projected 86 G states with the
    /// rule, 870 M with its rings; counted, it peaks near 7 M).
    #[test]
    fn a_ring_cylinder_is_projected_by_its_rings() {
        use crate::count::projection::project::period;
        let shape = Shape::new("6x10".parse().unwrap()).with_wrap(Wrap::Rows);
        let p = shape_problem(&shape, Kind::Closed, None, SquareOrder::Rows).unwrap();
        assert_eq!(period(&p), 6);
        assert!(period(&Problem { row: 0, ..p }) > 6);
        let board = board_problem("6x10".parse().unwrap(), Kind::Closed);
        assert_eq!(period(&board), period(&Problem { row: 0, ..board }));
    }
}
