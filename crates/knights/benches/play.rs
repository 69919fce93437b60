//! Hint latency of the position oracle: the hints of positions reached by
//! random legal play on 8x8, 16x16 and 50x50 (goal either), each call
//! within the request's default node budget.
//!
//! `cargo bench -p knights --bench play`. First the latency over many
//! positions (`KNIGHTS_PLAY_POSITIONS` on 8x8, default 1000; a fifth of it
//! on 16x16 and a tenth on 50x50): p50, p99, max, the share of positions
//! whose verdict is decided (finishable or not) within a second, the share
//! answered in full (no move left unknown) within a second, and the share
//! of moves left unknown (`KNIGHTS_PLAY_BUDGET` sets another budget,
//! `KNIGHTS_PLAY_SIDES` measures only the first 1, 2 or 3 sizes). Then criterion's samples, one position each,
//! round the positions in turn.
#![allow(missing_docs)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use knights::play::{Outlook, Position};
use knights::request::DEFAULT_MAX_NODES;
use knights::shape::Shape;
use knights::{Control, Wanted};

/// A position of `shape` after a random number of random legal moves.
fn random_position(shape: &Shape, seed: u64) -> Position {
    Position::random_play(shape.clone(), Wanted::Either, None, seed).expect("a position")
}

/// A number from the environment variable `name`, else `default`.
fn from_env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The latency of the verdict and hints of `count` positions of `shape`
/// under `budget` nodes a call.
fn percentiles(shape: &Shape, count: u64, budget: u64) {
    let mut times = Vec::new();
    let (mut decided, mut whole, mut moves, mut unknown) = (0, 0, 0, 0);
    let second = Duration::from_secs(1);
    for seed in 0..count {
        let p = random_position(shape, 1000 + seed);
        let clock = Instant::now();
        let judged = p.judge(budget, &Control::new()).expect("hints");
        let (verdict, hints) = (judged.verdict, judged.hints);
        let t = clock.elapsed();
        let open = hints
            .iter()
            .filter(|h| h.verdict == Outlook::Unknown)
            .count();
        decided += u64::from(verdict != Outlook::Unknown && t < second);
        whole += u64::from(verdict != Outlook::Unknown && open == 0 && t < second);
        moves += hints.len();
        unknown += open;
        times.push(t);
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    let share = |k: u64| 100.0 * k as f64 / count as f64;
    eprintln!(
        "play-hints {} ({budget} nodes): {count} positions, p50 {:?}, p99 {:?}, max {:?}; within 1 s: verdict decided {:.1} %, answered in full {:.1} %; moves unknown {unknown} of {moves}",
        shape.board(),
        at(0.5),
        at(0.99),
        times[times.len() - 1],
        share(decided),
        share(whole),
    );
}

fn bench(c: &mut Criterion) {
    let count = from_env("KNIGHTS_PLAY_POSITIONS", 1000);
    let budget = from_env("KNIGHTS_PLAY_BUDGET", DEFAULT_MAX_NODES);
    let sides = from_env("KNIGHTS_PLAY_SIDES", 3) as usize;
    for (side, count) in [(8u64, count), (16, count / 5), (50, count / 10)]
        .into_iter()
        .take(sides)
    {
        percentiles(
            &Shape::new(knights::Board::new(side, side).expect("a board")),
            count.max(1),
            budget,
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
