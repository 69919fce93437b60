//! Warnsdorff's rule, backtracking and the hybrid: the known results of the
//! textbook chapter (Practical Algorithms and Data Structures n.d.) and
//! Mahmoud's course report (Mahmoud n.d.), and properties over board sizes and seeds. Every tour goes
//! through the independent checker.

use knights::algorithms::warnsdorff::{Step, Tie};
use knights::algorithms::TourGenerator;
use knights::algorithms::TreeSearch;
use knights::algorithms::{self, Algorithm, Backtrack, Construct, Hybrid, TourSpec, Warnsdorff};
use knights::check::check_tour;
use knights::Kind;
use knights::{exists, Board, Error, Tour};
use knights::{Control, StopFlag, Wanted};
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
    let spec = TourSpec {
        kind: Wanted::Closed,
        ..TourSpec::new(board)
    };
    let mut walks = 0;
    let tour = Warnsdorff::default()
        .tie(Tie::First)
        .generate_observed(&spec, &mut knights::rng::seeded(0), &mut |step| {
            walks += u32::from(matches!(step, Step::Walk { .. }))
        })
        .unwrap();
    assert_eq!(check_tour(&tour), Ok(Kind::Closed));
    assert_eq!(tour.start(), board.square(r, c));
    let steps: Vec<u64> = tour.step_numbers().into_iter().map(u64::from).collect();
    assert_eq!(steps, numbers);
    // The course report's start search: columns outer, rows inner; column 0 gave no closed tour.
    assert_eq!(walks, c * board.rows() + r + 1);
    // The same through the dispatcher, whatever the seed.
    let request = Tour::builder(board)
        .closed()
        .algorithm(Warnsdorff::default().tie(Tie::First));
    for seed in [0, 1, 99] {
        assert_eq!(request.clone().seed(seed).build().unwrap(), tour);
    }
    // Asked for either kind, it still searches every start for a closed tour
    // (at least 64 walks) and finds the same one.
    let any = Tour::builder(board).algorithm(Warnsdorff::default().tie(Tie::First));
    assert_eq!(any.build().unwrap(), tour);
}

#[test]
fn textbook_open_5x5_by_backtracking() {
    let board = Board::new(5, 5).unwrap();
    // The textbook chapter's search tries every start; its printed tour begins
    // (1,3), (0,1), (2,0), (4,1), (2,2), which its move order gives from (1,3).
    let from = TourSpec {
        start: Some(board.square(1, 3)),
        ..TourSpec::new(board)
    };
    let found = Backtrack::default().search(&from, &mut |_| ());
    let tour = found.result.unwrap();
    assert!(check_tour(&tour).is_ok());
    assert!(found.stats.nodes >= 25);
    let prefix: Vec<_> = tour.squares()[..5]
        .iter()
        .map(|&s| board.coords(s))
        .collect();
    assert_eq!(prefix, [(1, 3), (0, 1), (2, 0), (4, 1), (2, 2)]);
    // Without a start it begins at the first square that has a tour.
    let t = Backtrack::default().search(&TourSpec::new(board), &mut |_| ());
    let t = t.result.unwrap();
    assert!(check_tour(&t).is_ok());
    assert_eq!(t.start(), 0);
}

#[test]
fn open_130x130_by_warnsdorff() {
    let board = Board::new(130, 130).unwrap();
    for tie in [Tie::Centre, Tie::Pohl] {
        let spec = TourSpec {
            kind: Wanted::Open,
            start: Some(0),
            ..TourSpec::new(board)
        };
        let rule = Warnsdorff::default().tie(tie).max_attempts(5);
        let t = rule
            .generate(&spec, &mut knights::rng::seeded(130))
            .unwrap();
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
            Algorithm::Warnsdorff(Warnsdorff::default().max_attempts(u32::MAX)),
            Algorithm::Backtrack(Backtrack::default().max_nodes(u64::MAX)),
            Algorithm::Hybrid(Hybrid::default().max_nodes(u64::MAX)),
        ] {
            let kind = if closed { Kind::Closed } else { Kind::Open };
            let request = Tour::builder(board).kind(kind).algorithm(algorithm).seed(1);
            let err = request.build().unwrap_err();
            assert!(
                matches!(err, Error::NoTour(_)),
                "{board} {algorithm:?}: {err}"
            );
            assert_eq!(
                err.to_string(),
                exists::no_tour_error(board, kind.into()).to_string()
            );
        }
    }
}

#[test]
fn a_raised_stop_flag_stops_the_dispatcher() {
    let stop = StopFlag::new();
    stop.stop();
    let board = Board::new(12, 12).unwrap();
    let request = Tour::builder(board)
        .closed()
        .algorithm(Backtrack::default().max_nodes(u64::MAX))
        .control(&Control::new().stop(stop));
    let err = request.build().unwrap_err();
    assert!(matches!(err, Error::Interrupted(_)), "{err}");
}

/// One run of any classical algorithm; `Ok(None)` when it gave up.
fn run(board: Board, which: u8, closed: bool, start: Option<u32>, seed: u64) -> Option<Tour> {
    let mut rng = knights::rng::seeded(seed);
    let spec = TourSpec {
        kind: if closed {
            Wanted::Closed
        } else {
            Wanted::Either
        },
        start,
        ..TourSpec::new(board)
    };
    let result = match which {
        0..=3 => {
            let rule = Warnsdorff::default().tie(Tie::ALL[which as usize]);
            rule.max_attempts(20).generate(&spec, &mut rng)
        }
        4 => {
            Backtrack::DEFAULT
                .max_nodes(20_000)
                .search(&spec, &mut |_| ())
                .result
        }
        _ => {
            Hybrid::DEFAULT
                .max_nodes(20_000)
                .search(&spec, &mut |_| ())
                .result
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
                prop_assert_eq!(kind, Ok(Kind::Closed));
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
        algorithm in prop_oneof![
            Just(Algorithm::Warnsdorff(Warnsdorff::DEFAULT)),
            Just(Algorithm::Hybrid(Hybrid::default().max_nodes(50_000))),
        ],
        want in prop_oneof![Just(Wanted::Open), Just(Wanted::Closed), Just(Wanted::Either)],
        seed in any::<u64>(),
    ) {
        let board = Board::new(r, c).unwrap();
        let request = Tour::builder(board).kind(want).algorithm(algorithm).seed(seed);
        match request.build() {
            Ok(t) => {
                let kind = check_tour(&t).unwrap();
                match want {
                    // Either kind: never closed where the board has no closed tour.
                    Wanted::Either => prop_assert!(kind == Kind::Open || exists::closed_tour(board).exists),
                    want => prop_assert_eq!(Wanted::from(kind), want),
                }
            }
            Err(Error::NoTour(_)) => prop_assert!(want == Wanted::Closed && !exists::closed_tour(board).exists),
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
    let request = Tour::builder(board).closed().algorithm(Construct).seed(1);
    for s in 0..board.squares() as u32 {
        let closed = request.build().unwrap().rotated_to(s).unwrap();
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

/// Either kind from a search method: a closed tour where one comes within
/// the closing share of the budget, else at once an open one.
#[test]
fn either_kind_from_the_search_methods() {
    // On 8x8 Warnsdorff's rule closes almost always (the share is 64 walks).
    let board = Board::new(8, 8).unwrap();
    for seed in 0..200 {
        let t = Tour::builder(board)
            .algorithm(Warnsdorff::default())
            .seed(seed)
            .build()
            .unwrap();
        assert_eq!(check_tour(&t), Ok(Kind::Closed), "seed {seed}");
    }
    // On 200x200 it almost never closes: an open tour, not a failure.
    let board = Board::new(200, 200).unwrap();
    for algorithm in [
        Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
        Algorithm::Hybrid(Hybrid::DEFAULT),
    ] {
        let t = Tour::builder(board).algorithm(algorithm).build().unwrap();
        assert_eq!(check_tour(&t), Ok(Kind::Open), "{}", algorithm.name());
        // Insisting on a closed tour still fails with the budget's reason.
        let closed = Tour::builder(board)
            .closed()
            .algorithm(Algorithm::Warnsdorff(Warnsdorff::default().max_attempts(3)))
            .build();
        assert!(matches!(
            closed.map_err(|e| e.hint()),
            Err(Some(knights::Hint::Raise(knights::Budget::Attempts)))
        ));
    }
    // The methods that make cycles only refuse either kind on a board
    // without a closed tour, naming the methods that make open ones.
    let board = Board::new(5, 5).unwrap();
    for algorithm in ["takefuji-lee", "braid", "tourney"] {
        let a: Algorithm = algorithm.parse().unwrap();
        let e = Tour::builder(board).algorithm(a).build().unwrap_err();
        assert!(matches!(e, Error::NoTour(_)), "{algorithm}: {e}");
        assert!(e.to_string().contains("warnsdorff"), "{algorithm}: {e}");
    }
}

/// An option set by name applies only to the algorithms that take it.
#[test]
fn options_by_name_belong_to_their_algorithms() {
    let mut a: Algorithm = "construct".parse().unwrap();
    let e = a.set_option("tie", "first").unwrap_err();
    assert!(matches!(e, Error::Unsupported(_)));
    assert_eq!(
        e.to_string(),
        "tie does not apply to construct; it is an option of warnsdorff"
    );
    let mut w: Algorithm = "warnsdorff".parse().unwrap();
    w.set_option("max_attempts", "7").unwrap();
    w.set_option("tie", "Centre").unwrap();
    assert_eq!(
        w,
        Algorithm::Warnsdorff(Warnsdorff::default().tie(Tie::Centre).max_attempts(7))
    );
    assert!(matches!(
        w.set_option("max-attempts", "0"),
        Err(Error::Parse(_))
    ));
    let e = w.set_option("colour", "red").unwrap_err();
    assert!(matches!(e, Error::Unsupported(_)));
    assert_eq!(e.hint(), Some(knights::Hint::AlgorithmOptions));
    let mut h: Algorithm = "hybrid".parse().unwrap();
    h.set_option("max-nodes", "1000").unwrap();
    assert_eq!(h, Algorithm::Hybrid(Hybrid::default().max_nodes(1000)));
}

/// The methods that say they use no seed make the same tour for every
/// seed, of either kind; the others make different tours for some seed.
#[test]
fn uses_seed_says_which_methods_draw_on_the_seed() {
    let first = Algorithm::Warnsdorff(Warnsdorff::default().tie(Tie::First));
    let mut algorithms = Algorithm::ALL.to_vec();
    algorithms.push(first);
    assert!(!first.uses_seed());
    for board in ["5x5", "6x6", "5x6"] {
        let board: Board = board.parse().unwrap();
        for a in &algorithms {
            for kind in [Wanted::Either, Wanted::Closed, Wanted::Open] {
                let make = |seed| {
                    let b = Tour::builder(board).algorithm(*a).seed(seed);
                    match kind {
                        Wanted::Closed => b.closed(),
                        Wanted::Open => b.open(),
                        Wanted::Either => b,
                    }
                    .build()
                    .ok()
                };
                let tours: Vec<Option<Tour>> = (0..4).map(make).collect();
                let same = tours.windows(2).all(|w| w[0] == w[1]);
                if !a.uses_seed() {
                    assert!(same, "{} on {board} {kind:?}", a.name());
                }
            }
        }
    }
    // A method that uses the seed shows it on 8x8 or 12x12.
    for a in algorithms.iter().filter(|a| a.uses_seed()) {
        let varies = |board: &str| {
            let board: Board = board.parse().unwrap();
            let tours: Vec<Tour> = (0..4)
                .map(|s| Tour::builder(board).algorithm(*a).seed(s).build().unwrap())
                .collect();
            tours.windows(2).any(|w| w[0] != w[1])
        };
        assert!(varies("8x8") || varies("12x12"), "{}", a.name());
    }
}

/// The options of Warnsdorff's rule and of backtracking take the kind as a
/// [`Wanted`]: closed gives a closed tour, either the tour the method found,
/// open an open one, where the method's tour closed opened by rotations
/// from the same start.
#[test]
fn the_low_level_options_give_the_kind_wanted() {
    // The course report's walk from square 1 of 8x8 closes.
    let walk = |kind| {
        let spec = TourSpec {
            kind,
            start: Some(1),
            ..TourSpec::new(Board::new(8, 8).unwrap())
        };
        let rule = Warnsdorff::default().tie(Tie::First);
        rule.generate(&spec, &mut knights::rng::seeded(0)).unwrap()
    };
    assert!(walk(Wanted::Closed).is_closed());
    assert!(walk(Wanted::Either).is_closed());
    let open = walk(Wanted::Open);
    assert_eq!((check_tour(&open), open.start()), (Ok(Kind::Open), 1));
    // The hybrid's first tour from some start of 6x6 closes.
    let board = Board::new(6, 6).unwrap();
    let search = |kind, start| {
        let spec = TourSpec {
            kind,
            start: Some(start),
            ..TourSpec::new(board)
        };
        Hybrid::default().search(&spec, &mut |_| ()).result.unwrap()
    };
    let start = (0..36)
        .find(|&s| search(Wanted::Either, s).is_closed())
        .expect("a start whose first tour closes");
    assert!(search(Wanted::Closed, start).is_closed());
    let open = search(Wanted::Open, start);
    assert_eq!((check_tour(&open), open.start()), (Ok(Kind::Open), start));
}
