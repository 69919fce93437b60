//! The `knights` command: knight's tours on any board.
//!
//! `main` only calls `commands::run` and turns its outcome into an exit status,
//! in one place, from the library error's category: 0 done, 1 a valid
//! request with no answer, 2 bad usage, unreadable input or over a limit of
//! the machine, 3 unknown (`exists` on a board no theorem decides, when the
//! search runs out of its budget), 70 an internal fault, 130 interrupted.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use knights::Category;

mod cli;
mod commands;
mod io_util;
mod output;
mod serve;
mod support;
mod timing_runs;

/// Exit status for a valid request with no answer.
const EXIT_NO_ANSWER: u8 = 1;
/// Exit status for "unknown": a search ran out of its budget (`exists`).
const EXIT_UNKNOWN: u8 = 3;
/// Exit status for bad usage or unreadable input.
const EXIT_USAGE: u8 = 2;
/// Exit status for a fault of the program (sysexits' EX_SOFTWARE).
const EXIT_INTERNAL: u8 = 70;
/// Exit status for a failed read or write of a file (sysexits' EX_IOERR).
const EXIT_IO: u8 = 74;
/// Exit status for work stopped by Ctrl-C (128 + SIGINT).
const EXIT_INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return clap_outcome(&e),
    };
    output::install_ctrl_c();
    match commands::run(args) {
        Ok(code) => code,
        Err(e) => report(&e),
    }
}

/// Prints what clap made of the arguments: help and the version on
/// standard output through [`outln!`] (so a failed write is an error, exit
/// 2), usage errors on standard error starting `knights:` as every error
/// does, with clap's usage line and tip kept (exit 2).
fn clap_outcome(e: &clap::Error) -> ExitCode {
    if !e.use_stderr() {
        let text = if io::stdout().is_terminal() {
            e.render().ansi().to_string()
        } else {
            e.render().to_string()
        };
        return match outln!("{}", text.trim_end()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => report(&err),
        };
    }
    let text = e.render().to_string();
    match text.strip_prefix("error: ") {
        Some(rest) => warn!("knights: {}", rest.trim_end()),
        // Help in place of an error (no subcommand given): as clap writes it.
        None => warn!("{}", text.trim_end()),
    }
    ExitCode::from(EXIT_USAGE)
}

/// An error's chain of contexts, each as its text, down to the library's
/// error in the command line's words (whose own sources it already says).
fn message(e: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for cause in e.chain() {
        if let Some(library) = cause.downcast_ref::<knights::Error>() {
            parts.push(support::in_cli_words(library));
            break;
        }
        parts.push(cause.to_string());
    }
    parts.join(": ")
}

/// Prints an error in one or two plain sentences and picks the exit status.
fn report(e: &anyhow::Error) -> ExitCode {
    if let Some(io) = e.downcast_ref::<io::Error>() {
        if io.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
    }
    let _ = writeln!(io::stderr(), "knights: {}", message(e));
    ExitCode::from(
        match e
            .downcast_ref::<knights::Error>()
            .map(knights::Error::category)
        {
            Some(Category::NoAnswer) => EXIT_NO_ANSWER,
            Some(Category::Interrupted) => EXIT_INTERRUPTED,
            Some(Category::Internal) => EXIT_INTERNAL,
            Some(Category::Io) => EXIT_IO,
            // Bad input, over a limit, and failures outside the library (files).
            _ => EXIT_USAGE,
        },
    )
}
