//! `knights tour`: one tour, through the library's front door.

use std::process::ExitCode;

use anyhow::Result;
use knights::algorithms::Algorithm;
use knights::{exists, Tour};

use super::write_tour;
use crate::cli::{FormatArg, TourArgs};

pub fn run(args: TourArgs) -> Result<ExitCode> {
    let shape = args.board.parse_shape(&args.shape)?;
    let board = shape.board();
    let square = |t: &Option<String>| t.as_deref().map(|s| shape.parse_square(s)).transpose();
    let start = square(&args.start)?;
    let end = square(&args.end)?;
    let plain = shape.is_plain();
    let algorithm = with_options(args.algorithm, &args)?;
    let mut request = Tour::builder(board)
        .shape(shape)
        .kind(args.kind.kind())
        .start_at(start)
        .end_at(end)
        .algorithm(algorithm)
        .seed(args.seed.seed);
    if !plain
        || end.is_some()
        || matches!(algorithm, Algorithm::Backtrack(_) | Algorithm::Hybrid(_))
    {
        request = request.stop_flag(crate::output::stop_on_ctrl_c());
    }
    if args.obfuscate {
        request = request.obfuscate(16);
    }
    let t0 = std::time::Instant::now();
    let tour = request.build()?;
    let seconds = t0.elapsed().as_secs_f64();
    if plain
        && end.is_none()
        && request.spec().kind.is_none()
        && !tour.is_closed()
        && exists::closed_tour(board).exists
    {
        crate::warn!(
            "knights: {} made an open tour of {board} (it found no closed one within its share of the budget); --closed insists on a closed tour",
            algorithm.name()
        );
    }
    let mut extra = vec![
        ("algorithm", algorithm.name().into()),
        ("seed", args.seed.seed.into()),
    ];
    if args.output.format == Some(FormatArg::Summary) {
        extra.push(("seconds", seconds.into())); // only the summary shows the time
    }
    write_tour(&tour, &args.output, &extra)?;
    Ok(ExitCode::SUCCESS)
}

/// The algorithm with the options given on the command line; an option that
/// does not apply to it is refused by the library with the algorithms it
/// belongs to.
fn with_options(mut algorithm: Algorithm, args: &TourArgs) -> Result<Algorithm> {
    let options = [
        ("tie", args.tie.map(|t| t.name().to_string())),
        ("max-attempts", args.max_attempts.map(|n| n.to_string())),
        ("max-nodes", args.max_nodes.map(|n| n.to_string())),
    ];
    for (name, value) in options {
        if let Some(value) = value {
            algorithm
                .set_option(name, &value)
                .map_err(|e| knights::Error::Unsupported(format!("--{e}")))?;
        }
    }
    Ok(algorithm)
}
