//! Counting spread over processes (feature `distributed`): the library's
//! [`Exchange`] over MPI, and `--processes N`, which starts N workers on
//! this machine with `mpirun` (see `launch`).
//!
//! Each worker is one `knights count ... --distributed` process of an MPI
//! job (started by `mpirun`, `mpiexec` or Slurm's `srun`); they run the
//! same count, each holding its share of the states, and exchange
//! successors with MPI's all-to-all. The MPI types may not cross threads,
//! so one thread of each process owns MPI: it initialises it, makes every
//! collective call the count asks for, in order, and finalises it when the
//! count ends.
//!
//! Every collective call opens with a header that every worker gives: the
//! call it makes, or that it has finished, or that it failed and why. A
//! worker that fails anywhere (before the first exchange too) gives its
//! failure in the next header instead of leaving the others waiting, and
//! every worker then ends with the same failure: worker 0 prints it, once,
//! and all exit with its status. After a failure no worker makes another
//! call, so MPI finalises everywhere.

mod launch;

pub use launch::{forward_stop_signals, launch};

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
    /// The last call: this worker finished, or failed (`Some`).
    Finish(Option<Failure>),
}

/// A worker's failure, as every worker learns it.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The worker that failed (the first, if several did at once).
    pub worker: usize,
    /// Its exit status.
    pub status: u8,
    /// Its error, as it would print it (without the program's name).
    pub message: String,
}

type Answer = std::result::Result<Vec<Vec<u8>>, Failure>;

/// The calls of a header, as numbers.
const ALL_TO_ALL: u64 = 1;
const ALL_GATHER: u64 = 2;
const DONE: u64 = 3;
const FAILED: u64 = 4;

/// This process's end of the MPI job.
pub struct Mpi {
    rank: usize,
    size: usize,
    calls: Mutex<Option<(Sender<Call>, Receiver<Answer>)>>,
    /// The failure a call learnt of, once one has.
    failure: Mutex<Option<Failure>>,
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
                serve(&world, call_rx, answer_tx, round);
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
            failure: Mutex::new(None),
            thread: Some(thread),
        })
    }

    fn call(&self, call: Call) -> std::result::Result<Vec<Vec<u8>>, Failure> {
        let lost = || Failure {
            worker: self.rank,
            status: crate::exit::EXIT_INTERNAL,
            message: "internal error: the MPI thread ended; please report it".into(),
        };
        let answer = match self.calls.lock() {
            Ok(calls) => match calls.as_ref() {
                Some((tx, rx)) if tx.send(call).is_ok() => {
                    rx.recv().unwrap_or_else(|_| Err(lost()))
                }
                _ => Err(lost()),
            },
            Err(_) => Err(lost()),
        };
        if let Err(f) = &answer {
            if let Ok(mut seen) = self.failure.lock() {
                seen.get_or_insert_with(|| f.clone());
            }
        }
        answer
    }

    /// A collective call for the count: a failure becomes the library's
    /// error (the worker's own outcome is replaced by the failure at the end,
    /// see [`Mpi::conclude`]).
    fn count_call(&self, call: Call) -> knights::Result<Vec<Vec<u8>>> {
        self.call(call).map_err(|f| {
            knights::Error::Interrupted(
                format!(
                    "the count stopped because worker {} failed: {}",
                    f.worker, f.message
                )
                .into(),
            )
        })
    }

    /// Ends this worker's part in the job with its `outcome`: the last
    /// call tells the others whether it finished or failed and learns the
    /// same of them. Every worker ends with the first failure any worker
    /// had (worker 0 prints it) or, if none failed, with its own outcome.
    pub fn conclude(mut self, outcome: Result<u8>) -> u8 {
        let own = match &outcome {
            Ok(_) => None,
            Err(e) => crate::exit::outcome(e).map(|(status, message)| Failure {
                worker: self.rank,
                status,
                message,
            }),
        };
        let seen = self.failure.lock().ok().and_then(|f| f.clone());
        let failure = match seen {
            Some(f) => Some(f),
            None => self.call(Call::Finish(own)).err(),
        };
        self.finish_thread();
        match (failure, outcome) {
            (Some(f), _) => {
                if self.rank == 0 {
                    let from = match f.worker {
                        0 => String::new(),
                        w => format!("worker {w} of {}: ", self.size),
                    };
                    crate::warn!("knights: {from}{}", f.message);
                }
                f.status
            }
            (None, Ok(code)) => code,
            // A closed standard output: a quiet success, as for one process.
            (None, Err(_)) => crate::exit::EXIT_SUCCESS,
        }
    }

    /// Ends the MPI thread, which finalises MPI.
    fn finish_thread(&mut self) {
        if let Ok(mut calls) = self.calls.lock() {
            calls.take();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Mpi {
    /// A worker that ends without concluding (a fault) tells the others it
    /// failed, so that none waits for it; then MPI is finalised.
    fn drop(&mut self) {
        if self.thread.is_some() {
            let _ = self.call(Call::Finish(Some(Failure {
                worker: self.rank,
                status: crate::exit::EXIT_INTERNAL,
                message: "internal error: a worker ended before its count did; please report it"
                    .into(),
            })));
        }
        self.finish_thread();
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
        self.count_call(Call::AllToAll(out))
    }

    fn all_gather(&self, mine: Vec<u8>) -> knights::Result<Vec<Vec<u8>>> {
        self.count_call(Call::AllGather(mine))
    }
}

/// The MPI thread's loop: every call opens with the header, then, if every
/// worker makes the same call, makes it; after a failure it answers every
/// call with the failure and calls MPI no more.
fn serve(world: &impl Communicator, calls: Receiver<Call>, answers: Sender<Answer>, round: usize) {
    let rank = world.rank() as usize;
    let n = world.size() as usize;
    let mut failed: Option<Failure> = None;
    for call in calls {
        let answer = match (&failed, call) {
            (Some(f), _) => Err(f.clone()),
            (None, Call::AllToAll(out)) if out.len() != n => {
                let bug = Failure {
                    worker: rank,
                    status: crate::exit::EXIT_INTERNAL,
                    message: format!(
                        "internal error: {} buffers for {n} workers; please report it",
                        out.len()
                    ),
                };
                header(world, FAILED, Some(&bug), round).map(|()| Vec::new())
            }
            (None, Call::AllToAll(out)) => {
                header(world, ALL_TO_ALL, None, round).map(|()| all_to_all(world, out, round))
            }
            (None, Call::AllGather(mine)) => {
                header(world, ALL_GATHER, None, round).map(|()| all_gather(world, mine, round))
            }
            (None, Call::Finish(None)) => header(world, DONE, None, round).map(|()| Vec::new()),
            (None, Call::Finish(Some(own))) => {
                header(world, FAILED, Some(&own), round).map(|()| Vec::new())
            }
        };
        if let Err(f) = &answer {
            failed.get_or_insert_with(|| f.clone());
        }
        if answers.send(answer).is_err() {
            break;
        }
    }
}

/// The header of a call: every worker's call (`what`), and the failure
/// of the first worker that failed, if any; every worker learns the same.
/// Workers that make different calls are a fault (status 70).
fn header(
    world: &impl Communicator,
    what: u64,
    own: Option<&Failure>,
    round: usize,
) -> std::result::Result<(), Failure> {
    let n = world.size() as usize;
    let status = own.map_or(0, |f| u64::from(f.status));
    let mine = [what, status];
    let mut all = vec![0u64; 2 * n];
    world.all_gather_into(&mine[..], &mut all[..]);
    let calls: Vec<(u64, u64)> = all.chunks_exact(2).map(|c| (c[0], c[1])).collect();
    if let Some(first) = calls.iter().position(|&(c, _)| c == FAILED) {
        let text = own
            .map(|f| f.message.clone().into_bytes())
            .unwrap_or_default();
        let texts = all_gather(world, text, round);
        return Err(Failure {
            worker: first,
            status: u8::try_from(calls[first].1).unwrap_or(crate::exit::EXIT_INTERNAL),
            message: String::from_utf8_lossy(&texts[first]).into_owned(),
        });
    }
    if calls.iter().any(|&(c, _)| c != what) {
        let names: Vec<&str> = calls.iter().map(|&(c, _)| call_name(c)).collect();
        return Err(Failure {
            worker: 0,
            status: crate::exit::EXIT_INTERNAL,
            message: format!(
                "internal error: the workers made different calls ({}); please report it",
                names.join(", ")
            ),
        });
    }
    Ok(())
}

fn call_name(call: u64) -> &'static str {
    match call {
        ALL_TO_ALL => "all-to-all",
        ALL_GATHER => "all-gather",
        DONE => "finished",
        _ => "failed",
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
fn all_to_all(world: &impl Communicator, out: Vec<Vec<u8>>, round: usize) -> Vec<Vec<u8>> {
    let n = world.size() as usize;
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
    received
}

/// Every worker's `mine`, in as many rounds as the largest needs.
fn all_gather(world: &impl Communicator, mine: Vec<u8>, round: usize) -> Vec<Vec<u8>> {
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
    received
}
