//! `knights exists`: the existence theorems.

use std::process::ExitCode;

use anyhow::Result;
use knights::algorithms::Spec;
use knights::exists;
use knights::exists::Answer;

use super::parse_board;
use crate::cli::ExistsArgs;

pub fn run(args: ExistsArgs) -> Result<ExitCode> {
    let shape = args.board.parse_shape(&args.shape)?;
    if !shape.is_plain() || args.start.is_some() {
        return general(args, shape);
    }
    let board = parse_board(&args.board)?;
    let closed = exists::closed_tour(board);
    let open = exists::open_tour(board);
    let (answer, text) = if args.kind.closed {
        (
            closed.exists,
            format!(
                "closed tour on {board}: {} ({})",
                closed.reason, closed.theorem
            ),
        )
    } else if args.kind.open {
        (
            open.exists,
            format!("open tour on {board}: {} ({})", open.reason, open.theorem),
        )
    } else if closed.exists {
        (
            true,
            format!(
                "closed tour on {board}: {} ({})",
                closed.reason, closed.theorem
            ),
        )
    } else {
        (
            open.exists,
            format!(
                "{} tour on {board}: {} ({}); no closed tour: {} ({})",
                if open.exists { "open" } else { "no" },
                open.reason,
                open.theorem,
                closed.reason,
                closed.theorem
            ),
        )
    };
    crate::outln!("{} - {text}", if answer { "yes" } else { "no" })?;
    Ok(ExitCode::from(if answer {
        0
    } else {
        crate::EXIT_NO_ANSWER
    }))
}

/// Boards with holes, wrapping or another leaper, and given start or end
/// squares: the necessary conditions, the theorems and the table, then a
/// search under --max-nodes; "unknown" (exit status 3) when it runs out.
fn general(args: ExistsArgs, shape: knights::Shape) -> Result<ExitCode> {
    let square = |t: &Option<String>| t.as_deref().map(|s| shape.parse_square(s)).transpose();
    let start = square(&args.start)?;
    let end = square(&args.end)?;
    let spec = Spec {
        kind: args.kind.kind(),
        start,
        end,
        stop: crate::output::stop_on_ctrl_c(),
        ..Spec::on(shape.clone())
    };
    let d = exists::decide(&spec, args.max_nodes)?;
    let what = match (args.kind.kind(), end) {
        (_, Some(_)) => "tour between the given squares",
        (Some(knights::Kind::Closed), _) => "closed tour",
        (Some(knights::Kind::Open), _) => "open tour",
        (None, _) => "tour",
    };
    crate::outln!("{} - {what} on {shape}: {}", d.answer.word(), d.reason)?;
    Ok(ExitCode::from(match d.answer {
        Answer::Yes => 0,
        Answer::No => crate::EXIT_NO_ANSWER,
        Answer::Unknown => crate::EXIT_UNKNOWN,
    }))
}
