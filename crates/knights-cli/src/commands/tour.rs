//! `knights tour`: one tour.

use std::process::ExitCode;

use anyhow::Result;
use knights::algorithms::{self, Algorithm, TourRequest, Want};

use super::{parse_board, parse_square, write_tour};
use crate::cli::{AlgorithmArg, FormatArg, TourArgs};

pub fn run(args: TourArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let start = args
        .start
        .as_deref()
        .map(|s| parse_square(board, s))
        .transpose()?;
    let request = TourRequest {
        algorithm: match args.algorithm {
            AlgorithmArg::Auto => Algorithm::Auto,
            AlgorithmArg::Warnsdorff => Algorithm::Warnsdorff,
            AlgorithmArg::Construct => Algorithm::Construct,
        },
        want: match (args.kind.closed, args.kind.open) {
            (true, _) => Want::Closed,
            (_, true) => Want::Open,
            _ => Want::Any,
        },
        start,
        max_attempts: args.max_attempts,
    };
    let mut rng = knights::rng::seeded(args.seed);
    let t0 = std::time::Instant::now();
    let tour = algorithms::tour(board, &request, &mut rng)?;
    let seconds = t0.elapsed().as_secs_f64();
    let algorithm = format!("{:?}", request.algorithm).to_lowercase();
    let mut extra = vec![("algorithm", algorithm.into()), ("seed", args.seed.into())];
    if args.output.format == Some(FormatArg::Summary) {
        extra.push(("seconds", seconds.into())); // only the summary shows the time
    }
    write_tour(&tour, &args.output, &extra)?;
    Ok(ExitCode::SUCCESS)
}
