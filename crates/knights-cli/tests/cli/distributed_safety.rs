//! Spread counts that never hang and never outlive their launcher: a
//! worker's failure reaches every worker, signals to the launcher reach
//! `mpirun`, each worker locks its share of the run, and the number of
//! workers is bounded. Every run here has a hard time limit.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest any launcher here may run.
const LIMIT: Duration = Duration::from_secs(120);

/// A launcher started: `knights count ARGS`, its output read as it comes.
struct Launched {
    child: Child,
    out: std::thread::JoinHandle<String>,
    err: std::thread::JoinHandle<String>,
}

fn start(args: &[&OsStr]) -> Launched {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("knights"))
        .arg("count")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("knights starts");
    let read = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = from.read_to_string(&mut text);
            text
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    Launched { child, out, err }
}

impl Launched {
    /// Its exit status, stdout and stderr; fails the test if it runs past
    /// [`LIMIT`] (stopping it first).
    fn finish(mut self) -> (i32, String, String) {
        let started = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if started.elapsed() > LIMIT {
                signal(self.child.id(), "TERM");
                std::thread::sleep(Duration::from_secs(10));
                let _ = self.child.kill();
                panic!("the launcher ran past {LIMIT:?}: it hangs");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let (out, err) = (self.out.join().unwrap(), self.err.join().unwrap());
        (status.code().unwrap_or(-1), out, err)
    }
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn run(args: &[OsString]) -> (i32, String, String) {
    let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
    start(&refs).finish()
}

fn signal(pid: u32, name: &str) {
    let sent = Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{name} {pid}");
}

/// The processes (the launcher, `mpirun`, the workers) whose command line
/// has `mark` as an argument.
fn processes_with(mark: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if cmdline.split(|&b| b == 0).any(|a| a == mark.as_bytes()) {
            pids.push(pid);
        }
    }
    pids
}

/// Waits until `done` holds, for at most a minute.
fn wait_for(what: &str, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < Duration::from_secs(60), "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The files in the run folders of `work` whose names end with `suffix`.
fn files_ending(work: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(work).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.to_string_lossy().ends_with(suffix) {
            found.push(path.clone());
        }
        if path.is_dir() {
            found.extend(files_ending(&path, suffix));
        }
    }
    found
}

/// Lines of standard error that report an error, and none from mpirun.
fn errors(err: &str) -> Vec<&str> {
    assert!(!err.contains("mpirun") && !err.contains("------"), "{err}");
    err.lines().filter(|l| l.starts_with("knights:")).collect()
}

/// Workers that make the work directory at once never fail, nor hang,
/// for it.
#[test]
fn a_count_in_a_folder_not_made_yet_never_hangs() {
    let dir = super::scratch("spread-new-folder");
    for i in 0..20 {
        let work = dir.join(format!("w{i}"));
        let args = [
            os(&["5x5", "--open", "--processes", "2", "--work-dir"]),
            vec![work.into()],
        ];
        let (status, out, err) = run(&args.concat());
        assert_eq!((status, out.trim()), (0, "864"), "run {i}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A worker that fails before the first exchange (here: its share of the
/// run is locked, by this test) still tells the others, and every worker
/// stops with its error, printed once.
#[test]
fn a_worker_failing_before_the_first_exchange_stops_every_worker() {
    let dir = super::scratch("spread-one-fails");
    let args = [
        os(&["5x6", "--processes", "2", "--quiet", "--work-dir"]),
        vec![dir.clone().into()],
    ]
    .concat();
    let (status, out, err) = run(&args);
    assert_eq!((status, out.trim()), (0, "8"), "{err}");
    // Worker 1's locks (one for each part of the count).
    let locks = files_ending(&dir, "-of2-w1.lock");
    assert!(!locks.is_empty(), "worker 1's locks");
    let held: Vec<File> = locks
        .iter()
        .map(|lock| {
            let file = File::options().write(true).open(lock).unwrap();
            file.try_lock().expect("the test holds worker 1's lock");
            file
        })
        .collect();
    let (status, out, err) = run(&args);
    assert_eq!(status, 2, "{out}{err}");
    let lines = errors(&err);
    assert_eq!(lines.len(), 1, "one error, from worker 0: {err}");
    assert!(lines[0].contains("worker 1 of 2"), "{err}");
    assert!(
        lines[0].contains("another process is running this count"),
        "{err}"
    );
    drop(held);
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM, SIGINT and SIGHUP to the launcher end `mpirun` and the workers
/// before the launcher ends (130), the count resumes after each, and a
/// second run of the count in the folder meanwhile is refused (2).
#[test]
fn a_stopped_launcher_leaves_no_process_and_the_count_resumes() {
    let dir = super::scratch("spread-signals");
    // A memory bound no other test gives marks this count's processes.
    let mark = "3000000029";
    let count = [
        os(&["6x8", "--open", "--quiet", "--max-memory", mark]),
        os(&["--processes", "2", "--work-dir"]),
        vec![dir.clone().into()],
    ]
    .concat();
    for (i, name) in ["TERM", "INT", "HUP"].into_iter().enumerate() {
        let mut args = count.clone();
        if i > 0 {
            args.push("--resume".into());
        }
        let refs: Vec<&OsStr> = args.iter().map(OsString::as_os_str).collect();
        let launched = start(&refs);
        // The launcher, mpirun and both workers run, and each worker has
        // written a square of its own.
        wait_for("the count runs, with a checkpoint", || {
            processes_with(mark).len() == 4 && files_ending(&dir, ".json").len() >= 2
        });
        if i == 0 {
            let (status, _, err) = run(&args);
            assert_eq!(status, 2, "a second run in the folder: {err}");
            assert_eq!(errors(&err).len(), 1, "{err}");
            assert!(
                err.contains("another process is running this count"),
                "{err}"
            );
        }
        signal(launched.child.id(), name);
        let (status, _, err) = launched.finish();
        assert_eq!(status, 130, "SIG{name}: {err}");
        assert_eq!(
            processes_with(mark),
            Vec::<u32>::new(),
            "SIG{name} left processes"
        );
    }
    let mut args = count.clone();
    args.push("--resume".into());
    let (status, out, err) = run(&args);
    assert_eq!((status, out.trim()), (0, "24964893804"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// More workers than the board's squares or the machine's limits allow
/// is refused before any process starts (2).
#[test]
fn too_many_workers_are_refused_before_any_starts() {
    for n in ["100000", "4294967296", "37"] {
        let (status, out, err) = run(&os(&["6x6", "--processes", n]));
        assert_eq!((status, out.as_str()), (2, ""), "{n}: {err}");
        assert_eq!(errors(&err).len(), 1, "{n}: {err}");
        assert!(err.contains("1 or more and at most"), "{n}: {err}");
    }
    let (_, _, err) = run(&os(&["6x6", "--processes", "37"]));
    assert!(
        err.contains("at most 36 here (one per square of the board, 36)"),
        "{err}"
    );
}

/// A work directory whose name is not UTF-8 goes to the workers as it is.
#[test]
fn a_work_directory_not_in_utf8_works() {
    let dir = super::scratch("spread-utf8");
    let work = dir.join(OsStr::from_bytes(b"w\xff"));
    let args = [
        os(&["5x6", "--processes", "2", "--work-dir"]),
        vec![work.clone().into()],
    ];
    let (status, out, err) = run(&args.concat());
    assert_eq!((status, out.trim()), (0, "8"), "{err}");
    assert!(
        !files_ending(&work, "-of2-w0.lock").is_empty(),
        "the workers' folder"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A checkpoint resumed with another number of workers, or with a damaged
/// share, is refused once, naming the file and the number it was written
/// with, and without leaving a folder behind.
#[test]
fn a_checkpoint_that_cannot_be_resumed_says_why() {
    let dir = super::scratch("spread-messages");
    let args = |n: &str, more: &[&str]| {
        let mut a = os(&["6x6", "--quiet", "--processes", n, "--work-dir"]);
        a.push(dir.clone().into());
        a.extend(os(more));
        a
    };
    let (status, _, err) = run(&args("2", &["--stop-after", "12"]));
    assert_eq!(status, 130, "{err}");
    let (status, _, err) = run(&args("3", &["--resume"]));
    assert_eq!(status, 2, "{err}");
    assert_eq!(errors(&err).len(), 1, "{err}");
    assert!(err.contains("was written by 2 workers"), "{err}");
    assert!(
        files_ending(&dir, "-of3").is_empty(),
        "no folder for 3 workers"
    );
    let share = files_ending(&dir, "w1-s12.json");
    assert_eq!(share.len(), 1, "{share:?}");
    let mut text = std::fs::read(&share[0]).unwrap();
    let at = text.len() / 2;
    text[at] = if text[at] == b'1' { b'2' } else { b'1' };
    std::fs::write(&share[0], text).unwrap();
    let (status, _, err) = run(&args("2", &["--resume"]));
    assert_eq!(status, 2, "{err}");
    assert_eq!(errors(&err).len(), 1, "{err}");
    assert!(
        err.contains("w1-s12.json") && err.contains("--fresh"),
        "{err}"
    );
    let (status, out, err) = run(&args("2", &["--fresh"]));
    assert_eq!((status, out.trim()), (0, "9862"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
