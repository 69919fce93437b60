//! `knights hint`: a partial path in a tour file becomes the library's
//! [`PositionRequest`] (the library reads the file, `PositionRequest::read`),
//! with the goal and budget from the flags; its answer is printed as the
//! verdict, the reason, the completion and every legal move judged, or as
//! the answer's JSON. Every verdict is an answer (status 0); a file that is
//! no partial path, or a move that is not legal, is bad input (status 2).

use anyhow::Result;
use knights::request::{JobRequest, PositionAnswer, PositionRequest, DEFAULT_MAX_NODES};
use knights::Control;

use crate::cli::{HintArgs, HintFormat};

pub fn run(args: HintArgs) -> Result<u8> {
    let text = crate::io_util::read_input(&args.file.file)?;
    let request = PositionRequest {
        kind: args.kind.parse()?,
        end: args.end.clone(),
        max_nodes: args.max_nodes,
        ..PositionRequest::read(&text)?
    };
    let control = Control::new().stop(crate::output::stop_on_ctrl_c());
    let answer = request.run(&control)?;
    match args.format {
        HintFormat::Json => crate::outln!("{}", serde_json::to_string(&answer)?)?,
        HintFormat::Text => {
            let budget = request.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
            crate::outln!("{}", text_answer(&request, &answer, budget).trim_end())?
        }
    }
    Ok(crate::exit::EXIT_SUCCESS)
}

/// The answer in words: the verdict (its first word `finishable`, `not
/// finishable` or `unknown`) and why, the path, the finished tour's kind,
/// the completion, then each legal move with its status.
fn text_answer(request: &PositionRequest, a: &PositionAnswer, budget: u64) -> String {
    let name = |s: u32| format!("({}, {})", s / a.cols, s % a.cols);
    let goal = match request.kind {
        knights::Wanted::Either => "a tour of either kind",
        knights::Wanted::Open => "an open tour",
        knights::Wanted::Closed => "a closed tour",
    };
    let mut out = match a.verdict {
        "finishable" if a.won => format!("finishable - the path is {goal}, finished\n"),
        "finishable" => format!("finishable - the path can still be finished as {goal}\n"),
        "not-finishable" => format!(
            "not finishable - {}\n",
            a.reason.as_deref().unwrap_or("no way to finish")
        ),
        _ => format!(
            "unknown - the search ran out of its budget of {budget} node{} before it decided; allow it more with --max-nodes N\n",
            if budget == 1 { "" } else { "s" }
        ),
    };
    let squares = a.path.len() + a.left;
    out += &format!("path: {} of {squares} squares", a.path.len());
    if let Some(&last) = a.path.last() {
        out += &format!(", the knight on {}", name(last));
    }
    out += "\n";
    if let Some(kind) = a.finished {
        out += &format!(
            "finished: {} {kind} tour on {}x{}, by the checker{}\n",
            if kind == knights::Kind::Open {
                "an"
            } else {
                "a"
            },
            a.rows,
            a.cols,
            if a.won {
                ""
            } else {
                ", not the tour asked for"
            }
        );
    }
    if let Some(rest) = a.completion.as_ref().filter(|r| !r.is_empty()) {
        let rest: Vec<String> = rest.iter().map(|&s| name(s)).collect();
        out += &format!("completion: {}\n", rest.join(" "));
    }
    let legal: Vec<String> = a.legal_moves.iter().map(|&s| name(s)).collect();
    out += &format!(
        "legal moves: {}\n",
        if legal.is_empty() {
            "none".to_string()
        } else {
            legal.join(" ")
        }
    );
    for h in &a.hints {
        let onward = match h.onward {
            1 => "1 onward move".to_string(),
            n => format!("{n} onward moves"),
        };
        let why = match (h.status, &h.reason) {
            ("losing", Some(r)) => format!(": {r}"),
            ("unknown", _) => ": not decided within the budget".to_string(),
            _ => String::new(),
        };
        out += &format!("  {} {}, {onward}{why}\n", name(h.square), h.status);
    }
    out
}
