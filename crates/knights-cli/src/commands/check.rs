//! `knights check`: the file becomes the library's [`CheckRequest`], whose
//! answer is the independent checker's verdict.

use std::process::ExitCode;

use anyhow::Result;
use knights::request::{CheckRequest, Job};
use knights::Control;

use crate::cli::CheckArgs;

pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let request = CheckRequest {
        text: crate::io_util::read_input(&args.file.file)?,
    };
    let answer = request.run(&Control::new())?;
    if answer.valid {
        crate::outln!("{}", answer.verdict)?;
        Ok(ExitCode::SUCCESS)
    } else {
        crate::warn!("knights: not a valid tour or tourney: {}.", answer.verdict);
        Ok(ExitCode::from(crate::EXIT_NO_ANSWER))
    }
}
