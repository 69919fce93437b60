//! Clue puzzles: generation and solving times by board and difficulty.
//!
//! `cargo bench -p knights --bench puzzle`. First, for each board (8x8,
//! 10x10, 12x12; `KNIGHTS_PUZZLE_SIDES` keeps the first 1, 2 or 3) and
//! difficulty, `KNIGHTS_PUZZLES` puzzles (default 20; a quarter of it on
//! 12x12) from seeds 0, 1, ...: the median and the largest time to
//! generate one, the median time to solve it (every solution up to two,
//! so proving it unique), the median of the numbers given and of the
//! solver's guesses. Then criterion's samples of solving 8x8 puzzles of
//! each difficulty, round the puzzles in turn.
#![allow(missing_docs)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use knights::puzzle::{generate, Difficulty, GenerateOptions, Puzzle};
use knights::request::DEFAULT_SOLVE_NODES;
use knights::{Board, Control, Shape, Wanted};

/// A number from the environment variable `name`, else `default`.
fn from_env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn square(side: u64) -> Shape {
    Shape::new(Board::new(side, side).expect("a board"))
}

fn options(difficulty: Difficulty, seed: u64) -> GenerateOptions {
    GenerateOptions {
        difficulty,
        seed,
        symmetric: false,
    }
}

/// The median of `values` (sorted in place).
fn median<T: Ord + Copy>(values: &mut [T]) -> T {
    values.sort();
    values[values.len() / 2]
}

/// Times `count` puzzles of `difficulty` on `shape`, and returns them.
fn survey(shape: &Shape, difficulty: Difficulty, count: u64) -> Vec<Puzzle> {
    let (mut made, mut solved, mut given, mut guesses) = (vec![], vec![], vec![], vec![]);
    let mut puzzles = Vec::new();
    for seed in 0..count {
        let clock = Instant::now();
        let g = generate(
            shape,
            Wanted::Either,
            options(difficulty, seed),
            &Control::new(),
        )
        .expect("a puzzle");
        made.push(clock.elapsed());
        let clock = Instant::now();
        let found = g
            .puzzle
            .solutions(2, DEFAULT_SOLVE_NODES, &Control::new())
            .expect("solved");
        solved.push(clock.elapsed());
        assert!(found.is_unique());
        given.push(g.puzzle.given());
        guesses.push(found.work.guesses);
        puzzles.push(g.puzzle);
    }
    let largest: Duration = made.iter().copied().max().unwrap_or_default();
    eprintln!(
        "puzzle {} {difficulty}: {count} puzzles, generate p50 {:?} max {largest:?}, solve p50 {:?}, given p50 {}, guesses p50 {}",
        shape.board(),
        median(&mut made),
        median(&mut solved),
        median(&mut given),
        median(&mut guesses),
    );
    puzzles
}

fn bench(c: &mut Criterion) {
    let count = from_env("KNIGHTS_PUZZLES", 20).max(1);
    let sides = from_env("KNIGHTS_PUZZLE_SIDES", 3) as usize;
    let mut eight = Vec::new();
    for (side, count) in [(8u64, count), (10, count), (12, count.div_ceil(4))]
        .into_iter()
        .take(sides)
    {
        for difficulty in Difficulty::ALL {
            let puzzles = survey(&square(side), difficulty, count);
            if side == 8 {
                eight.push((difficulty, puzzles));
            }
        }
    }
    let mut group = c.benchmark_group("puzzle-solve-8x8");
    group.sample_size(20);
    for (difficulty, puzzles) in &eight {
        let mut next = 0;
        group.bench_with_input(
            BenchmarkId::from_parameter(difficulty),
            puzzles,
            |b, puzzles| {
                b.iter(|| {
                    let p = &puzzles[next % puzzles.len()];
                    next += 1;
                    p.solutions(2, DEFAULT_SOLVE_NODES, &Control::new())
                        .expect("solved")
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
