//! `knights-lab experiment`: success rates of Warnsdorff's tie-breaks and node
//! counts of the backtracking searches, as a table, CSV or JSON.

use std::process::ExitCode;

use anyhow::Result;
use knights::algorithms::warnsdorff::Tie;
use knights::algorithms::TreeSearch;
use knights::algorithms::{Backtrack, Hybrid, TourSpec};
use knights::stats::rates::{self, NodeCounts, Rate, TieRates};
use knights::{exists, Wanted};
use serde_json::json;

use crate::cli::{
    Experiment, ExperimentArgs, ExperimentBacktrackArgs, ExperimentWarnsdorffArgs, TableFormat,
};

pub fn run(args: ExperimentArgs) -> Result<ExitCode> {
    match args.what {
        Experiment::Warnsdorff(a) => warnsdorff(a),
        Experiment::Backtrack(a) => backtrack(a),
        Experiment::Timing(a) => super::timing::run(a),
    }
}

fn percent(r: &Rate) -> String {
    let (lo, hi) = r.wilson95();
    format!(
        "{:5.1}% [{:4.1}, {:4.1}]",
        100.0 * r.fraction(),
        100.0 * lo,
        100.0 * hi
    )
}

fn warnsdorff(a: ExperimentWarnsdorffArgs) -> Result<ExitCode> {
    let board = a.board.parse()?;
    exists::require(board, Wanted::Either)?;
    if a.trials == 0 {
        return Err(knights::Error::Parse("--trials must be at least 1".into()).into());
    }
    let ties: Vec<Tie> = if a.tie.is_empty() {
        Tie::ALL.to_vec()
    } else {
        a.tie.clone()
    };
    let bar = crate::support::progress(a.trials * ties.len() as u64);
    let mut rows: Vec<TieRates> = Vec::new();
    for &tie in &ties {
        bar.set_message(tie.name());
        rows.push(rates::warnsdorff_rates(
            board,
            tie,
            a.trials,
            a.seed.seed,
            a.aim_closed,
            &|n| bar.inc(n),
        )?);
    }
    bar.finish_and_clear();
    match a.format {
        TableFormat::Table => {
            crate::outln!(
                "Warnsdorff's rule on {board}: {} single walks per tie-break from random starts, seed {}{}; 95% Wilson intervals",
                a.trials,
                a.seed.seed,
                if a.aim_closed { ", aiming to close" } else { "" }
            )?;
            crate::outln!(
                "{:<8} {:>22} {:>22} {:>22}",
                "tie",
                "closed",
                "open only",
                "failed"
            )?;
            for r in &rows {
                crate::outln!(
                    "{:<8} {:>22} {:>22} {:>22}",
                    r.tie,
                    percent(&r.closed),
                    percent(&r.open),
                    percent(&r.failed)
                )?;
            }
        }
        TableFormat::Csv => {
            crate::outln!("board,tie,trials,seed,outcome,count,rate,lo95,hi95")?;
            for r in &rows {
                for (name, rate) in [("closed", r.closed), ("open", r.open), ("failed", r.failed)] {
                    let (lo, hi) = rate.wilson95();
                    crate::outln!(
                        "{board},{},{},{},{name},{},{:.6},{:.6},{:.6}",
                        r.tie,
                        a.trials,
                        a.seed.seed,
                        rate.k,
                        rate.fraction(),
                        lo,
                        hi
                    )?;
                }
            }
        }
        TableFormat::Json => {
            let rows: Vec<_> = rows
                .iter()
                .map(|r| {
                    let one = |rate: Rate| {
                        let (lo, hi) = rate.wilson95();
                        json!({"count": rate.k, "rate": rate.fraction(), "lo95": lo, "hi95": hi})
                    };
                    json!({"tie": r.tie, "closed": one(r.closed), "open": one(r.open), "failed": one(r.failed)})
                })
                .collect();
            let doc = json!({
                "experiment": "warnsdorff",
                "board": board.to_string(),
                "trials": a.trials,
                "seed": a.seed.seed,
                "aim_closed": a.aim_closed,
                "results": rows,
            });
            crate::outln!("{doc}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn backtrack(a: ExperimentBacktrackArgs) -> Result<ExitCode> {
    let board = a.board.parse()?;
    exists::require(board, Wanted::Either)?;
    if board.squares() > 10_000 {
        return Err(knights::Error::Unsupported(format!(
            "the backtracking experiment searches from every square, which is meant for small boards; {board} has more than 10000 squares"
        ).into())
        .into());
    }
    let prune = !a.no_prune;
    let (backtrack, hybrid) = (
        Backtrack::DEFAULT.max_nodes(a.max_nodes).prune(prune),
        Hybrid::DEFAULT.max_nodes(a.max_nodes).prune(prune),
    );
    let mut jobs = Vec::new();
    for closed in [false, true] {
        if closed && !exists::closed_tour(board).exists {
            continue;
        }
        let searches: [&dyn TreeSearch; 2] = [&backtrack, &hybrid];
        for search in searches {
            jobs.push((search, closed));
        }
    }
    let bar = crate::support::progress(jobs.len() as u64 * board.squares() as u64);
    let mut rows: Vec<NodeCounts> = Vec::new();
    for (search, closed) in jobs {
        let spec = TourSpec {
            kind: if closed {
                Wanted::Closed
            } else {
                Wanted::Either
            },
            ..TourSpec::new(board)
        };
        rows.push(rates::backtrack_nodes(&spec, search, &|n| bar.inc(n))?);
    }
    bar.finish_and_clear();
    let kind = |closed: bool| if closed { "closed" } else { "open" };
    match a.format {
        TableFormat::Table => {
            crate::outln!(
                "Backtracking on {board} from every start square, budget {} nodes each, pruning {}",
                a.max_nodes,
                if a.no_prune { "off" } else { "on" }
            )?;
            crate::outln!(
                "{:<10} {:<7} {:>5} {:>6} {:>5} {:>8} {:>10} {:>10} {:>12} {:>10} {:>13}",
                "algorithm",
                "kind",
                "runs",
                "found",
                "none",
                "gave up",
                "min",
                "median",
                "mean",
                "max",
                "total nodes"
            )?;
            for r in &rows {
                crate::outln!(
                    "{:<10} {:<7} {:>5} {:>6} {:>5} {:>8} {:>10} {:>10} {:>12.1} {:>10} {:>13}",
                    r.algorithm,
                    kind(r.closed),
                    r.runs,
                    r.found,
                    r.none,
                    r.gave_up,
                    r.min,
                    r.median,
                    r.mean,
                    r.max,
                    r.total
                )?;
            }
        }
        TableFormat::Csv => {
            crate::outln!("board,algorithm,kind,prune,max_nodes,runs,found,none,gave_up,min,median,mean,max,total")?;
            for r in &rows {
                crate::outln!(
                    "{board},{},{},{},{},{},{},{},{},{},{},{:.3},{},{}",
                    r.algorithm,
                    kind(r.closed),
                    r.prune,
                    a.max_nodes,
                    r.runs,
                    r.found,
                    r.none,
                    r.gave_up,
                    r.min,
                    r.median,
                    r.mean,
                    r.max,
                    r.total
                )?;
            }
        }
        TableFormat::Json => {
            let doc = json!({
                "experiment": "backtrack",
                "board": board.to_string(),
                "max_nodes": a.max_nodes,
                "results": rows,
            });
            crate::outln!("{doc}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
