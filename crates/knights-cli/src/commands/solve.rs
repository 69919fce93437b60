//! `knights solve`: a puzzle file (and, with `--step`, the numbers placed
//! so far) becomes the library's [`SolveRequest`]; the answer is printed
//! as a verdict line and each solution's numbered grid, or one step, or
//! as the answer's JSON. A puzzle with no solution, or one the budget does
//! not decide, is status 1 with the reason (docs/formats.md, "Puzzles").

use anyhow::Result;
use knights::format;
use knights::request::{
    JobRequest, SolutionsAnswer, SolveAnswer, SolveRequest, StepAnswer, DEFAULT_SOLVE_NODES,
};
use knights::{Control, Error, Shape, Tour};

use crate::cli::{SolveArgs, SolveFormat};
use crate::support::in_cli_words;

pub fn run(args: SolveArgs) -> Result<u8> {
    let request = SolveRequest {
        progress: match &args.progress {
            Some(file) => Some(crate::io_util::read_input(file)?),
            None => None,
        },
        limit: args.limit,
        max_nodes: args.max_nodes,
        step: args.step,
        ..SolveRequest::new(&crate::io_util::read_input(&args.file.file)?)
    };
    let plan = request.plan()?;
    let (shape, base) = (plan.puzzle.shape().clone(), plan.puzzle.base());
    let control = Control::new().stop(crate::output::stop_on_ctrl_c());
    let answer = match SolveRequest::run_plan(plan, &control) {
        Ok(answer) => answer,
        Err(e @ (Error::NoTour(_) | Error::GaveUp(_))) if args.format == SolveFormat::Text => {
            crate::outln!("{}", no_answer_line(&e))?;
            return Ok(crate::exit::EXIT_NO_ANSWER);
        }
        Err(e) => return Err(e.into()),
    };
    if args.format == SolveFormat::Json {
        crate::outln!("{}", serde_json::to_string(&answer)?)?;
        return Ok(crate::exit::EXIT_SUCCESS);
    }
    let budget = request.max_nodes.unwrap_or(DEFAULT_SOLVE_NODES);
    let text = match &answer {
        SolveAnswer::Solutions(a) => solutions_text(a, request.limit, &shape, base),
        SolveAnswer::Step(s) => step_line(s, budget),
    };
    crate::outln!("{}", text.trim_end())?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// `no solution - REASON` or `unknown - REASON; allow more with
/// --max-nodes N`.
fn no_answer_line(e: &Error) -> String {
    match e {
        Error::NoTour(_) => {
            let said = e.unhinted().to_string();
            let why = said
                .strip_prefix("this puzzle has no solution: ")
                .unwrap_or(&said);
            format!("no solution - {why}")
        }
        _ => format!("unknown - {}", in_cli_words(e)),
    }
}

/// The verdict line, then each solution's numbered grid in the puzzle's
/// base, a blank line between them.
fn solutions_text(a: &SolutionsAnswer, limit: usize, shape: &Shape, base: u32) -> String {
    let verdict = if a.unique {
        "unique solution".to_string()
    } else if a.count >= limit {
        format!(
            "{} solution{} found (limit {limit})",
            a.count,
            if a.count == 1 { "" } else { "s" }
        )
    } else if a.complete {
        format!("{} solutions, and no more", a.count)
    } else {
        format!(
            "{} solution{} found before the search ran out of its budget; allow more with --max-nodes N",
            a.count,
            if a.count == 1 { "" } else { "s" }
        )
    };
    let grids: Vec<String> = a
        .solutions
        .iter()
        .map(|squares| {
            let tour = Tour::from_squares_unchecked_on(shape, squares.clone());
            format::grid(&tour, base).to_string()
        })
        .collect();
    format!("{verdict}\n{}", grids.join("\n"))
}

/// One line: `(r, c) = N: reason`, `contradiction: reason`, `solved` or
/// `stuck: ...`.
fn step_line(s: &StepAnswer, budget: u64) -> String {
    let reason = s.reason.as_deref().unwrap_or_default();
    match (s.outcome, s.at) {
        ("deduction", Some([r, c, n])) => format!("({r}, {c}) = {n}: {reason}\n"),
        ("contradiction", _) => format!("contradiction: {reason}\n"),
        ("solved", _) => "solved\n".into(),
        _ => format!(
            "stuck: no square is forced by the reasoning the solver names within its budget of {budget} nodes; allow more with --max-nodes N\n"
        ),
    }
}
