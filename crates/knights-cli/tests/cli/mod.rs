//! Helpers shared by the CLI tests.

mod basics;
mod check;
mod cipher;
mod classic;
mod construct;
mod count;
mod output;
mod paper;
mod robust;
mod stats;
mod tourney;

use assert_cmd::Command;

/// The `knights` binary.
pub fn knights() -> Command {
    Command::cargo_bin("knights").expect("the knights binary is built")
}

/// Runs `knights ARGS` with `stdin`; (exit status, stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = knights()
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("knights runs");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

/// The path of a file in the library's test data.
pub fn data(name: &str) -> String {
    format!(
        "{}/../knights/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}
