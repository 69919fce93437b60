//! The magic search: completing the first 20 steps of Dudeney's semimagic
//! tour, and a pinned-seed search from its first 16 steps.

#![allow(missing_docs)] // `criterion_group!` makes an undocumented public function.

use criterion::{criterion_group, criterion_main, Criterion};
use knights::magic::search::MagicSearch;
use knights::Control;

/// Dudeney's semimagic tour (Amusements in Mathematics, 1917, problem 412),
/// rows top to bottom.
const DUDENEY: [[u32; 8]; 8] = [
    [46, 55, 44, 19, 58, 9, 22, 7],
    [43, 18, 47, 56, 21, 6, 59, 10],
    [54, 45, 20, 41, 12, 57, 8, 23],
    [17, 42, 53, 48, 5, 24, 11, 60],
    [52, 3, 32, 13, 40, 61, 34, 25],
    [31, 16, 49, 4, 33, 28, 37, 62],
    [2, 51, 14, 29, 64, 39, 26, 35],
    [15, 30, 1, 50, 27, 36, 63, 38],
];

fn squares() -> Vec<u32> {
    let mut squares = vec![0; 64];
    for (r, row) in DUDENEY.iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            squares[n as usize - 1] = (r * 8 + c) as u32;
        }
    }
    squares
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("magic");
    group.sample_size(10);
    let mut from = MagicSearch::new(8);
    from.prefix = squares()[..20].to_vec();
    group.bench_function("from-20-steps", |b| {
        b.iter(|| from.run(&Control::new(), &mut |_| Ok(())).unwrap())
    });
    let mut pinned = MagicSearch::new(8);
    pinned.prefix = squares()[..16].to_vec();
    pinned.seed = PINNED_SEED;
    group.bench_function("pinned-seed", |b| {
        b.iter(|| pinned.run(&Control::new(), &mut |_| Ok(())).unwrap())
    });
    group.finish();
}

/// The seed of the search test that finds a tour fast.
const PINNED_SEED: u64 = 5;

criterion_group!(benches, bench);
criterion_main!(benches);
