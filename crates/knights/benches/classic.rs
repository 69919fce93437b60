//! Criterion benches of the classical searches: one 8x8 tour per
//! tie-break and of the hybrid, plain backtracking on 5x5 and 6x6, and open
//! and closed tours on 100x100.
//!
//! Run with `cargo bench -p knights --bench classic`. Inputs are seeded; the
//! seed advances every iteration so restarts and starts vary as in use.

#![allow(missing_docs)] // criterion's macros generate undocumented functions

use std::cell::Cell;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use knights::algorithms::backtrack::{self, Order};
use knights::algorithms::warnsdorff::{self, Tie};
use knights::{Board, Wanted};
use rand::Rng;

fn eight_by_eight(c: &mut Criterion) {
    let board = Board::new(8, 8).unwrap();
    let mut group = c.benchmark_group("classic-8x8");
    for closed in [false, true] {
        let kind = if closed { "closed" } else { "open" };
        for tie in Tie::ALL {
            let seed = Cell::new(0u64);
            group.bench_function(BenchmarkId::new(format!("warnsdorff-{tie}"), kind), |b| {
                b.iter(|| {
                    seed.set(seed.get() + 1);
                    let options = warnsdorff::WarnsdorffOptions {
                        kind: if closed {
                            Wanted::Closed
                        } else {
                            Wanted::Either
                        },
                        tie,
                        ..Default::default()
                    };
                    warnsdorff::tour(board, &options, &mut knights::rng::seeded(seed.get()))
                        .unwrap()
                })
            });
        }
        let seed = Cell::new(0u64);
        group.bench_function(BenchmarkId::new("hybrid", kind), |b| {
            b.iter(|| {
                seed.set(seed.get() + 1);
                let mut rng = knights::rng::seeded(seed.get());
                let options = backtrack::BacktrackOptions {
                    kind: if closed {
                        Wanted::Closed
                    } else {
                        Wanted::Either
                    },
                    order: Order::Warnsdorff,
                    start: Some(rng.random_range(0..64)),
                    max_nodes: u64::MAX,
                    ..Default::default()
                };
                backtrack::tour(board, &options).unwrap()
            })
        });
    }
    group.finish();
    // Plain backtracking needs up to millions of nodes per 8x8 tour
    // depending on the start: measure it where it is practical, from the
    // corner of 5x5 (the board of the textbook chapter, Practical Algorithms
    // and Data Structures n.d.) and 6x6.
    let mut group = c.benchmark_group("classic-backtrack");
    for n in [5u64, 6] {
        let board = Board::new(n, n).unwrap();
        group.bench_function(BenchmarkId::new("open-from-corner", board), |b| {
            b.iter(|| {
                let options = backtrack::BacktrackOptions {
                    start: Some(0),
                    max_nodes: u64::MAX,
                    ..Default::default()
                };
                backtrack::tour(board, &options).unwrap()
            })
        });
    }
    group.finish();
}

fn hundred(c: &mut Criterion) {
    let board = Board::new(100, 100).unwrap();
    let mut group = c.benchmark_group("classic-100x100");
    group.sample_size(10);
    for closed in [false, true] {
        let kind = if closed { "closed" } else { "open" };
        let seed = Cell::new(0u64);
        group.bench_function(BenchmarkId::new("warnsdorff-centre", kind), |b| {
            b.iter(|| {
                seed.set(seed.get() + 1);
                let options = warnsdorff::WarnsdorffOptions {
                    kind: if closed {
                        Wanted::Closed
                    } else {
                        Wanted::Either
                    },
                    tie: Tie::Centre,
                    max_attempts: 100_000, // about 0.4 % of walks close here
                    ..Default::default()
                };
                warnsdorff::tour(board, &options, &mut knights::rng::seeded(seed.get())).unwrap()
            })
        });
    }
    group.bench_function(BenchmarkId::new("hybrid", "open"), |b| {
        b.iter(|| {
            let options = backtrack::BacktrackOptions {
                order: Order::Warnsdorff,
                start: Some(0),
                ..Default::default()
            };
            backtrack::tour(board, &options).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, eight_by_eight, hundred);
criterion_main!(benches);
