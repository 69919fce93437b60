//! Squares per second of the linear-time construction.
//!
//! `cargo bench -p knights --bench construct`. Larger boards (up to
//! 10000x10000) are measured by `knights bench --suite construct`.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use knights::algorithms::Construct;
use knights::{Board, Tour, Wanted};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("construct");
    group.sample_size(10);
    for (r, cols, closed) in [
        (100, 100, true),
        (1000, 1000, true),
        (3000, 3000, true),
        (3, 100_000, true),
        (7, 100_000, false),
        (1001, 1001, false),
    ] {
        let board = Board::new(r, cols).expect("a board");
        group.throughput(Throughput::Elements(board.squares() as u64));
        let kind = if closed { "closed" } else { "open" };
        group.bench_with_input(BenchmarkId::new(kind, board), &board, |b, &board| {
            let wanted = if closed { Wanted::Closed } else { Wanted::Open };
            let request = Tour::builder(board).kind(wanted).algorithm(Construct);
            b.iter(|| request.build().expect("a tour"));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
