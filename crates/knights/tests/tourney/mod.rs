//! Acceptance tests of the tourney method (Parberry 2020): every
//! generator's tourneys join into one closed tour, through the checker, on
//! every even n x n from 6 to 40 and on every rectangle up to 30 x 30 with a
//! closed tour; shatter gives tourneys, obfuscate tours, seeds reproduce.
//!
//! The full acceptance runs (10,000 tourneys per size and generator, and
//! 1,000 per rectangle and generator) are `#[ignore]`d:
//! `cargo test --release -p knights --test tests tourney -- --ignored`.

use knights::algorithms::TourneyMethod;
use knights::check::{check_cover, check_tour};
use knights::rails::{self, JoinOptions, JoinStats};
use knights::Kind;
use knights::{exists, rng, Board, Cover};
use proptest::prelude::*;
use rayon::prelude::*;

const GENERATORS: [TourneyMethod; 5] = [
    TourneyMethod::Warnsdorff,
    TourneyMethod::Braid,
    TourneyMethod::FourCover,
    TourneyMethod::Neural,
    TourneyMethod::Divide,
];

/// A tourney of `board` by `method`, drawn from `rng`.
fn tourney(
    board: Board,
    method: TourneyMethod,
    rng: &mut dyn rand::RngCore,
) -> knights::Result<Cover> {
    knights::Tourney::builder(board)
        .method(method)
        .cover_with(rng)
}

/// A closed tour of `board` by `method` (its tourney joined), drawn from `rng`.
fn tour(
    board: Board,
    method: TourneyMethod,
    rng: &mut dyn rand::RngCore,
) -> knights::Result<knights::Tour> {
    knights::Tour::builder(board)
        .algorithm(method)
        .build_with(rng)
}

/// Makes a tourney, joins it, checks everything; the join's stats.
fn join_checked(board: Board, g: TourneyMethod, seed: u64) -> JoinStats {
    let mut r = rng::for_batch(seed, board.squares() as u64);
    let mut cover = tourney(board, g, &mut r)
        .unwrap_or_else(|e| panic!("{} tourney of {board}, seed {seed}: {e}", g.name()));
    let before = check_cover(&cover).expect("the generator makes a tourney");
    let stats = rails::join(&mut cover, &JoinOptions::default(), &mut r).unwrap_or_else(|e| {
        panic!(
            "join of a {} tourney of {board}, seed {seed}: {e}",
            g.name()
        )
    });
    assert_eq!(
        check_cover(&cover),
        Ok(1),
        "{} {board} seed {seed}",
        g.name()
    );
    assert_eq!(stats.cycles_before, before);
    // Bounded: every rail, 2-opt and Posa merge removed a cycle; every pass
    // but the last merged or was followed by a 2-opt or Posa attempt.
    let merges = stats.rails_switched
        + u64::from(stats.two_opt_merges + stats.posa_merges + stats.reference_steps);
    assert!(merges < before as u64, "{stats:?}");
    assert!(
        u64::from(stats.passes) <= merges + u64::from(stats.posa_failures) + 1,
        "{stats:?}"
    );
    let t = cover.to_tour(0, None).unwrap();
    assert_eq!(check_tour(&t), Ok(Kind::Closed));
    stats
}

/// Per generator and even n, the number of tourneys whose first pass was not enough.
fn sweep(per_size: u64) -> Vec<(TourneyMethod, u64, u64, u64, u32, u32, u32)> {
    let mut out = Vec::new();
    for g in GENERATORS {
        for n in (6..=40u64).step_by(2) {
            let board = Board::new(n, n).unwrap();
            if !g.supports(board) {
                continue;
            }
            let count = per_size;
            let t0 = std::time::Instant::now();
            // Seeds in parallel; the sums do not depend on the order.
            let (not_enough, two_opt, posa, steps) = (0..count)
                .into_par_iter()
                .map(|seed| {
                    let s = join_checked(board, g, seed);
                    (
                        u64::from(!s.first_pass_enough()),
                        s.two_opt_merges,
                        s.posa_merges,
                        s.reference_steps,
                    )
                })
                .reduce(
                    || (0, 0, 0, 0),
                    |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3),
                );
            if per_size >= 1000 {
                // Progress of the long ignored run (shown with --nocapture).
                eprintln!(
                    "{} {n}: {count} joined in {:.1} s, first pass not enough {not_enough}",
                    g.name(),
                    t0.elapsed().as_secs_f64()
                );
            }
            out.push((g, n, count, not_enough, two_opt, posa, steps));
        }
    }
    out
}

#[test]
fn every_generator_joins_on_every_even_square_board() {
    sweep(20);
}

#[test]
#[ignore = "the full acceptance run: 10,000 tourneys per size and generator (release mode)"]
fn every_generator_joins_10000_times_per_size() {
    println!("generator    n  tourneys  first-pass-not-enough  2-opt-merges  posa-merges  deterministic-steps");
    for (g, n, count, bad, two, posa, steps) in sweep(10_000) {
        println!(
            "{:<10} {n:>3} {count:>9} {bad:>22} {two:>13} {posa:>12} {steps:>20}",
            g.name()
        );
    }
}

/// Every generator that makes tourneys of the shape, on every r x c up to
/// 30 x 30 with a closed tour, both orientations, `seeds` seeds each;
/// prints the first-pass failures.
fn rectangles(seeds: u64) {
    let mut boards = Vec::new();
    for r in 3..=30u64 {
        for c in r..=30u64 {
            let board = Board::new(r, c).unwrap();
            if exists::closed_tour(board).exists {
                boards.push(board);
                if r != c {
                    boards.push(board.transposed());
                }
            }
        }
    }
    for g in GENERATORS {
        let t0 = std::time::Instant::now();
        let shapes: Vec<Board> = boards.iter().copied().filter(|&b| g.supports(b)).collect();
        let not_enough: u64 = shapes
            .par_iter()
            .flat_map(|&b| (0..seeds).into_par_iter().map(move |seed| (b, seed)))
            .map(|(b, seed)| u64::from(!join_checked(b, g, seed).first_pass_enough()))
            .sum();
        eprintln!(
            "{}: {} rectangles x {seeds} seeds joined in {:.1} s, first pass not enough {not_enough}",
            g.name(),
            shapes.len(),
            t0.elapsed().as_secs_f64()
        );
        assert!(!shapes.is_empty());
    }
}

#[test]
fn every_generator_joins_on_every_rectangle_up_to_30() {
    rectangles(5);
}

#[test]
#[ignore = "minutes in release mode: cargo test --release -p knights --test tests -- --ignored every_generator_joins_1000_times_on_every_rectangle"]
fn every_generator_joins_1000_times_on_every_rectangle_up_to_30() {
    rectangles(1000);
}

#[test]
fn join_refuses_boards_without_closed_tours_at_once() {
    for (r, c) in [(4, 8), (4, 12), (3, 6), (5, 5)] {
        let board = Board::new(r, c).unwrap();
        let mut rg = rng::seeded(0);
        if let Ok(mut cover) = tourney(board, TourneyMethod::Warnsdorff, &mut rg) {
            let e = rails::join(&mut cover, &JoinOptions::default(), &mut rg).unwrap_err();
            assert!(matches!(e, knights::Error::NoTour(_)), "{e}");
        }
        assert!(tour(board, TourneyMethod::Warnsdorff, &mut rg).is_err());
    }
}

fn tour_cover(n: u64, seed: u64) -> Cover {
    let board = Board::new(n, n).unwrap();
    let t = tour(board, TourneyMethod::Warnsdorff, &mut rng::seeded(seed)).unwrap();
    Cover::from_tour(&t).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn shatter_gives_a_tourney_and_obfuscate_a_tour(n in 3u64..16, seed in 0u64..1000) {
        let n = 2 * n; // even sides 6..30
        let mut cover = tour_cover(n, seed);
        let mut r = rng::seeded(seed);
        rails::shatter(&mut cover, &mut r).unwrap();
        prop_assert!(check_cover(&cover).is_ok());
        rails::obfuscate(&mut cover, &Default::default(), &mut r).unwrap();
        prop_assert_eq!(check_cover(&cover), Ok(1));
    }

    #[test]
    fn rectangles_join(rows in 5u64..24, cols in 5u64..24, seed in 0u64..1000) {
        let board = Board::new(rows, cols).unwrap();
        prop_assume!(exists::closed_tour(board).exists);
        for g in GENERATORS {
            if g.supports(board) {
                join_checked(board, g, seed);
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_result() {
    let cover = tour_cover(12, 3);
    let run = |seed| {
        let mut c = cover.clone();
        rails::obfuscate(&mut c, &Default::default(), &mut rng::seeded(seed)).unwrap();
        c
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}

#[test]
fn pinned_obfuscation_of_the_8x8_four_cover() {
    // The four-cover of 8x8 joined, then obfuscated with seed 2026 (each
    // shatter pass and the join in a random orientation of the board,
    // obfuscate ending in one).
    let board = Board::new(8, 8).unwrap();
    let mut r = rng::seeded(2026);
    let mut cover = tourney(board, TourneyMethod::FourCover, &mut r).unwrap();
    rails::join(&mut cover, &JoinOptions::default(), &mut r).unwrap();
    rails::obfuscate(&mut cover, &Default::default(), &mut r).unwrap();
    let t = cover.to_tour(0, None).unwrap();
    assert_eq!(check_tour(&t), Ok(Kind::Closed));
    let grid = knights::format::grid(&t, 0).to_string();
    assert_eq!(grid, PINNED, "\n{grid}");
}

const PINNED: &str = concat!(
    " 0 13 20 45 22 49 18 47\n",
    "11 44 63 14 19 46 23 50\n",
    "30  1 12 21 62 51 48 17\n",
    "43 10 29 38 15 24 61 52\n",
    "58 31  2  9 60 37 16 25\n",
    " 3 42 59 28 39  8 53 36\n",
    "32 57 40  5 34 55 26  7\n",
    "41  4 33 56 27  6 35 54\n",
);
