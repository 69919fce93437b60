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
    /// is a job of one worker).
    pub fn start() -> Result<Mpi> {
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
                        Call::AllToAll(out) => all_to_all(&world, out),
                        Call::AllGather(mine) => all_gather(&world, mine),
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

/// MPI counts and offsets are 32-bit: a message past 2 GiB is refused.
fn count_of(bytes: usize) -> std::result::Result<i32, String> {
    i32::try_from(bytes).map_err(|_| {
        "a worker's share of a square's successors passed 2 GiB in one message; run more workers"
            .to_string()
    })
}

/// The offsets of buffers of `counts` bytes laid end to end.
fn offsets(counts: &[i32]) -> std::result::Result<Vec<i32>, String> {
    let mut at = 0i64;
    counts
        .iter()
        .map(|&c| {
            let here = count_of(at as usize)?;
            at += i64::from(c);
            count_of(at as usize)?;
            Ok(here)
        })
        .collect()
}

/// `buffer` with one byte more than MPI is told of: an empty buffer's
/// address in Rust is 1, which Open MPI takes for `MPI_IN_PLACE`.
fn padded(mut buffer: Vec<u8>) -> Vec<u8> {
    buffer.push(0);
    buffer
}

/// Splits `all` into buffers of `counts` bytes.
fn split(all: Vec<u8>, counts: &[i32]) -> Vec<Vec<u8>> {
    let mut rest = all.as_slice();
    counts
        .iter()
        .map(|&c| {
            let (head, tail) = rest.split_at(c as usize);
            rest = tail;
            head.to_vec()
        })
        .collect()
}

fn all_to_all(world: &impl Communicator, out: Vec<Vec<u8>>) -> Answer {
    let n = world.size() as usize;
    if out.len() != n {
        return Err(format!("{} buffers for {n} workers", out.len()));
    }
    let counts = out
        .iter()
        .map(|b| count_of(b.len()))
        .collect::<std::result::Result<Vec<i32>, String>>()?;
    let mut received = vec![0i32; n];
    world.all_to_all_into(&counts[..], &mut received[..]);
    let (send_at, recv_at) = (offsets(&counts)?, offsets(&received)?);
    let send = padded(out.concat());
    let mut recv = padded(vec![0u8; received.iter().map(|&c| c as usize).sum()]);
    {
        let s = Partition::new(&send[..], &counts[..], &send_at[..]);
        let mut r = PartitionMut::new(&mut recv[..], &received[..], &recv_at[..]);
        world.all_to_all_varcount_into(&s, &mut r);
    }
    Ok(split(recv, &received))
}

fn all_gather(world: &impl Communicator, mine: Vec<u8>) -> Answer {
    let n = world.size() as usize;
    let len = count_of(mine.len())?;
    let mut lens = vec![0i32; n];
    world.all_gather_into(&len, &mut lens[..]);
    let at = offsets(&lens)?;
    let mut recv = padded(vec![0u8; lens.iter().map(|&c| c as usize).sum()]);
    let mine = padded(mine);
    {
        let mut r = PartitionMut::new(&mut recv[..], &lens[..], &at[..]);
        world.all_gather_varcount_into(&mine[..len as usize], &mut r);
    }
    Ok(split(recv, &lens))
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
