//! Every prefix of cells in one pass ([`Counter::all_cells`]): Knuth's
//! tables of closed tours in the first 2n cells of 3- and 5- to 8-row
//! boards and of open tours in the first n cells of 3- to 8-row boards
//! (`tests/data/published_counts.toml`, `first_cells_closed` and
//! `first_cells_open`; the longer sweeps are ignored tests for release
//! mode), and, for
//! open and closed tours, every prefix against a count of that shape as a
//! board with holes and the whole lines against [`Counter::all_lengths`].

use super::published::table;
use knights::count::{Count, Counter, Kind, SquareOrder};
use knights::{Board, Shape};

fn cells(board: &str, kind: Kind) -> Vec<(usize, Count)> {
    let board: Board = board.parse().unwrap();
    Counter::new(board)
        .kind(kind)
        .all_cells()
        .unwrap_or_else(|e| panic!("{board}: {e}"))
        .counts
}

/// Checks the sweep of `board` against the published family `key` of
/// `section` for every cell the board holds; returns how many terms it
/// checked. Closed families are indexed by pairs of cells (2n cells).
fn check_family(section: &str, key: &str, board: &str, kind: Kind) -> usize {
    check_counts(section, key, board, kind, &cells(board, kind))
}

/// [`check_family`] over the sweep `counts` of `board`.
fn check_counts(
    section: &str,
    key: &str,
    board: &str,
    kind: Kind,
    counts: &[(usize, Count)],
) -> usize {
    let table = table();
    let entry = &table[section][key];
    let offset = entry["offset"].as_integer().unwrap() as usize;
    let step = if kind == Kind::Closed { 2 } else { 1 };
    let mut checked = 0;
    for (i, want) in entry["counts"].as_array().unwrap().iter().enumerate() {
        let c = step * (offset + i);
        if c > counts.len() {
            break;
        }
        let want: Count = want.as_str().unwrap().parse().unwrap();
        assert_eq!(
            counts[c - 1],
            (c, want),
            "{key} on {board}: the first {c} cells"
        );
        checked += 1;
    }
    if kind == Kind::Closed {
        // Before the offset no even prefix has a closed tour, nor any odd one.
        for &(c, n) in counts {
            if c < 2 * offset || c % 2 == 1 {
                assert_eq!(n, Count::ZERO, "{key} on {board}: the first {c} cells");
            }
        }
    }
    checked
}

#[test]
fn all_cells_reproduces_knuths_closed_tables() {
    // The longer lines (and `knights count 7x8 --all-cells`) are in
    // `closed_cells_six_seven_slow` and `closed_cells_eight_slow`.
    for (key, board, terms) in [
        ("k3", "3x30", 35),
        ("k5", "5x16", 31),
        ("k6", "6x9", 17),
        ("k7", "7x6", 11),
    ] {
        let checked = check_family("first_cells_closed", key, board, Kind::Closed);
        assert_eq!(checked, terms, "{key} on {board}");
    }
}

#[test]
fn all_cells_reproduces_knuths_open_tables() {
    // The longer lines are in `open_cells_slow`.
    for (key, board, terms) in [
        ("k3", "3x18", 53),
        ("k4", "4x14", 55),
        ("k5", "5x10", 49),
        ("k6", "6x5", 30),
        ("k7", "7x4", 28),
        ("k8", "8x3", 24),
    ] {
        let checked = check_family("first_cells_open", key, board, Kind::Open);
        assert_eq!(checked, terms, "{key} on {board}");
    }
}

/// The rest of Knuth's open data lines for 6, 7 and 8 rows: `knights count
/// 6x8 --all-cells --open`, `7x7` and `8x6` (A389756, A389757, A389758;
/// 8x6 needs `--work-dir` and hours, its run is in BENCHMARKS.md).
#[test]
#[ignore = "hours in release mode: cargo test --release -p knights -- --ignored open_cells_slow"]
fn open_cells_slow() {
    for (key, board, terms) in [("k6", "6x8", 48), ("k7", "7x7", 48), ("k8", "8x6", 46)] {
        let checked = check_family("first_cells_open", key, board, Kind::Open);
        assert_eq!(checked, terms, "{key} on {board}");
    }
}

/// The first `c` cells of a `k`-row board taken column by column: `k x
/// ceil(c / k)` with the last column's last cells as holes.
fn prefix_shape(k: u64, c: u64) -> Shape {
    let cols = c.div_ceil(k);
    let board = Board::new(k, cols).unwrap();
    // The last column's first `filled` cells are the board's.
    let filled = c - (cols - 1) * k;
    let holes: Vec<_> = (filled..k)
        .map(|r| board.square(r as u32, (cols - 1) as u32))
        .collect();
    Shape::new(board).with_holes(&holes).unwrap()
}

#[test]
fn every_prefix_equals_its_shape_and_the_lines_equal_all_lengths() {
    for (k, n) in [(3, 10), (4, 5), (5, 4), (6, 4), (7, 4)] {
        for kind in [Kind::Closed, Kind::Open] {
            let text = format!("{k}x{n}");
            let counts = cells(&text, kind);
            assert_eq!(counts.len() as u64, k * n);
            for &(c, count) in &counts {
                let shape = prefix_shape(k, c as u64);
                let alone = if c == 1 {
                    Count::from(u64::from(kind == Kind::Open))
                } else {
                    Counter::on_shape(&shape).kind(kind).tours().unwrap().count
                };
                assert_eq!(count, alone, "{text} {kind:?}: the first {c} cells");
            }
            let lengths = Counter::new(text.parse().unwrap())
                .kind(kind)
                .all_lengths()
                .unwrap()
                .counts;
            for (l, (_, count)) in lengths.iter().enumerate() {
                let c = (l as u64 + 1) * k;
                assert_eq!(
                    counts[c as usize - 1].1,
                    *count,
                    "{text} {kind:?}: {c} cells"
                );
            }
            // Tours exist (none closed on 4 rows): the test compares numbers.
            let found = counts.iter().filter(|c| c.1 != Count::ZERO).count();
            assert!(found >= 1 || k == 4, "{text} {kind:?}: prefixes with tours");
        }
    }
}

/// The rest of Knuth's closed data lines for 6 and 7 rows (6 x 13 and
/// 7 x 11; `knights count 7x8 --all-cells` is part of the second): one
/// pass over the cells of each.
#[test]
#[ignore = "minutes in release mode: cargo test --release -p knights -- --ignored closed_cells_six_seven_slow"]
fn closed_cells_six_seven_slow() {
    assert_eq!(
        check_family("first_cells_closed", "k6", "6x13", Kind::Closed),
        27
    );
    assert_eq!(
        check_family("first_cells_closed", "k7", "7x11", Kind::Closed),
        26
    );
}

/// The 8-row closed family (A383664) to 8 x 8, whose sweep holds billions
/// of states: one pass over its cells; the whole columns of 8 x 6 to 8 x 8
/// are also in `closed_strips` (A175881, A193055, Loebbing and Wegener,
/// McKay).
#[test]
#[ignore = "hours in release mode: cargo test --release -p knights -- --ignored closed_cells_eight_slow"]
fn closed_cells_eight_slow() {
    let counts = cells("8x8", Kind::Closed);
    let checked = check_counts("first_cells_closed", "k8", "8x8", Kind::Closed, &counts);
    assert_eq!(checked, 20);
    let table = table();
    let strips = &table["closed_strips"]["counts"];
    for (board, c) in [("8x6", 48), ("8x7", 56), ("8x8", 64)] {
        let want: Count = strips[board].as_str().unwrap().parse().unwrap();
        assert_eq!(counts[c - 1], (c, want), "{board}");
    }
}

/// How a record file's terms at whole columns were counted a second time.
#[derive(Clone, Copy)]
enum WholeColumns {
    /// By one sweep over lengths taken from the outside in, through other
    /// states than the cells sweep's.
    OutsideInLengths,
    /// Each board alone, its rows taken from the outside in (no sweep, no
    /// prefixes, pruning on).
    Alone,
}

/// The terms past Knuth's b-files in `docs/records/` (one file per
/// sequence, `n a(n)` lines): the sweep that made each file still gives
/// every one of its terms, and those at whole columns are also given by
/// the file's second run for them (`second`). For closed tours the file's
/// n counts pairs of cells.
fn check_record_file(text: &str, board: &str, kind: Kind, second: WholeColumns) -> usize {
    let counts = cells(board, kind);
    let parsed: Board = board.parse().unwrap();
    // One sweep gives every whole column at once; alone, each is counted
    // where it is met.
    let lengths = match second {
        WholeColumns::OutsideInLengths => Some(
            Counter::new(parsed)
                .kind(kind)
                .order(SquareOrder::OutsideIn)
                .all_lengths()
                .unwrap_or_else(|e| panic!("{board}: {e}"))
                .counts,
        ),
        WholeColumns::Alone => None,
    };
    let column = parsed.rows() as usize;
    let step = if kind == Kind::Closed { 2 } else { 1 };
    let (mut checked, mut whole) = (0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (n, want) = line.split_once(' ').unwrap();
        let c = step * n.parse::<usize>().unwrap();
        let want: Count = want.parse().unwrap();
        assert_eq!(counts[c - 1], (c, want), "{board}: the first {c} cells");
        if c % column == 0 {
            if let Some(lengths) = &lengths {
                let (b, by_length) = &lengths[c / column - 1];
                assert_eq!(b.squares(), c);
                assert_eq!(*by_length, want, "{b} from the outside in");
            } else {
                let b = Board::new(column as u64, (c / column) as u64).unwrap();
                let alone = Counter::new(b)
                    .kind(kind)
                    .order(SquareOrder::OutsideIn)
                    .tours()
                    .unwrap()
                    .count;
                assert_eq!(alone, want, "{b} alone");
            }
            whole += 1;
        }
        checked += 1;
    }
    assert!(whole > 0, "{board}: no term at whole columns");
    checked
}

#[test]
fn terms_past_knuths_tables_are_reproduced() {
    for (text, board, kind, terms) in [
        (
            include_str!("../../../../docs/records/A383660.txt"),
            "3x160",
            Kind::Closed,
            90,
        ),
        (
            include_str!("../../../../docs/records/A389759.txt"),
            "3x160",
            Kind::Open,
            183,
        ),
        (
            include_str!("../../../../docs/records/A389754.txt"),
            "4x50",
            Kind::Open,
            72,
        ),
        (
            include_str!("../../../../docs/records/A383661.txt"),
            "5x70",
            Kind::Closed,
            25,
        ),
    ] {
        let checked = check_record_file(text, board, kind, WholeColumns::OutsideInLengths);
        assert_eq!(checked, terms, "{board}");
    }
}

/// [`terms_past_knuths_tables_are_reproduced`] for the longer sweeps.
#[test]
#[ignore = "minutes in release mode: cargo test --release -p knights -- --ignored terms_past_knuths_tables_slow"]
fn terms_past_knuths_tables_slow() {
    let lengths = WholeColumns::OutsideInLengths;
    let a389755 = include_str!("../../../../docs/records/A389755.txt");
    assert_eq!(check_record_file(a389755, "5x40", Kind::Open, lengths), 40);
    let a383662 = include_str!("../../../../docs/records/A383662.txt");
    assert_eq!(
        check_record_file(a383662, "6x60", Kind::Closed, lengths),
        30
    );
}

/// The 6-row open family past Knuth's b-file (A389756, n = 193..204): its
/// sweep holds about 29 million states a square for 204 squares, and its
/// terms at whole columns (6 x 33, 6 x 34) were counted again alone, from
/// the outside in.
#[test]
#[ignore = "about two hours in release mode: cargo test --release -p knights -- --ignored six_row_open_past_knuth_slow"]
fn six_row_open_past_knuth_slow() {
    let a389756 = include_str!("../../../../docs/records/A389756.txt");
    let checked = check_record_file(a389756, "6x34", Kind::Open, WholeColumns::Alone);
    assert_eq!(checked, 12);
}
