//! Every prefix of cells in one pass ([`Counter::all_cells`]): Knuth's
//! tables of closed tours in the first 2n cells of 3-, 5- and 7-row boards
//! and of open tours in the first n cells of 3- and 5-row boards
//! (`tests/data/published_counts.toml`, `first_cells_closed` and
//! `first_cells_open`), and, for
//! open and closed tours, every prefix against a count of that shape as a
//! board with holes and the whole lines against [`Counter::all_lengths`].

use super::published::table;
use knights::count::{Count, Counter, Kind};
use knights::{Board, Shape};

fn cells(board: &str, kind: Kind) -> Vec<(usize, Count)> {
    let board: Board = board.parse().unwrap();
    Counter::new(board)
        .kind(kind)
        .all_cells()
        .unwrap_or_else(|e| panic!("{board}: {e}"))
        .counts
}

#[test]
fn all_cells_reproduces_knuths_closed_tables() {
    let table = table();
    let section = &table["first_cells_closed"];
    for (key, board) in [("k3", "3x30"), ("k5", "5x16"), ("k7", "7x6")] {
        let entry = &section[key];
        let offset = entry["offset"].as_integer().unwrap() as usize;
        let counts = cells(board, Kind::Closed);
        let published = entry["counts"].as_array().unwrap();
        for (i, want) in published.iter().enumerate() {
            let c = 2 * (offset + i);
            let want: Count = want.as_str().unwrap().parse().unwrap();
            assert_eq!(counts[c - 1], (c, want), "{key}: the first {c} cells");
        }
        // Before the offset no even prefix has a closed tour, nor any odd one.
        for &(c, n) in &counts {
            if c < 2 * offset || c % 2 == 1 {
                assert_eq!(n, Count::ZERO, "{key}: the first {c} cells");
            }
        }
    }
}

#[test]
fn all_cells_reproduces_knuths_open_tables() {
    let table = table();
    let section = &table["first_cells_open"];
    for (key, board) in [("k3", "3x18"), ("k5", "5x10")] {
        let entry = &section[key];
        let offset = entry["offset"].as_integer().unwrap() as usize;
        let counts = cells(board, Kind::Open);
        let published = entry["counts"].as_array().unwrap();
        assert!(published.len() > 40, "{key}");
        for (i, want) in published.iter().enumerate() {
            let c = offset + i;
            let want: Count = want.as_str().unwrap().parse().unwrap();
            assert_eq!(counts[c - 1], (c, want), "{key}: the first {c} cells");
        }
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
    for (k, n) in [(3, 10), (4, 5), (5, 4)] {
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

/// The 8-row family (Knuth's A383664, whose data is not in this
/// repository's test data) at its whole columns: one pass over the cells
/// of 8 x 7 gives 8 x 6 and 8 x 7 (`closed_strips`, from A175881 and
/// A193055), and every prefix before a first closed tour is 0.
#[test]
#[ignore = "minutes in release mode: cargo test --release -p knights -- --ignored eight_row_cells_slow"]
fn eight_row_cells_slow() {
    let table = table();
    let strips = &table["closed_strips"]["counts"];
    let counts = cells("8x7", Kind::Closed);
    assert_eq!(counts.len(), 56);
    for (board, c) in [("8x6", 48), ("8x7", 56)] {
        let want: Count = strips[board].as_str().unwrap().parse().unwrap();
        assert_eq!(counts[c - 1], (c, want), "{board}");
    }
    assert!(counts.iter().all(|&(c, n)| c % 2 == 0 || n == Count::ZERO));
}
