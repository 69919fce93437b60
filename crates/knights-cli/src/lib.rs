//! The `knights` command: knight's tours on any board, as a library.
//!
//! [`run_command_line`] is the whole command: the binary `knights`
//! (`src/main.rs`) calls it, and so does the Python package's console
//! script (`knights` and `python -m knights`), so both doors parse, run
//! and end alike. It dispatches to the command's module (`commands`) and
//! turns the outcome into an exit status, in one place ([`exit`], shared
//! with `knights-lab`), from the library error's category: 0 done, 1 a
//! valid request with no answer, 2 bad usage, unreadable input or over a
//! limit of the machine, 3 unknown (`exists` on a board no theorem
//! decides, when the search runs out of its budget), 70 an internal
//! fault, 74 a file that could not be read or written, 130 interrupted.
//!
//! What the command and the research harness `knights-lab` share is
//! public: how they write ([`output`]), read ([`io_util`]), report
//! progress and parse option values ([`support`]), and how they end
//! ([`exit`]).

use std::ffi::OsString;

use anyhow::Result;
use clap::Parser;

mod cli;
mod commands;
#[cfg(feature = "distributed")]
mod distributed;
pub mod exit;
pub mod io_util;
pub mod output;
pub mod support;

use cli::{Cli, Command};
use exit::{clap_outcome, report};

/// Runs the `knights` command on `args` (the program's name first, as
/// [`std::env::args_os`] gives them) and returns its exit status.
///
/// It writes to the process's standard output and error, and installs
/// the process's Ctrl-C handler (a first Ctrl-C stops the work, which
/// ends with status 130), so call it once per process.
///
/// ```no_run
/// let status = knights_cli::run_command_line(["knights", "tour", "8x8"]);
/// assert_eq!(status, 0);
/// ```
pub fn run_command_line<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args = match Cli::try_parse_from(args) {
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
fn run(cli: Cli) -> Result<u8> {
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
