//! `knights count` and `knights estimate` through the real binary.

use super::knights;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

#[test]
fn counts_print_alone() {
    knights()
        .args(["count", "6x6"])
        .assert()
        .success()
        .stdout("9862\n");
    knights()
        .args(["count", "3x4", "--open"])
        .assert()
        .success()
        .stdout("8\n");
    knights()
        .args(["count", "3x4", "--open", "--directed"])
        .assert()
        .success()
        .stdout("16\n");
    knights()
        .args(["count", "6x6", "--symmetric"])
        .assert()
        .success()
        .stdout("78\n");
    knights()
        .args(["count", "4x8"])
        .assert()
        .success()
        .stdout("0\n");
}

#[test]
fn json_has_the_count_and_figures() {
    let out = knights().args(["count", "5x6", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["count"], 8);
    // Met in the middle: the top part's 20 squares, then the bottom's 20.
    assert_eq!(v["method"], "meet");
    assert_eq!(v["states_per_step"].as_array().unwrap().len(), 40);
    assert!(v["meet"]["table_states"].as_u64().unwrap() > 0);
    assert!(v["peak_states"].as_u64().unwrap() > 0);
    let out = knights()
        .args(["count", "5x6", "--json", "--method", "forward"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["count"].as_u64(), v["method"].as_str()),
        (Some(8), Some("forward"))
    );
    assert_eq!(v["states_per_step"].as_array().unwrap().len(), 30);
    assert!(v["meet"].is_null());
    let out = knights()
        .args(["count", "6x6", "--classes", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["classes"], 1245);
    assert_eq!(v["fixed"]["quarter turn"], 10);
}

#[test]
fn bad_requests_exit_cleanly() {
    knights()
        .args(["count", "6x6", "--max-memory", "1K"])
        .assert()
        .code(2)
        .stderr(contains("--max-memory"));
    // Open tours meet in the middle from 3 columns on; 2 are refused.
    knights()
        .args(["count", "2x8", "--open", "--method", "meet"])
        .assert()
        .code(2)
        .stderr(contains("--method forward"));
    knights()
        .args(["count", "6x6", "--open", "--method", "meet"])
        .assert()
        .success()
        .stdout("3318960\n");
    knights()
        .args(["count", "6x6", "--max-memory", "lots"])
        .assert()
        .code(2)
        .stderr(contains("amount of memory"));
    knights()
        .args(["count", "16x16"])
        .assert()
        .code(2)
        .stderr(contains("narrower board"));
    knights()
        .args(["count", "6x6", "--open", "--symmetric"])
        .assert()
        .code(2);
    knights()
        .args(["estimate", "5x5", "--samples", "0"])
        .assert()
        .code(2);
    knights()
        .args(["estimate", "6x6", "--samples", "10", "--seconds", "1"])
        .assert()
        .code(2);
    knights()
        .args(["estimate", "6x6", "--seconds", "0"])
        .assert()
        .code(2);
}

/// The interval of a pinned seed holds the exact count, and the JSON keys
/// are there.
#[test]
fn estimate_intervals_hold_exact_counts() {
    for (args, want) in [
        (&["5x6"][..], 8.0),
        (&["6x6", "--open"], 3_318_960.0),
        (&["5x5", "--open", "--directed"], 1728.0),
    ] {
        let out = knights()
            .args(["estimate", "--samples", "20000", "--seed", "4", "--json"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let (low, high) = (v["low"].as_f64().unwrap(), v["high"].as_f64().unwrap());
        assert!(low <= want && want <= high, "{args:?}: {v}");
        assert!(v["tours_error"].as_f64().unwrap() >= 0.0);
        assert!(v["hits"].as_u64().unwrap() > 0);
    }
}

#[test]
fn estimates_are_seeded() {
    let run = || {
        knights()
            .args([
                "estimate",
                "4x5",
                "--open",
                "--samples",
                "3000",
                "--seed",
                "5",
                "--json",
            ])
            .output()
            .unwrap()
            .stdout
    };
    // Everything but the seconds taken is the same.
    let parse = |out: Vec<u8>| {
        let mut v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    let (v, b) = (parse(run()), parse(run()));
    assert_eq!(v, b);
    assert_eq!(v["samples"], 3000);
    assert!(v["tours"].as_f64().unwrap() > 0.0);
}

/// Runs `knights count BOARD --work-dir DIR`, kills it after each delay,
/// resumes it to the end, and checks the answer.
fn kill_and_resume(board: &str, method: &str, want: &str, delays_ms: &[u64]) {
    let dir = super::scratch(&format!("resume-{board}"));
    let bin = assert_cmd::cargo::cargo_bin("knights");
    let dir_arg = dir.to_str().unwrap();
    let args = [
        "count",
        board,
        "--quiet",
        "--method",
        method,
        "--work-dir",
        dir_arg,
    ];
    for (i, &ms) in delays_ms.iter().enumerate() {
        // The first run starts afresh; later ones resume and are killed again.
        let mut child = std::process::Command::new(&bin)
            .args(args)
            .args((i > 0 && started(&dir)).then_some("--resume"))
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(ms));
        let _ = child.kill();
        let _ = child.wait();
    }
    knights()
        .args(args)
        .args(started(&dir).then_some("--resume"))
        .assert()
        .success()
        .stdout(format!("{want}\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether a count left anything in its work folder (`--resume` with nothing
/// to resume is an error).
fn started(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut e| e.next().is_some())
}

#[test]
fn resume_without_a_checkpoint_is_an_error() {
    let dir = super::scratch("resume-empty");
    knights()
        .args([
            "count",
            "6x6",
            "--resume",
            "--work-dir",
            dir.to_str().unwrap(),
        ])
        .assert()
        .code(2)
        .stderr(contains("no checkpoint"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn theorems_answer_at_once() {
    for board in ["9x9", "4x100", "7x7", "5x5"] {
        knights()
            .args(["count", board])
            .assert()
            .success()
            .stdout("0\n")
            .stderr(contains("no closed tour exists"));
    }
    knights()
        .args(["count", "1x5", "--open"])
        .assert()
        .success()
        .stdout("0\n");
}

#[test]
fn counts_past_2_4096_are_refused_up_front() {
    for board in ["3x100000", "3x1000000", "4x5000", "8x2000"] {
        knights()
            .args(["count", board, "--open"])
            .assert()
            .code(2)
            .stderr(contains("2^4096"));
    }
}

/// Huge tori and cylinders are refused before their move graph is built:
/// a frontier past the counter's (the 20000 x 20000 torus once failed to
/// allocate its moves), or a count past 2^4096 (the 3 x 2000000 torus once
/// spent minutes building its program); each with the exit status of a
/// request the counter does not support, dry runs too.
#[test]
fn huge_wrapped_boards_are_refused_up_front() {
    for (board, wrap, says) in [
        ("20000x20000", "both", "frontier of at least 40000 squares"),
        ("16x16", "both", "frontier of at least 32 squares"),
        ("40x1000000", "rows", "frontier of at least 80 squares"),
        ("3x2000000", "both", "past 2^4096"),
        ("4x100000", "rows", "past 2^4096"),
    ] {
        for extra in [None, Some("--dry-run")] {
            knights()
                .args(["count", board, "--wrap", wrap])
                .args(extra)
                .timeout(std::time::Duration::from_secs(60))
                .assert()
                .code(2)
                .stderr(contains(says));
        }
    }
}

/// Counts past 2^128 print exactly: 3 x 1000 closed and open, each equal to
/// the last line of a sweep over the lengths, which counts 3 x 999 too.
#[test]
fn counts_past_2_128_print_exactly() {
    for kind in ["--closed", "--open"] {
        let out = knights()
            .args(["count", "3x1000", kind])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let count = String::from_utf8(out).unwrap().trim().to_string();
        assert!(count.len() > 39, "{count}");
        assert!(count.bytes().all(|b| b.is_ascii_digit()), "{count}");
        let out = knights()
            .args(["count", "3x1000", kind, "--all-lengths"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1000);
        assert_eq!(lines[0], "3x1 0");
        assert_eq!(lines[999], format!("3x1000 {count}"));
        // Closed tours of 3 x n exist for even n >= 10 only.
        if kind == "--closed" {
            assert_eq!(lines[998], "3x999 0");
        }
    }
}

#[test]
fn sweeps_print_every_length() {
    knights()
        .args(["count", "6x8", "--all-lengths"])
        .assert()
        .success()
        .stdout("6x1 0\n6x2 0\n6x3 0\n6x4 0\n6x5 8\n6x6 9862\n6x7 1067638\n6x8 55488142\n");
    let out = knights()
        .args([
            "count",
            "3x12",
            "--all-lengths",
            "--open",
            "--directed",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let rows = v["all_lengths"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    assert_eq!(rows[3]["board"], "3x4");
    assert_eq!(rows[3]["count"], 16); // 8 undirected open tours of 3x4
    assert_eq!(rows[11]["count"], 2 * 57248);
    for bad in [&["--symmetric"][..], &["--classes"], &["--method", "meet"]] {
        knights()
            .args(["count", "6x6", "--all-lengths"])
            .args(bad)
            .assert()
            .code(2);
    }
}

/// `--all-cells`: one line `C COUNT` for every prefix of cells, Knuth's
/// 7-row closed table from its first term (A383663: 2 tours in 22 cells).
/// Knuth's published terms of the "first cells" family `key` (`closed`:
/// indexed by pairs of cells) as the lines `c COUNT` of a cell sweep
/// over `cells` cells. The data: `crates/knights/tests/data`.
fn published_lines(section: &str, key: &str, cells: usize) -> Vec<String> {
    let table: toml::Value = include_str!("../../../knights/tests/data/published_counts.toml")
        .parse()
        .unwrap();
    let entry = &table[section][key];
    let offset = entry["offset"].as_integer().unwrap() as usize;
    let step = if section == "first_cells_closed" {
        2
    } else {
        1
    };
    let counts = entry["counts"].as_array().unwrap().iter();
    (offset..)
        .zip(counts)
        .map(|(n, count)| (step * n, count.as_str().unwrap()))
        .take_while(|&(c, _)| c <= cells)
        .map(|(c, count)| format!("{c} {count}"))
        .collect()
}

/// Runs a cell sweep and checks every published line it should print.
fn sweep_reproduces(args: &[&str], section: &str, key: &str, cells: usize) -> usize {
    let out = knights()
        .args(["count", "--all-cells", "--quiet"])
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), cells, "{args:?}");
    let want = published_lines(section, key, cells);
    for line in &want {
        let c: usize = line.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(lines[c - 1], line, "{args:?}");
    }
    want.len()
}

#[test]
fn cell_sweeps_print_every_prefix() {
    // A383663 (7 rows, closed) and A389757 (7 rows, open), Knuth 2025.
    assert_eq!(
        sweep_reproduces(&["7x6"], "first_cells_closed", "k7", 42),
        11
    );
    assert_eq!(
        sweep_reproduces(&["7x4", "--open"], "first_cells_open", "k7", 28),
        28
    );
    let lines = published_lines("first_cells_closed", "k7", 42);
    assert_eq!(lines.first().map(String::as_str), Some("22 2"));
    assert_eq!(lines.last().map(String::as_str), Some("42 1067638")); // 7x6 = 6x7
    let out = knights()
        .args(["count", "3x4", "--all-cells", "--open", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["of"], "all-cells");
    let cells = v["all_cells"].as_array().unwrap();
    assert_eq!(cells.len(), 12);
    assert_eq!(
        (&cells[0]["cells"], &cells[0]["count"]),
        (&1.into(), &1.into())
    );
    assert_eq!(cells[11]["count"], 8);
    for bad in [
        &["--outside-in"][..],
        &["--staggered"],
        &["--method", "meet"],
        &["--all-lengths"],
    ] {
        knights()
            .args(["count", "6x6", "--all-cells"])
            .args(bad)
            .assert()
            .code(2);
    }
}

/// `--staggered` takes each row's last square after the next row's others:
/// the same count of a torus through other states; it excludes
/// `--outside-in` and sweeps over lengths, which count after whole rows.
#[test]
fn staggered_counts_agree_and_exclude_what_needs_whole_rows() {
    knights()
        .args(["count", "3x4", "--wrap", "both", "--staggered", "--quiet"])
        .assert()
        .success()
        .stdout("14934\n");
    for bad in [&["--outside-in"][..], &["--all-lengths"], &["--classes"]] {
        knights()
            .args(["count", "5x6", "--staggered"])
            .args(bad)
            .assert()
            .code(2)
            .stderr(contains("cannot be used with"));
    }
}

/// `--middle inner` gives the top part of an even board's meet the other
/// half of the middle's edges: the same count through other states; a
/// count that is no such meet refuses it with status 2.
#[test]
fn the_inner_middle_counts_the_same_and_applies_only_to_even_rows() {
    for share in ["outer", "inner"] {
        knights()
            .args([
                "count", "8x4", "--open", "--method", "meet", "--middle", share,
            ])
            .assert()
            .success()
            .stdout("31088\n");
    }
    for (board, kind, why) in [
        ("9x6", "--open", "9x6 has an odd number of rows"),
        ("7x6", "--open", "7x6 meets across a smaller separator"),
        (
            "8x8",
            "--closed",
            "only in a meet in the middle of open tours",
        ),
    ] {
        knights()
            .args(["count", board, kind, "--middle", "inner"])
            .assert()
            .code(2)
            .stderr(contains(why));
    }
}

#[test]
fn killed_counts_resume_to_the_same_answer() {
    for method in ["meet", "forward"] {
        kill_and_resume("6x7", method, "1067638", &[150, 90, 300]);
    }
}

#[test]
#[ignore = "half a minute in release mode: cargo test --release -p knights-cli -- --ignored killed_8x7"]
fn killed_8x7_resumes_to_the_same_answer() {
    // A "random" moment: the delays come from the clock.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    // Kill the count twice within its first seconds, before it can finish.
    let delays = [1_000 + nanos % 9_000, 1_000 + (nanos / 7) % 6_000];
    eprintln!("killing after {delays:?} ms");
    kill_and_resume("8x7", "meet", "34524432316", &delays);
}

#[test]
fn resume_needs_a_work_dir() {
    knights()
        .args(["count", "6x6", "--resume"])
        .assert()
        .code(2)
        .stderr(contains("need a work directory (work-dir)"));
}

/// Whether any `.bin` state file is left under `dir`.
fn has_state_files(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir).unwrap().flatten().any(|e| {
        let p = e.path();
        if p.is_dir() {
            has_state_files(&p)
        } else {
            p.extension().is_some_and(|x| x == "bin")
        }
    })
}

/// The 6 x 6 torus (a frontier of 24 squares, once refused) counts: on
/// disk past its memory bound, and it stops at its disk budget with its
/// checkpoint kept, long before it could finish on any machine like this.
#[test]
fn the_six_by_six_torus_counts_until_its_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().to_str().unwrap();
    knights()
        .args(["count", "6x6", "--wrap", "both", "--work-dir", work])
        .args(["--max-memory", "64M", "--max-disk", "64M", "--quiet"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("disk budget of 64.0 MiB").and(contains("--resume")));
    assert!(has_state_files(dir.path()), "the checkpoint is kept");
}

#[test]
fn a_disk_budget_stops_the_count_and_resume_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().to_str().unwrap();
    knights()
        .args([
            "count",
            "6x6",
            "--work-dir",
            work,
            "--max-disk",
            "128K",
            "--quiet",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("would need about").and(contains("--resume")));
    assert!(has_state_files(dir.path()), "the checkpoint is kept");
    knights()
        .args([
            "count",
            "6x6",
            "--work-dir",
            work,
            "--resume",
            "--max-disk",
            "1G",
        ])
        .assert()
        .success()
        .stdout("9862\n");
    assert!(
        !has_state_files(dir.path()),
        "a finished count removes its states"
    );
    // --keep keeps them (another count replaces the finished one's
    // summary only with --fresh); a bad size is refused.
    knights()
        .args(["count", "5x6", "--work-dir", work, "--keep", "--fresh"])
        .assert()
        .success()
        .stdout("8\n");
    assert!(has_state_files(dir.path()));
    knights()
        .args(["count", "5x6", "--max-disk", "plenty"])
        .assert()
        .code(2)
        .stderr(contains("amount of disk"));
}

/// A count projected, from its first rows, to need more than a thousand
/// times its disk budget stops there with exit 2 rather than run for days
/// into the budget: 12x12 (about 10^16 states at the peak) stops after two
/// rows of its 144 squares; 7x8 under a disk budget of 1 KiB stops too,
/// while 6x6, which fits in memory, counts under the same budget.
#[test]
fn a_count_projected_far_past_its_disk_stops_at_once() {
    knights()
        .args(["count", "12x12", "--quiet"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            contains("stopped after square 24 of 144")
                .and(contains("projected to need at least"))
                .and(contains("out of reach here")),
        );
    let small_disk = ["--max-memory", "1M", "--max-disk", "1K", "--quiet"];
    knights()
        .args(["count", "7x8"])
        .args(small_disk)
        .assert()
        .code(2)
        .stderr(contains(
            "more than a thousand times the disk budget of 1.0 KiB",
        ));
    knights()
        .args(["count", "6x6", "--max-disk", "1K", "--quiet"])
        .assert()
        .success()
        .stdout("9862\n");
}

/// A long strip is not stopped as out of reach: its first two rows grow
/// by factors far above those of its later rows, and compounded through
/// every row to its plateau they would project it far beyond any disk. No
/// projection passes the keys its frontier of 13 squares can take, so it
/// runs on past its second row (to the square the test stops it at), as
/// 6 x 34 does, also when held to 1 GiB of memory and of disk, while 12x12
/// above still stops at once.
#[test]
fn a_long_strip_is_not_stopped_as_out_of_reach() {
    let small = ["--max-memory", "1G", "--max-disk", "1G"];
    for (board, budget) in [("6x33", &[][..]), ("6x34", &small[..])] {
        knights()
            .args(["count", board, "--open", "--quiet", "--stop-after", "30"])
            .args(budget)
            .assert()
            .code(130)
            .stderr(contains("out of reach").not());
    }
}

/// Cylinders, tori and other orders than by rows are never stopped as out
/// of reach: the projection models a board taken by rows, and a cylinder's
/// states level off after its first rows. The open tours of the cylinder 3
/// squares round and 10 long peak at a few thousand states, which a
/// projection by rows would put far beyond a disk budget of 1 KiB; the
/// closed tours of 5 x 10 taken from the outside in likewise.
#[test]
fn counts_the_projection_does_not_model_are_not_stopped_as_out_of_reach() {
    let small_disk = ["--max-memory", "1G", "--max-disk", "1K", "--quiet"];
    knights()
        .args(["count", "3x10", "--wrap", "rows", "--open"])
        .args(small_disk)
        .assert()
        .success()
        .stdout("7106939793312\n");
    knights()
        .args(["count", "5x10", "--outside-in"])
        .args(small_disk)
        .assert()
        .success()
        .stdout("13311268\n");
}

#[test]
fn dry_runs_project_without_counting() {
    let out = knights()
        .args(["count", "7x7", "--open", "--dry-run"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for want in ["peak states", "disk", "time", "trial run"] {
        assert!(text.contains(want), "{want}: {text}");
    }
    let out = knights()
        .args(["count", "5x6", "--open", "--dry-run", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The measured peak: the trial counts 5x6 whole (meeting across the
    // six squares that split it into two mirror images: one half, 12
    // squares and the 6 of the separator).
    assert_eq!(v["projected_peak_states"], 1_196);
    assert_eq!(v["steps"], 18);
    assert!(v["projected_disk_bytes"].as_u64().unwrap() > 0);
}

/// `timeout` and `kill` send SIGTERM: a count whose states went to a
/// temporary folder stops as on Ctrl-C, with status 130, and removes the
/// folder.
#[cfg(unix)]
#[test]
fn a_terminated_count_removes_its_temporary_states() {
    let dir = super::scratch("sigterm");
    let temporaries = || -> Vec<std::path::PathBuf> {
        std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("knights-count-")
            })
            .map(|e| e.path())
            .collect()
    };
    // 7x7 open in 4 MB: on disk from its 17th square, for minutes.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights"))
        .args(["count", "7x7", "--open", "--quiet", "--max-memory", "4M"])
        .env("TMPDIR", &dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while temporaries().is_empty() {
        assert!(
            started.elapsed().as_secs() < 60,
            "the count never went to disk"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    // It stops after the square it is on: seconds, even in a debug build.
    let stopped = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if stopped.elapsed().as_secs() > 120 {
            let _ = child.kill();
            panic!("the count did not stop on SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stopped"));
    assert!(temporaries().is_empty(), "{:?}", temporaries());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A count on a shape (here the 5x5 torus, whose states grow to gigabytes
/// within one square) is held to the memory bound: past it the states go
/// to disk as a board's do, and under a bound too small even for that it
/// stops with status 2 (over a limit), not an abort on a failed
/// allocation.
#[test]
fn a_count_on_a_shape_keeps_to_the_memory_bound() {
    let torus = ["count", "5x5", "--wrap", "both", "--open"];
    knights()
        .args(torus)
        .args(["--max-memory", "40M"])
        .assert()
        .code(2)
        .stderr(contains("memory bound of 40.0 MiB even on disk"));
}

/// SIGTERM stops a count on a shape inside the square it is on (a square
/// of the 5x5 torus takes seconds), not after it.
#[cfg(target_os = "linux")]
#[test]
fn a_count_on_a_shape_stops_inside_a_square() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights"))
        .args([
            "count",
            "5x5",
            "--wrap",
            "both",
            "--open",
            "--max-memory",
            "2G",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Past 60 MB the count is inside one of its long squares.
    let status = format!("/proc/{}/status", child.id());
    let rss_kb = || -> u64 {
        std::fs::read_to_string(&status)
            .ok()
            .and_then(|t| {
                t.lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            })
            .unwrap_or(0)
    };
    while rss_kb() < 60_000 {
        assert!(child.try_wait().unwrap().is_none(), "the count ended early");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stopped during square"), "{err}");
}

/// A count of 6x6 (forward) in `dir/work` stopped after its 10th square,
/// and the folder of its run (which holds `checkpoint.json` and the state
/// files `s10-b*.bin`).
fn stopped_count(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let work = dir.join("work");
    knights()
        .args(["count", "6x6", "--method", "forward", "--stop-after", "10"])
        .arg("--work-dir")
        .arg(&work)
        .assert()
        .code(130)
        .stderr(contains("stopped after square 10 of"));
    let run = std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("checkpoint.json").is_file())
        .expect("a checkpoint");
    (work, run)
}

/// `knights count 6x6 --method forward --work-dir WORK --resume`.
fn resume(work: &std::path::Path) -> assert_cmd::assert::Assert {
    knights()
        .args(["count", "6x6", "--method", "forward", "--resume"])
        .arg("--work-dir")
        .arg(work)
        .assert()
}

/// A manifest's text with its checksum taken again over the text with
/// the checksum 0, as the count seals it.
fn resealed(text: &str) -> String {
    let (head, rest) = text.split_once("\"checksum\":").expect("a checksum");
    let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let crc = crc32fast::hash(format!("{head}\"checksum\":0{tail}").as_bytes());
    format!("{head}\"checksum\":{crc}{tail}")
}

/// A checkpoint edited to name another file as a state file is refused
/// before that file is read or removed (it was read as states, then deleted).
#[test]
fn a_forged_state_file_name_is_refused_and_its_target_untouched() {
    let dir = super::scratch("forged-name");
    let (work, run) = stopped_count(&dir);
    let victim = dir.join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("precious.bin"), [7u8; 32]).unwrap();
    let manifest = run.join("checkpoint.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let forged = text.replacen("s10-b0.bin", "../../victim/precious.bin", 1);
    assert_ne!(forged, text);
    // Its checksum taken again: the manifest's checksum finds damage, not
    // a forger, so the names are checked on their own.
    std::fs::write(&manifest, resealed(&forged)).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains("../../victim/precious.bin").and(contains("not one this count makes")));
    assert_eq!(
        std::fs::read(victim.join("precious.bin")).unwrap(),
        [7u8; 32]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One flipped byte in a state file (it gave a wrong count with status 0)
/// and random bytes in one (a panic) are both refused, naming the file.
#[test]
fn a_damaged_state_file_is_refused_naming_it() {
    let dir = super::scratch("damaged-state");
    let (work, run) = stopped_count(&dir);
    // The largest of the square's state files.
    let file = std::fs::read_dir(&run)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    let name = file.file_name().unwrap().to_str().unwrap().to_string();
    let mut bytes = std::fs::read(&file).unwrap();
    assert!(bytes.len() >= 16);
    bytes[3] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains(name.as_str()).and(contains("damaged")));
    // Random bytes of the same length.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let random: Vec<u8> = (0..bytes.len())
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&file, random).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains(name.as_str()).and(contains("panicked").not()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A state file replaced by a symbolic link to another file is refused
/// (the link was followed and its target read as states), and the target
/// is left as it was.
#[cfg(unix)]
#[test]
fn a_state_file_replaced_by_a_link_is_refused_and_its_target_untouched() {
    let dir = super::scratch("linked-state");
    let (work, run) = stopped_count(&dir);
    let file = run.join("s10-b0.bin");
    let target = dir.join("precious.bin");
    // The target holds the very bytes of the state file: only the link is wrong.
    std::fs::copy(&file, &target).unwrap();
    let before = std::fs::read(&target).unwrap();
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&target, &file).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains("s10-b0.bin").and(contains("not a regular file")));
    assert_eq!(std::fs::read(&target).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `knights count 6x6 --method METHOD --work-dir WORK` to the end and
/// returns the file that keeps its count (`checkpoint.json` of a forward
/// run, the summary `count-meet-*.json` of a meeting).
fn finished_count(work: &std::path::Path, method: &str) -> std::path::PathBuf {
    knights()
        .args(["count", "6x6", "--method", method, "--work-dir"])
        .arg(work)
        .assert()
        .success()
        .stdout("9862\n");
    std::fs::read_dir(work)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .map(|p| {
            if p.is_dir() {
                p.join("checkpoint.json")
            } else {
                p
            }
        })
        .find(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
        .expect("the file of a finished count")
}

/// One flipped digit of the count in a finished count's manifest or a
/// meeting's summary (the resumed count answered it with status 0) is
/// refused with status 2, naming the file.
#[test]
fn a_flipped_digit_in_a_count_file_is_refused_naming_it() {
    for method in ["forward", "meet"] {
        let dir = super::scratch(&format!("flipped-{method}"));
        let file = finished_count(&dir, method);
        let text = std::fs::read_to_string(&file).unwrap();
        let flipped = text.replacen("9862", "9863", 1);
        assert_ne!(flipped, text, "{method}: {text}");
        std::fs::write(&file, flipped).unwrap();
        let name = file.file_name().unwrap().to_str().unwrap().to_string();
        knights()
            .args(["count", "6x6", "--method", method, "--resume", "--work-dir"])
            .arg(&dir)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(name.as_str()).and(contains("checksum")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A checkpoint of the format before checksums is refused with a sentence.
#[test]
fn a_checkpoint_without_checksums_is_refused() {
    let dir = super::scratch("old-checkpoint");
    let (work, run) = stopped_count(&dir);
    let manifest = run.join("checkpoint.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("\"version\":6", "\"version\":1", 1),
    )
    .unwrap();
    resume(&work)
        .code(2)
        .stderr(contains("format 1").and(contains("checksums")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--resume` on a folder with other files but no checkpoint is an error
/// (it started a fresh count silently).
#[test]
fn resume_in_a_folder_of_other_files_is_an_error() {
    let dir = super::scratch("resume-unrelated");
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    knights()
        .args(["count", "6x6", "--resume", "--work-dir"])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(contains("no checkpoint"));
    assert!(dir.join("notes.txt").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A count without `--resume` refuses to overwrite a checkpoint (it
/// discarded it silently); `--fresh` discards it and counts.
#[test]
fn a_checkpoint_is_overwritten_only_with_fresh() {
    let dir = super::scratch("fresh");
    let (work, run) = stopped_count(&dir);
    knights()
        .args(["count", "6x6", "--method", "forward", "--work-dir"])
        .arg(&work)
        .assert()
        .code(2)
        .stderr(contains(
            "holds an unfinished checkpoint of this count; resume it, or start afresh to discard it (--resume, or --fresh)",
        ));
    assert!(run.join("s10-b0.bin").is_file());
    knights()
        .args([
            "count",
            "6x6",
            "--method",
            "forward",
            "--fresh",
            "--work-dir",
        ])
        .arg(&work)
        .assert()
        .success()
        .stdout("9862\n");
    knights()
        .args(["count", "6x6", "--fresh", "--resume", "--work-dir"])
        .arg(&work)
        .assert()
        .code(2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `knights count 5x6 [ARGS] --work-dir WORK` (the count is 8).
fn count_5x6(work: &std::path::Path, args: &[&str]) -> assert_cmd::assert::Assert {
    knights()
        .args(["count", "5x6"])
        .args(args)
        .arg("--work-dir")
        .arg(work)
        .assert()
}

/// The checkpoint rules look at this count's checkpoint, not another's in
/// the same folder: `--resume` of another count is the documented error
/// (it started that count afresh, silently); a count without `--resume`
/// runs beside another's checkpoint (it was refused); `--fresh` removes
/// only its own files (it removed every count's); the other count then
/// resumes to its answer.
#[test]
fn the_checkpoint_rules_see_only_this_counts_checkpoint() {
    let dir = super::scratch("other-count");
    let (work, run) = stopped_count(&dir);
    count_5x6(&work, &["--resume"])
        .code(2)
        .stdout("")
        .stderr(contains("no checkpoint of this count in"));
    count_5x6(&work, &[]).success().stdout("8\n");
    count_5x6(&work, &["--fresh"]).success().stdout("8\n");
    count_5x6(&work, &["--fresh", "--method", "meet"])
        .success()
        .stdout("8\n");
    assert!(run.join("checkpoint.json").is_file());
    assert!(run.join("s10-b0.bin").is_file());
    resume(&work).success().stdout("9862\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A finished count in the folder is no checkpoint to protect: run again
/// without `--resume` it is counted afresh (it was refused), and with
/// `--resume` it is answered from its file; forward and met in the middle.
#[test]
fn a_finished_count_runs_again_without_resume() {
    for method in ["forward", "meet"] {
        let dir = super::scratch(&format!("finished-{method}"));
        finished_count(&dir, method);
        finished_count(&dir, method);
        knights()
            .args(["count", "6x6", "--method", method, "--resume", "--work-dir"])
            .arg(&dir)
            .assert()
            .success()
            .stdout("9862\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A meeting whose top part is done but whose bottom part has no
/// checkpoint yet (killed between them) is an unfinished count: run again
/// without `--resume` it is refused (the done part looked like a finished
/// count and was discarded), and `--resume` finishes it.
#[test]
fn a_meeting_with_one_part_done_is_unfinished() {
    let dir = super::scratch("meet-half-done");
    let meet = |args: &[&str]| {
        knights()
            .args(["count", "5x8", "--method", "meet"])
            .args(args)
            .arg("--work-dir")
            .arg(&dir)
            .assert()
    };
    meet(&["--stop-after", "26"]).code(130);
    // Remove the bottom part's checkpoint: the top part's alone is left.
    let mut removed = 0;
    // Each part has its folder (and its lock file beside it).
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        if !entry.path().is_dir() {
            continue;
        }
        let manifest = std::fs::read_to_string(entry.path().join("checkpoint.json")).unwrap();
        if manifest.contains("\"count\":null") {
            std::fs::remove_dir_all(entry.path()).unwrap();
            removed += 1;
        }
    }
    assert_eq!(removed, 1);
    meet(&[])
        .code(2)
        .stderr(contains("unfinished checkpoint of this count"));
    meet(&["--resume"]).success().stdout("44202\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A meeting's summary that cannot be cleared (here a folder in its
/// place) is an error naming it and the reason, without the system's error
/// number (it printed "... (os error 21)").
#[test]
fn a_summary_error_names_the_file_without_the_error_number() {
    let dir = super::scratch("summary-error");
    let summary = finished_count(&dir, "meet");
    std::fs::remove_file(&summary).unwrap();
    std::fs::create_dir(&summary).unwrap();
    let name = summary.file_name().unwrap().to_str().unwrap().to_string();
    knights()
        .args(["count", "6x6", "--method", "meet", "--work-dir"])
        .arg(&dir)
        .assert()
        .code(74)
        .stderr(
            contains(name.as_str())
                .and(contains("could not clear"))
                .and(contains("os error").not()),
        );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A work directory that cannot be made (its path runs through a regular
/// file: a failure even for root) is an I/O error, exit 74 (sysexits'
/// EX_IOERR), not bad usage.
#[test]
fn a_work_dir_under_a_file_is_an_io_error() {
    let dir = super::scratch("work-dir-under-file");
    let file = dir.join("plain.txt");
    std::fs::write(&file, "not a folder").unwrap();
    knights()
        .args(["count", "5x6", "--work-dir"])
        .arg(file.join("work"))
        .assert()
        .code(74)
        .stderr(contains("could not create the work directory").and(contains("os error").not()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--max-disk 0` and `--max-memory 0` are refused, as the docs say.
#[test]
fn zero_budgets_are_refused() {
    for option in ["--max-disk", "--max-memory"] {
        knights()
            .args(["count", "6x6", option, "0"])
            .assert()
            .code(2)
            .stderr(contains("'0' leaves the count no").and(contains("at least a byte")));
    }
}

/// In a control group limited to 300 MB (a container's limit), a tour too
/// large for it is refused with a sentence naming the limit, and a count
/// met in the middle keeps its join within it (its chunks joined in
/// smaller pieces), rather than being killed by the kernel (status 137). Needs root and a memory controller
/// (cgroup v1 or v2); it fails if it cannot make its group. Run it with
/// `cargo test -p knights-cli --test tests -- --ignored cgroup`.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs root to make a cgroup; about two minutes"]
fn a_cgroup_memory_limit_is_seen() {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").unwrap();
    let (base, limit_file) = cgroups
        .lines()
        .find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers.split(',').any(|c| c == "memory").then(|| {
                (
                    format!("/sys/fs/cgroup/memory{path}"),
                    "memory.limit_in_bytes",
                )
            })
        })
        .or_else(|| {
            let path = cgroups.lines().find_map(|l| l.strip_prefix("0::"))?;
            Some((format!("/sys/fs/cgroup{path}"), "memory.max"))
        })
        .expect("a memory cgroup");
    let group = std::path::Path::new(&base).join(format!("knights-test-{}", std::process::id()));
    std::fs::create_dir(&group).expect("a cgroup can be made (run as root)");
    std::fs::write(group.join(limit_file), "300M").expect("a memory limit can be set");
    let procs = group.join("cgroup.procs");
    let in_group = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "echo $$ > '{}' && exec \"$0\" {args}",
                procs.display()
            ))
            .arg(assert_cmd::cargo::cargo_bin("knights"))
            .output()
            .unwrap()
    };
    let tour = in_group("tour 10000x10000");
    let count = in_group("count 6x8 --open");
    let _ = std::fs::remove_dir(&group);
    let err = String::from_utf8_lossy(&tour.stderr);
    assert_eq!(tour.status.code(), Some(2), "{err}");
    assert!(err.contains("control group"), "{err}");
    let err = String::from_utf8_lossy(&count.stderr);
    assert_eq!(count.status.code(), Some(0), "{err}");
    assert_eq!(String::from_utf8_lossy(&count.stdout), "24964893804\n");
}

/// A count whose stderr is not a terminal writes a status line now and
/// then; under `--quiet` only every other interval (a minute by default),
/// so a short quiet count says nothing but its answer (no line such as
/// "1 states (peak so far 1 ...)") and a long
/// one is never silent for more than a minute. Lines every 30 seconds here
/// (every minute quiet), so a count of seconds prints none quiet; and
/// every second, so a count of seconds prints some.
#[test]
fn quiet_counts_print_a_status_line_a_minute_only() {
    let run = |quiet: bool, seconds: &str| {
        let mut cmd = knights();
        cmd.args(["count", "7x6", "--open", "--method", "forward"])
            .env("KNIGHTS_STATUS_SECONDS", seconds);
        if quiet {
            cmd.arg("--quiet");
        }
        let out = cmd.assert().success().stdout("389969466\n");
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    assert!(
        run(false, "1").contains("knights count:"),
        "status lines without --quiet"
    );
    assert_eq!(run(true, "30"), "", "--quiet");
}

/// The theorem's line promises a count of 0 only where one follows: a
/// method the user names still runs, and meeting in the middle refuses
/// 3x3 (before, the line said "so the count is 0" and the command then
/// exited 2).
#[test]
fn no_count_is_promised_that_a_named_method_refuses() {
    knights()
        .args(["count", "3x3", "--method", "meet"])
        .assert()
        .code(2)
        .stderr(contains("no closed tour exists on 3x3").and(contains("so the count is 0").not()));
    knights()
        .args(["count", "3x3"])
        .assert()
        .success()
        .stdout("0\n")
        .stderr(contains("so the count is 0"));
}

/// The acceptance runs of Knuth's tables: `knights count 7x8 --all-cells`,
/// `knights count 7x7 --all-cells --open` and `knights count 8x6
/// --all-cells --open` print every published term of A383663, A389757 and
/// A389758 for their cells: minutes for 7x8 and 7x7 open, many hours for
/// 8x6 open (the runs: BENCHMARKS.md, "Exact counting").
#[test]
#[ignore = "hours in release mode: cargo test --release -p knights-cli -- --ignored knuths_cell_tables_slow"]
fn knuths_cell_tables_slow() {
    assert_eq!(
        sweep_reproduces(&["7x8"], "first_cells_closed", "k7", 56),
        18
    );
    assert_eq!(
        sweep_reproduces(&["7x7", "--open"], "first_cells_open", "k7", 49),
        48
    );
    assert_eq!(
        sweep_reproduces(&["8x6", "--open"], "first_cells_open", "k8", 48),
        46
    );
}
