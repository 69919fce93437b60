//! `knights estimate`: Knuth's random-probe estimate of the number of tours.

use std::process::ExitCode;

use anyhow::Result;
use knights::count::{self, EstimateOptions};
use knights::Kind;
use serde_json::json;

use super::parse_board;
use crate::cli::EstimateArgs;

pub fn run(args: EstimateArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let kind = if args.open { Kind::Open } else { Kind::Closed };
    let opts = EstimateOptions {
        kind,
        samples: args.samples,
        seed: args.seed.seed,
    };
    let e = count::estimate(board, &opts)?;
    let kind_name = if args.open { "open" } else { "closed" };
    if e.hits == 0 {
        crate::warn!(
            "knights: warning: none of the {} probes found a {kind_name} tour, so the estimate 0 and its standard error 0 say nothing about the true number; random probes rarely complete a tour on boards this size",
            e.samples
        );
    }
    if args.json {
        let v = json!({
            "board": board.to_string(), "kind": kind_name, "samples": e.samples,
            "seed": args.seed.seed, "hits": e.hits, "tours": e.tours,
            "tours_error": e.tours_error, "tree": e.tree, "tree_error": e.tree_error,
        });
        crate::outln!("{v}")?;
    } else {
        crate::outln!(
            "{kind_name} tours on {board}: about {:.4e} +- {:.2e} (standard error; {} of {} probes found a tour)",
            e.tours, e.tours_error, e.hits, e.samples
        )?;
        crate::outln!(
            "backtracking tree: about {:.4e} +- {:.2e} nodes",
            e.tree,
            e.tree_error
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
