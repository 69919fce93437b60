//! Exact counting: the frontier dynamic program on small boards.
//! `cargo bench -p knights --bench count`; larger boards with `knights count`
//! (see BENCHMARKS.md).

use criterion::{criterion_main, Criterion};
use knights::count::Counter;
use knights::Board;
use knights::Kind;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    for (text, kind) in [
        ("6x6", Kind::Closed),
        ("5x8", Kind::Closed),
        ("5x5", Kind::Open),
        ("5x7", Kind::Open),
        ("6x6", Kind::Open),
    ] {
        let board: Board = text.parse().unwrap();
        let counter = Counter::new(board).kind(kind);
        group.bench_function(format!("{text} {kind:?}"), |b| {
            b.iter(|| counter.tours().unwrap().count)
        });
    }
    let board: Board = "8x8".parse().unwrap();
    group.bench_function("8x8 half-turn symmetric", |b| {
        b.iter(|| Counter::new(board).symmetric().unwrap().count)
    });
    group.finish();
}

mod group {
    #![allow(missing_docs)]
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
