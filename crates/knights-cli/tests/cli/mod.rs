//! Helpers shared by the CLI tests.

mod basics;
mod boards;
mod check;
mod cipher;
mod classic;
mod conformance;
mod construct;
mod count;
mod count_budgets;
mod count_files;
#[cfg(feature = "distributed")]
mod distributed;
#[cfg(feature = "distributed")]
mod distributed_safety;
mod dry_run;
mod first_use;
mod hint;
mod magic;
mod meet_resume;
mod memory;
mod output;
mod pictures;
mod promises;
mod puzzle;
mod readme;
mod robust;
mod sheet;
mod squares;
mod stats;
mod tourney;
mod work_dir;

use assert_cmd::Command;

/// A fresh, empty scratch folder for one test, named after it and this
/// process (so parallel test runs do not meet).
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("knights-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder can be made");
    dir
}

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
