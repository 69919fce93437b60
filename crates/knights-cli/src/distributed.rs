//! Counting spread over processes (feature `distributed`): the library's
//! [`Exchange`] over MPI, and `--processes N`, which starts N workers on
//! this machine with `mpirun`.
//!
//! Each worker is one `knights count ... --distributed` process of an MPI
//! job (started by `mpirun`, `mpiexec` or Slurm's `srun`); they run the
//! same count, each holding its share of the states, and exchange
//! successors with MPI's all-to-all. The MPI types may not cross threads,
//! so one thread of each process owns MPI: it initialises it, makes every
//! collective call the count asks for, in order, and finalises it when the
//! count ends. Worker 0 prints the answer; the others print only errors.

use std::process::{Command, ExitCode};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;

use anyhow::{anyhow, Context, Result};
use knights::count::Exchange;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::*;

/// A collective call, made by the MPI thread.
enum Call {
    AllToAll(Vec<Vec<u8>>),
    AllGather(Vec<u8>),
}

type Answer = std::result::Result<Vec<Vec<u8>>, String>;

/// This process's end of the MPI job.
pub struct Mpi {
    rank: usize,
    size: usize,
    calls: Mutex<Option<(Sender<Call>, Receiver<Answer>)>>,
    thread: Option<JoinHandle<()>>,
}

impl Mpi {
    /// Joins the MPI job this process was started in (one process alone
    /// is a job of one worker); a collective call carries at most `round`
    /// bytes at a time ([`ROUND_BYTES`] unless a test says less).
    pub fn start(round: usize) -> Result<Mpi> {
        let (call_tx, call_rx) = channel::<Call>();
        let (answer_tx, answer_rx) = channel::<Answer>();
        let (info_tx, info_rx) = channel::<Option<(usize, usize)>>();
        let thread = std::thread::Builder::new()
            .name("mpi".into())
            .spawn(move || {
                // Funneled: only this thread, which initialises MPI, calls it.
                let Some((universe, _)) = mpi::initialize_with_threading(mpi::Threading::Funneled)
                else {
                    let _ = info_tx.send(None);
                    return;
                };
                let world = universe.world();
                let _ = info_tx.send(Some((world.rank() as usize, world.size() as usize)));
                for call in call_rx {
                    let answer = match call {
                        Call::AllToAll(out) => all_to_all(&world, out, round),
                        Call::AllGather(mine) => all_gather(&world, mine, round),
                    };
                    if answer_tx.send(answer).is_err() {
                        break;
                    }
                }
            })
            .context("start the thread that runs MPI")?;
        let (rank, size) = info_rx
            .recv()
            .ok()
            .flatten()
            .ok_or_else(|| anyhow!("MPI did not start (it was started already, or failed)"))?;
        Ok(Mpi {
            rank,
            size,
            calls: Mutex::new(Some((call_tx, answer_rx))),
            thread: Some(thread),
        })
    }

    fn call(&self, call: Call) -> knights::Result<Vec<Vec<u8>>> {
        let lost = || knights::Error::Internal("the MPI thread ended".into());
        let calls = self.calls.lock().map_err(|_| lost())?;
        let (tx, rx) = calls.as_ref().ok_or_else(lost)?;
        tx.send(call).map_err(|_| lost())?;
        rx.recv()
            .map_err(|_| lost())?
            .map_err(knights::Error::Unsupported)
    }
}

impl Drop for Mpi {
    /// Ends the MPI thread, which finalises MPI.
    fn drop(&mut self) {
        if let Ok(mut calls) = self.calls.lock() {
            calls.take();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Exchange for Mpi {
    fn rank(&self) -> usize {
        self.rank
    }

    fn workers(&self) -> usize {
        self.size
    }

    fn all_to_all(&self, out: Vec<Vec<u8>>) -> knights::Result<Vec<Vec<u8>>> {
        self.call(Call::AllToAll(out))
    }

    fn all_gather(&self, mine: Vec<u8>) -> knights::Result<Vec<Vec<u8>>> {
        self.call(Call::AllGather(mine))
    }
}

/// The most bytes one collective call carries in all, by default: MPI's
/// counts and offsets are 32-bit, so a larger exchange goes in rounds.
pub const ROUND_BYTES: usize = 1 << 30;

/// Bytes `[r * per, (r + 1) * per)` of a buffer of `len` bytes, clipped.
fn round_of(len: usize, r: usize, per: usize) -> std::ops::Range<usize> {
    let from = r.saturating_mul(per).min(len);
    from..from.saturating_add(per).min(len)
}

/// The offsets of buffers of `counts` bytes laid end to end (their sum
/// is at most a round's bytes, so it fits).
fn offsets(counts: &[i32]) -> Vec<i32> {
    let mut at = 0i32;
    counts
        .iter()
        .map(|&c| {
            let here = at;
            at += c;
            here
        })
        .collect()
}

/// `buffer` with one byte more than MPI is told of: an empty buffer's
/// address in Rust is 1, which Open MPI takes for `MPI_IN_PLACE`.
fn padded(mut buffer: Vec<u8>) -> Vec<u8> {
    buffer.push(0);
    buffer
}

/// Appends the pieces of `all` (`counts` bytes each, end to end) to `into`.
fn append(all: &[u8], counts: &[i32], into: &mut [Vec<u8>]) {
    let mut rest = all;
    for (c, to) in counts.iter().zip(into) {
        let (head, tail) = rest.split_at(*c as usize);
        to.extend_from_slice(head);
        rest = tail;
    }
}

/// Each worker's buffer `out[i]` to worker `i`, in as many rounds as the
/// largest buffer any worker sends needs (every worker agrees on them).
fn all_to_all(world: &impl Communicator, out: Vec<Vec<u8>>, round: usize) -> Answer {
    let n = world.size() as usize;
    if out.len() != n {
        return Err(format!("{} buffers for {n} workers", out.len()));
    }
    let lens: Vec<u64> = out.iter().map(|b| b.len() as u64).collect();
    let mut got = vec![0u64; n];
    world.all_to_all_into(&lens[..], &mut got[..]);
    let per = (round / n).max(1);
    let mine = lens
        .iter()
        .chain(&got)
        .map(|&l| (l as usize).div_ceil(per))
        .max();
    let mut rounds = 0u64;
    world.all_reduce_into(
        &(mine.unwrap_or(0) as u64),
        &mut rounds,
        SystemOperation::max(),
    );
    let mut received: Vec<Vec<u8>> = got
        .iter()
        .map(|&l| Vec::with_capacity(l as usize))
        .collect();
    for r in 0..rounds as usize {
        let counts: Vec<i32> = out
            .iter()
            .map(|b| round_of(b.len(), r, per).len() as i32)
            .collect();
        let taken: Vec<i32> = got
            .iter()
            .map(|&l| round_of(l as usize, r, per).len() as i32)
            .collect();
        let mut send = Vec::with_capacity(counts.iter().map(|&c| c as usize).sum::<usize>() + 1);
        for b in &out {
            send.extend_from_slice(&b[round_of(b.len(), r, per)]);
        }
        let send = padded(send);
        let mut recv = padded(vec![0u8; taken.iter().map(|&c| c as usize).sum()]);
        let (send_at, recv_at) = (offsets(&counts), offsets(&taken));
        {
            let s = Partition::new(&send[..], &counts[..], &send_at[..]);
            let mut to = PartitionMut::new(&mut recv[..], &taken[..], &recv_at[..]);
            world.all_to_all_varcount_into(&s, &mut to);
        }
        append(&recv, &taken, &mut received);
    }
    Ok(received)
}

/// Every worker's `mine`, in as many rounds as the largest needs.
fn all_gather(world: &impl Communicator, mine: Vec<u8>, round: usize) -> Answer {
    let n = world.size() as usize;
    let mut lens = vec![0u64; n];
    world.all_gather_into(&(mine.len() as u64), &mut lens[..]);
    let per = (round / n).max(1);
    let rounds = lens
        .iter()
        .map(|&l| (l as usize).div_ceil(per))
        .max()
        .unwrap_or(0);
    let mut received: Vec<Vec<u8>> = lens
        .iter()
        .map(|&l| Vec::with_capacity(l as usize))
        .collect();
    for r in 0..rounds {
        let counts: Vec<i32> = lens
            .iter()
            .map(|&l| round_of(l as usize, r, per).len() as i32)
            .collect();
        let piece = padded(mine[round_of(mine.len(), r, per)].to_vec());
        let mut recv = padded(vec![0u8; counts.iter().map(|&c| c as usize).sum()]);
        let at = offsets(&counts);
        {
            let mut to = PartitionMut::new(&mut recv[..], &counts[..], &at[..]);
            world.all_gather_varcount_into(&piece[..piece.len() - 1], &mut to);
        }
        append(&recv, &counts, &mut received);
    }
    Ok(received)
}

/// Runs this command line again as `processes` workers of an MPI job on
/// this machine (`mpirun -np N knights ... --distributed`), and ends as
/// the job ends.
pub fn launch(processes: usize) -> Result<ExitCode> {
    if processes == 0 {
        return Err(knights::Error::Parse(
            "--processes takes the number of worker processes, 1 or more".into(),
        )
        .into());
    }
    let exe = std::env::current_exe().context("find the knights executable")?;
    let mut args: Vec<String> = Vec::new();
    let mut given = std::env::args().skip(1);
    while let Some(a) = given.next() {
        if a == "--processes" {
            given.next();
        } else if !a.starts_with("--processes=") {
            args.push(a);
        }
    }
    args.push("--distributed".into());
    let version = Command::new("mpirun")
        .arg("--version")
        .output()
        .map_err(|e| {
            knights::Error::Unsupported(format!(
                "--processes starts its workers with mpirun, which could not be run ({e}); install an MPI (on Debian: openmpi-bin)"
            ))
        })?;
    let open_mpi = String::from_utf8_lossy(&version.stdout).contains("Open MPI");
    let mut mpirun = Command::new("mpirun");
    if open_mpi {
        // More workers than cores is allowed here, none bound to a core
        // (each worker runs threads of its own); Open MPI refuses to run
        // as root unless told, and these are this user's own processes.
        mpirun
            .args(["--oversubscribe", "--bind-to", "none"])
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    let status = mpirun
        .arg("-np")
        .arg(processes.to_string())
        .arg(exe)
        .args(&args)
        .status()
        .context("run mpirun")?;
    Ok(ExitCode::from(launcher_status(status.code())))
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
            eprintln!("knights: mpirun ended with status {c}");
            2
        }
    }
}
