//! Criterion benches of the classical searches: one 8x8 tour per
//! tie-break and of the hybrid, plain backtracking on 5x5 and 6x6, and open
//! and closed tours on 100x100.
//!
//! Run with `cargo bench -p knights --bench classic`. Inputs are seeded; the
//! seed advances every iteration so restarts and starts vary as in use.

#![allow(missing_docs)] // criterion's macros generate undocumented functions

use std::cell::Cell;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use knights::algorithms::TreeSearch;
use knights::algorithms::{Backtrack, Hybrid, Tie, TourGenerator, TourSpec, Warnsdorff};
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
                    let spec = TourSpec {
                        kind: if closed { Wanted::Closed } else { Wanted::Open },
                        ..TourSpec::new(board)
                    };
                    let mut rng = knights::rng::seeded(seed.get());
                    Warnsdorff::default()
                        .tie(tie)
                        .generate(&spec, &mut rng)
                        .unwrap()
                })
            });
        }
        let seed = Cell::new(0u64);
        group.bench_function(BenchmarkId::new("hybrid", kind), |b| {
            b.iter(|| {
                seed.set(seed.get() + 1);
                let mut rng = knights::rng::seeded(seed.get());
                let spec = TourSpec {
                    kind: if closed {
                        Wanted::Closed
                    } else {
                        Wanted::Either
                    },
                    start: Some(rng.random_range(0..64)),
                    ..TourSpec::new(board)
                };
                let hybrid = Hybrid::DEFAULT.max_nodes(u64::MAX);
                hybrid.search(&spec, &mut |_| ()).result.unwrap()
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
                let spec = TourSpec {
                    start: Some(0),
                    ..TourSpec::new(board)
                };
                let search = Backtrack::DEFAULT.max_nodes(u64::MAX);
                search.search(&spec, &mut |_| ()).result.unwrap()
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
                let spec = TourSpec {
                    kind: if closed { Wanted::Closed } else { Wanted::Open },
                    ..TourSpec::new(board)
                };
                // About 0.4 % of walks close here.
                let rule = Warnsdorff::default().tie(Tie::Centre).max_attempts(100_000);
                let mut rng = knights::rng::seeded(seed.get());
                rule.generate(&spec, &mut rng).unwrap()
            })
        });
    }
    group.bench_function(BenchmarkId::new("hybrid", "open"), |b| {
        b.iter(|| {
            let spec = TourSpec {
                start: Some(0),
                ..TourSpec::new(board)
            };
            let search = Hybrid::default().search(&spec, &mut |_| ());
            search.result.unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, eight_by_eight, hundred);
criterion_main!(benches);
