//! Boards beyond the rectangle: holes, wrapping, other leapers and given
//! ends. Every tour the search methods make passes the checker; the
//! checker's moves agree with the shape's; the counts agree with brute force.

use knights::algorithms::{Algorithm, Backtrack, Hybrid, TourSpec, Warnsdorff};
use knights::check::{check_tour, Rules};
use knights::count::{Counter, SquareOrder};
use knights::exists::{decide, ExistsVerdict};
use knights::shape::{Leaper, Shape, Wrap};
use knights::{format, Board, Error, Kind, Square, Tour, Wanted};
use proptest::prelude::*;

const LEAPERS: [(u32, u32); 7] = [(1, 2), (1, 3), (2, 3), (1, 4), (1, 1), (0, 1), (2, 2)];

/// A random shape: up to 7x7, some holes, any wrap, a leaper from the list.
fn shapes(max_side: u64) -> impl Strategy<Value = Shape> {
    (
        1..=max_side,
        1..=max_side,
        0..4usize,
        0..LEAPERS.len(),
        any::<u64>(),
        0..4u32,
    )
        .prop_map(|(r, c, w, l, bits, density)| {
            let board = Board::new(r, c).unwrap();
            let holes: Vec<Square> = (0..board.squares() as Square)
                .filter(|&s| {
                    density > 0
                        && (bits >> (s % 64)) % 8 < u64::from(density) - 1
                        && s % 3 == (bits % 3) as u32
                })
                .collect();
            let (a, b) = LEAPERS[l];
            let shape = Shape::new(board)
                .with_wrap(Wrap::ALL[w])
                .with_leaper(Leaper::new(a, b).unwrap());
            shape.clone().with_holes(&holes).unwrap_or(shape)
        })
}

fn coord(b: Board, s: Square) -> (i64, i64) {
    let (r, c) = b.coords(s);
    (i64::from(r), i64::from(c))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn the_checker_and_the_shape_agree_on_moves(shape in shapes(7)) {
        let b = shape.board();
        let rules = Rules::of(&shape);
        for a in 0..b.squares() as Square {
            for t in 0..b.squares() as Square {
                if shape.is_hole(a) || shape.is_hole(t) {
                    continue;
                }
                prop_assert_eq!(rules.is_move(coord(b, a), coord(b, t)), shape.move_between(a, t).is_some(), "{} {} {}", shape, a, t);
            }
        }
    }

    #[test]
    fn every_search_tour_passes_the_checker(shape in shapes(6), kind in 0..3usize, alg in 0..3usize, seed in any::<u64>(), with_start in any::<bool>()) {
        let kind = [Wanted::Either, Wanted::Closed, Wanted::Open][kind];
        let algorithm: Algorithm = match alg {
            0 => Warnsdorff::default().max_attempts(50).into(),
            1 => Backtrack::default().max_nodes(200_000).into(),
            _ => Hybrid::default().max_nodes(200_000).into(),
        };
        let start = (0..shape.board().squares() as Square).find(|&s| !shape.is_hole(s));
        let request = Tour::builder(shape.board())
            .shape(shape.clone())
            .kind(kind)
            .start_at(start.filter(|_| with_start))
            .algorithm(algorithm)
            .seed(seed);
        match request.build() {
            Ok(tour) => {
                let found = check_tour(&tour);
                prop_assert!(found.is_ok(), "{shape}: {found:?}");
                prop_assert_eq!(tour.squares().len(), shape.squares());
                if kind != Wanted::Either {
                    prop_assert_eq!(Wanted::from(tour.kind()), kind);
                }
                if with_start {
                    prop_assert_eq!(Some(tour.start()), start);
                }
                // JSON, the move list and the grid read back to the same tour.
                for text in [format::tour_json(&tour).to_string(), format::move_list(&tour).to_string()] {
                    let back = format::read(&text).and_then(|d| d.into_checked());
                    prop_assert!(matches!(&back, Ok(format::Checked::Tour(t)) if *t == tour), "{text}: {back:?}");
                }
                if shape.wrap() == Wrap::None && shape.leaper() == Leaper::KNIGHT {
                    let text = format::grid(&tour, 0).to_string();
                    let back = format::read(&text).and_then(|d| d.into_checked());
                    prop_assert!(matches!(&back, Ok(format::Checked::Tour(t)) if t.squares() == tour.squares()), "{text}: {back:?}");
                }
            }
            Err(Error::NoTour(_) | Error::GaveUp(_)) => {}
            Err(e) => prop_assert!(false, "{shape}: unexpected error {e}"),
        }
    }

    #[test]
    fn exhaustive_answers_agree_with_the_search(shape in shapes(4), closed in any::<bool>()) {
        let kind = if closed { Wanted::Closed } else { Wanted::Open };
        let spec = TourSpec { kind, ..TourSpec::on(shape.clone()) };
        let d = decide(&spec, 5_000_000).unwrap();
        let built = Tour::builder(shape.board()).shape(shape.clone()).kind(kind)
            .algorithm(Hybrid::default().max_nodes(5_000_000)).build();
        match d.answer {
            ExistsVerdict::Yes => {
                prop_assert!(check_tour(d.tour.as_ref().unwrap_or(built.as_ref().unwrap())).is_ok());
                prop_assert!(built.is_ok(), "{shape}: decide says yes ({d}), the hybrid fails");
            }
            ExistsVerdict::No => prop_assert!(matches!(built, Err(Error::NoTour(_))), "{shape}: decide says no ({d}), the hybrid gives {built:?}"),
            ExistsVerdict::Unknown => {}
        }
    }
}

/// Hamiltonian cycles (undirected) and paths (undirected) of the shape's
/// move graph, by brute force: every path from every start, kept when it
/// covers the board.
fn brute_force(shape: &Shape) -> (u64, u64) {
    let b = shape.board();
    let n = shape.squares();
    let nbrs: Vec<Vec<Square>> = (0..b.squares() as Square)
        .map(|s| shape.neighbours(s).map(|(_, t)| t).collect())
        .collect();
    let mut seen = vec![false; b.squares()];
    let (mut cycles, mut paths) = (0u64, 0u64);
    #[allow(clippy::too_many_arguments)]
    fn go(
        s: Square,
        depth: usize,
        n: usize,
        first: Square,
        nbrs: &[Vec<Square>],
        seen: &mut [bool],
        cycles: &mut u64,
        paths: &mut u64,
    ) {
        if depth == n {
            *paths += 1;
            if n > 2 && nbrs[s as usize].contains(&first) {
                *cycles += 1;
            }
            return;
        }
        for &t in &nbrs[s as usize] {
            if !seen[t as usize] {
                seen[t as usize] = true;
                go(t, depth + 1, n, first, nbrs, seen, cycles, paths);
                seen[t as usize] = false;
            }
        }
    }
    for s in 0..b.squares() as Square {
        if shape.is_hole(s) {
            continue;
        }
        seen[s as usize] = true;
        go(s, 1, n, s, &nbrs, &mut seen, &mut cycles, &mut paths);
        seen[s as usize] = false;
    }
    // Each cycle was found from each of its n squares in 2 directions; each
    // path from both ends (a 1-square path once).
    let cycles = if n > 2 { cycles / (2 * n as u64) } else { 0 };
    let paths = if n == 1 { paths } else { paths / 2 };
    (cycles, paths)
}

#[test]
fn counts_agree_with_brute_force() {
    let mut cases = Vec::new();
    for (r, c) in [(3, 3), (3, 4), (2, 5), (2, 6), (1, 7)] {
        let board = Board::new(r, c).unwrap();
        for wrap in Wrap::ALL {
            for (a, b) in [(1, 2), (1, 3), (0, 1), (1, 1)] {
                let shape = Shape::new(board)
                    .with_wrap(wrap)
                    .with_leaper(Leaper::new(a, b).unwrap());
                cases.push(shape.clone());
                cases.push(shape.with_holes(&[0, (r * c - 2) as Square]).unwrap());
            }
        }
    }
    for shape in cases {
        let (cycles, paths) = brute_force(&shape);
        for (kind, expected) in [(Kind::Closed, cycles), (Kind::Open, paths)] {
            for order in ORDERS {
                let counter = Counter::on_shape(&shape).kind(kind).order(order);
                let got = counter.tours().unwrap().count;
                assert_eq!(got, u128::from(expected), "{shape} {kind} {order:?}");
            }
        }
    }
}

/// Every order in which a count may take the squares.
const ORDERS: [SquareOrder; 3] = [
    SquareOrder::Rows,
    SquareOrder::OutsideIn,
    SquareOrder::Staggered,
];

/// Every order gives the same count, through other states: on a torus
/// three squares round, taking the rows from the outside in passes through
/// the very states of taking them in order (the squares taken of a row are
/// an arc of the ring either way), and staggered rows through others,
/// which makes them the check there; on a cylinder whose rows do not wrap,
/// all three differ.
#[test]
fn a_staggered_count_passes_through_other_states_even_on_a_torus() {
    let states = |shape: &Shape, kind: Kind| {
        ORDERS.map(|order| {
            let r = Counter::on_shape(shape)
                .kind(kind)
                .order(order)
                .tours()
                .unwrap();
            (r.count, r.states_per_step)
        })
    };
    let torus = Shape::new("3x4".parse().unwrap()).with_wrap(Wrap::Both);
    let [rows, outside_in, staggered] = states(&torus, Kind::Closed);
    assert_eq!(rows.0, 14934u128);
    assert_eq!(outside_in, rows);
    assert_eq!(staggered.0, rows.0);
    assert_ne!(staggered.1, rows.1);
    let cylinder = Shape::new("4x4".parse().unwrap()).with_wrap(Wrap::Rows);
    let [rows, outside_in, staggered] = states(&cylinder, Kind::Open);
    assert_eq!(rows.0, 1296u128);
    assert_eq!((outside_in.0, staggered.0), (rows.0, rows.0));
    assert_ne!(outside_in.1, rows.1);
    assert_ne!(staggered.1, rows.1);
    assert_ne!(staggered.1, outside_in.1);
}

/// The first terms of the torus and cylinder tables of docs/records.md
/// that brute force reaches: the 4 x 4 torus and both 4 x 4 cylinders,
/// closed and open, besides the 3 x 3 and 3 x 4 ones above.
#[test]
fn tori_and_cylinders_agree_with_brute_force() {
    let board = Board::new(4, 4).unwrap();
    for wrap in [Wrap::Both, Wrap::Rows, Wrap::Cols] {
        let shape = Shape::new(board).with_wrap(wrap);
        let (cycles, paths) = brute_force(&shape);
        // A cylinder four squares round has no closed tour, as 4 x n boards.
        assert!(cycles > 0 || wrap != Wrap::Both, "{shape}");
        assert!(paths > 0, "{shape}");
        for (kind, expected) in [(Kind::Closed, cycles), (Kind::Open, paths)] {
            for order in ORDERS {
                let counter = Counter::on_shape(&shape).kind(kind).order(order);
                let got = counter.tours().unwrap().count;
                assert_eq!(got, u128::from(expected), "{shape} {kind} {order:?}");
            }
        }
    }
}

/// The first nonzero giraffe count of docs/records.md against brute
/// force: 8 open giraffe (1,4) tours of 5 x 8.
#[test]
fn a_giraffe_count_agrees_with_brute_force() {
    let shape = Shape::new("5x8".parse().unwrap()).with_leaper(Leaper::new(1, 4).unwrap());
    let (_, paths) = brute_force(&shape);
    assert_eq!(paths, 8, "{shape}");
    let got = Counter::on_shape(&shape)
        .kind(Kind::Open)
        .tours()
        .unwrap()
        .count;
    assert_eq!(got, 8u128, "{shape}");
}

#[test]
fn plain_counts_are_unchanged_on_a_shape() {
    let shape = Shape::new("5x6".parse().unwrap());
    assert_eq!(Counter::on_shape(&shape).tours().unwrap().count, 8);
}
