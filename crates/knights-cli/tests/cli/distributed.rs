//! Counts spread over MPI processes (`--processes N`, the feature
//! `distributed`): every count the same as one process's, and a worker
//! killed stops the whole job.

use std::process::Stdio;
use std::time::{Duration, Instant};

use super::knights;

/// The answer `knights count ARGS` prints, and its exit status.
fn count(args: &[&str]) -> (i32, String) {
    let out = knights()
        .arg("count")
        .args(args)
        .output()
        .expect("knights runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn counts_across_processes_equal_one_process() {
    for board in [
        &["8x6"][..],
        &["6x7", "--open"],
        &["7x6", "--open", "--directed"],
        &["5x10", "--method", "forward"],
        &["6x12", "--all-lengths"],
        &["5x6", "--all-cells", "--open"],
    ] {
        let (status, one) = count(board);
        assert_eq!(status, 0, "{board:?}");
        assert!(!one.trim().is_empty(), "{board:?}");
        for n in ["2", "3"] {
            let args: Vec<&str> = board.iter().copied().chain(["--processes", n]).collect();
            let (status, spread) = count(&args);
            assert_eq!(status, 0, "{board:?} on {n} processes");
            assert_eq!(spread, one, "{board:?} on {n} processes");
        }
    }
}

/// Exchanges larger than a round of MPI's (1 GiB by default, since its
/// counts are 32-bit) go in several rounds: here rounds of 7 bytes,
/// uneven across the workers, give the same counts.
#[test]
fn exchanges_in_many_rounds_count_alike() {
    for (board, want) in [
        (&["6x6", "--open"][..], "3318960"),
        (&["8x5"][..], "44202"),
        (&["5x8", "--method", "forward", "--open"][..], "18061054"),
    ] {
        for n in ["2", "3"] {
            let args = [board, &["--processes", n, "--round-bytes", "7"]].concat();
            let (status, text) = count(&args);
            assert_eq!((status, text.trim()), (0, want), "{board:?} on {n}");
        }
    }
}

/// No workers is a usage error (status 2, one line), in a dry run too.
#[test]
fn bad_numbers_of_processes_are_refused() {
    let out = knights()
        .args(["count", "6x6", "--processes", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--processes takes the number of worker processes, 1 or more"),
        "{err}"
    );
    for bad in [
        &["--processes", "two"][..],
        &["--processes", "0", "--dry-run"],
    ] {
        let out = knights().args(["count", "6x6"]).args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

/// `--json` reports each worker's share: the most states it held and the
/// bytes it sent, which together cover the run.
#[test]
fn json_reports_every_workers_share() {
    let (status, text) = count(&["7x6", "--open", "--directed", "--json", "--processes", "3"]);
    assert_eq!(status, 0);
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    assert_eq!(v["count"], 779938932u64);
    let workers = v["workers"].as_array().expect("workers");
    assert_eq!(workers.len(), 3);
    let peak = v["peak_states"].as_u64().unwrap();
    let mut held = 0;
    for (i, w) in workers.iter().enumerate() {
        assert_eq!(w["worker"], i);
        assert!(w["sent_bytes"].as_u64().unwrap() > 0, "{w}");
        let p = w["peak_states"].as_u64().unwrap();
        assert!(p > 0 && p < peak, "{w}: a share of {peak}");
        held += p;
    }
    assert!(held >= peak, "the shares hold the peak layer");
    let (_, one) = count(&["7x6", "--open", "--directed", "--json"]);
    let one: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert!(one.get("workers").is_none(), "one process has no shares");
    assert_eq!(one["states_per_step"], v["states_per_step"]);
}

/// The pids of the `knights` processes (not `mpirun`) whose command line
/// has every one of `words`.
fn processes_with(words: &[&str]) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let is_knights = args.first().is_some_and(|a| a.ends_with("knights"));
        if is_knights && words.iter().all(|w| args.iter().any(|a| a == w)) {
            pids.push(pid);
        }
    }
    pids
}

/// A worker killed with SIGKILL ends the whole count within a minute, and
/// `--resume` with the same number of workers finishes it from the
/// workers' checkpoints with the right count.
#[test]
fn a_worker_killed_stops_the_whole_count_and_it_resumes() {
    let dir = super::scratch("distributed-kill");
    let work = dir.to_str().unwrap();
    // A memory bound no other test gives marks this count's workers.
    let mark = "3000000017";
    let mut job = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights"))
        .args(["count", "7x7", "--open", "--directed", "--max-memory", mark])
        .args(["--processes", "2", "--work-dir", work])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("knights starts");
    let started = Instant::now();
    let workers = loop {
        let found = processes_with(&["--distributed", mark]);
        if found.len() == 2 || started.elapsed() > Duration::from_secs(30) {
            break found;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(workers.len(), 2, "two workers start");
    std::thread::sleep(Duration::from_secs(2));
    assert!(
        job.try_wait().unwrap().is_none(),
        "the count is still running"
    );
    let killed = std::process::Command::new("kill")
        .args(["-9", &workers[1].to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let at_kill = Instant::now();
    let status = loop {
        if let Some(status) = job.try_wait().unwrap() {
            break status;
        }
        if at_kill.elapsed() > Duration::from_secs(60) {
            let _ = job.kill();
            panic!("the count went on for a minute after a worker was killed");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(status.code(), Some(130), "a killed worker stops the count");
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        processes_with(&["--distributed", mark]).is_empty(),
        "no worker is left"
    );
    let resumed = [
        "7x7",
        "--open",
        "--directed",
        "--processes",
        "2",
        "--work-dir",
        work,
    ];
    let (status, text) = count(&[&resumed[..], &["--resume", "--quiet"]].concat());
    assert_eq!((status, text.trim()), (0, "165575218320"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--dry-run --processes N` projects each worker's share without
/// starting any: its states, memory, join and bytes sent.
#[test]
fn a_dry_run_projects_each_workers_share() {
    let (status, text) = count(&["7x7", "--open", "--dry-run", "--processes", "3", "--json"]);
    assert_eq!(status, 0);
    let v: serde_json::Value = serde_json::from_str(&text).expect("one JSON object");
    let peak = v["projected_peak_states"].as_u64().unwrap();
    let w = &v["per_worker"];
    assert_eq!(w["workers"], 3);
    let share = w["peak_states"].as_u64().unwrap();
    assert!(share * 3 >= peak && share < peak, "{w}");
    for figure in [
        "memory_bytes",
        "join_bytes",
        "sent_bytes_per_square",
        "sent_bytes",
    ] {
        assert!(w[figure].as_u64().unwrap() > 0, "{figure}: {w}");
    }
    let (status, text) = count(&["6x6", "--dry-run", "--processes", "2", "--max-memory", "1K"]);
    assert_eq!(status, 0);
    assert!(text.contains("on 2 workers, each:"), "{text}");
    assert!(text.contains("does not fit"), "{text}");
}
