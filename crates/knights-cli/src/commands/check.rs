//! `knights check`: run the independent checker over a file.

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::CheckArgs;

pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let text = read_bounded(&args.file.file)?;
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

/// The most memory a reader of `check` takes per byte of its input (the
/// JSON reader's; the others refuse larger inputs themselves).
const BYTES_PER_BYTE: u64 = 8;

/// The largest input read.
const MAX_INPUT: u64 = 4 << 30;

/// Reads the file `path` (`-`: standard input) as text, stopping as soon as
/// it passes what a reader could fit in memory.
fn read_bounded(path: &str) -> Result<String> {
    let text = if path == "-" {
        let stdin = std::io::stdin().lock();
        knights::memory::read_text_within(stdin, "standard input", BYTES_PER_BYTE, MAX_INPUT)?
    } else {
        let file = std::fs::File::open(path).map_err(|e| {
            knights::Error::Parse(format!(
                "cannot open '{path}': {}",
                crate::io_util::lower(&e)
            ))
        })?;
        let what = format!("'{path}'");
        knights::memory::read_text_within(file, &what, BYTES_PER_BYTE, MAX_INPUT)?
    };
    Ok(text)
}
