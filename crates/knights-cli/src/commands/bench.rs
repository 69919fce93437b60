//! `knights bench`: squares per second of the generators, across board sizes.
//!
//! Each later capability adds its rows here. Times are wall-clock, best of
//! `--repeat` runs, single thread; every result is checked (outside the timing).

use std::time::{Duration, Instant};

use anyhow::Result;
use knights::algorithms::{Algorithm, Warnsdorff};
use knights::check;
use knights::{Kind, Tour};

use crate::cli::BenchArgs;

pub fn run(args: BenchArgs) -> Result<u8> {
    let suites: &[&str] = match args.suite.as_str() {
        "tours" => &["warnsdorff", "construct"],
        "warnsdorff" => &["warnsdorff"],
        "construct" => &["construct"],
        other @ ("classic" | "tourney") => anyhow::bail!(knights::Error::Parse(format!(
            "the {other} suite is the research harness's: run `cargo run --release -p knights-lab -- bench {other}`"
        ).into())),
        other => anyhow::bail!(knights::Error::Parse(format!(
            "'{other}' is not a bench suite; use tours, warnsdorff or construct"
        ).into())),
    };
    let defaults: &[&str] = if args.suite == "construct" {
        &[
            "100x100",
            "1000x1000",
            "3000x3000",
            "10000x10000",
            "3x1000000",
            "7x100000",
            "1001x1001",
        ]
    } else {
        &["8x8", "16x16", "32x32", "64x64", "100x100"]
    };
    let boards = crate::support::boards_or(&args.boards, defaults)?;
    crate::outln!(
        "{:<12} {:<22} {:>7} {:>12} {:>14} {:>12}",
        "board",
        "algorithm",
        "kind",
        "best",
        "squares/s",
        "ns/square"
    )?;
    for &board in &boards {
        for (name, algorithm, kind) in [
            (
                "warnsdorff",
                Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
                Kind::Open,
            ),
            (
                "warnsdorff",
                Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
                Kind::Closed,
            ),
            ("construct", Algorithm::Construct, Kind::Closed),
            ("construct", Algorithm::Construct, Kind::Open),
        ] {
            if !suites.contains(&name) {
                continue;
            }
            if algorithm == Algorithm::Construct
                && kind == Kind::Closed
                && !knights::exists::closed_tour(board).exists
            {
                continue;
            }
            let request = Tour::builder(board).kind(kind).algorithm(algorithm);
            let mut best = Duration::MAX;
            let mut outcome = Ok(());
            for i in 0..args.repeat {
                let mut rng = knights::rng::for_batch(args.seed.seed, u64::from(i));
                let t0 = Instant::now();
                let result = request.build_with(&mut rng);
                let dt = t0.elapsed();
                match result {
                    Ok(tour) => {
                        check::check_tour(&tour)?;
                        best = best.min(dt);
                    }
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                }
            }
            let kind = kind.name();
            match outcome {
                Ok(()) => {
                    let n = board.squares() as f64;
                    let secs = best.as_secs_f64();
                    crate::outln!(
                        "{:<12} {:<22} {:>7} {:>12} {:>14.0} {:>12.1}",
                        board.to_string(),
                        name,
                        kind,
                        format!("{:.3} ms", secs * 1e3),
                        n / secs,
                        secs * 1e9 / n
                    )?;
                }
                Err(e) => crate::outln!(
                    "{:<12} {:<22} {:>7} failed: {e}",
                    board.to_string(),
                    name,
                    kind
                )?,
            }
        }
    }
    Ok(crate::exit::EXIT_SUCCESS)
}
