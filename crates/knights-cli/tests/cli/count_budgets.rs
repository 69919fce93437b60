//! `knights count` within its budgets of memory, disk and time, through the
//! real binary: the stops, the dry runs and the clean-up.

use super::knights;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

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

/// A dry run of symmetric tours projects the half turn's quotient graph:
/// on 6x6 the trial counts it whole, so its peak is the count's.
#[test]
fn a_dry_run_of_symmetric_tours_projects_the_quotient_graph() {
    let json = |extra: &[&str]| -> serde_json::Value {
        let out = knights()
            .args(["count", "6x6", "--symmetric", "--json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (dry, count) = (json(&["--dry-run"]), json(&[]));
    assert_eq!(dry["of"], "symmetric");
    assert_eq!(
        dry["steps"], 18,
        "one square for each pair the half turn swaps"
    );
    assert_eq!(dry["projected_peak_states"], count["peak_states"]);
    assert_eq!(count["count"], 78);
    // An odd board has no closed tour and no quotient problem to run.
    let out = knights()
        .args(["count", "7x7", "--symmetric", "--dry-run"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("nothing to count"), "{text}");
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
