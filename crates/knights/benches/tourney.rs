//! Tourney generation + join, and obfuscation, across board sizes
//! (the performance goals at 1000 x 1000 set after Parberry 2020).
#![allow(missing_docs)] // criterion_group! makes undocumented functions

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use knights::algorithms::TourneyMethod;
use knights::Tourney;
use knights::{rails, Board};

fn generate_and_join(c: &mut Criterion) {
    let mut group = c.benchmark_group("tourney+join");
    group.sample_size(10);
    for n in [100u64, 1000] {
        let board = Board::new(n, n).unwrap();
        group.throughput(Throughput::Elements(n * n));
        for g in [
            TourneyMethod::Braid,
            TourneyMethod::FourCover,
            TourneyMethod::Warnsdorff,
        ] {
            group.bench_with_input(BenchmarkId::new(g.name(), n), &board, |b, &board| {
                let mut seed = 0;
                b.iter(|| {
                    seed += 1;
                    let mut rng = knights::rng::seeded(seed);
                    let mut cover = Tourney::builder(board)
                        .method(g)
                        .cover_with(&mut rng)
                        .unwrap();
                    rails::join(&mut cover, &Default::default(), &mut rng).unwrap();
                    cover
                })
            });
        }
    }
    group.finish();
}

fn obfuscate(c: &mut Criterion) {
    let mut group = c.benchmark_group("obfuscate");
    group.sample_size(10);
    for n in [100u64, 1000] {
        let board = Board::new(n, n).unwrap();
        let mut rng = knights::rng::seeded(1);
        let mut tour = Tourney::builder(board)
            .method(TourneyMethod::Braid)
            .cover_with(&mut rng)
            .unwrap();
        rails::join(&mut tour, &Default::default(), &mut rng).unwrap();
        group.throughput(Throughput::Elements(n * n));
        group.bench_with_input(
            BenchmarkId::new("16 shatters + join", n),
            &tour,
            |b, tour| {
                let mut seed = 0;
                b.iter(|| {
                    seed += 1;
                    let mut cover = tour.clone();
                    rails::obfuscate(
                        &mut cover,
                        &Default::default(),
                        &mut knights::rng::seeded(seed),
                    )
                    .unwrap();
                    cover
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, generate_and_join, obfuscate);
criterion_main!(benches);
