use super::*;
use crate::count::Count;

fn count(text: &str, kind: Kind) -> Count {
    Counter::new(text.parse().unwrap())
        .kind(kind)
        .tours()
        .unwrap()
        .count
}

#[test]
fn small_known_counts() {
    assert_eq!(count("5x6", Kind::Closed), 8);
    assert_eq!(count("6x5", Kind::Closed), 8);
    assert_eq!(count("3x4", Kind::Open), 8);
    assert_eq!(count("4x3", Kind::Open), 8);
    assert_eq!(count("4x4", Kind::Closed), 0);
    assert_eq!(count("1x1", Kind::Open), 1);
    assert_eq!(count("1x1", Kind::Closed), 0);
    assert_eq!(count("2x3", Kind::Open), 0);
}

#[test]
fn counts_on_shapes_keep_to_the_memory_bound() {
    let torus = Shape::new("5x5".parse().unwrap()).with_wrap(crate::shape::Wrap::Both);
    let err = Counter::on_shape(&torus)
        .kind(Kind::Open)
        .max_memory(8 << 20)
        .tours()
        .unwrap_err();
    // Too small a bound even for the disk program: an error that names it.
    assert!(err.to_string().contains("8.0 MiB"), "{err}");
    // Kept in memory, the same count stops as too large for the board.
    let err = Counter::on_shape(&torus)
        .kind(Kind::Open)
        .max_memory(8 << 20)
        .memory_only(true)
        .tours()
        .unwrap_err();
    assert!(matches!(err, crate::Error::TooLarge { .. }), "{err}");
}

/// A shape's states go to disk past the memory bound, as a board's do:
/// 5 x 6 cylinders (533,630,020 closed tours) and a 4 x 4 torus (1,344)
/// under a bound that sends them there count as in memory.
#[test]
fn counts_on_shapes_go_to_disk_past_the_bound() {
    use crate::shape::Wrap;
    // Bounds below the states' memory (peaks of 723,142 and 6,151 states).
    for (board, wrap, bound) in [
        ("5x6", Wrap::Rows, 16 << 20),
        ("6x5", Wrap::Cols, 16 << 20),
        ("4x4", Wrap::Both, 1 << 19),
    ] {
        let shape = Shape::new(board.parse().unwrap()).with_wrap(wrap);
        let in_memory = Counter::on_shape(&shape).tours().unwrap();
        assert!(!in_memory.on_disk);
        let spilled = Counter::on_shape(&shape).max_memory(bound).tours().unwrap();
        assert!(spilled.on_disk, "{shape}");
        assert_eq!(spilled.count, in_memory.count, "{shape}");
        assert!(spilled.count != crate::count::Count::ZERO, "{shape}");
    }
}

/// 6x8 open met in the middle expands its lower part's states to several
/// times 160 MB in the join: under a bound of 160 MB the join takes its
/// chunks in pieces, to the same count, rather than outgrowing a
/// container's limit.
#[test]
fn a_join_keeps_to_the_memory_bound() {
    let r = Counter::new("6x8".parse().unwrap())
        .kind(Kind::Open)
        .max_memory(160 << 20)
        .tours()
        .unwrap();
    assert_eq!(r.method, Method::Meet);
    assert_eq!(r.count, 24_964_893_804u128);
}

/// 6x7 open under 20 MiB: the table would take more than a third of
/// what the held states leave, so it is built in parts by pattern
/// (four here), each joined with all the bottom states, to the same
/// count.
#[test]
fn a_table_past_the_bound_is_joined_in_parts() {
    let r = Counter::new("6x7".parse().unwrap())
        .kind(Kind::Open)
        .max_memory(20 << 20)
        .tours()
        .unwrap();
    assert_eq!(r.method, Method::Meet);
    assert_eq!(r.count, 389_969_466u128);
}

/// A count past its memory bound goes to a temporary directory, unless
/// it is kept in memory: then it stops with `TooLarge` (the server's
/// counts must not touch the file system).
#[test]
fn a_memory_only_count_stops_at_its_bound_instead_of_spilling() {
    let spilling = Counter::new("6x6".parse().unwrap())
        .method(Method::Forward)
        .max_memory(1 << 20);
    let spilled = spilling.tours().unwrap();
    assert_eq!(spilled.count, 9862u128);
    assert!(spilled.on_disk);
    let err = spilling.memory_only(true).tours().unwrap_err();
    assert!(matches!(err, crate::Error::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("6x6"), "{err}");
    assert!(!err.to_string().contains("--"), "{err}");
}

#[test]
fn memory_bound_stops_cleanly() {
    let err = Counter::new("6x6".parse().unwrap())
        .max_memory(1000)
        .tours()
        .unwrap_err();
    assert!(matches!(err, crate::Error::OverBudget(_)), "{err}");
    assert_eq!(err.category(), crate::Category::OverLimit);
    assert_eq!(
        err.hint(),
        Some(crate::Hint::Raise(crate::Budget::Memory)),
        "{err}"
    );
}

#[test]
fn a_stop_during_the_join_is_heard() {
    // The flag goes up once every square of the runs is done, so only
    // the join of the parts' final states can notice it: closed, open
    // across 6x6's middle block, open at the row cut with the middle
    // added to the top run's states (4x8), and with two runs side by
    // side (4x9).
    for (board, kind) in [
        ("5x6", Kind::Closed),
        ("6x6", Kind::Open),
        ("4x8", Kind::Open),
        ("4x9", Kind::Open),
    ] {
        let stop = crate::StopFlag::new();
        let raise = stop.clone();
        let squares = std::sync::atomic::AtomicU64::new(0);
        let control = Control::new().stop(stop).progress(move |p| {
            if p.frontier.is_some_and(|f| f.within.is_some()) {
                return;
            }
            if Some(squares.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1) == p.total {
                raise.stop();
            }
        });
        let err = Counter::new(board.parse().unwrap())
            .kind(kind)
            .method(Method::Meet)
            .control(&control)
            .tours()
            .unwrap_err();
        assert!(
            matches!(err, crate::Error::Interrupted(_)),
            "{board}: {err}"
        );
        assert!(err.to_string().contains("joined"), "{board}: {err}");
    }
}

#[test]
fn huge_counts_are_refused_not_wrapped() {
    // 3 x n open tours grow exponentially in n; 3 x 3000 passes 2^4096.
    let open = |board| Counter::new(board).kind(Kind::Open).tours();
    let err = open(Board::new(3, 3000).unwrap()).unwrap_err();
    assert!(err.to_string().contains("2^4096"), "{err}");
    // No tour at all: 0 by the theorem, at once and without memory.
    let report = open(Board::new(1, 4_000_000_000).unwrap()).unwrap();
    assert_eq!(report.count, 0);
}

#[test]
fn the_join_reports_its_progress() {
    let last = std::sync::Arc::new(std::sync::Mutex::new(None));
    let saw = std::sync::Arc::clone(&last);
    let control = Control::new().progress(move |p| {
        if let Some(j) = p.frontier.and_then(|f| f.joining) {
            assert!(j.done <= j.total && j.part <= j.parts);
            *saw.lock().unwrap() = Some(j);
        }
    });
    // 8 MiB splits the join of 6 x 7 into parts (four, as it stands).
    Counter::new("6x7".parse().unwrap())
        .kind(Kind::Open)
        .method(Method::Meet)
        .max_memory(8 << 20)
        .control(&control)
        .tours()
        .unwrap();
    let j = last.lock().unwrap().expect("the join reported");
    assert!(j.parts > 1, "{j:?}");
    assert_eq!((j.part, j.done), (j.parts, j.total));
    assert!(j.total > 0);
}

#[test]
fn progress_sees_every_square() {
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let saw = std::sync::Arc::clone(&seen);
    let control = Control::new().progress(move |p| {
        let f = p.frontier.expect("a count's figures");
        assert!(f.states <= f.peak);
        saw.store(p.done, std::sync::atomic::Ordering::Relaxed);
    });
    let forward = Counter::new("5x6".parse().unwrap())
        .method(Method::Forward)
        .control(&control);
    let report = forward.tours().unwrap();
    assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 30);
    assert_eq!(report.states_per_step.len(), 30);
    assert_eq!(report.frontier_slots, 11);
    // Meeting in the middle: the top part's 20 squares, then the
    // bottom part's 20, as one sequence.
    let report = forward.method(Method::Meet).tours().unwrap();
    assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 40);
    assert_eq!(report.states_per_step.len(), 40);
}

/// A plain shape counts as its board, by the board's methods; symmetric
/// tours and classes refuse open tours.
#[test]
fn a_plain_shape_counts_as_its_board() {
    let shape = Shape::new("5x6".parse().unwrap());
    let on_shape = Counter::on_shape(&shape).method(Method::Forward).tours();
    let on_board = Counter::new(shape.board()).method(Method::Forward).tours();
    let (a, b) = (on_shape.unwrap(), on_board.unwrap());
    assert_eq!((a.count, a.method), (b.count, b.method));
    assert_eq!(a.states_per_step, b.states_per_step);
    let open = Counter::new("6x6".parse().unwrap()).kind(Kind::Open);
    for err in [open.symmetric().unwrap_err(), open.classes().unwrap_err()] {
        assert_eq!(err.hint(), Some(crate::Hint::AskClosed), "{err}");
    }
}

/// Every strategy the planner picks gives the one-process count on every
/// worker when the count is spread over 2 or 3 workers (threads here): the
/// forward program, both meets (each worker joining its own share of the
/// bottom states), the cut across a separator, the sweeps and the
/// symmetric counts.
#[test]
fn counts_spread_over_workers_equal_one_process() {
    use crate::count::exchange::threads::transport;
    type Job = fn(Counter<'_>) -> Result<Count>;
    let tours: Job = |c| Ok(c.tours()?.count);
    let sweep: Job = |c| {
        let counts = c.all_lengths()?.counts;
        Ok(counts
            .iter()
            .fold(Count::ZERO, |a, l| a.checked_add(l.1).unwrap()))
    };
    let symmetric: Job = |c| Ok(c.symmetric()?.count);
    let cases: Vec<(&str, Kind, Method, Job)> = vec![
        ("8x6", Kind::Closed, Method::Auto, tours),
        ("6x7", Kind::Open, Method::Auto, tours),
        ("7x6", Kind::Open, Method::Auto, tours),
        ("6x6", Kind::Open, Method::Auto, tours),
        ("5x8", Kind::Open, Method::Auto, tours),
        ("5x10", Kind::Closed, Method::Forward, tours),
        ("5x12", Kind::Closed, Method::Auto, sweep),
        ("6x6", Kind::Closed, Method::Auto, symmetric),
    ];
    for (board, kind, method, job) in cases {
        let counter = |b: &str| Counter::new(b.parse().unwrap()).kind(kind).method(method);
        let one = job(counter(board)).unwrap();
        assert!(one > Count::ZERO, "{board}");
        for n in [2, 3] {
            let ends = transport(n);
            let got: Vec<Count> = std::thread::scope(|s| {
                let handles: Vec<_> = ends
                    .iter()
                    .map(|ex| s.spawn(move || job(counter(board).workers(ex)).unwrap()))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            assert_eq!(got, vec![one; n], "{board} {kind:?} on {n} workers");
        }
    }
}
