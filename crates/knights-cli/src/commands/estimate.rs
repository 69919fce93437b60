//! `knights estimate`: random-probe estimates of the number of tours. The
//! arguments become the library's [`EstimateRequest`], which checks them
//! and probes; this module shows progress, warns when the figures mean
//! little, and prints the answer.

use std::time::Instant;

use anyhow::Result;
use knights::count::EstimateMethod;
use knights::request::{EstimateAnswer, EstimateRequest, JobRequest};
use knights::Kind;

use crate::cli::EstimateArgs;

/// Fewer successful walks than this and the standard error means little.
const FEW_HITS: u64 = 100;

/// Fewer (successful) runs of the frontier method than this and the
/// standard error means little.
const FEW_RUNS: u64 = 5;

/// A probe carrying more than this share of the sum (and more than twice
/// its even share) makes the interval doubtful.
const LARGEST: f64 = 0.2;

pub fn run(args: EstimateArgs) -> Result<u8> {
    let request = EstimateRequest {
        board: args.board.board.clone(),
        kind: if args.open { Kind::Open } else { Kind::Closed },
        directed: args.directed,
        samples: args.samples,
        seconds: args.seconds.map(|d| d.as_secs_f64()),
        method: args.method,
        keep: args.keep,
        seed: args.seed.seed,
    };
    let plan = request.plan()?;
    let method = plan.resolved_method();
    let bar = crate::support::progress(args.seconds.map_or(0, |s| s.as_secs_f64().ceil() as u64));
    bar.set_message(match (args.seconds, method) {
        (Some(_), _) => "seconds",
        (None, EstimateMethod::Frontier) => "runs",
        (None, _) => "walks",
    });
    let t0 = Instant::now();
    let ticker = bar.clone();
    let control = knights::Control::new().progress(move |p| match p.total {
        Some(total) => {
            ticker.set_length(total);
            ticker.set_position(p.done);
        }
        None => ticker.set_position(t0.elapsed().as_secs()),
    });
    let answer = EstimateRequest::run_plan(plan, &control)?;
    bar.finish_and_clear();
    warn_doubts(&answer, &args);
    print(&answer, &args)?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// Warns when the probes are too few or too skewed for the interval to
/// mean much, and says how to reproduce a timed run.
fn warn_doubts(e: &EstimateAnswer, args: &EstimateArgs) {
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
fn print(e: &EstimateAnswer, args: &EstimateArgs) -> Result<()> {
    if args.json {
        crate::outln!("{}", serde_json::to_string(e)?)?;
        return Ok(());
    }
    let kind_name = if args.open { "open" } else { "closed" };
    let what = if args.directed {
        "directed"
    } else {
        "undirected"
    };
    let rel = if e.tours > 0.0 {
        format!(" ({:.1} %)", 100.0 * e.tours_error / e.tours)
    } else {
        String::new()
    };
    crate::outln!(
        "{what} {kind_name} tours on {}: about {:.4e} +- {:.2e} (standard error{rel})",
        e.board,
        e.tours,
        e.tours_error
    )?;
    crate::outln!("95 % interval: {:.4e} to {:.4e}", e.low, e.high)?;
    let secs = e.seconds;
    if e.method == EstimateMethod::Frontier {
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
    Ok(())
}
