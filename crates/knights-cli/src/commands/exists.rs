//! `knights exists`: the existence theorems.

use std::process::ExitCode;

use anyhow::Result;
use knights::exists;

use super::parse_board;
use crate::cli::ExistsArgs;

pub fn run(args: ExistsArgs) -> Result<ExitCode> {
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
