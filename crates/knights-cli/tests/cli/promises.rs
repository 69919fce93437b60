//! Numbers and promises: durations and counts that the docs
//! refuse are refused with one sentence and exit 2, nothing is clamped;
//! help on a full disk fails; usage errors start `knights:` like every
//! error; a dangling symbolic link is written through.

use predicates::str::contains;

use super::{knights, run, scratch};

/// Asserts a usage error: exit 2, one `knights:` line saying what is wrong
/// (the `needle`), then clap's usage tip.
fn assert_usage_error(args: &[&str], needle: &str) {
    let (code, out, err) = run(args, "");
    assert_eq!(code, 2, "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert!(err.starts_with("knights: "), "{args:?}: {err}");
    assert!(
        err.lines().next().unwrap().contains(needle),
        "{args:?}: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn durations_must_be_finite_positive_and_at_most_their_maximum() {
    for bad in ["inf", "NaN", "-1", "0", "1e300", "86401"] {
        assert_usage_error(
            &["serve", &format!("--timeout={bad}")],
            "is not a number of seconds from 0.001 to 86400 (one day)",
        );
    }
    for bad in ["inf", "1e300", "-0.5"] {
        assert_usage_error(
            &["serve", &format!("--count-timeout={bad}")],
            "is not a number of seconds from 0.001 to 604800 (one week)",
        );
    }
    for bad in ["1e300", "1e-300", "NaN"] {
        assert_usage_error(
            &["estimate", "8x8", &format!("--seconds={bad}")],
            "is not a number of seconds from 0.001 to 604800 (one week)",
        );
    }
}

#[test]
fn zero_is_refused_where_the_docs_refuse_it() {
    // The library's limits on shatters, as every door has them.
    for shatters in ["0", "1001"] {
        assert_usage_error(
            &["obfuscate", "-", "-k", shatters],
            &format!("shatters must be from 1 to 1000, not {shatters}"),
        );
    }
    for jobs in ["0", "1025", "18446744073709551615"] {
        assert_usage_error(
            &["serve", "--jobs", jobs],
            "is not a number of jobs from 1 to 1024",
        );
    }
    for option in [
        "--max-squares",
        "--max-tourney-squares",
        "--max-count-squares",
        "--max-body",
    ] {
        assert_usage_error(&["serve", option, "0"], "0 is refused");
    }
    // The library's limits on budgets, as every door has them.
    assert_usage_error(
        &["tour", "8x8", "--max-attempts", "0"],
        "max-attempts must be from 1 to",
    );
    assert_usage_error(
        &["exists", "6x6", "--start", "0,0", "--max-nodes", "0"],
        "max-nodes must be from 1 to",
    );
    let (code, _, err) = run(&["encrypt", "--key", "8x8,attempts=0"], "hello");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("asks for 0 attempts (attempts=1 or more)"),
        "{err}"
    );
}

#[test]
fn usage_errors_start_like_every_other_error() {
    assert_usage_error(&["tour"], "required arguments were not provided");
    let (_, _, err) = run(&["tourx"], "");
    assert!(err.starts_with("knights: unrecognized subcommand"), "{err}");
    assert!(err.contains("Usage: knights <COMMAND>"), "{err}");
    // No subcommand: the help, as it is, on standard error.
    let (code, _, err) = run(&[], "");
    assert_eq!(code, 2);
    assert!(err.starts_with("The `knights` command"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn help_and_version_on_a_full_disk_fail() {
    for flag in ["--help", "--version", "-h"] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full opens");
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights"))
            .arg(flag)
            .stdout(full)
            .output()
            .expect("knights runs");
        // An I/O error: exit 74 (sysexits' EX_IOERR), not bad usage.
        assert_eq!(out.status.code(), Some(74), "{flag}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("could not write the output"), "{flag}: {err}");
    }
    knights()
        .arg("--help")
        .assert()
        .success()
        .stdout(contains("Usage: knights <COMMAND>"));
}

#[test]
fn a_key_that_gives_up_advises_in_the_keys_own_words() {
    // Seed 1 closes no tour of 8x8 in one walk.
    let (code, _, err) = run(
        &["encrypt", "--key", "8x8,closed,attempts=1,seed=1"],
        "hello",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("found no closed tour of 8x8 in 1 attempt"),
        "{err}"
    );
    assert!(err.contains("attempts=N"), "{err}");
    assert!(!err.contains("--max-attempts"), "{err}");
    assert!(!err.contains("tie-break"), "{err}");
}

#[cfg(unix)]
#[test]
fn output_to_a_dangling_link_writes_its_target() {
    let dir = scratch("promises-dangling");
    let link = dir.join("tour.txt");
    std::os::unix::fs::symlink("made.txt", &link).unwrap();
    knights()
        .args(["tour", "5x5", "-o", link.to_str().unwrap()])
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let made = std::fs::read_to_string(dir.join("made.txt")).unwrap();
    assert_eq!(made.lines().count(), 5, "{made}");
    // A link into a folder that does not exist is refused, and stays.
    let lost = dir.join("lost.txt");
    std::os::unix::fs::symlink("no/such/folder/t.txt", &lost).unwrap();
    knights()
        .args(["tour", "5x5", "-o", lost.to_str().unwrap()])
        .assert()
        .code(74)
        .stderr(contains("could not create"));
    assert!(std::fs::symlink_metadata(&lost)
        .unwrap()
        .file_type()
        .is_symlink());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_command_prints_status_lines_when_stderr_is_not_a_terminal() {
    let (code, _, err) = super::knights()
        .env("KNIGHTS_STATUS_SECONDS", "1")
        .args(["estimate", "8x8", "--seconds", "3"])
        .output()
        .map(|o| {
            (
                o.status.code().unwrap(),
                String::new(),
                String::from_utf8(o.stderr).unwrap(),
            )
        })
        .unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("knights: ") && l.contains(" seconds done after ")),
        "{err}"
    );
}
