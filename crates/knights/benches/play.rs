//! Hint latency of the position oracle: the hints of positions reached by
//! random legal play on 8x8, 16x16 and 50x50 (goal either).
//!
//! `cargo bench -p knights --bench play`. Each sample answers the hints of
//! one position, round the positions in turn; the budget is the request's
//! default.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use knights::play::Position;
use knights::request::DEFAULT_MAX_NODES;
use knights::shape::Shape;
use knights::{Control, Wanted};
use rand::Rng;

/// A position of `shape` after a random number of random legal moves.
fn random_position(shape: &Shape, seed: u64) -> Position {
    let mut rng = knights::rng::seeded(seed);
    let mut p = Position::new(shape.clone(), Wanted::Either, None).expect("a position");
    let length = rng.random_range(0..shape.squares());
    for _ in 0..length {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play(moves[rng.random_range(0..moves.len())])
            .expect("a legal move");
    }
    p
}

/// The 50th and 99th percentile of the hint latency over `count` positions,
/// and the share answered within a second with no move left unknown.
fn percentiles(shape: &Shape, count: u64) {
    let mut times = Vec::new();
    let mut whole = 0;
    for seed in 0..count {
        let p = random_position(shape, 1000 + seed);
        let clock = std::time::Instant::now();
        let hints = p.hints(DEFAULT_MAX_NODES, &Control::new()).expect("hints");
        let t = clock.elapsed();
        let unknown = hints
            .iter()
            .any(|h| h.verdict == knights::play::Outlook::Unknown);
        whole += u64::from(!unknown && t.as_secs_f64() < 1.0);
        times.push(t);
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    eprintln!(
        "play-hints {}: {count} positions, p50 {:?}, p99 {:?}, max {:?}, answered in full within 1 s {whole}",
        shape.board(),
        at(0.5),
        at(0.99),
        times[times.len() - 1]
    );
}

fn bench(c: &mut Criterion) {
    for (side, count) in [(8u64, 200), (16, 100), (50, 40)] {
        percentiles(
            &Shape::new(knights::Board::new(side, side).expect("a board")),
            count,
        );
    }
    let mut group = c.benchmark_group("play-hints");
    group.sample_size(20);
    for side in [8u64, 16, 50] {
        let shape = Shape::new(knights::Board::new(side, side).expect("a board"));
        let positions: Vec<Position> = (0..20).map(|seed| random_position(&shape, seed)).collect();
        let mut next = 0;
        group.bench_with_input(
            BenchmarkId::from_parameter(shape.board()),
            &positions,
            |b, positions| {
                b.iter(|| {
                    let p = &positions[next % positions.len()];
                    next += 1;
                    p.hints(DEFAULT_MAX_NODES, &Control::new()).expect("hints")
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
