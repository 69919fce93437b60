//! Throughput of the foundation: the checker, cover conversions and writers.
//!
//! `cargo bench -p knights --bench foundation`

// criterion_group! generates undocumented items.
#![allow(missing_docs)]

use std::io::Write;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use knights::algorithms::{TourGenerator, TourSpec, Warnsdorff};
use knights::{check, format, Board, Cover, Tour, Wanted};

fn tour(n: u64) -> Tour {
    let spec = TourSpec {
        kind: Wanted::Open,
        ..TourSpec::new(Board::new(n, n).unwrap())
    };
    let mut rng = knights::rng::seeded(1);
    Warnsdorff::default().generate(&spec, &mut rng).unwrap()
}

fn foundation(c: &mut Criterion) {
    let mut group = c.benchmark_group("foundation");
    group.sample_size(20);
    for n in [64u64, 128] {
        let t = tour(n);
        let squares = t.squares().len() as u64;
        group.throughput(Throughput::Elements(squares));
        group.bench_with_input(BenchmarkId::new("check_tour", n), &t, |b, t| {
            b.iter(|| check::check_tour(t).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("cover_from_tour", n), &t, |b, t| {
            b.iter(|| Cover::from_tour(t).unwrap())
        });
        let cover = Cover::from_tour(&t).unwrap();
        group.bench_with_input(BenchmarkId::new("cover_to_tour", n), &t, |b, t| {
            b.iter(|| cover.to_tour(t.start(), None).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("write_grid", n), &t, |b, t| {
            let mut buf = Vec::new();
            b.iter(|| {
                buf.clear();
                write!(buf, "{}", format::grid(t, 0)).unwrap();
                criterion::black_box(buf.len())
            })
        });
        group.bench_with_input(BenchmarkId::new("write_json", n), &t, |b, t| {
            let mut buf = Vec::new();
            b.iter(|| {
                buf.clear();
                write!(buf, "{}", format::tour_json(t)).unwrap();
                criterion::black_box(buf.len())
            })
        });
        group.bench_with_input(BenchmarkId::new("warnsdorff_open", n), &n, |b, &n| {
            b.iter(|| tour(n))
        });
    }
    group.finish();
}

criterion_group!(benches, foundation);
criterion_main!(benches);
