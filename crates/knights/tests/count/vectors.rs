//! Every count of `tests/data/counts.toml`: the `fast` ones always, the
//! `slow` ones and the `long` ones (the 8x8 board's closed tours and their
//! classes, minutes each by meeting in the middle) as ignored tests run in
//! release mode (`cargo test --release -- --ignored counts_slow`, `counts_long`).

use knights::count::Counter;
use knights::Board;
use knights::Kind;
use toml::Value;

fn table() -> Value {
    let text = include_str!("../../tests/data/counts.toml");
    text.parse::<Value>().expect("counts.toml parses")
}

/// Runs every entry of the given tier; returns how many ran.
fn run_tier(tier: &str) -> usize {
    let table = table();
    let mut ran = 0;
    for (section, entries) in table.as_table().unwrap() {
        for e in entries.as_array().unwrap() {
            let dims = e["board"].as_array().unwrap();
            let (r, c) = (dims[0].as_integer().unwrap(), dims[1].as_integer().unwrap());
            let board = Board::new(r as u64, c as u64).unwrap();
            let entry_tier = e.get("tier").and_then(Value::as_str).unwrap_or("long");
            if entry_tier != tier {
                if tier == "fast" {
                    eprintln!("skipping {section} {board}: tier {entry_tier}");
                }
                continue;
            }
            let want = |key: &str| e[key].as_integer().unwrap() as u128;
            let counter = |kind| Counter::new(board).kind(kind);
            match section.as_str() {
                "closed" => assert_eq!(
                    counter(Kind::Closed).tours().unwrap().count,
                    want("count"),
                    "closed {board}"
                ),
                "open" => assert_eq!(
                    counter(Kind::Open).tours().unwrap().count,
                    want("count"),
                    "open {board}"
                ),
                "symmetric_180" => {
                    let got = counter(Kind::Closed).symmetric().unwrap().count;
                    assert_eq!(got, want("tours"), "symmetric {board}");
                    if let Some(classes) = e.get("classes") {
                        // On 8x8 no tour has a quarter-turn symmetry (McKay 1997),
                        // so every class of half-turn symmetric tours holds 4.
                        let classes = classes.as_integer().unwrap() as u128;
                        assert_eq!(got, 4 * classes, "symmetric classes {board}");
                    }
                }
                "classes" => assert_eq!(
                    counter(Kind::Closed).classes().unwrap().classes,
                    want("count"),
                    "classes {board}"
                ),
                other => panic!("unknown section {other} in counts.toml"),
            }
            ran += 1;
        }
    }
    ran
}

#[test]
fn counts_fast() {
    assert!(run_tier("fast") >= 10);
}

#[test]
#[ignore = "minutes in release mode: cargo test --release -- --ignored counts_slow"]
fn counts_slow() {
    assert!(run_tier("slow") >= 5);
}

#[test]
#[ignore = "the 8x8 counts, about ten minutes in release mode: cargo test --release -p knights -- --ignored counts_long"]
fn counts_long() {
    assert!(run_tier("long") >= 2);
}
