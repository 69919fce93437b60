//! States on disk, checkpoints and resuming, and the thread count: none of
//! them may change a count or the states behind it.

use std::path::PathBuf;

use knights::count::{self, CountReport, Counter, Method};
use knights::{Board, Control, Error, Kind, Progress, StopFlag};

/// A fresh directory under the system's temporary directory.
pub(super) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("knights-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A control that stops a count after its square `square` (its
/// checkpoint written), as a caller's stop flag raised then would: the way
/// to test resuming, with no hook in the library.
pub(super) fn stopping_after(square: u64) -> Control {
    let flag = StopFlag::new();
    let raise = flag.clone();
    Control::new().stop(flag).progress(move |p: &Progress| {
        if p.done == square {
            raise.stop();
        }
    })
}

/// Whether `err` is a stop after a square, as [`stopping_after`] asks (the
/// message numbers the squares of the part that stopped, so a meeting's
/// bottom part counts from its own first square).
fn stopped_after_a_square(err: &Error) -> bool {
    matches!(err, Error::Interrupted(_)) && err.to_string().contains("stopped after square")
}

fn in_memory_by(board: &str, kind: Kind, method: Method) -> CountReport {
    let counter = Counter::new(board.parse().unwrap())
        .kind(kind)
        .method(method);
    counter.tours().unwrap()
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
        // Each board's count replaces the last one's checkpoint.
        let got = Counter::new(board.parse().unwrap())
            .kind(kind)
            .method(method)
            .work_dir(&dir)
            .fresh(true)
            .tours()
            .unwrap();
        assert!(got.on_disk, "{board}");
        assert_eq!(got.count, want.count, "{board}");
        assert_eq!(got.states_per_step, want.states_per_step, "{board}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_small_memory_bound_spills_to_disk() {
    // 6x6 peaks at about 50,000 states: 1 MiB holds a few thousand.
    let counter = Counter::new("6x6".parse().unwrap()).max_memory(1 << 20);
    let got = counter.tours().unwrap();
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
    let counter = |resume: bool| {
        Counter::new(board)
            .method(method)
            .work_dir(&dir)
            .resume(resume)
            .fresh(!resume)
    };
    for &stop in stops {
        let control = stopping_after(stop as u64);
        let err = counter(false).control(&control).tours().unwrap_err();
        assert!(stopped_after_a_square(&err), "stop {stop}: {err}");
        if stop + 4 < squares {
            let control = stopping_after(stop as u64 + 4);
            let err = counter(true).control(&control).tours().unwrap_err();
            assert!(stopped_after_a_square(&err), "stop {}: {err}", stop + 4);
        }
        let got = counter(true).tours().unwrap();
        assert_eq!(got.count, want.count, "stopped after {stop}");
        assert_eq!(got.states_per_step, want.states_per_step);
        assert_eq!(counter(true).tours().unwrap().count, want.count);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A resumed count reports the square its checkpoint holds before it
/// steps on (its next square may take long), with the checkpoint's states.
#[test]
fn a_resumed_count_reports_its_checkpoint_first() {
    let board: Board = "6x6".parse().unwrap();
    let want = in_memory_by("6x6", Kind::Closed, Method::Forward);
    let dir = scratch("resumed-report");
    let counter = |resume: bool| {
        Counter::new(board)
            .method(Method::Forward)
            .work_dir(&dir)
            .resume(resume)
            .fresh(!resume)
    };
    assert!(counter(false).control(&stopping_after(20)).tours().is_err());
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&seen);
    let control = Control::new().progress(move |p: &Progress| {
        log.lock().unwrap().push((p.done, p.states));
    });
    let got = counter(true).control(&control).tours().unwrap();
    assert_eq!(got.count, want.count);
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0], (20, Some(want.states_per_step[19])));
    assert_eq!(seen[1].0, 21);
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
    let control = stopping_after(10);
    let counter = Counter::new(board).work_dir(&dir);
    let err = counter.clone().control(&control).symmetric().unwrap_err();
    assert!(stopped_after_a_square(&err), "{err}");
    assert_eq!(counter.resume(true).symmetric().unwrap().count, 78);
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
            let counter = Counter::new("8x5".parse().unwrap()).method(method);
            let counter = if disk {
                counter.max_memory(1 << 18)
            } else {
                counter
            };
            counter.tours().unwrap()
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

/// The `.bin` state files under `dir`, at any depth.
fn state_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(state_files(&path));
        } else if path.extension().is_some_and(|e| e == "bin") {
            out.push(path);
        }
    }
    out
}

/// A disk budget too small for 6x6 stops the count before it is passed,
/// with its checkpoint kept; a resume with more room finishes it, and the
/// finished count leaves no state files, only its summary.
fn disk_budget_stops_and_resumes(method: Method, name: &str) {
    let dir = scratch(name);
    let board: Board = "6x6".parse().unwrap();
    let counter = |resume, max_disk| {
        Counter::new(board)
            .method(method)
            .work_dir(&dir)
            .resume(resume)
            .max_disk(max_disk)
    };
    // 6x6 peaks near 150,000 states, packed in a few bytes each: 1.5 MB
    // of files at once going forward, 200 KB meeting.
    let err = counter(false, 128 << 10).tours().unwrap_err();
    assert_eq!(err.category(), knights::Category::OverLimit, "{err}");
    let text = err.to_string();
    assert_eq!(err.hint(), Some(knights::Hint::ResumeWithRoom), "{text}");
    assert!(text.contains("the disk budget of 128.0 KiB"), "{text}");
    assert!(text.contains("would need about"), "{text}");
    assert!(!state_files(&dir).is_empty(), "the checkpoint is kept");
    let got = counter(true, 1 << 30).tours().unwrap();
    assert_eq!(got.count, 9862);
    assert!(got.on_disk && got.peak_disk_bytes > 0);
    assert_eq!(state_files(&dir), Vec::<PathBuf>::new());
    // The summary answers a resume at once.
    assert_eq!(counter(true, 1 << 30).tours().unwrap().count, 9862);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A square whose files do not fit the disk budget at once is expanded
/// in passes, each merging a share of the next buckets: 6x6 forward needs
/// about 398 KiB for its square 28 in one pass (its refusal under 300 kB
/// says so), and under 350 kB it counts in passes to the same states.
#[test]
fn a_square_over_the_disk_budget_runs_in_passes() {
    let dir = scratch("passes");
    let board: Board = "6x6".parse().unwrap();
    let want = in_memory_by("6x6", Kind::Closed, Method::Forward);
    let counter = |max_disk| {
        Counter::new(board)
            .method(Method::Forward)
            .work_dir(&dir)
            .fresh(true)
            .max_disk(max_disk)
    };
    let err = counter(300_000).tours().unwrap_err().to_string();
    assert!(err.contains("before square 28 of 36"), "{err}");
    assert!(err.contains("would need about 398.3 KiB"), "{err}");
    let got = counter(350_000).tours().unwrap();
    assert_eq!(got.count, want.count);
    assert_eq!(got.states_per_step, want.states_per_step);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_disk_budget_stops_forward_counts_cleanly() {
    disk_budget_stops_and_resumes(Method::Forward, "max-disk");
}

#[test]
fn a_disk_budget_stops_meetings_cleanly() {
    disk_budget_stops_and_resumes(Method::Meet, "max-disk-meet");
}

#[test]
fn a_disk_budget_binds_states_spilled_past_the_memory_bound() {
    let err = Counter::new("6x6".parse().unwrap())
        .max_memory(1 << 20)
        .max_disk(256 << 10)
        .tours()
        .unwrap_err();
    assert_eq!(err.category(), knights::Category::OverLimit, "{err}");
    assert_eq!(err.hint(), Some(knights::Hint::MoreRoom), "{err}");
}

#[test]
fn finished_counts_keep_their_states_only_when_asked() {
    for (method, keep) in [
        (Method::Forward, false),
        (Method::Forward, true),
        (Method::Meet, false),
        (Method::Meet, true),
    ] {
        let dir = scratch(&format!("keep-{}-{keep}", method.name()));
        let board: Board = "5x6".parse().unwrap();
        let counter = Counter::new(board).method(method).work_dir(&dir).keep(keep);
        assert_eq!(counter.tours().unwrap().count, 8);
        assert_eq!(!state_files(&dir).is_empty(), keep, "{method:?}");
        let summaries = std::fs::read_dir(&dir).unwrap().count();
        assert!(summaries > 0, "a summary stays");
        assert_eq!(counter.resume(true).tours().unwrap().count, 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn projections_of_small_boards_are_their_counts_figures() {
    // 5x6 open counts in a fraction of a second: the trial finishes it, so
    // the projected peak is the real one.
    let board: Board = "5x6".parse().unwrap();
    let counter = Counter::new(board).kind(Kind::Open).method(Method::Forward);
    let p = counter.project().unwrap();
    let real = counter.tours().unwrap();
    assert_eq!(p.source, Some(count::Source::Complete));
    assert_eq!(p.peak_states, real.peak_states);
    assert_eq!(p.steps, 30);
    assert!(p.disk_bytes >= 16 * real.peak_states);
    let none = Counter::new("4x4".parse().unwrap()).project().unwrap();
    assert_eq!(none.source, Some(count::Source::Nothing));
}
