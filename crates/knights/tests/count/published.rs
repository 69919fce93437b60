//! The counts of `tests/data/published_counts.toml`: the k x n tables of
//! open tours (OEIS A390833) and closed tours (A392000) for k, n in 3..12
//! with k * n <= 40, the closed tours of 6 x n (A175881, past 2^128 from
//! 6 x 26 on), the directed open tours of n x n (A165134), and closed
//! tours of strips (A383660, A383661, A193055), the closed tours of 7 x 2n
//! (A193054) and 8 x n (A193055), the open tours of 7 x n (A306283)
//! and 8 x n (A389760), the strips and the 6 x n and 7 x 2n lists
//! also by sweeps over lengths ([`Counter::all_lengths`]).
//!
//! `published_counts_fast` runs every entry the frontier program counts in
//! well under a second (seconds in all in the test profile);
//! `published_counts_slow` runs the rest that it can count in about two minutes
//! in release mode (`cargo test --release -p knights -- --ignored
//! published_counts_slow`). Between them they cover every entry of the two
//! k x n tables. The file is compiled in, so it cannot be missing.

use knights::count::{self, Count, Counter, Kind, Method, MiddleEdges};
use knights::Board;
use toml::Value;

pub(super) fn table() -> Value {
    include_str!("../data/published_counts.toml")
        .parse::<Value>()
        .expect("published_counts.toml parses")
}

fn count(board: Board, kind: Kind) -> u128 {
    Counter::new(board)
        .kind(kind)
        .tours()
        .unwrap_or_else(|e| panic!("{board}: {e}"))
        .count
        .to_u128()
        .expect("published counts fit u128")
}

/// A published count, written as a string where it may not fit an i64.
fn number(v: &Value) -> u128 {
    big(v).to_u128().expect("this count fits u128")
}

/// A published count of any size.
fn big(v: &Value) -> Count {
    match v {
        Value::Integer(n) => Count::from(u64::try_from(*n).expect("counts are not negative")),
        Value::String(s) => s.parse().expect("a count is a whole number"),
        other => panic!("not a count: {other}"),
    }
}

/// The counts of a sweep of `board` over its lengths, closed or open.
fn sweep(board: &str, kind: Kind) -> Vec<(Board, Count)> {
    Counter::new(board.parse().unwrap())
        .kind(kind)
        .all_lengths()
        .unwrap_or_else(|e| panic!("{board}: {e}"))
        .counts
}

/// The list `section` (its n-th count that of `rows x every*n`) from one
/// sweep of `rows x last`: every published entry up to `last`, the
/// lengths between them 0 or absent from the list.
fn check_list_sweep(section: &str, rows: usize, every: usize, last: usize) {
    let table = table();
    let want = table[section]["counts"].as_array().unwrap();
    let got = sweep(&format!("{rows}x{last}"), Kind::Closed);
    assert_eq!(got.len(), last);
    for (i, (board, n)) in got.iter().enumerate() {
        let len = i + 1;
        assert_eq!(board.to_string(), format!("{rows}x{len}"));
        if len % every == 0 {
            assert_eq!(
                *n,
                big(&want[len / every - 1]),
                "{section} by sweep, {board}"
            );
        }
    }
}

fn check_closed_6xn_sweep(last: usize) {
    check_list_sweep("closed_6xn", 6, 1, last);
}

/// The `closed_strips` entries of `width` rows, from one sweep of `width x last`.
fn check_closed_strips(width: u64, last: u64) -> usize {
    let table = table();
    let want = table["closed_strips"]["counts"].as_table().unwrap();
    let mut checked = 0;
    for (board, n) in sweep(&format!("{width}x{last}"), Kind::Closed) {
        if let Some(w) = want.get(&board.to_string()) {
            assert_eq!(n, big(w), "closed_strips {board}");
            checked += 1;
        }
    }
    checked
}

/// The open (`paths_table`) or closed (`cycles_table`) k x n table, checked
/// where `take` says; returns how many entries were checked.
fn check_table(section: &str, kind: Kind, take: impl Fn(Board) -> bool) -> usize {
    let table = table();
    let entries = table[section]["counts"].as_table().unwrap();
    assert_eq!(
        entries.len(),
        40,
        "{section}: the k x n boards with k, n in 3..12 and k * n <= 40"
    );
    let mut checked = 0;
    for (name, want) in entries {
        let board: Board = name.parse().unwrap();
        if take(board) {
            assert_eq!(count(board, kind), number(want), "{section} {board}");
            checked += 1;
        }
    }
    checked
}

/// The open counts that take seconds to minutes: both sides at least 5 and
/// more than 30 squares (5x7, 5x8, 6x6 and their transposes).
fn slow_open(board: Board) -> bool {
    board.rows().min(board.cols()) >= 5 && board.squares() > 30
}

/// Entries `first..=last` of a list indexed from n = 1, as (n, count).
fn list(section: &str, first: usize, last: usize) -> Vec<(u64, u128)> {
    let table = table();
    let counts = table[section]["counts"].as_array().unwrap();
    (first..=last)
        .map(|n| (n as u64, number(&counts[n - 1])))
        .collect()
}

fn check_closed_6xn(first: usize, last: usize) {
    for (n, want) in list("closed_6xn", first, last) {
        let board = Board::new(6, n).unwrap();
        assert_eq!(count(board, Kind::Closed), want, "closed_6xn {board}");
    }
}

fn check_open_nxn_directed(first: usize, last: usize) {
    for (n, want) in list("open_nxn_directed", first, last) {
        let board = Board::new(n, n).unwrap();
        let undirected = count(board, Kind::Open);
        // A path and its reverse are one undirected tour, except on 1x1.
        let directed = if n == 1 { undirected } else { 2 * undirected };
        assert_eq!(directed, want, "open_nxn_directed {board}");
    }
}

#[test]
fn published_counts_fast() {
    assert_eq!(check_table("cycles_table", Kind::Closed, |_| true), 40);
    assert_eq!(
        check_table("paths_table", Kind::Open, |b| !slow_open(b)),
        35
    );
    check_closed_6xn(1, 7);
    check_open_nxn_directed(1, 5);
    check_closed_6xn_sweep(7);
    assert_eq!(check_closed_strips(3, 16), 4);
    assert_eq!(check_closed_strips(5, 8), 1);
}

#[test]
#[ignore = "about two minutes in release mode: cargo test --release -p knights -- --ignored published_counts_slow"]
fn published_counts_slow() {
    assert_eq!(check_table("paths_table", Kind::Open, slow_open), 5);
    check_closed_6xn(8, 10);
    check_open_nxn_directed(6, 6);
}

/// All 40 published closed counts of 6 x n, 14 of them past 2^128, from one
/// sweep; and the 5 x 10 and 8 x n strips.
#[test]
#[ignore = "about two minutes in release mode: cargo test --release -p knights -- --ignored published_sweeps_slow"]
fn published_sweeps_slow() {
    check_closed_6xn_sweep(40);
    assert_eq!(check_closed_strips(5, 10), 2);
    assert_eq!(check_closed_strips(8, 6), 1);
}

/// All 11 published closed counts of 7 x 2n (OEIS A193054, to 7 x 22,
/// past 2^128 from 7 x 18) from one sweep, and 8 x 9 and 8 x 10 (A193055)
/// met in the middle.
#[test]
#[ignore = "an hour or more in release mode (8 x 10 passes 3 x 10^8 states): cargo test --release -p knights -- --ignored published_7_and_8_rows_slow"]
fn published_7_and_8_rows_slow() {
    check_list_sweep("closed_7x2n", 7, 2, 22);
    for (n, want) in list("closed_8xn", 9, 10) {
        let board = Board::new(8, n).unwrap();
        assert_eq!(count(board, Kind::Closed), want, "closed_8xn {board}");
    }
}

/// The open tours of 7 x 3 to 7 x 8 (OEIS A306283) met in the middle:
/// 7 x 8 is the largest whose join a test can wait for. 7 x 9 is a record
/// run, not a test: docs/records.md.
#[test]
#[ignore = "about five minutes in release mode: cargo test --release -p knights -- --ignored open_7xn_slow"]
fn open_7xn_slow() {
    for (n, want) in list("open_7xn", 3, 8) {
        let board = Board::new(7, n).unwrap();
        assert_eq!(count(board, Kind::Open), want, "open_7xn {board}");
    }
}

/// OEIS A165134's 8 x 8 term (Chernov 2014), the directed open tours, met
/// in the middle within a memory bound of 16 GB, its states in a temporary
/// work directory (about 11 GB of disk at the peak): docs/records.md,
/// "8 x 8 open".
#[test]
#[ignore = "about two and a half hours on two cores in release mode, 16 GB of memory: cargo test --release -p knights -- --ignored open_8x8_long"]
fn open_8x8_long() {
    let want = list("open_nxn_directed", 8, 8)[0].1;
    let work = std::env::temp_dir().join(format!("knights-open-8x8-{}", std::process::id()));
    let got = Counter::new(Board::new(8, 8).unwrap())
        .kind(Kind::Open)
        .max_memory(16 << 30)
        .work_dir(&work)
        .tours()
        .unwrap();
    let _ = std::fs::remove_dir_all(&work);
    assert_eq!(got.count.to_u128().map(|c| 2 * c), Some(want));
}

/// The open tours of 8 x 3 to 8 x 6 (OEIS A389760, Knuth 2025), each
/// counted with its 6 or fewer columns as the program's rows.
#[test]
fn open_8xn() {
    for (n, want) in list("open_8xn", 3, 6) {
        let board = Board::new(8, n).unwrap();
        assert_eq!(count(board, Kind::Open), want, "open_8xn {board}");
    }
}

/// The open tours of boards of even rows met in the middle with either
/// share of the middle's edges (the top part taking the outer ones or the
/// inner ones): odd widths, where two of them are added after the run, and
/// even ones, where the parts hold them all.
#[test]
fn open_tours_met_with_either_share_of_the_middle() {
    for (rows, cols) in [(8u32, 3u32), (10, 3), (12, 3), (8, 4), (10, 4), (8, 6)] {
        let want = match rows {
            8 => list("open_8xn", cols as usize, cols as usize)[0].1,
            _ => in_the_tables(rows, cols, Kind::Open).unwrap(),
        };
        for share in [MiddleEdges::Outer, MiddleEdges::Inner] {
            let board = Board::new(rows.into(), cols.into()).unwrap();
            let got = Counter::new(board)
                .kind(Kind::Open)
                .method(Method::Meet)
                .middle(share)
                .tours()
                .unwrap_or_else(|e| panic!("{board} {share:?}: {e}"));
            assert_eq!(got.count.to_u128(), Some(want), "{board} {share:?}");
        }
    }
}

/// The terms of OEIS A193054 past its data line (closed tours of 7 x 24
/// .. 7 x 50; Knuth 2025 published them to 7 x 42) in `records.toml`,
/// from one sweep of 7 x 50, and the data line's terms with them.
#[test]
#[ignore = "about an hour and a half in release mode: cargo test --release -p knights -- --ignored records_7x2n_long"]
fn records_7x2n_long() {
    let records: Value = include_str!("../data/records.toml")
        .parse()
        .expect("records.toml parses");
    let new = &records["closed_7x24_to_7x50"];
    let first = new["first"].as_integer().unwrap() as usize;
    let counts = new["counts"].as_array().unwrap();
    let got = sweep("7x50", Kind::Closed);
    for (i, want) in counts.iter().enumerate() {
        let len = first + 2 * i;
        assert_eq!(got[len - 1].0.to_string(), format!("7x{len}"));
        assert_eq!(got[len - 1].1, big(want), "7x{len}");
    }
    assert_eq!(first + 2 * counts.len(), 52);
    // The same sweep gives the published terms, and 0 at odd lengths.
    let published = table();
    let old = published["closed_7x2n"]["counts"].as_array().unwrap();
    for (i, want) in old.iter().enumerate() {
        assert_eq!(got[2 * i + 1].1, big(want), "7x{}", 2 * i + 2);
    }
    assert!(got.iter().step_by(2).all(|(_, n)| *n == Count::from(0u64)));
}

/// The closed 7 x 2n and 8 x n lists agree where they meet (7 x 8 and
/// 8 x 7 are one board), and with the strips' and 6 x n lists.
#[test]
fn the_published_lists_agree_where_they_meet() {
    let table = table();
    let at = |section: &str, n: usize| big(&table[section]["counts"].as_array().unwrap()[n - 1]);
    assert_eq!(at("closed_7x2n", 4), at("closed_8xn", 7));
    assert_eq!(at("closed_7x2n", 3), at("closed_6xn", 7));
    assert_eq!(at("closed_8xn", 6), at("closed_6xn", 8));
    let strips = table["closed_strips"]["counts"].as_table().unwrap();
    assert_eq!(big(&strips["8x8"]), at("closed_8xn", 8));
}

/// The tests' published count of `kind` tours on `rows x cols`, from the
/// k x n tables and the 6 x n and 8 x n lists, if they hold one.
fn in_the_tables(rows: u32, cols: u32, kind: Kind) -> Option<u128> {
    let table = table();
    let section = match kind {
        Kind::Closed => "cycles_table",
        Kind::Open => "paths_table",
    };
    if let Some(n) = table[section]["counts"].get(format!("{rows}x{cols}")) {
        return Some(number(n));
    }
    let list = match (kind, rows) {
        (Kind::Closed, 6) => "closed_6xn",
        (Kind::Closed, 8) => "closed_8xn",
        _ => return None,
    };
    let counts = table[list]["counts"].as_array()?;
    counts.get(cols as usize - 1).map(number)
}

/// The counts the library publishes ([`count::PUBLISHED`], which the web
/// page shows) are the tests' published counts.
#[test]
fn the_library_publishes_the_tests_counts() {
    for p in count::PUBLISHED {
        let want = in_the_tables(p.rows, p.cols, p.kind).unwrap_or_else(|| {
            panic!(
                "{}x{} {:?} is not in the tests' data",
                p.rows, p.cols, p.kind
            )
        });
        assert_eq!(
            u128::from(p.count),
            want,
            "{}x{} {:?}",
            p.rows,
            p.cols,
            p.kind
        );
        let board = Board::new(u64::from(p.cols), u64::from(p.rows)).unwrap();
        assert_eq!(count::published(board, p.kind), Some(p));
    }
    assert_eq!(
        count::published(Board::new(7, 7).unwrap(), Kind::Open),
        None
    );
}
