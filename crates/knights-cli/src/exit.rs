//! How a command ends, in one place for `knights` and `knights-lab`: the
//! exit status comes from the library error's category (see the binaries'
//! docs and docs/formats.md), and every message starts with the program's
//! name.

use std::io::{self, IsTerminal, Write};

use knights::Category;

/// Exit status for a command that did what it was asked.
pub const EXIT_SUCCESS: u8 = 0;
/// Exit status for a valid request with no answer.
pub const EXIT_NO_ANSWER: u8 = 1;
/// Exit status for "unknown": a search ran out of its budget (`exists`).
pub const EXIT_UNKNOWN: u8 = 3;
/// Exit status for bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;
/// Exit status for a fault of the program (sysexits' EX_SOFTWARE).
pub const EXIT_INTERNAL: u8 = 70;
/// Exit status for a failed read or write of a file (sysexits' EX_IOERR).
pub const EXIT_IO: u8 = 74;
/// Exit status for work stopped by Ctrl-C (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Prints what clap made of the arguments: help and the version on
/// standard output through [`outln!`](crate::outln) (so a failed write is an error, exit
/// 2), usage errors on standard error starting with `program:` as every error
/// does, with clap's usage line and tip kept (exit 2).
pub fn clap_outcome(program: &str, e: &clap::Error) -> u8 {
    if !e.use_stderr() {
        let text = if io::stdout().is_terminal() {
            e.render().ansi().to_string()
        } else {
            e.render().to_string()
        };
        return match crate::outln!("{}", text.trim_end()) {
            Ok(()) => EXIT_SUCCESS,
            Err(err) => report(program, &err),
        };
    }
    let text = e.render().to_string();
    match text.strip_prefix("error: ") {
        Some(rest) => crate::warn!("{program}: {}", rest.trim_end()),
        // Help in place of an error (no subcommand given): as clap writes it.
        None => crate::warn!("{}", text.trim_end()),
    }
    EXIT_USAGE
}

/// An error's chain of contexts, each as its text, down to the library's
/// error in the command line's words (whose own sources it already says).
fn message(e: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for cause in e.chain() {
        if let Some(library) = cause.downcast_ref::<knights::Error>() {
            parts.push(crate::support::in_cli_words(library));
            break;
        }
        parts.push(cause.to_string());
    }
    parts.join(": ")
}

/// Prints an error in one or two plain sentences and picks the exit status.
pub fn report(program: &str, e: &anyhow::Error) -> u8 {
    match outcome(e) {
        Some((status, text)) => {
            let _ = writeln!(io::stderr(), "{program}: {text}");
            status
        }
        None => EXIT_SUCCESS,
    }
}

/// An error's exit status and message (without the program's name), as
/// [`report`] prints it; `None` for a closed standard output, a quiet
/// success.
pub fn outcome(e: &anyhow::Error) -> Option<(u8, String)> {
    if let Some(io) = e.downcast_ref::<io::Error>() {
        if io.kind() == io::ErrorKind::BrokenPipe {
            return None;
        }
    }
    let status = match e
        .downcast_ref::<knights::Error>()
        .map(knights::Error::category)
    {
        Some(Category::NoAnswer) => EXIT_NO_ANSWER,
        Some(Category::Interrupted) => EXIT_INTERRUPTED,
        Some(Category::Internal) => EXIT_INTERNAL,
        Some(Category::Io) => EXIT_IO,
        // Bad input, over a limit, and failures outside the library (files).
        _ => EXIT_USAGE,
    };
    Some((status, message(e)))
}
