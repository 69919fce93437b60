//! Finds the base tours of the divide-and-conquer construction and prints
//! them as the Rust table kept in `src/algorithms/construct/base.rs`.
//!
//! Run with `cargo run --release -p knights --example find_bases`. The search
//! is seeded, so the output is the same on every run; the table in the
//! library was pasted from it, and a unit test checks every entry.

use knights::construct::search::{find_path, Goal, PathQuery};

fn moves(path: &[(u32, u32)], closed: bool) -> String {
    let mut out = String::new();
    let n = path.len();
    let count = if closed { n } else { n - 1 };
    for i in 0..count {
        let (a, b) = (path[i], path[(i + 1) % n]);
        let k = knights::board::move_for(
            i64::from(b.1) - i64::from(a.1),
            i64::from(b.0) - i64::from(a.0),
        )
        .expect("a knight's move");
        out.push(char::from(b'0' + k));
    }
    out
}

fn emit(kind: &str, rows: u32, cols: u32, goal: &Goal) {
    let path = find_path(rows, cols, (0, 0), goal, 2_000_000, 200, 2026)
        .unwrap_or_else(|| panic!("no {kind} base found on {rows}x{cols}"));
    let closed = *goal == Goal::Closed;
    println!(
        "    Base {{ kind: Kind::{kind}, rows: {rows}, cols: {cols}, cycles: &[(0, 0, \"{}\")] }},",
        moves(&path, closed)
    );
}

/// A 4-row block covered by two cycles: the outer squares of one colour
/// with the inner squares of the other, and the rest.
fn emit_pair(cols: u32) {
    let mut text = Vec::new();
    for (class, start) in [(1, (0, 0)), (0, (0, 1))] {
        let allowed = move |r: u32, c: u32| (u32::from(r == 0 || r == 3) + r + c) % 2 == class;
        let path = PathQuery {
            allowed: &allowed,
            attempts: 200,
            seed: 2026,
            ..PathQuery::new(4, cols, start, &Goal::Closed, 2_000_000)
        }
        .path()
        .unwrap_or_else(|| panic!("no cycle of class {class} on 4x{cols}"));
        text.push(format!(
            "({}, {}, \"{}\")",
            start.0,
            start.1,
            moves(&path, true)
        ));
    }
    println!(
        "    Base {{ kind: Kind::Pair, rows: 4, cols: {cols}, cycles: &[{}] }},",
        text.join(", ")
    );
}

fn main() {
    println!("// Printed by examples/find_bases.rs; checked by base::tests.\n\n/// Every base tour of the construction.\npub(crate) const BASES: &[Base] = &[");
    for rows in 5..=10u32 {
        for cols in 5..=10u32 {
            if rows * cols % 2 == 0 {
                emit("Closed", rows, cols, &Goal::Closed);
            }
        }
    }
    for cols in [10, 12, 14, 16, 18] {
        emit("Closed", 3, cols, &Goal::Closed);
    }
    // Next to the 11- and 13-row path blocks of odd boards of 11 or 13 rows.
    for rows in [11, 13] {
        for cols in [6, 8, 10] {
            emit("Closed", rows, cols, &Goal::Closed);
        }
    }
    for rows in [5u32, 7, 9] {
        for cols in [5u32, 7, 9] {
            emit("Path", rows, cols, &Goal::Open);
        }
    }
    for cols in [4, 7, 8, 9, 11, 13, 15] {
        emit("Path", 3, cols, &Goal::Open);
    }
    for cols in [5, 6, 7, 8, 9] {
        emit_pair(cols);
    }
    for cols in 5..=11 {
        emit("Path", 4, cols, &Goal::Open);
    }
    println!("];");
}
