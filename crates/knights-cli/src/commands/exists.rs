//! `knights exists`: the flags become the library's [`ExistsRequest`],
//! whose answer is printed as one line: yes, no or unknown, what was asked
//! and why. A plain board is decided by the theorems; holes, wrapping,
//! another leaper or given squares by the necessary conditions, the
//! theorems, the table and a search under --max-nodes ("unknown", exit
//! status 3, when it runs out).

use anyhow::Result;
use knights::request::{ExistsAnswer, ExistsRequest, JobRequest};
use knights::{Control, Wanted};

use super::place;
use crate::cli::ExistsArgs;

pub fn run(args: ExistsArgs) -> Result<u8> {
    let (board, holes) = place(&args.board)?;
    let request = ExistsRequest {
        board,
        holes,
        wrap: args.shape.wrap.clone(),
        leaper: args.shape.leaper.clone(),
        kind: args.kind.wanted(),
        start: args.start.clone(),
        end: args.end.clone(),
        max_nodes: args.max_nodes,
    };
    let control = Control::new().stop(crate::output::stop_on_ctrl_c());
    let answer = request.run(&control)?;
    let shape = request.shape()?;
    let line = match &answer.theorem {
        Some(_) if request.kind == Wanted::Either && answer.kind == Wanted::Open => {
            no_closed_tour(&request, &answer, &control, &shape)?
        }
        Some(theorem) => format!(
            "{} tour on {shape}: {} ({theorem})",
            answer.kind.name(),
            answer.reason
        ),
        None => {
            let what = match (request.kind, &request.end) {
                (_, Some(_)) => "tour between the given squares",
                (Wanted::Closed, _) => "closed tour",
                (Wanted::Open, _) => "open tour",
                (Wanted::Either, _) => "tour",
            };
            format!("{what} on {shape}: {}", answer.reason)
        }
    };
    crate::outln!("{} - {line}", answer.answer)?;
    Ok(match answer.answer.as_str() {
        "yes" => crate::exit::EXIT_SUCCESS,
        "no" => crate::exit::EXIT_NO_ANSWER,
        _ => crate::exit::EXIT_UNKNOWN,
    })
}

/// Either kind asked on a plain board without a closed tour: the open
/// tour's answer and theorem, then why there is no closed tour, each
/// answered by the library.
fn no_closed_tour(
    request: &ExistsRequest,
    answer: &ExistsAnswer,
    control: &Control,
    shape: &knights::Shape,
) -> Result<String> {
    let ask = |kind| {
        ExistsRequest {
            kind,
            ..request.clone()
        }
        .run(control)
    };
    let (open, closed) = (ask(Wanted::Open)?, ask(Wanted::Closed)?);
    let word = if answer.answer == "yes" { "open" } else { "no" };
    let theorem = |a: &ExistsAnswer| a.theorem.clone().unwrap_or_default();
    Ok(format!(
        "{word} tour on {shape}: {} ({}); no closed tour: {} ({})",
        open.reason,
        theorem(&open),
        closed.reason,
        theorem(&closed)
    ))
}
