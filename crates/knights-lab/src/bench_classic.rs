//! `knights-lab bench classic`: tours per second of Warnsdorff's rule
//! (every tie-break), backtracking and the hybrid on 8x8, and the time for
//! one open and one closed tour on large boards (or the honest failure).
//!
//! Times are wall-clock on one thread; every tour is checked outside the
//! timing.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use knights::algorithms::{Algorithm, Backtrack, Hybrid, Tie, Warnsdorff};
use knights::board::Square;
use knights::rng::KnightRng;
use knights::{check, Board, Kind, Tour};
use rand::Rng;

use crate::cli::BenchArgs;

/// A way of making one tour on a board.
type Maker = Box<dyn Fn(Board, &mut KnightRng) -> knights::Result<Tour>>;

/// One way of making a tour, named for the table.
struct Method {
    algorithm: &'static str,
    tie: &'static str,
    closed: bool,
    make: Maker,
}

/// Every tie-break of Warnsdorff's rule, backtracking and the hybrid, for
/// open and closed tours, each through the library's front door; the
/// backtracking searches start from a random square.
fn methods(max_attempts: u32, max_nodes: u64, ties: &[Tie]) -> Vec<Method> {
    let mut all = Vec::new();
    for kind in [Kind::Open, Kind::Closed] {
        let mut algorithms: Vec<(Algorithm, &'static str)> = ties
            .iter()
            .map(|&tie| {
                let w = Warnsdorff::default().tie(tie).max_attempts(max_attempts);
                (Algorithm::Warnsdorff(w), tie.name())
            })
            .collect();
        algorithms.push((Backtrack::default().max_nodes(max_nodes).into(), "-"));
        algorithms.push((Hybrid::default().max_nodes(max_nodes).into(), "-"));
        for (algorithm, tie) in algorithms {
            let random_start = tie == "-";
            all.push(Method {
                algorithm: algorithm.name(),
                tie,
                closed: kind == Kind::Closed,
                make: Box::new(move |board, rng| {
                    let start =
                        random_start.then(|| rng.random_range(0..board.squares() as Square));
                    Tour::builder(board)
                        .kind(kind)
                        .algorithm(algorithm)
                        .start_at(start)
                        .build_with(rng)
                }),
            });
        }
    }
    all
}

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let boards = crate::support::boards_or(&args.boards, &["100x100", "1000x1000"])?;
    crate::outln!("Tours per second on 8x8 (random starts; up to 2000 tours or 1 s per row)")?;
    crate::outln!(
        "{:<11} {:<7} {:<7} {:>6} {:>8} {:>12}  note",
        "algorithm",
        "tie",
        "kind",
        "tours",
        "failed",
        "tours/s"
    )?;
    let board = Board::new(8, 8)?;
    for m in methods(1000, 10_000_000, &Tie::ALL) {
        let (mut done, mut failed, mut spent) = (0u32, 0u32, Duration::ZERO);
        let mut note = String::new();
        while done + failed < 2000 && spent < Duration::from_secs(1) {
            let mut rng = knights::rng::for_batch(args.seed.seed, u64::from(done + failed));
            let t0 = Instant::now();
            let result = (m.make)(board, &mut rng);
            spent += t0.elapsed();
            match result {
                Ok(tour) => {
                    check::check_tour(&tour)?;
                    done += 1;
                }
                Err(e) => {
                    failed += 1;
                    note = e.to_string();
                }
            }
        }
        crate::outln!(
            "{:<11} {:<7} {:<7} {:>6} {:>8} {:>12.0}  {}",
            m.algorithm,
            m.tie,
            kind(m.closed),
            done,
            failed,
            f64::from(done) / spent.as_secs_f64(),
            short(&note)
        )?;
    }
    crate::outln!()?;
    crate::outln!("One tour on large boards (best of --repeat; Warnsdorff up to 2e7 / squares attempts, 20 to 2000; backtracking up to 20 nodes per square)")?;
    crate::outln!(
        "{:<11} {:<11} {:<7} {:<7} {:>12}  note",
        "board",
        "algorithm",
        "tie",
        "kind",
        "best"
    )?;
    for &board in &boards {
        let nodes = 20 * board.squares() as u64;
        // About 2e7 squares walked per closed attempt budget: 2000 walks on
        // 100x100, 20 on 1000x1000.
        let attempts = (20_000_000 / board.squares()).clamp(20, 2000) as u32;
        for m in methods(attempts, nodes, &[Tie::Random, Tie::Centre, Tie::Pohl]) {
            if m.algorithm == "backtrack" {
                continue; // plain backtracking has no chance beyond small boards
            }
            let mut best = Duration::MAX;
            let mut note = String::new();
            for i in 0..args.repeat {
                let mut rng = knights::rng::for_batch(args.seed.seed, u64::from(i));
                let t0 = Instant::now();
                let result = (m.make)(board, &mut rng);
                let dt = t0.elapsed();
                match result {
                    Ok(tour) => {
                        check::check_tour(&tour)?;
                        best = best.min(dt);
                    }
                    Err(e) => note = format!("{:.1} s: {}", dt.as_secs_f64(), e),
                }
            }
            let time = if best == Duration::MAX {
                "failed".to_string()
            } else {
                format!("{:.1} ms", best.as_secs_f64() * 1e3)
            };
            crate::outln!(
                "{:<11} {:<11} {:<7} {:<7} {:>12}  {}",
                board.to_string(),
                m.algorithm,
                m.tie,
                kind(m.closed),
                time,
                short(&note)
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn kind(closed: bool) -> &'static str {
    if closed {
        "closed"
    } else {
        "open"
    }
}

/// The first clause of an error, to keep table rows short.
fn short(note: &str) -> &str {
    note.split(';').next().unwrap_or(note)
}
