//! The `knights` command: knight's tours on any board.
//!
//! `main` only calls `commands::run` and turns its outcome into an exit status:
//! 0 done, 1 a valid request with no answer, 2 bad usage or unreadable input.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

mod cli;
mod commands;
mod io_util;
mod output;

/// Exit status for a valid request with no answer.
const EXIT_NO_ANSWER: u8 = 1;
/// Exit status for bad usage or unreadable input.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    output::install_ctrl_c();
    match commands::run(args) {
        Ok(code) => code,
        Err(e) => report(&e),
    }
}

/// Prints an error in one or two plain sentences and picks the exit status.
fn report(e: &anyhow::Error) -> ExitCode {
    if let Some(io) = e.downcast_ref::<io::Error>() {
        if io.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
    }
    let _ = writeln!(io::stderr(), "knights: {e:#}");
    let usage = match e.downcast_ref::<knights::Error>() {
        Some(k) => k.is_usage(),
        None => true,
    };
    ExitCode::from(if usage { EXIT_USAGE } else { EXIT_NO_ANSWER })
}
