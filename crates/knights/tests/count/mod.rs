//! Exact counting: the known counts of `tests/data/counts.toml` and
//! `tests/data/published_counts.toml`, and the
//! frontier dynamic program against a brute-force enumeration.

mod brute;
mod cells;
mod published;
mod resume;
mod shapes;
mod state_files;
mod vectors;

use knights::count::{self, Count, Counter, Method, SquareOrder};
use knights::Board;
use knights::Kind;
use proptest::prelude::*;

fn dp(board: Board, kind: Kind) -> u128 {
    let report = Counter::new(board).kind(kind).tours().unwrap();
    report.count.to_u128().unwrap()
}

#[test]
fn tiny_boards_match_brute_force() {
    for (r, c, kind, want) in [
        (3, 4, Kind::Open, 8),
        (4, 5, Kind::Open, 82),
        (5, 6, Kind::Closed, 8),
        (3, 10, Kind::Closed, 16),
    ] {
        let board = Board::new(r, c).unwrap();
        let brute = brute::tours(board, kind);
        assert_eq!(brute.len() as u128, want, "brute force on {board} {kind:?}");
        assert_eq!(dp(board, kind), want, "dp on {board} {kind:?}");
    }
}

fn closed_by(board: Board, method: Method) -> u128 {
    let report = Counter::new(board).method(method).tours().unwrap();
    assert_eq!(report.method, method, "{board}");
    report.count.to_u128().unwrap()
}

/// Meeting in the middle and the forward program give the same closed
/// counts on every board of 4 to 12 rows, 1 to 8 columns and at most 40
/// squares, in both orientations, odd row counts included.
#[test]
fn meeting_in_the_middle_matches_the_forward_count() {
    let mut nonzero = 0;
    for rows in 4..=12u64 {
        for cols in 1..=rows.min(8) {
            if rows * cols > 40 {
                continue;
            }
            let board = Board::new(rows, cols).unwrap();
            let forward = closed_by(board, Method::Forward);
            assert_eq!(closed_by(board, Method::Meet), forward, "{board}");
            assert_eq!(
                closed_by(board.transposed(), Method::Meet),
                forward,
                "{}",
                board.transposed()
            );
            nonzero += usize::from(forward > 0);
        }
    }
    // 3x10, 3x12, 5x6, 5x8 and 6x6 have closed tours.
    assert_eq!(
        nonzero, 5,
        "the comparison must cover boards that have tours"
    );
}

/// Meeting in the middle against the brute-force list, and its refusals.
#[test]
fn meeting_in_the_middle_matches_brute_force() {
    for text in ["5x6", "3x10", "4x6", "3x12"] {
        let board: Board = text.parse().unwrap();
        let want = brute::tours(board, Kind::Closed).len() as u128;
        assert_eq!(closed_by(board, Method::Meet), want, "{text}");
    }
    let meet = |text: &str| Counter::new(text.parse().unwrap()).method(Method::Meet);
    let err = meet("8x2").kind(Kind::Open).tours().unwrap_err();
    assert_eq!(
        err.hint(),
        Some(knights::Hint::UseMethod(knights::count::Method::Forward)),
        "{err}"
    );
    let err = meet("9x9").tours().unwrap_err();
    assert!(err.to_string().contains("at most 8 columns"), "{err}");
    // Auto picks the method by the board and the kind.
    let auto = |text: &str, kind| {
        let counter = Counter::new(text.parse().unwrap()).kind(kind);
        counter.tours().unwrap().method
    };
    assert_eq!(auto("6x6", Kind::Closed), Method::Meet);
    // No closed tour: the theorem answers 0 and no method runs.
    assert_eq!(auto("5x5", Kind::Closed), Method::Auto);
    assert_eq!(auto("5x5", Kind::Open), Method::Forward);
    assert_eq!(auto("4x6", Kind::Open), Method::Forward);
    assert_eq!(auto("5x6", Kind::Open), Method::Meet);
    assert_eq!(auto("4x7", Kind::Open), Method::Meet);
    assert_eq!(auto("7x5", Kind::Open), Method::Meet);
    assert_eq!(auto("5x8", Kind::Open), Method::Meet);
}

fn open_by(board: Board, method: Method) -> u128 {
    let counter = Counter::new(board).kind(Kind::Open).method(method);
    let report = counter.tours().unwrap();
    assert_eq!(report.method, method, "{board}");
    report.count.to_u128().unwrap()
}

/// Meeting in the middle for open tours (separator squares as terminals,
/// terminals inside either part, the mirror-folded top table) gives the
/// forward program's counts on every board of 4 to 10 rows, 3 to 8 columns
/// and at most 30 squares, in both orientations.
#[test]
fn open_meeting_in_the_middle_matches_the_forward_count() {
    let mut nonzero = 0;
    for rows in 4..=10u64 {
        for cols in 3..=rows.min(8) {
            if rows * cols > 30 {
                continue;
            }
            let board = Board::new(rows, cols).unwrap();
            let forward = open_by(board, Method::Forward);
            assert_eq!(open_by(board, Method::Meet), forward, "{board}");
            assert_eq!(
                open_by(board.transposed(), Method::Meet),
                forward,
                "{}",
                board.transposed()
            );
            nonzero += usize::from(forward > 0);
        }
    }
    // 4x4 and 6x3 have none; 4x5 .. 5x6, 7x3 .. 10x3 have some.
    assert!(nonzero >= 10, "{nonzero}");
}

/// Both methods against the brute-force list of open tours.
#[test]
fn open_counts_match_brute_force() {
    for text in ["4x5", "5x4", "4x6", "5x5", "3x8"] {
        let board: Board = text.parse().unwrap();
        let want = brute::tours(board, Kind::Open).len() as u128;
        assert_eq!(open_by(board, Method::Forward), want, "{text}");
        assert_eq!(open_by(board, Method::Meet), want, "{text}");
    }
}

/// Every board of at most 30 squares: the open count of each method that
/// applies equals the brute-force enumeration.
#[test]
#[ignore = "a minute in release mode: cargo test --release -p knights --test tests -- --ignored open_counts_up_to_30_squares"]
fn open_counts_up_to_30_squares_match_brute_force() {
    for rows in 1..=30u64 {
        for cols in 1..=rows {
            if rows * cols > 30 {
                continue;
            }
            let board = Board::new(rows, cols).unwrap();
            let want = brute::tours(board, Kind::Open).len() as u128;
            assert_eq!(dp(board, Kind::Open), want, "{board}");
            assert_eq!(dp(board.transposed(), Kind::Open), want, "{board}");
            if board.squares() > 1 {
                assert_eq!(open_by(board, Method::Forward), want, "{board}");
            }
            if rows >= 4 && (3..=8).contains(&cols) {
                assert_eq!(open_by(board, Method::Meet), want, "{board}");
            }
        }
    }
}

#[test]
fn brute_force_tours_pass_the_checker() {
    for (board, kind) in [("3x4", Kind::Open), ("3x10", Kind::Closed)] {
        let board: Board = board.parse().unwrap();
        for tour in brute::tours(board, kind) {
            let t = knights::Tour::from_squares_unchecked(board, tour);
            let got = knights::check::check_tour(&t).unwrap();
            if kind == Kind::Closed {
                assert_eq!(got, knights::Kind::Closed);
            }
        }
    }
}

/// Symmetric counts and classes against brute force: every closed tour is
/// listed, its images under the board's symmetries taken, and the classes
/// counted directly.
#[test]
fn symmetry_counts_match_brute_force() {
    for text in ["5x6", "10x3"] {
        let board: Board = text.parse().unwrap();
        let (tours, half_turn, classes) = brute::symmetry_facts(board);
        let counter = Counter::new(board);
        assert_eq!(counter.symmetric().unwrap().count, half_turn, "{text}");
        let c = counter.classes().unwrap();
        assert_eq!(
            (c.tours, c.classes),
            (Count::from(tours), Count::from(classes)),
            "{text}: {:?}",
            c.fixed
        );
    }
}

#[test]
fn six_by_six_classes_and_symmetric_tours() {
    let c = Counter::new("6x6".parse().unwrap()).classes().unwrap();
    // Jelliss: 1245 classes, 17 with exactly 180-degree symmetry and 5 with
    // 90-degree symmetry, so 78 = 4 x 17 + 2 x 5 tours are fixed by a half turn.
    assert_eq!(c.classes, 1245, "{:?}", c.fixed);
    let fixed = |name: &str| c.fixed.iter().find(|f| f.0 == name).unwrap().1;
    assert_eq!(fixed("half turn"), 78);
    assert_eq!(fixed("quarter turn"), 10);
    assert_eq!(fixed("main diagonal"), 0);
}

#[test]
fn open_counts_refused_for_symmetry() {
    let open = Counter::new("6x6".parse().unwrap()).kind(Kind::Open);
    let err = open.symmetric().unwrap_err();
    assert_eq!(err.category(), knights::Category::BadInput, "{err}");
}

#[test]
fn too_wide_boards_are_refused() {
    let err = Counter::new("16x16".parse().unwrap()).tours().unwrap_err();
    assert!(err.to_string().contains("narrower board"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// The dynamic program agrees with brute force on random small boards,
    /// in both orientations.
    #[test]
    fn dp_matches_brute_force(r in 1u64..=5, c in 1u64..=6, open in any::<bool>()) {
        prop_assume!(r * c <= 22);
        let kind = if open { Kind::Open } else { Kind::Closed };
        let board = Board::new(r, c).unwrap();
        let want = brute::tours(board, kind).len() as u128;
        prop_assert_eq!(dp(board, kind), want);
        prop_assert_eq!(dp(board.transposed(), kind), want);
    }
}

/// Knuth's estimate is reproducible, lands near the exact count of open
/// tours, and near the exact size of the backtracking tree.
#[test]
fn estimate_is_seeded_and_close() {
    for (text, kind, samples) in [
        ("3x4", Kind::Open, 50_000),
        ("4x5", Kind::Open, 200_000),
        ("3x4", Kind::Closed, 50_000),
    ] {
        let board: Board = text.parse().unwrap();
        let opts = count::EstimateOptions {
            kind,
            samples,
            seed: 9,
            method: count::EstimateMethod::Knuth,
            ..Default::default()
        };
        let a = count::Estimate::builder(board).options(opts).run().unwrap();
        let b = count::Estimate::builder(board).options(opts).run().unwrap();
        assert_eq!(a, b, "same seed, same estimate");
        let exact = brute::tours(board, kind).len() as f64;
        assert!(
            (a.tours - exact).abs() <= 5.0 * a.tours_error,
            "{text} {kind:?}: estimate {} +- {} vs {exact}",
            a.tours,
            a.tours_error
        );
        if kind == Kind::Closed {
            let tree = brute::tree_size(board, 0) as f64;
            assert!(
                (a.tree - tree).abs() <= 5.0 * a.tree_error,
                "{a:?} vs {tree}"
            );
        }
    }
}

/// A raised stop flag ends a count after the square in progress, as an
/// interruption, both ways of counting.
#[test]
fn a_raised_stop_flag_interrupts_a_count() {
    let stop = knights::StopFlag::new();
    stop.stop();
    let control = knights::Control::new().stop(stop);
    let board = "6x6".parse().unwrap();
    for method in [Method::Forward, Method::Meet] {
        let counter = Counter::new(board).method(method).control(&control);
        let err = counter.tours().unwrap_err();
        assert_eq!(err.category(), knights::Category::Interrupted, "{err}");
    }
    let fresh = knights::Control::new();
    let counter = Counter::new(board).control(&fresh);
    assert_eq!(counter.tours().unwrap().count, 9862);
}

/// A sweep over lengths counts every board `W x L` as a count of its own does.
#[test]
fn sweeps_equal_single_counts() {
    for kind in [Kind::Closed, Kind::Open] {
        for w in 1..=5u64 {
            let n = (30 / w).min(12);
            let board = Board::new(w, n).unwrap();
            let got = Counter::new(board).kind(kind).all_lengths().unwrap().counts;
            assert_eq!(got.len(), n as usize);
            for (l, (b, c)) in got.into_iter().enumerate() {
                assert_eq!(b, Board::new(w, l as u64 + 1).unwrap());
                assert_eq!(c, dp(b, kind), "{kind:?} {b} in the sweep of {board}");
            }
        }
    }
}

/// Counts past 2^128 are exact: the sweep of 3 x 200 closed tours agrees,
/// length by length, with single counts that start narrow and widen.
#[test]
fn big_counts_agree_with_single_counts() {
    let sweep = Counter::new("3x200".parse().unwrap())
        .all_lengths()
        .unwrap();
    let (board, last) = sweep.counts[199];
    assert_eq!(board.to_string(), "3x200");
    assert!(last.bits() > 128, "{last}");
    for l in [150u64, 180, 199, 200] {
        let b = Board::new(3, l).unwrap();
        let single = Counter::new(b).tours().unwrap().count;
        assert_eq!(single, sweep.counts[l as usize - 1].1, "{b}");
    }
}

/// A run with rows from the outside in, or staggered, reaches the same
/// counts through other states (staggered: the tours only, since a sweep
/// over lengths counts after whole rows, which it never takes).
#[test]
fn outside_in_and_staggered_counts_equal_plain_ones() {
    for (text, kind) in [
        ("5x8", Kind::Closed),
        ("4x7", Kind::Open),
        ("5x5", Kind::Open),
    ] {
        let board: Board = text.parse().unwrap();
        let plain = Counter::new(board).kind(kind).method(Method::Forward);
        let snake = plain.clone().outside_in(true);
        let a = plain.tours().unwrap();
        let b = snake.tours().unwrap();
        assert_eq!(a.count, b.count, "{text}");
        assert_ne!(
            a.states_per_step, b.states_per_step,
            "{text}: the same states"
        );
        let staggered = plain.clone().order(SquareOrder::Staggered).tours().unwrap();
        assert_eq!(staggered.count, a.count, "{text} staggered");
        assert_ne!(staggered.states_per_step, a.states_per_step, "{text}");
        assert_ne!(staggered.states_per_step, b.states_per_step, "{text}");
        let a = plain.all_lengths().unwrap().counts;
        let b = snake.all_lengths().unwrap().counts;
        assert_eq!(a, b, "{text} by sweeps");
        let refused = plain
            .order(SquareOrder::Staggered)
            .all_lengths()
            .unwrap_err();
        assert!(refused.to_string().contains("whole row"), "{refused}");
    }
}
