//! The counts of tori, cylinders, zebras and giraffes in
//! `tests/data/records.toml` (`[[shapes]]`, the lists of docs/records.md),
//! each term counted again by rows and in the list's check order
//! (staggered where the rows wrap, since any order within a ring passes
//! through the states by rows; else from the outside in).
//!
//! `shape_lists_fast` recounts each list's first `fast` terms (a second in
//! all in the test profile); `shape_lists_slow` every term (hours in
//! release mode: `cargo test --release -p knights -- --ignored
//! shape_lists_slow`).

use knights::count::{Count, Counter, SquareOrder};
use knights::shape::{Leaper, Shape, Wrap};
use knights::{Board, Kind};
use toml::Value;

/// One list: its name, the shape of its n-th term, the kind, the first n,
/// the check order, the number of fast terms and the counts.
struct List {
    name: String,
    shape: Box<dyn Fn(u64) -> Shape>,
    kind: Kind,
    first: u64,
    check: SquareOrder,
    fast: usize,
    counts: Vec<Count>,
}

fn lists() -> Vec<List> {
    let records: Value = include_str!("../data/records.toml")
        .parse()
        .expect("records.toml parses");
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let number = |v: &Value, key: &str| v[key].as_integer().expect("a number") as u64;
    records["shapes"]
        .as_array()
        .expect("a list of shapes")
        .iter()
        .map(|v| {
            let name = text(v, "name").expect("a name");
            let rows: u64 = text(v, "board")
                .expect("a board")
                .strip_suffix("xN")
                .expect("a board KxN")
                .parse()
                .expect("K rows");
            let wrap: Wrap = text(v, "wrap").map_or(Wrap::None, |w| w.parse().expect("a wrap"));
            let leaper = text(v, "leaper").map_or(Leaper::KNIGHT, |l| l.parse().expect("a leaper"));
            let shape = move |n: u64| {
                Shape::new(Board::new(rows, n).expect("a board"))
                    .with_wrap(wrap)
                    .with_leaper(leaper)
            };
            List {
                shape: Box::new(shape),
                kind: match text(v, "kind").as_deref() {
                    Some("open") => Kind::Open,
                    _ => Kind::Closed,
                },
                first: number(v, "first"),
                check: match text(v, "check").as_deref() {
                    Some("staggered") => SquareOrder::Staggered,
                    Some("outside-in") => SquareOrder::OutsideIn,
                    other => panic!("{name}: no check order {other:?}"),
                },
                fast: number(v, "fast") as usize,
                counts: v["counts"]
                    .as_array()
                    .expect("counts")
                    .iter()
                    .map(|c| {
                        c.as_str()
                            .expect("a count")
                            .parse()
                            .expect("a whole number")
                    })
                    .collect(),
                name,
            }
        })
        .collect()
}

/// Counts the first `take(list)` terms of every list by rows and in its
/// check order, each against the list.
fn recount(take: impl Fn(&List) -> usize) {
    let lists = lists();
    assert_eq!(lists.len(), 15);
    for list in &lists {
        for (i, want) in list.counts.iter().take(take(list)).enumerate() {
            let shape = (list.shape)(list.first + i as u64);
            for order in [SquareOrder::Rows, list.check] {
                let got = Counter::on_shape(&shape)
                    .kind(list.kind)
                    .order(order)
                    .tours()
                    .unwrap_or_else(|e| panic!("{}, {shape}: {e}", list.name));
                assert_eq!(got.count, *want, "{}, {shape}, {order:?}", list.name);
            }
        }
    }
}

#[test]
fn shape_lists_fast() {
    recount(|list| list.fast);
}

#[test]
#[ignore = "hours in release mode: cargo test --release -p knights -- --ignored shape_lists_slow"]
fn shape_lists_slow() {
    recount(|list| list.counts.len());
}
