//! Hostile input and honest answers, end to end: each test's note says
//! which input it feeds and what answer it holds the program to.

use predicates::str::contains;

use super::{knights, scratch};

/// Small files that declare huge boards are refused without
/// allocating for the declared board.
#[test]
fn files_declaring_huge_boards_are_refused() {
    let dir = scratch("robust-huge");
    let tour = dir.join("t.json");
    std::fs::write(
        &tour,
        r#"{"rows": 4294967295, "cols": 1, "squares": [[0, 0]], "closed": false}"#,
    )
    .unwrap();
    let tourney = dir.join("tn.json");
    std::fs::write(
        &tourney,
        r#"{"rows": 2000000000, "cols": 2, "cycles": [[[0,0],[1,2],[2,0],[0,1]]]}"#,
    )
    .unwrap();
    let t = tour.to_str().unwrap();
    knights()
        .args(["check", t])
        .assert()
        .code(1)
        .stderr(contains("never visited"));
    knights().args(["render", t]).assert().code(1);
    knights()
        .args(["join", tourney.to_str().unwrap()])
        .assert()
        .failure();
    knights()
        .args(["encrypt", "--key", t])
        .write_stdin("hello")
        .assert()
        .code(2)
        .stderr(contains("not a knight's tour"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An error quotes a short excerpt of a huge line.
#[test]
fn errors_quote_a_short_excerpt_of_a_long_line() {
    let dir = scratch("robust-long");
    let file = dir.join("big.txt");
    std::fs::write(&file, format!("1 2 {}x\n", "7".repeat(1 << 20))).unwrap();
    let out = knights()
        .args(["check", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stderr.len() < 400, "{} bytes", out.stderr.len());
    assert!(String::from_utf8_lossy(&out.stderr).contains("..."));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The format follows the output file's extension.
#[test]
fn stats_follows_the_extension() {
    let dir = scratch("robust-stats");
    for (name, start) in [("st.svg", "<svg"), ("st.json", "{"), ("st.csv", "")] {
        let path = dir.join(name);
        knights()
            .args([
                "stats",
                "8x8",
                "-n",
                "3",
                "-a",
                "tourney",
                "-o",
                path.to_str().unwrap(),
            ])
            .assert()
            .success();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(start), "{name}: {text}");
        if name.ends_with("csv") {
            assert!(text.lines().next().unwrap().contains(','), "{text}");
        }
    }
    knights()
        .args(["tour", "8x8", "-o", dir.join("t.csv").to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("CSV"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An estimate from no successful probe says it means nothing.
#[test]
fn an_empty_estimate_warns() {
    knights()
        .args(["estimate", "10x10", "--samples", "50", "--method", "knuth"])
        .assert()
        .success()
        .stderr(contains("say nothing"));
    knights()
        .args(["estimate", "8x8", "--samples", "40", "--method", "sis"])
        .assert()
        .success()
        .stderr(contains("too few"));
    knights()
        .args(["estimate", "6x6", "--samples", "3", "--keep", "50"])
        .assert()
        .success()
        .stderr(contains("too few"));
}

/// A deterministic method says its samples are all the same.
#[test]
fn deterministic_stats_say_so() {
    knights()
        .args(["stats", "12x12", "-n", "3"])
        .assert()
        .success()
        .stderr(contains("deterministic"));
    knights()
        .args(["stats", "12x12", "-n", "3", "-a", "tourney"])
        .assert()
        .success()
        .stderr("");
}

/// Under an address-space limit the message names that limit.
#[cfg(target_os = "linux")]
#[test]
fn the_memory_message_names_the_address_space_limit() {
    let bin = assert_cmd::cargo::cargo_bin("knights");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1000000 && exec '{}' tour 20000x20000 -f summary",
            bin.display()
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("ulimit -v"), "{err}");
}

/// Files never corrupted: two counts of one board in one work directory
/// would overwrite each other's state files and checkpoint. While one
/// runs, a second is refused whether it starts afresh or resumes, and the
/// first goes on with its checkpoint in place.
#[test]
fn a_second_count_in_a_busy_work_dir_is_refused() {
    let dir = scratch("robust-busy");
    let work = dir.to_str().unwrap();
    let args = [
        "count",
        "7x8",
        "--method",
        "forward",
        "--quiet",
        "--work-dir",
        work,
    ];
    let mut first = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Its first checkpoint is written after the first square.
    let manifest = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path().join("checkpoint.json"))
            .find(|m| m.is_file())
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while manifest().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let manifest = manifest().expect("the first count writes its checkpoint");
    for how in ["--fresh", "--resume"] {
        knights()
            .args(args)
            .arg(how)
            .assert()
            .code(2)
            .stderr(contains("another process is running this count"));
    }
    assert!(manifest.is_file(), "the first count's checkpoint is kept");
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first count runs on"
    );
    let _ = first.kill();
    let _ = first.wait();
    std::fs::remove_dir_all(&dir).unwrap();
}
