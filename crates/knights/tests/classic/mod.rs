//! Warnsdorff's rule, backtracking and the hybrid: the known results of the
//! textbook chapter (Practical Algorithms and Data Structures n.d.) and
//! Mahmoud's course report (Mahmoud n.d.), and properties over board sizes and seeds. Every tour goes
//! through the independent checker.

use knights::algorithms::backtrack::{self, Order, StopFlag};
use knights::algorithms::warnsdorff::{self, Tie};
use knights::algorithms::{self, hybrid, Algorithm, TourRequest, Want};
use knights::check::{check_tour, TourKind};
use knights::{exists, Board, Error, Tour};
use proptest::prelude::*;

/// The `[[reproduce]]` vector of the course report (Mahmoud n.d.) in tests/data/graph.toml.
fn course_report_vector() -> (Board, (u32, u32), Vec<u64>) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/graph.toml"
    ))
    .unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    let v = doc["reproduce"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"].as_str() == Some("course-report-8x8"))
        .unwrap();
    let board = Board::new(
        v["rows"].as_integer().unwrap() as u64,
        v["cols"].as_integer().unwrap() as u64,
    )
    .unwrap();
    let start = v["start"].as_array().unwrap();
    let start = (
        start[0].as_integer().unwrap() as u32,
        start[1].as_integer().unwrap() as u32,
    );
    let base = v["base"].as_integer().unwrap() as u64;
    let numbers = v["grid"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse::<u64>().unwrap() - base)
        .collect();
    (board, start, numbers)
}

#[test]
fn course_report_closed_tour_is_reproduced_exactly() {
    let (board, (r, c), numbers) = course_report_vector();
    let options = warnsdorff::Options {
        closed: true,
        tie: Tie::First,
        ..Default::default()
    };
    let found = warnsdorff::tour_with_stats(board, &options, &mut knights::rng::seeded(0)).unwrap();
    assert_eq!(check_tour(&found.tour), Ok(TourKind::Closed));
    assert_eq!(found.tour.start(), board.square(r, c));
    let steps: Vec<u64> = found
        .tour
        .step_numbers()
        .into_iter()
        .map(u64::from)
        .collect();
    assert_eq!(steps, numbers);
    // The course report's start search: columns outer, rows inner; column 0 gave no closed tour.
    assert_eq!(found.attempts, c * board.rows() + r + 1);
    // The same through the dispatcher, whatever the seed.
    let request = TourRequest {
        algorithm: Algorithm::Warnsdorff,
        want: Want::Closed,
        tie: Some(Tie::First),
        ..Default::default()
    };
    for seed in [0, 1, 99] {
        let t = algorithms::tour(board, &request, &mut knights::rng::seeded(seed)).unwrap();
        assert_eq!(t, found.tour);
    }
}

#[test]
fn textbook_open_5x5_by_backtracking() {
    let board = Board::new(5, 5).unwrap();
    // The textbook chapter's search tries every start; its printed tour begins
    // (1,3), (0,1), (2,0), (4,1), (2,2), which its move order gives from (1,3).
    let options = backtrack::Options {
        start: Some(board.square(1, 3)),
        ..Default::default()
    };
    let found = backtrack::tour_with_stats(board, &options).unwrap();
    assert!(check_tour(&found.tour).is_ok());
    let prefix: Vec<_> = found.tour.squares()[..5]
        .iter()
        .map(|&s| board.coords(s))
        .collect();
    assert_eq!(prefix, [(1, 3), (0, 1), (2, 0), (4, 1), (2, 2)]);
    // Without a start it begins at the first square that has a tour.
    let t = backtrack::tour(board, &backtrack::Options::default()).unwrap();
    assert!(check_tour(&t).is_ok());
    assert_eq!(t.start(), 0);
}

#[test]
fn open_130x130_by_warnsdorff() {
    let board = Board::new(130, 130).unwrap();
    for tie in [Tie::Centre, Tie::Pohl] {
        let options = warnsdorff::Options {
            tie,
            start: Some(0),
            max_attempts: 5,
            ..Default::default()
        };
        let t = warnsdorff::tour(board, &options, &mut knights::rng::seeded(130)).unwrap();
        assert!(check_tour(&t).is_ok(), "{tie}");
    }
}

#[test]
fn impossible_requests_fail_at_once_with_the_theorem() {
    let cases = [
        (4, 4, false),
        (5, 5, true),
        (4, 100, true),
        (3, 6, false),
        (2, 1000, false),
    ];
    for (r, c, closed) in cases {
        let board = Board::new(r, c).unwrap();
        for algorithm in [
            Algorithm::Warnsdorff,
            Algorithm::Backtrack,
            Algorithm::Hybrid,
        ] {
            let request = TourRequest {
                algorithm,
                want: if closed { Want::Closed } else { Want::Open },
                max_nodes: Some(u64::MAX),
                max_attempts: Some(u32::MAX),
                ..Default::default()
            };
            let err = algorithms::tour(board, &request, &mut knights::rng::seeded(1)).unwrap_err();
            assert!(
                matches!(err, Error::NoTour(_)),
                "{board} {algorithm:?}: {err}"
            );
            assert_eq!(
                err.to_string(),
                exists::no_tour_error(board, closed).to_string()
            );
        }
    }
}

#[test]
fn a_raised_stop_flag_stops_the_dispatcher() {
    let stop = StopFlag::new();
    stop.stop();
    let request = TourRequest {
        algorithm: Algorithm::Backtrack,
        want: Want::Closed,
        max_nodes: Some(u64::MAX),
        stop,
        ..Default::default()
    };
    let board = Board::new(12, 12).unwrap();
    let err = algorithms::tour(board, &request, &mut knights::rng::seeded(1)).unwrap_err();
    assert!(matches!(err, Error::GaveUp(_)), "{err}");
}

/// One run of any classical algorithm; `Ok(None)` when it gave up.
fn run(board: Board, which: u8, closed: bool, start: Option<u32>, seed: u64) -> Option<Tour> {
    let mut rng = knights::rng::seeded(seed);
    let result = match which {
        0..=3 => {
            let options = warnsdorff::Options {
                closed,
                start,
                tie: Tie::ALL[which as usize],
                max_attempts: 20,
            };
            warnsdorff::tour(board, &options, &mut rng)
        }
        _ => {
            let options = backtrack::Options {
                closed,
                start,
                order: if which == 4 {
                    Order::Fixed
                } else {
                    Order::Warnsdorff
                },
                max_nodes: 20_000,
                ..Default::default()
            };
            if which == 4 {
                backtrack::tour(board, &options)
            } else {
                hybrid::tour(board, &options)
            }
        }
    };
    match result {
        Ok(t) => Some(t),
        Err(Error::GaveUp(_)) => None,
        Err(Error::NoTour(e)) => {
            // Only the theorem, or a search that proved no tour from the start.
            assert!(
                !exists::closed_tour(board).exists && closed || start.is_some(),
                "{e}"
            );
            None
        }
        Err(e) => panic!("unexpected error on {board}: {e}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_reported_tour_passes_the_checker(
        r in 5u64..=30,
        c in 5u64..=30,
        which in 0u8..6,
        closed in any::<bool>(),
        start in proptest::option::of(0u32..900),
        seed in any::<u64>(),
    ) {
        let board = Board::new(r, c).unwrap();
        let start = start.map(|s| s % board.squares() as u32);
        if let Some(tour) = run(board, which, closed, start, seed) {
            let kind = check_tour(&tour);
            prop_assert!(kind.is_ok(), "{:?}", kind);
            if closed {
                prop_assert_eq!(kind, Ok(TourKind::Closed));
            }
            if let Some(s) = start {
                prop_assert_eq!(tour.start(), s);
            }
        }
    }

    #[test]
    fn the_dispatcher_honours_open_and_closed(
        r in 5u64..=16,
        c in 5u64..=16,
        algorithm in prop_oneof![Just(Algorithm::Warnsdorff), Just(Algorithm::Hybrid)],
        want in prop_oneof![Just(Want::Open), Just(Want::Closed), Just(Want::Any)],
        seed in any::<u64>(),
    ) {
        let board = Board::new(r, c).unwrap();
        let request = TourRequest { algorithm, want, max_nodes: Some(50_000), ..Default::default() };
        match algorithms::tour(board, &request, &mut knights::rng::seeded(seed)) {
            Ok(t) => {
                let kind = check_tour(&t).unwrap();
                match want {
                    Want::Open => prop_assert_eq!(kind, TourKind::Open),
                    Want::Closed => prop_assert_eq!(kind, TourKind::Closed),
                    Want::Any => prop_assert_eq!(kind == TourKind::Closed, exists::closed_tour(board).exists),
                }
            }
            Err(Error::NoTour(_)) => prop_assert!(want != Want::Open && !exists::closed_tour(board).exists),
            Err(Error::GaveUp(_)) => {}
            Err(e) => prop_assert!(false, "{}", e),
        }
    }
}

/// `make_open` keeps the start, and refuses, with the reason, a start from
/// which no open tour exists: (1, 2) on a board with 5 columns is a knight's
/// move from the corners (0, 0) and (0, 4), which have two moves each.
#[test]
fn make_open_keeps_the_start_or_names_the_obstruction() {
    let board = Board::new(6, 5).unwrap();
    let request = TourRequest {
        algorithm: Algorithm::Construct,
        want: Want::Closed,
        ..Default::default()
    };
    for s in 0..board.squares() as u32 {
        let closed = algorithms::tour(board, &request, &mut knights::rng::seeded(1))
            .unwrap()
            .rotated_to(s)
            .unwrap();
        let (r, c) = board.coords(s);
        match algorithms::make_open(closed) {
            Ok(open) => {
                check_tour(&open).unwrap();
                assert!(!open.is_closed() && open.start() == s, "({r}, {c})");
                assert!(!matches!((r, c), (1, 2) | (4, 2)));
            }
            Err(Error::NoTour(e)) => {
                assert!(matches!((r, c), (1, 2) | (4, 2)), "({r}, {c}): {e}");
                assert!(e.contains("two moves each"), "{e}");
            }
            Err(e) => panic!("({r}, {c}): {e}"),
        }
    }
}
