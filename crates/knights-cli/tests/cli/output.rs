//! Output failures: every command into a full disk and into a closed pipe,
//! and files written whole or not at all.

use std::path::Path;
use std::process::{Command, Stdio};

use super::{knights, scratch};

/// A tour and a tourney file to feed the commands that read one.
fn inputs(dir: &Path) -> (String, String) {
    let tour = dir.join("t.json");
    let tourney = dir.join("tn.json");
    knights()
        .args(["tour", "8x8", "-o", tour.to_str().unwrap()])
        .assert()
        .success();
    knights()
        .args(["tourney", "8x8", "-o", tourney.to_str().unwrap()])
        .assert()
        .success();
    (
        tour.to_str().unwrap().to_string(),
        tourney.to_str().unwrap().to_string(),
    )
}

/// One quick invocation of every command that writes to standard output.
fn every_command(tour: &str, tourney: &str) -> Vec<Vec<String>> {
    let lines: Vec<Vec<&str>> = vec![
        vec!["tour", "8x8"],
        vec!["check", tour],
        vec!["hint", tour],
        vec!["exists", "8x8"],
        vec!["render", tour, "-f", "svg"],
        vec!["graph", "8x8", "--degrees"],
        vec!["bench", "8x8", "--repeat", "1"],
        vec!["encrypt", "--key", "8x8", "-i", tour],
        vec!["tourney", "8x8"],
        vec!["join", tourney],
        vec!["shatter", tour],
        vec!["obfuscate", tour],
        vec!["count", "6x6"],
        vec!["estimate", "3x4", "--open"],
        vec!["stats", "8x8", "-n", "3", "-a", "braid"],
    ];
    lines
        .into_iter()
        .map(|l| l.into_iter().map(String::from).collect())
        .collect()
}

#[test]
fn a_full_disk_is_one_line_and_status_74() {
    assert!(
        Path::new("/dev/full").exists(),
        "this test needs /dev/full, which every Linux system has"
    );
    let dir = scratch("out-full");
    let (tour, tourney) = inputs(&dir);
    for args in every_command(&tour, &tourney) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(assert_cmd::cargo::cargo_bin("knights"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // An I/O error: exit 74 (sysexits' EX_IOERR).
        assert_eq!(out.status.code(), Some(74), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("No space left on device"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = scratch("out-pipe");
    let (tour, tourney) = inputs(&dir);
    let mut all = every_command(&tour, &tourney);
    // Outputs far beyond a pipe's buffer.
    all.push(vec!["graph".into(), "600x600".into(), "--degrees".into()]);
    all.push(vec!["tour".into(), "300x300".into()]);
    for args in all {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("knights"))
            .args(&args)
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
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The files in `dir` other than `keep`: temporary files left behind.
fn leftovers(dir: &Path, keep: &[&str]) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect()
}

#[test]
fn a_failed_command_leaves_the_old_file() {
    let dir = scratch("out-keep");
    let target = dir.join("t.json");
    std::fs::write(&target, "old content").unwrap();
    // A board without a closed tour: the command fails after opening its output.
    knights()
        .args(["tour", "5x5", "--closed", "-o", target.to_str().unwrap()])
        .assert()
        .failure();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old content");
    knights()
        .args(["tour", "6x6", "-o", target.to_str().unwrap()])
        .assert()
        .success();
    assert!(std::fs::read_to_string(&target).unwrap().starts_with('{'));
    assert!(leftovers(&dir, &["t.json"]).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_replaced_at_its_target() {
    let dir = scratch("out-link");
    let real = dir.join("real");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::write(real.join("t.txt"), "old").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(real.join("t.txt"), &link).unwrap();
    knights()
        .args(["tour", "5x5", "-o", link.to_str().unwrap()])
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(real.join("t.txt"))
        .unwrap()
        .contains(" 0 "));
    assert!(leftovers(&real, &["t.txt"]).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dev_stdout_is_written_directly() {
    assert!(
        Path::new("/dev/stdout").exists(),
        "every Linux system has /dev/stdout"
    );
    knights()
        .args(["tour", "5x5", "-o", "/dev/stdout"])
        .assert()
        .success()
        .stdout(predicates::str::contains(" 0 "));
}

/// Sends SIGINT to a process with the system's `kill`.
#[cfg(unix)]
fn interrupt(child: &std::process::Child) {
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
}

/// Interrupts `knights ARGS -o TARGET` after each delay: the target keeps
/// its old content or is complete, and no temporary file is left.
#[cfg(unix)]
fn interrupted(name: &str, args: &[&str], delays_ms: &[u64], kill: bool) {
    let dir = scratch(name);
    let target = dir.join("out.json");
    for &ms in delays_ms {
        std::fs::write(&target, "old").unwrap();
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("knights"))
            .args(args)
            .args(["-o", target.to_str().unwrap()])
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
        let text = std::fs::read_to_string(&target).unwrap();
        if text != "old" {
            let doc = knights::format::read(&text).unwrap();
            assert!(doc.check().is_ok(), "{name}: a complete tour after {ms} ms");
        }
        if !kill {
            assert!(leftovers(&dir, &["out.json"]).is_empty(), "after {ms} ms");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn an_interrupted_tour_leaves_the_old_file_or_a_whole_one() {
    interrupted("int", &["tour", "700x700"], &[20, 150, 400, 900], false);
    interrupted("kill", &["tour", "700x700"], &[20, 150, 400, 900], true);
}

#[cfg(unix)]
#[test]
#[ignore = "a minute: cargo test -p knights-cli --test tests -- --ignored killed_at_random"]
fn killed_at_random_moments_tours_stay_whole() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    let delays: Vec<u64> = (0..12).map(|i| (nanos / (i + 1)) % 3_000).collect();
    eprintln!("stopping after {delays:?} ms");
    interrupted("rint", &["tour", "2000x2000"], &delays, false);
    interrupted("rkill", &["tour", "2000x2000"], &delays, true);
}
