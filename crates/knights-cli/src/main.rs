//! The `knights` command: knight's tours on any board.
//!
//! `main` dispatches to the command's module (`commands`) and turns its
//! outcome into an exit status, in one place (`knights_cli::exit`, shared with `knights-lab`),
//! from the library error's category: 0 done, 1 a valid request with no
//! answer, 2 bad usage, unreadable input or over a limit of the machine, 3 unknown (`exists` on a board no theorem decides, when the
//! search runs out of its budget), 70 an internal fault, 74 a file that could
//! not be read or written, 130 interrupted.

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;
use knights_cli::exit::{clap_outcome, report, EXIT_NO_ANSWER, EXIT_UNKNOWN};
use knights_cli::{io_util, outln, output, support, warn};

mod cli;
mod commands;
#[cfg(feature = "distributed")]
mod distributed;

use cli::{Cli, Command};

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return clap_outcome("knights", &e),
    };
    // A launcher of workers (`count --processes N`) forwards the signals
    // that stop it to them; every other command stops on Ctrl-C itself.
    #[cfg(feature = "distributed")]
    let launcher = args.launches_workers();
    #[cfg(not(feature = "distributed"))]
    let launcher = false;
    if launcher {
        #[cfg(feature = "distributed")]
        distributed::forward_stop_signals();
    } else {
        output::install_ctrl_c();
    }
    match run(args) {
        Ok(code) => code,
        Err(e) => report("knights", &e),
    }
}

/// Runs a parsed command line.
fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Tour(a) => commands::tour::run(a),
        Command::Check(a) => commands::check::run(a),
        Command::Puzzle(a) => commands::puzzle::run(a),
        Command::Solve(a) => commands::solve::run(a),
        Command::Magic(a) => commands::magic::run(a),
        Command::Exists(a) => commands::exists::run(a),
        Command::Hint(a) => commands::hint::run(a),
        Command::Render(a) => commands::render::run(a),
        Command::Graph(a) => commands::graph::run(a),
        Command::Bench(a) => commands::bench::run(a),
        Command::Encrypt(a) => commands::cipher::run(a, false),
        Command::Decrypt(a) => commands::cipher::run(a, true),
        Command::Tourney(a) => commands::tourney::run(a),
        Command::Sheet(a) => commands::sheet::run(a),
        Command::Join(a) => commands::tourney::join(a),
        Command::Shatter(a) => commands::tourney::shatter(a),
        Command::Obfuscate(a) => commands::tourney::obfuscate(a),
        Command::Count(a) => commands::count::run(a),
        Command::Estimate(a) => commands::estimate::run(a),
        Command::Stats(a) => commands::stats::run(a),
        Command::Serve(a) => commands::serve::run(a),
    }
}
