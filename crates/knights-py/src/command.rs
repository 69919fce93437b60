//! The `knights` command inside the wheel: the console script `knights`
//! and `python -m knights` hand their arguments to
//! [`knights_cli::run_command_line`], the same function the Rust binary
//! calls, so the command, its page (`knights serve`) and its exit statuses
//! come with `pip install knights` and no Rust toolchain.
//!
//! The command owns the process while it runs, as a program does: it
//! writes to the standard streams itself, and it installs its own Ctrl-C
//! handler (the first Ctrl-C stops the work, which ends with status 130),
//! so it is for the console script, not for a call inside a longer Python
//! program. It runs with the GIL released; a panic ends it with the
//! internal fault's status (70) rather than unwinding into Python.

use std::ffi::OsString;
use std::panic::{catch_unwind, AssertUnwindSafe};

use knights_cli::exit::EXIT_INTERNAL;
use pyo3::prelude::*;

/// Runs the `knights` command with `args` (the program's name first) and
/// returns its exit status.
#[pyfunction]
pub(crate) fn run_command_line(py: Python<'_>, args: Vec<OsString>) -> u8 {
    py.detach(move || {
        catch_unwind(AssertUnwindSafe(|| knights_cli::run_command_line(args)))
            .unwrap_or(EXIT_INTERNAL)
    })
}
