//! The magic search: completing the first 20 steps of Dudeney's semimagic
//! tour, a pinned-seed search from its first 16 steps, and a bare seed's
//! first tour (symmetric under the half turn).

#![allow(missing_docs)] // `criterion_group!` makes an undocumented public function.

use criterion::{criterion_group, criterion_main, Criterion};
use knights::magic::search::MagicSearch;
use knights::Control;

/// Dudeney's semimagic tour (Amusements in Mathematics, 1917, problem 412):
/// the repository's example, a grid numbered from 1.
const DUDENEY: &str = include_str!("../../../examples/data/dudeney_semimagic.txt");

/// Dudeney's squares (row-major numbers) in the tour's order.
fn squares() -> Vec<u32> {
    let mut squares = vec![0; 64];
    for (at, n) in DUDENEY.split_whitespace().enumerate() {
        squares[n.parse::<usize>().unwrap() - 1] = at as u32;
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
    let mut bare = MagicSearch::new(8);
    bare.seed = 1;
    group.bench_function("bare-seed", |b| {
        b.iter(|| bare.run(&Control::new(), &mut |_| Ok(())).unwrap())
    });
    group.finish();
}

/// The seed of the search test that finds a tour fast.
const PINNED_SEED: u64 = 5;

criterion_group!(benches, bench);
criterion_main!(benches);
