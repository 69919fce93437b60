//! The `knights` command: knight's tours on any board.
//!
//! `main` only calls `commands::run` and turns its outcome into an exit
//! status, in one place (`knights_cli::exit`, shared with `knights-lab`),
//! from the library error's category: 0 done, 1 a valid request with no
//! answer, 2 bad usage, unreadable input or over a limit of the machine, 3 unknown (`exists` on a board no theorem decides, when the
//! search runs out of its budget), 70 an internal fault, 130 interrupted.

use std::process::ExitCode;

use clap::Parser;
use knights_cli::exit::{clap_outcome, report, EXIT_NO_ANSWER, EXIT_UNKNOWN};
use knights_cli::{io_util, outln, output, support, warn};

mod cli;
mod commands;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return clap_outcome("knights", &e),
    };
    output::install_ctrl_c();
    match commands::run(args) {
        Ok(code) => code,
        Err(e) => report("knights", &e),
    }
}
