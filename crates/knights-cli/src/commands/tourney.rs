//! `knights tourney`, `join`, `shatter` and `obfuscate`: the tourney method
//! of Parberry 2020 on the command line.

use std::process::ExitCode;

use anyhow::Result;
use knights::format::{self, Valid};
use knights::rails::{self, JoinStats, ObfuscateOptions};
use knights::Tourney;
use knights::{Cover, Error};

use super::{parse_board, write_tour, write_tourney};
use crate::cli::{CoverArgs, ObfuscateArgs, TourneyArgs};

/// `knights tourney BOARD`.
pub fn run(args: TourneyArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let g = args.algorithm;
    let t = Tourney::builder(board)
        .generator(g)
        .seed(args.seed.seed)
        .build()?;
    write_tourney(
        &t,
        &args.output,
        &[
            ("algorithm", g.name().into()),
            ("seed", args.seed.seed.into()),
        ],
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Reads a closed tour or tourney file as a cover; the start of a tour, if any.
fn read_cover(file: &str, what: &str) -> Result<(Cover, Option<u32>)> {
    let text = crate::io_util::read_input(file)?;
    match format::read(&text)?.into_valid()? {
        Valid::Tour(t) if t.is_closed() => Ok((Cover::from_tour(&t)?, Some(t.start()))),
        Valid::Tour(t) => Err(Error::Unsupported(format!(
            "{what} needs a closed tour or a tourney, and this is an open tour of {}",
            t.board()
        ))
        .into()),
        Valid::Tourney(t) => Ok((Cover::from_tourney(&t)?, None)),
    }
}

fn stats_json(stats: &JoinStats) -> serde_json::Value {
    serde_json::json!({
        "cycles_before": stats.cycles_before,
        "cycles_after_first_pass": stats.cycles_after_first_pass,
        "passes": stats.passes,
        "rails_switched": stats.rails_switched,
        "two_opt_merges": stats.two_opt_merges,
        "posa_merges": stats.posa_merges,
        "posa_failures": stats.posa_failures,
        "reference_steps": stats.reference_steps,
    })
}

/// `knights join FILE`.
pub fn join(args: CoverArgs) -> Result<ExitCode> {
    let (mut cover, start) = read_cover(&args.file.file, "join")?;
    let mut rng = knights::rng::seeded(args.seed.seed);
    let stats = rails::join(&mut cover, &Default::default(), &mut rng)?;
    let tour = cover.to_tour(start.unwrap_or(0), None)?;
    write_tour(&tour, &args.output, &[("join", stats_json(&stats))])?;
    Ok(ExitCode::SUCCESS)
}

/// `knights shatter FILE`.
pub fn shatter(args: CoverArgs) -> Result<ExitCode> {
    let (mut cover, _) = read_cover(&args.file.file, "shatter")?;
    let mut rng = knights::rng::seeded(args.seed.seed);
    let switched = rails::shatter(&mut cover, &mut rng)?;
    write_tourney(
        &cover.to_tourney()?,
        &args.output,
        &[
            ("rails_switched", switched.into()),
            ("seed", args.seed.seed.into()),
        ],
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `knights obfuscate FILE`.
pub fn obfuscate(args: ObfuscateArgs) -> Result<ExitCode> {
    let (mut cover, start) = read_cover(&args.cover.file.file, "obfuscate")?;
    let mut rng = knights::rng::seeded(args.cover.seed.seed);
    let options = ObfuscateOptions {
        shatters: args.shatters,
        ..Default::default()
    };
    let stats = rails::obfuscate(&mut cover, &options, &mut rng)?;
    let tour = cover.to_tour(start.unwrap_or(0), None)?;
    write_tour(
        &tour,
        &args.cover.output,
        &[
            ("join", stats_json(&stats)),
            ("seed", args.cover.seed.seed.into()),
        ],
    )?;
    Ok(ExitCode::SUCCESS)
}
