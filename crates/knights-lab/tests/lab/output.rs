//! Output failures of the lab's commands: into a full disk and a closed
//! pipe, and the paper's files whole when it is stopped.

use std::path::Path;
use std::process::{Command, Stdio};

use super::scratch;

/// One quick invocation of every lab command that writes to standard output.
const EVERY_COMMAND: [&[&str]; 4] = [
    &["experiment", "warnsdorff", "6x6", "--trials", "20"],
    &["experiment", "backtrack", "5x5"],
    &["experiment", "timing", "--sizes", "8", "--runs", "1"],
    &["bench", "classic", "8x8", "--repeat", "1"],
];

#[test]
fn a_full_disk_is_one_line_and_status_74() {
    for args in EVERY_COMMAND {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(assert_cmd::cargo::cargo_bin("knights-lab"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // An I/O error: exit 74 (sysexits' EX_IOERR), as the product's.
        assert_eq!(out.status.code(), Some(74), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    for args in EVERY_COMMAND {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("knights-lab"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// Sends SIGINT to a process with the system's `kill`.
#[cfg(unix)]
fn interrupt(child: &std::process::Child) {
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
}

/// Every file `paper` left in `dir` is whole; with `interrupted`, no
/// temporary file is left either.
fn paper_files_are_whole(dir: &Path, interrupted: bool) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') {
            assert!(!interrupted, "temporary file {name} left after Ctrl-C");
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with('\n'), "{name} is cut short");
        if name.ends_with(".svg") {
            assert!(text.trim_end().ends_with("</svg>"), "{name} is cut short");
        }
    }
}

/// `paper` stopped at various moments (Ctrl-C and SIGKILL): each file it
/// wrote is complete.
#[cfg(unix)]
#[test]
fn an_interrupted_paper_leaves_whole_files() {
    let args = [
        "paper", "--board", "16x16", "-n", "60", "--sizes", "8", "16", "--runs", "1",
    ];
    for (i, &ms) in [30u64, 120, 300, 700].iter().enumerate() {
        for kill in [false, true] {
            let dir = scratch(&format!("paper-{i}-{kill}"));
            let mut child = Command::new(assert_cmd::cargo::cargo_bin("knights-lab"))
                .args(args)
                .arg(dir.join("out"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(ms));
            if kill {
                let _ = child.kill();
            } else {
                interrupt(&child);
            }
            let _ = child.wait();
            if dir.join("out").exists() {
                paper_files_are_whole(&dir.join("out"), !kill);
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
