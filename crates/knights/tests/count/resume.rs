//! States on disk, checkpoints and resuming, and the thread count: none of
//! them may change a count or the states behind it.

use std::path::PathBuf;

use knights::count::{self, Method, Options, Report};
use knights::Board;
use knights::Kind;

/// A fresh directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("knights-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn in_memory_by(board: &str, kind: Kind, method: Method) -> Report {
    let opts = Options {
        kind,
        method,
        ..Options::default()
    };
    count::tours(board.parse().unwrap(), &opts).unwrap()
}

#[test]
fn disk_runs_match_memory_runs() {
    let dir = scratch("disk");
    for (board, kind, method) in [
        ("6x6", Kind::Closed, Method::Forward),
        ("6x6", Kind::Closed, Method::Meet),
        ("5x5", Kind::Open, Method::Forward),
        ("3x10", Kind::Closed, Method::Forward),
        ("3x10", Kind::Closed, Method::Meet),
    ] {
        let want = in_memory_by(board, kind, method);
        assert!(!want.on_disk);
        let opts = Options {
            kind,
            method,
            work_dir: Some(&dir),
            ..Options::default()
        };
        let got = count::tours(board.parse().unwrap(), &opts).unwrap();
        assert!(got.on_disk, "{board}");
        assert_eq!(got.count, want.count, "{board}");
        assert_eq!(got.states_per_step, want.states_per_step, "{board}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_small_memory_bound_spills_to_disk() {
    // 6x6 peaks at about 50,000 states: 1 MiB holds a few thousand.
    let opts = Options {
        max_memory: Some(1 << 20),
        ..Options::default()
    };
    let got = count::tours("6x6".parse().unwrap(), &opts).unwrap();
    assert_eq!(got.count, 9862);
    assert!(got.on_disk);
}

/// Stops a count of 6x6 after each of `stops` squares, stops the resumed
/// count again four squares later, resumes it to the end, and checks the
/// count, the states of every square, and that a finished count resumes to
/// its answer at once.
fn stop_and_resume(method: Method, name: &str, stops: &[usize]) {
    let board: Board = "6x6".parse().unwrap();
    let want = in_memory_by("6x6", Kind::Closed, method);
    let squares = want.states_per_step.len();
    let dir = scratch(name);
    let opts = |resume, stop_after| Options {
        method,
        work_dir: Some(&dir),
        resume,
        stop_after,
        ..Options::default()
    };
    for &stop in stops {
        let err = count::tours(board, &opts(false, Some(stop))).unwrap_err();
        assert!(err.to_string().contains("as asked"), "stop {stop}: {err}");
        if stop + 4 < squares {
            let err = count::tours(board, &opts(true, Some(stop + 4))).unwrap_err();
            assert!(
                err.to_string().contains("as asked"),
                "stop {}: {err}",
                stop + 4
            );
        }
        let got = count::tours(board, &opts(true, None)).unwrap();
        assert_eq!(got.count, want.count, "stopped after {stop}");
        assert_eq!(got.states_per_step, want.states_per_step);
        assert_eq!(
            count::tours(board, &opts(true, None)).unwrap().count,
            want.count
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stopped_counts_resume_to_the_same_answer() {
    stop_and_resume(Method::Forward, "resume", &[1, 7, 18, 30, 35]);
}

/// Meeting in the middle runs the top part (24 squares of 6x6), then the
/// bottom part (24 squares): a stop anywhere in either resumes to the count
/// (a stop at a part's last square is no stop, so none is asked there).
#[test]
fn stopped_meetings_resume_to_the_same_answer() {
    stop_and_resume(Method::Meet, "resume-meet", &[1, 12, 17, 19, 21, 33, 43]);
}

#[test]
fn symmetric_counts_resume_too() {
    let dir = scratch("symmetric");
    let board: Board = "6x6".parse().unwrap();
    let opts = Options {
        work_dir: Some(&dir),
        stop_after: Some(10),
        ..Options::default()
    };
    assert!(count::symmetric(board, &opts).is_err());
    let opts = Options {
        work_dir: Some(&dir),
        resume: true,
        ..Options::default()
    };
    assert_eq!(count::symmetric(board, &opts).unwrap().count, 78);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_thread_count_does_not_matter() {
    let run = |threads: usize, disk: bool, method: Method| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let opts = Options {
                method,
                max_memory: disk.then_some(1 << 20),
                ..Options::default()
            };
            count::tours("8x5".parse().unwrap(), &opts).unwrap()
        })
    };
    for method in [Method::Forward, Method::Meet] {
        let one = run(1, false, method);
        for (threads, disk) in [(2, false), (3, false), (1, true), (3, true)] {
            let r = run(threads, disk, method);
            assert_eq!(r.count, one.count, "{threads} threads, disk {disk}");
            assert_eq!(r.states_per_step, one.states_per_step);
            assert_eq!(r.on_disk, disk);
        }
    }
}
