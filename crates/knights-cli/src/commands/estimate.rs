//! `knights estimate`: random-probe estimates of the number of tours.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use knights::count::{self, EstimateMethod, EstimateOptions};
use knights::Kind;
use serde_json::json;

use super::parse_board;
use crate::cli::EstimateArgs;

/// Fewer successful walks than this and the standard error means little.
const FEW_HITS: u64 = 100;

/// Fewer (successful) runs of the frontier method than this and the
/// standard error means little.
const FEW_RUNS: u64 = 5;

/// A probe carrying more than this share of the sum (and more than twice
/// its even share) makes the interval doubtful.
const LARGEST: f64 = 0.2;

pub fn run(args: EstimateArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let kind = if args.open { Kind::Open } else { Kind::Closed };
    let method = count::estimate::resolve_method(board, kind, args.method);
    let samples = args.samples.unwrap_or(method.default_samples());
    let opts = EstimateOptions {
        kind,
        samples: if args.seconds.is_some() {
            u64::MAX
        } else {
            samples
        },
        seed: args.seed.seed,
        method: args.method,
        seconds: args.seconds.map(|d| d.as_secs_f64()),
        keep: args.keep,
    };
    let bar = match args.seconds {
        Some(s) => {
            let bar = crate::support::progress(s.as_secs_f64().ceil() as u64);
            bar.set_message("seconds");
            bar
        }
        None => {
            let bar = crate::support::progress(samples);
            bar.set_message(if method == EstimateMethod::Frontier {
                "runs"
            } else {
                "walks"
            });
            bar
        }
    };
    let t0 = Instant::now();
    let timed = args.seconds.is_some();
    let ticker = bar.clone();
    let control = knights::Control::new().progress(move |p| {
        if timed {
            ticker.set_position(t0.elapsed().as_secs());
        } else {
            ticker.set_position(p.done);
        }
    });
    let e = count::Estimate::builder(board)
        .options(opts)
        .control(&control)
        .run()?;
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64();
    if e.samples == 0 {
        return Err(knights::Error::GaveUp(format!(
            "no probe finished in the {secs:.3} s given, so there is no estimate; allow more --seconds or give --samples"
        ))
        .into());
    }
    warn_doubts(&e, &args);
    print(&e, board, &args, secs)?;
    Ok(ExitCode::SUCCESS)
}

/// Warns when the probes are too few or too skewed for the interval to
/// mean much, and says how to reproduce a timed run.
fn warn_doubts(e: &count::Estimate, args: &EstimateArgs) {
    let timed = args.seconds.is_some();
    let runs = e.method == EstimateMethod::Frontier;
    let a_kind = if args.open { "an open" } else { "a closed" };
    let probes = if runs { "runs" } else { "walks" };
    if e.hits == 0 {
        crate::warn!(
            "knights: warning: none of the {} {probes} found {a_kind} tour, so the estimate 0 and its standard error 0 say nothing about the true number; try more probes or another --method",
            e.samples
        );
    } else if !e.exact && runs && e.samples < FEW_RUNS {
        crate::warn!(
            "knights: warning: only {} runs, too few for the standard error and the interval to say much; use at least {FEW_RUNS}",
            e.samples
        );
    } else if !e.exact && e.hits < if runs { FEW_RUNS } else { FEW_HITS } {
        crate::warn!(
            "knights: warning: only {} of the {} {probes} found {a_kind} tour, too few for the standard error and the interval to say much (they are likely too narrow); use more probes",
            e.hits,
            e.samples
        );
    } else if !e.exact && e.largest > LARGEST.max(2.0 / e.samples as f64) {
        crate::warn!(
            "knights: warning: one of the {} {probes} carries {:.0} % of the estimate: the results are heavy-tailed, and the interval may be too narrow; use more probes",
            e.samples,
            100.0 * e.largest
        );
    }
    if timed {
        crate::warn!(
            "knights: note: --seconds makes the number of probes, and so the estimate, depend on the machine's speed; use --samples {} --seed {} --method {}{} to reproduce it",
            e.samples,
            args.seed.seed,
            e.method.name(),
            if runs {
                format!(" --keep {}", args.keep)
            } else {
                String::new()
            }
        );
    }
}

/// Prints the estimate, as JSON with `--json` or as text.
fn print(e: &count::Estimate, board: knights::Board, args: &EstimateArgs, secs: f64) -> Result<()> {
    let kind_name = if args.open { "open" } else { "closed" };
    let scale = if args.directed { 2.0 } else { 1.0 };
    let what = if args.directed {
        "directed"
    } else {
        "undirected"
    };
    let runs = e.method == EstimateMethod::Frontier;
    if args.json {
        let v = json!({
            "board": board.to_string(), "kind": kind_name, "directed": args.directed,
            "method": e.method.name(), "samples": e.samples, "exact": e.exact,
            "keep": if runs { json!(args.keep) } else { json!(null) },
            "seed": args.seed.seed, "hits": e.hits, "tours": e.tours * scale,
            "tours_error": e.tours_error * scale, "low": e.low * scale, "high": e.high * scale,
            "tree": e.tree, "tree_error": e.tree_error, "seconds": secs,
            "skewness": e.skewness, "largest": e.largest,
        });
        crate::outln!("{v}")?;
    } else {
        let rel = if e.tours > 0.0 {
            format!(" ({:.1} %)", 100.0 * e.tours_error / e.tours)
        } else {
            String::new()
        };
        crate::outln!(
            "{what} {kind_name} tours on {board}: about {:.4e} +- {:.2e} (standard error{rel})",
            e.tours * scale,
            e.tours_error * scale
        )?;
        crate::outln!(
            "95 % interval: {:.4e} to {:.4e}",
            e.low * scale,
            e.high * scale
        )?;
        if runs {
            crate::outln!(
                "{} of {} runs of the frontier program keeping {} states a square found tours, in {secs:.1} s{}",
                e.hits,
                e.samples,
                args.keep,
                if e.exact {
                    " (no state was dropped: the count is exact)"
                } else {
                    ""
                }
            )?;
        } else {
            crate::outln!(
                "{} of {} walks ({}) found a tour, in {secs:.1} s",
                e.hits,
                e.samples,
                e.method.name()
            )?;
            crate::outln!(
                "search tree probed: about {:.4e} +- {:.2e} nodes",
                e.tree,
                e.tree_error
            )?;
        }
    }
    Ok(())
}
