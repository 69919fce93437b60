//! `knights tourney`, `join`, `shatter` and `obfuscate`: the tourney method
//! of Parberry 2020 on the command line. The arguments become the library's
//! [`TourneyRequest`], [`JoinRequest`], [`ShatterRequest`] and
//! [`ObfuscateRequest`], which check them (a closed tour or tourney, the
//! shatters' limits) and do the work; this module writes the answer.

use anyhow::Result;
use knights::request::{
    JobRequest, JoinAnswer, JoinRequest, ObfuscateRequest, ShatterRequest, TourneyRequest,
};
use knights::Control;

use super::{format_of, tourney_format_of, write_tour, write_tourney};
use crate::cli::{CoverArgs, ObfuscateArgs, TourneyArgs};

/// `knights tourney BOARD`.
pub fn run(args: TourneyArgs) -> Result<u8> {
    tourney_format_of(&args.output)?;
    let request = TourneyRequest {
        board: args.board.board.clone(),
        algorithm: args.algorithm.name().into(),
        seed: args.seed.seed,
    };
    let answer = request.run(&Control::new())?;
    write_tourney(
        &answer.tourney,
        &args.output,
        &[
            ("algorithm", request.algorithm.into()),
            ("seed", request.seed.into()),
        ],
    )?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// The request of a closed tour or tourney file, after the output
/// file's name is checked.
fn cover_request(args: &CoverArgs) -> Result<JoinRequest> {
    format_of(&args.output)?;
    Ok(JoinRequest {
        cover: crate::io_util::read_input(&args.file.file)?,
        seed: args.seed.seed,
    })
}

/// `knights join FILE`.
pub fn join(args: CoverArgs) -> Result<u8> {
    let answer = cover_request(&args)?.run(&Control::new())?;
    let facts = join_facts(&answer)?;
    write_tour(&answer.tour.tour, &args.output, &[("join", facts)])?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// `knights shatter FILE`.
pub fn shatter(args: CoverArgs) -> Result<u8> {
    tourney_format_of(&args.output)?;
    let cover = cover_request(&args)?;
    let request = ShatterRequest {
        cover: cover.cover,
        seed: cover.seed,
    };
    let answer = request.run(&Control::new())?;
    write_tourney(
        &answer.tourney.tourney,
        &args.output,
        &[
            ("rails_switched", answer.rails_switched.into()),
            ("seed", request.seed.into()),
        ],
    )?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// `knights obfuscate FILE`.
pub fn obfuscate(args: ObfuscateArgs) -> Result<u8> {
    let cover = cover_request(&args.cover)?;
    let request = ObfuscateRequest {
        cover: cover.cover,
        seed: cover.seed,
        shatters: args.shatters,
    };
    let answer = request.run(&Control::new())?;
    let facts = join_facts(&answer)?;
    write_tour(
        &answer.tour.tour,
        &args.cover.output,
        &[("join", facts), ("seed", request.seed.into())],
    )?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// What the join did, as the tour file's `join` key holds it: the
/// library's answer without its tour.
fn join_facts(answer: &JoinAnswer) -> Result<serde_json::Value> {
    let mut facts = serde_json::to_value(answer)?;
    if let Some(fields) = facts.as_object_mut() {
        fields.remove("tour");
    }
    Ok(facts)
}
