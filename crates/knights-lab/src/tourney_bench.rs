//! `knights-lab bench tourney`: tourney generation, join and obfuscation
//! across board sizes (time per square should stay flat).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Result;
use knights::algorithms::{Construct, TourneyMethod};
use knights::{check, rails, Board, Cover, Tour, Tourney};

use crate::cli::BenchArgs;

/// CPU time of this thread so far (Linux: /proc/thread-self/schedstat), to
/// report besides wall time on a shared, loaded machine; None elsewhere.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// A tourney of `board` by `method`, drawn from `rng`.
fn make(board: Board, method: TourneyMethod, rng: &mut knights::rng::KnightRng) -> Result<Cover> {
    Ok(Tourney::builder(board).method(method).cover_with(rng)?)
}

/// One timed job on a board: the cover it made (checked outside the timing).
fn job(name: &str, board: Board, seed: u64) -> Result<Cover> {
    let mut rng = knights::rng::seeded(seed);
    let mut cover = match name {
        "braid+join" => make(board, TourneyMethod::Braid, &mut rng)?,
        "four-cover+join" => make(board, TourneyMethod::FourCover, &mut rng)?,
        "warnsdorff+join" => make(board, TourneyMethod::Warnsdorff, &mut rng)?,
        "warnsdorff tourney" => return make(board, TourneyMethod::Warnsdorff, &mut rng),
        "divide+obfuscate" => {
            // The divide-and-conquer tour, then 16 shatters and a join.
            let tour = Tour::builder(board).closed().algorithm(Construct).build()?;
            let mut cover = Cover::from_tour(&tour)?;
            rails::obfuscate(&mut cover, &Default::default(), &mut rng)?;
            return Ok(cover);
        }
        other => anyhow::bail!("unknown job {other}"),
    };
    rails::join(&mut cover, &Default::default(), &mut rng)?;
    Ok(cover)
}

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let boards = crate::support::boards_or(
        &args.boards,
        &["100x100", "200x200", "500x500", "1000x1000", "2000x2000"],
    )?;
    crate::outln!(
        "{:<12} {:<20} {:>12} {:>12} {:>12}",
        "board",
        "work",
        "best",
        "ns/square",
        "cpu ns/sq"
    )?;
    for &board in &boards {
        for name in [
            "braid+join",
            "four-cover+join",
            "warnsdorff tourney",
            "warnsdorff+join",
            "divide+obfuscate",
            "obfuscate",
        ] {
            let mut best = Duration::MAX;
            let mut best_cpu = Duration::MAX;
            let mut failure = None;
            for i in 0..args.repeat {
                let seed = args.seed.seed.wrapping_add(u64::from(i));
                let mut cpu0 = None;
                let outcome = if name == "obfuscate" {
                    // Obfuscate a joined braid tour: 16 shatters + join.
                    match job("braid+join", board, seed) {
                        Ok(mut cover) => {
                            let mut rng = knights::rng::seeded(seed);
                            cpu0 = thread_cpu();
                            let t0 = Instant::now();
                            let r = rails::obfuscate(&mut cover, &Default::default(), &mut rng);
                            let dt = t0.elapsed();
                            r.map(|_| (cover, dt)).map_err(anyhow::Error::from)
                        }
                        Err(e) => Err(e),
                    }
                } else {
                    cpu0 = thread_cpu();
                    let t0 = Instant::now();
                    job(name, board, seed).map(|c| (c, t0.elapsed()))
                };
                let cpu = cpu0.zip(thread_cpu()).map(|(a, b)| b.saturating_sub(a));
                match outcome {
                    Ok((cover, dt)) => {
                        let cycles = check::check_cover(&cover)?;
                        anyhow::ensure!(
                            name == "warnsdorff tourney" || cycles == 1,
                            "{name} on {board} left {cycles} cycles"
                        );
                        best = best.min(dt);
                        if let Some(cpu) = cpu {
                            best_cpu = best_cpu.min(cpu);
                        }
                    }
                    Err(e) => {
                        failure = Some(e);
                        break;
                    }
                }
            }
            match failure {
                None => {
                    let secs = best.as_secs_f64();
                    let cpu = if best_cpu == Duration::MAX {
                        "-".to_string()
                    } else {
                        format!(
                            "{:.1}",
                            best_cpu.as_secs_f64() * 1e9 / board.squares() as f64
                        )
                    };
                    crate::outln!(
                        "{:<12} {:<20} {:>12} {:>12.1} {:>12}",
                        board.to_string(),
                        name,
                        format!("{:.1} ms", secs * 1e3),
                        secs * 1e9 / board.squares() as f64,
                        cpu
                    )?;
                }
                Some(e) => crate::outln!("{:<12} {:<20} failed: {e}", board.to_string(), name)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
