//! The `knights` command: knight's tours on any board. The command is
//! the library's [`knights_cli::run_command_line`]; this binary hands it
//! the process's arguments and exits with its status (see the library's
//! docs for the statuses).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(knights_cli::run_command_line(std::env::args_os()))
}
