//! `knights check`: run the independent checker over a file.

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::CheckArgs;

pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let text = crate::io_util::read_input(&args.file.file)?;
    let doc = knights::format::read(&text)?;
    match doc.check() {
        Ok(verdict) => {
            match (doc.shape(), &verdict) {
                (Some(shape), knights::check::Verdict::Tour { kind, .. }) => {
                    crate::outln!("{kind} tour on {shape}")?
                }
                _ => crate::outln!("{verdict}")?,
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(fault) => {
            crate::warn!("knights: not a valid tour or tourney: {fault}.");
            Ok(ExitCode::from(crate::EXIT_NO_ANSWER))
        }
    }
}
