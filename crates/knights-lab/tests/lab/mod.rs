//! Helpers shared by the lab's tests.

mod experiment;
mod output;
mod paper;

use assert_cmd::Command;

/// A fresh, empty scratch folder for one test, named after it and this
/// process (so parallel test runs do not meet).
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("knights-lab-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder can be made");
    dir
}

/// The `knights-lab` binary.
pub fn lab() -> Command {
    Command::cargo_bin("knights-lab").expect("the knights-lab binary is built")
}

/// Runs `knights-lab ARGS` with `stdin`; (exit status, stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = lab()
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("knights-lab runs");
    (
        out.status.code().expect("exited normally"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}
