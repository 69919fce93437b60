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
