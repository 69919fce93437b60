//! `knights check`: the file (and, with `--puzzle`, the puzzle it must
//! solve) becomes the library's [`CheckRequest`], whose answer is the
//! independent checker's verdict, or a puzzle's (its solution unique); a
//! semimagic or magic tour's line sums follow the verdict.

use anyhow::Result;
use knights::magic::Magic;
use knights::request::{CheckPlan, CheckRequest, JobRequest, PuzzleCheck};
use knights::Control;

use crate::cli::CheckArgs;

pub fn run(args: CheckArgs) -> Result<u8> {
    let request = CheckRequest {
        text: crate::io_util::read_input(&args.file.file)?,
        puzzle: match &args.puzzle {
            Some(file) => Some(crate::io_util::read_input(file)?),
            None => None,
        },
    };
    let plan = request.plan()?;
    let what = match &plan {
        CheckPlan::File(_) => "not a valid tour or tourney",
        CheckPlan::Puzzle(p) => match **p {
            PuzzleCheck::Puzzle { .. } => "not a good puzzle",
            PuzzleCheck::Solution { .. } => "not a solution of the puzzle",
        },
    };
    let control = Control::new().stop(crate::output::stop_on_ctrl_c());
    let answer = CheckRequest::run_plan(plan, &control)?;
    if answer.valid {
        crate::outln!("{}", answer.verdict)?;
        // A semimagic or magic tour's sums; nothing for an ordinary tour.
        if let Some(sums) = answer.magic.filter(|s| s.magic != Magic::No) {
            crate::outln!("{}", sums.describe())?;
        }
        Ok(crate::exit::EXIT_SUCCESS)
    } else {
        crate::warn!("knights: {what}: {}.", answer.verdict);
        Ok(crate::exit::EXIT_NO_ANSWER)
    }
}
