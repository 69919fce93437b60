//! `knights tour`: the flags become the library's [`TourRequest`], which
//! checks them and makes the tour.

use anyhow::Result;
use knights::algorithms::Algorithm;
use knights::request::{JobRequest, TourAnswer, TourRequest};
use knights::{exists, Control, Wanted};

use super::{format_of, place, write_tour};
use crate::cli::{FormatArg, TourArgs};

/// Shatters of `--obfuscate`.
const OBFUSCATE_SHATTERS: u32 = 16;

pub fn run(args: TourArgs) -> Result<u8> {
    format_of(&args.output)?;
    let (board, holes) = place(&args.board)?;
    let request = TourRequest {
        board,
        holes,
        wrap: args.shape.wrap.clone(),
        leaper: args.shape.leaper.clone(),
        kind: args.kind.wanted(),
        algorithm: args.algorithm.name().into(),
        seed: args.seed.unwrap_or(0),
        start: args.start.clone(),
        end: args.end.clone(),
        tie: args.tie.map(|t| t.name().into()),
        max_attempts: args.max_attempts,
        max_nodes: args.max_nodes,
        obfuscate: args.obfuscate.then_some(OBFUSCATE_SHATTERS),
    };
    let t0 = std::time::Instant::now();
    let TourAnswer {
        tour, algorithm, ..
    } = request.run(&control(&request, args.algorithm))?;
    let seconds = t0.elapsed().as_secs_f64();
    if tour.is_plain()
        && request.end.is_none()
        && request.kind == Wanted::Either
        && !tour.is_closed()
        && exists::closed_tour(tour.board()).exists
    {
        crate::warn!(
            "knights: {} made an open tour of {} (it found no closed one within its share of the budget); --closed insists on a closed tour",
            algorithm.name(),
            tour.board()
        );
    }
    note_unused_seed(&args, &request, algorithm);
    let mut extra = vec![
        ("algorithm", algorithm.name().into()),
        ("seed", request.seed.into()),
    ];
    if args.output.format == Some(FormatArg::Summary) {
        extra.push(("seconds", seconds.into())); // only the summary shows the time
    }
    write_tour(&tour, &args.output, &extra)?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// The control of a search that may run long (a shape, an end square or a
/// backtracking algorithm): the first Ctrl-C stops it and says so; a quick
/// walk is simply ended by Ctrl-C.
fn control(request: &TourRequest, algorithm: Algorithm) -> Control {
    let long = request.holes.is_some()
        || request.wrap.as_deref().is_some_and(|w| w != "none")
        || request.leaper.is_some()
        || request.end.is_some()
        || matches!(algorithm, Algorithm::Backtrack(_) | Algorithm::Hybrid(_));
    if long {
        Control::new().stop(crate::output::stop_on_ctrl_c())
    } else {
        Control::new()
    }
}

/// Says on stderr that `--seed` changes nothing, when it is given to a
/// method without random choices (`algorithm`, with its options) on the
/// plain board, without `--obfuscate` (which draws on it).
fn note_unused_seed(args: &TourArgs, request: &TourRequest, algorithm: Algorithm) {
    let plain = request.holes.is_none()
        && request.wrap.as_deref().is_none_or(|w| w == "none")
        && request.leaper.is_none();
    if args.seed.is_none() || algorithm.uses_seed() || args.obfuscate || !plain {
        return;
    }
    let method = match algorithm {
        Algorithm::Warnsdorff(_) => "warnsdorff with --tie first",
        a => a.name(),
    };
    crate::warn!(
        "knights: note: --seed changes nothing here: {method} has no random choices and makes the same tour for every seed (warnsdorff's other tie-breaks, the tourney methods, takefuji-lee and --obfuscate draw on it)"
    );
}
