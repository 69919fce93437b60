//! `knights tour`: one tour.

use std::process::ExitCode;

use anyhow::Result;
use knights::algorithms::{self, TourRequest, Want};

use super::{parse_board, parse_square, write_tour};
use crate::cli::{AlgorithmArg, FormatArg, TourArgs};

pub fn run(args: TourArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let start = args
        .start
        .as_deref()
        .map(|s| parse_square(board, s))
        .transpose()?;
    let backtracking = matches!(
        args.algorithm,
        AlgorithmArg::Backtrack | AlgorithmArg::Hybrid
    );
    let name = super::algorithm_of(args.algorithm).name();
    let hint = if backtracking {
        "; the backtracking searches take --max-nodes"
    } else {
        ""
    };
    // Each option applies to some methods only; a silently ignored option
    // would look like one that did nothing.
    if args.tie.is_some() && args.algorithm != AlgorithmArg::Warnsdorff {
        return Err(knights::Error::Unsupported(format!(
            "--tie applies to --algorithm warnsdorff (Warnsdorff's rule), not to {name}{hint}"
        ))
        .into());
    }
    if args.max_attempts.is_some()
        && !matches!(
            args.algorithm,
            AlgorithmArg::Warnsdorff | AlgorithmArg::TakefujiLee
        )
    {
        return Err(knights::Error::Unsupported(format!(
            "--max-attempts applies to --algorithm warnsdorff and takefuji-lee, the methods that restart, not to {name}{hint}"
        ))
        .into());
    }
    if !backtracking && args.max_nodes.is_some() {
        return Err(knights::Error::Unsupported(
            "--max-nodes applies to --algorithm backtrack or hybrid; Warnsdorff's rule takes --max-attempts".into(),
        )
        .into());
    }
    let request = TourRequest {
        algorithm: super::algorithm_of(args.algorithm),
        want: match (args.kind.closed, args.kind.open) {
            (true, _) => Want::Closed,
            (_, true) => Want::Open,
            _ => Want::Any,
        },
        start,
        max_attempts: args.max_attempts,
        tie: args.tie.map(super::experiment::tie_of),
        max_nodes: args.max_nodes,
        stop: if backtracking {
            super::experiment::stop_on_ctrl_c()
        } else {
            Default::default()
        },
    };
    let mut rng = knights::rng::seeded(args.seed);
    let t0 = std::time::Instant::now();
    let mut tour = algorithms::tour(board, &request, &mut rng)?;
    if args.obfuscate {
        tour = super::tourney::obfuscate_tour(tour, 16, &mut rng)?;
    }
    let seconds = t0.elapsed().as_secs_f64();
    let algorithm = request.algorithm.name();
    let mut extra = vec![("algorithm", algorithm.into()), ("seed", args.seed.into())];
    if args.output.format == Some(FormatArg::Summary) {
        extra.push(("seconds", seconds.into())); // only the summary shows the time
    }
    write_tour(&tour, &args.output, &extra)?;
    Ok(ExitCode::SUCCESS)
}
