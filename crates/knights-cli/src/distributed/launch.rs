//! `--processes N`: the command line run again as N workers of an MPI job
//! on this machine (`mpirun -np N knights ... --distributed`).
//!
//! The launcher never leaves the job behind: `mpirun` runs in a process
//! group of its own, and SIGINT, SIGTERM and SIGHUP sent to the launcher
//! (Ctrl-C, `kill`, `timeout`, a closed terminal) send SIGTERM to that
//! group, after which the launcher waits for `mpirun`, which ends its
//! workers, to end. The launcher's one `ctrlc` handler (see
//! [`forward_stop_signals`]) does it, in place of the other commands' (a
//! handler, unlike a blocked signal, does not pass to `mpirun` through
//! `exec`). N is bounded before `mpirun` starts (see [`most_workers`]).

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use anyhow::{Context, Result};
use nix::sys::resource::{getrlimit, Resource};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// Whether the launcher was told to stop.
static STOPPED: AtomicBool = AtomicBool::new(false);
/// `mpirun`'s process group, once it runs (0 before).
static GROUP: AtomicI32 = AtomicI32::new(0);

/// Ends `mpirun`'s process group, if it runs, with SIGTERM (`mpirun` ends
/// its workers on SIGTERM, SIGINT and SIGHUP alike).
fn stop_group() {
    let group = GROUP.load(Ordering::SeqCst);
    if group > 0 {
        let _ = killpg(Pid::from_raw(group), Signal::SIGTERM);
    }
}

/// Installs the launcher's handler of SIGINT, SIGTERM and SIGHUP: each
/// ends `mpirun`'s group (once it runs), and the launcher, which waits for
/// it, then exits 130. The first thing a launcher does.
pub fn forward_stop_signals() {
    // Failing leaves the signals' default actions: the launcher ends at
    // once, as it would have without forwarding.
    let _ = ctrlc::set_handler(|| {
        STOPPED.store(true, Ordering::SeqCst);
        stop_group();
    });
}

/// Runs this command line again as `processes` workers of an MPI job on
/// this machine, whose count's board has `squares` squares, and ends as
/// the job ends.
pub fn launch(processes: usize, squares: usize) -> Result<u8> {
    let (most, why) = most_workers(squares);
    if processes == 0 || processes > most {
        return Err(knights::Error::Parse(format!(
            "--processes takes the number of worker processes, 1 or more and at most {most} here ({why})"
        ).into())
        .into());
    }
    let exe = std::env::current_exe().context("find the knights executable")?;
    let mut args = worker_args(std::env::args_os().skip(1));
    args.push("--distributed".into());
    let version = Command::new("mpirun")
        .arg("--version")
        .output()
        .map_err(|e| {
            knights::Error::Unsupported(format!(
                "--processes starts its workers with mpirun, which could not be run ({e}); install an MPI (on Debian: openmpi-bin)"
            ).into())
        })?;
    let open_mpi = String::from_utf8_lossy(&version.stdout).contains("Open MPI");
    let mut mpirun = Command::new("mpirun");
    if open_mpi {
        // More workers than cores is allowed here, none bound to a core
        // (each worker runs threads of its own); Open MPI refuses to run
        // as root unless told, and these are this user's own processes.
        // Quiet: worker 0 says why a count failed, and no banner follows.
        mpirun
            .args(["--quiet", "--oversubscribe", "--bind-to", "none"])
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    let mut child = mpirun
        .arg("-np")
        .arg(processes.to_string())
        .arg(exe)
        .args(&args)
        .process_group(0)
        .spawn()
        .context("run mpirun")?;
    GROUP.store(
        i32::try_from(child.id()).context("mpirun's process id")?,
        Ordering::SeqCst,
    );
    // A signal before mpirun ran: it ends now.
    if STOPPED.load(Ordering::SeqCst) {
        stop_group();
    }
    let status = child.wait().context("wait for mpirun")?;
    GROUP.store(0, Ordering::SeqCst);
    if STOPPED.load(Ordering::SeqCst) {
        return Ok(crate::exit::EXIT_INTERRUPTED);
    }
    Ok(launcher_status(status.code()))
}

/// The arguments of a worker: the launcher's own (as the system gave them,
/// whatever their encoding) without `--processes N`.
fn worker_args(given: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let mut args = Vec::new();
    let mut given = given;
    while let Some(a) = given.next() {
        if a == "--processes" {
            given.next();
        } else if !a.as_encoded_bytes().starts_with(b"--processes=") {
            args.push(a);
        }
    }
    args
}

/// File descriptors `mpirun` holds for itself, and for each worker (its
/// pipes; a margin over what Open MPI takes).
const MPIRUN_FILES: u64 = 64;
const FILES_PER_WORKER: u64 = 4;
/// Threads of a worker besides its counting threads (one per core): its
/// own MPI thread and Open MPI's.
const THREADS_PER_WORKER: u64 = 6;

/// The most workers `--processes` starts for a board of `squares` squares,
/// and why: one per square of the board at most (more would hold nothing
/// a square does not already split), and no more than this machine's
/// limits let `mpirun` start: its open files (pipes to each worker) and
/// the processes and threads the workers run, of which they take at most
/// half.
pub(crate) fn most_workers(squares: usize) -> (usize, String) {
    let mut most = (
        squares.max(1),
        format!("one per square of the board, {squares}"),
    );
    let mut lower = |n: u64, why: String| {
        let n = usize::try_from(n).unwrap_or(usize::MAX).max(1);
        if n < most.0 {
            most = (n, why);
        }
    };
    if let Ok((files, _)) = getrlimit(Resource::RLIMIT_NOFILE) {
        let n = files.saturating_sub(MPIRUN_FILES) / FILES_PER_WORKER;
        lower(n, format!("the open-file limit of {files} allows {n}"));
    }
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get() as u64);
    let per_worker = cores + THREADS_PER_WORKER;
    let mut tasks: Vec<(u64, &str)> = Vec::new();
    if let Ok((procs, _)) = getrlimit(Resource::RLIMIT_NPROC) {
        tasks.push((procs, "processes per user"));
    }
    for (file, what) in [
        ("/proc/sys/kernel/threads-max", "threads"),
        ("/proc/sys/kernel/pid_max", "process ids"),
    ] {
        if let Some(n) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok())
        {
            tasks.push((n, what));
        }
    }
    if let Some(&(limit, what)) = tasks.iter().min() {
        let n = limit / 2 / per_worker;
        lower(
            n,
            format!("the limit of {limit} {what}, half of it for {per_worker} threads a worker, allows {n}"),
        );
    }
    most
}

/// The launcher's exit status for `mpirun`'s: a status of the documented
/// ones as it is (worker 0's); a worker ended by a signal (128 and over,
/// or `mpirun` itself killed) as a stopped count (130, its checkpoint kept
/// for `--resume`); anything else, `mpirun`'s own failure, as 2.
fn launcher_status(code: Option<i32>) -> u8 {
    match code {
        Some(c @ (0 | 1 | 2 | 3 | 70 | 74 | 130)) => c as u8,
        Some(c) if c >= 128 => 130,
        None => 130,
        Some(c) => {
            crate::warn!("knights: mpirun ended with status {c}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_gets_the_arguments_but_the_number_of_processes() {
        use std::os::unix::ffi::OsStringExt;
        let odd = OsString::from_vec(b"w\xff".to_vec());
        let given = ["count", "6x6", "--processes", "2", "--work-dir"]
            .map(OsString::from)
            .into_iter()
            .chain([odd.clone(), "--processes=3".into()]);
        let want: Vec<OsString> = ["count", "6x6", "--work-dir"]
            .map(OsString::from)
            .into_iter()
            .chain([odd])
            .collect();
        assert_eq!(worker_args(given), want);
    }

    #[test]
    fn the_most_workers_is_at_most_one_per_square() {
        let (most, why) = most_workers(36);
        assert!((1..=36).contains(&most), "{most}: {why}");
        assert!(most_workers(100_000).0 < 100_000);
    }
}
