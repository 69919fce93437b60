//! The transport between the workers of a count split across processes.
//!
//! A count given workers ([`Counter::workers`](super::Counter::workers))
//! runs the same program in every worker; each holds the states of its
//! share of every layer (those whose key hashes to it). After each square
//! the workers send each other the successors they made for one another's
//! shares and agree on the square's figures, only through an
//! [`Exchange`]: two collective calls, each made by every worker in the
//! same order. The command line implements it over MPI (the `knights-cli`
//! feature `distributed`); the tests implement it over threads.

use crate::Result;

/// Collective calls between the workers of one count. Every worker makes
/// every call, in the same order; a call returns once all have made it.
pub trait Exchange: Sync {
    /// This worker's number, from 0 (worker 0 speaks for the count).
    fn rank(&self) -> usize;

    /// The number of workers.
    fn workers(&self) -> usize;

    /// Sends `out[j]` to worker `j` (one buffer for every worker, this
    /// one's included) and returns what each worker sent to this one, by
    /// sender.
    fn all_to_all(&self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>>;

    /// Every worker's `mine`, by rank, on every worker.
    fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>>;
}

/// Every worker's numbers `mine`, by rank, on every worker.
pub(crate) fn gather_words(ex: &dyn Exchange, mine: &[u64]) -> Result<Vec<Vec<u64>>> {
    let bytes = mine.iter().flat_map(|w| w.to_le_bytes()).collect();
    ex.all_gather(bytes)?
        .iter()
        .map(|b| {
            if b.len() % 8 != 0 {
                return Err(garbled());
            }
            Ok(b.chunks_exact(8)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w.copy_from_slice(c);
                    u64::from_le_bytes(w)
                })
                .collect())
        })
        .collect()
}

/// [`gather_words`] where every worker gives as many numbers as this one.
pub(crate) fn gather_fixed(ex: &dyn Exchange, mine: &[u64]) -> Result<Vec<Vec<u64>>> {
    let all = gather_words(ex, mine)?;
    match all.iter().all(|w| w.len() == mine.len()) {
        true => Ok(all),
        false => Err(garbled()),
    }
}

/// The first worker whose `raised` is true, if any: every worker learns
/// the same, so that all of them decide alike.
pub(crate) fn first_raised(ex: &dyn Exchange, raised: bool) -> Result<Option<usize>> {
    let all = gather_fixed(ex, &[u64::from(raised)])?;
    Ok(all.iter().position(|w| w[0] != 0))
}

/// The error for bytes from another worker that do not decode.
pub(crate) fn garbled() -> crate::Error {
    crate::Error::Internal("a message from another worker did not decode".into())
}

/// Workers as threads of one process, exchanging through shared memory:
/// the tests' transport.
#[cfg(test)]
pub(crate) mod threads {
    use std::sync::{Arc, Barrier, Mutex};

    use super::Exchange;
    use crate::Result;

    /// One worker's end of a transport between threads.
    pub(crate) struct Threads {
        rank: usize,
        shared: Arc<Shared>,
    }

    struct Shared {
        barrier: Barrier,
        /// `slots[from][to]`: the buffer in flight.
        slots: Mutex<Vec<Vec<Vec<u8>>>>,
    }

    /// The ends of a transport between `n` workers.
    pub(crate) fn transport(n: usize) -> Vec<Threads> {
        let shared = Arc::new(Shared {
            barrier: Barrier::new(n),
            slots: Mutex::new(vec![vec![Vec::new(); n]; n]),
        });
        (0..n)
            .map(|rank| Threads {
                rank,
                shared: Arc::clone(&shared),
            })
            .collect()
    }

    impl Exchange for Threads {
        fn rank(&self) -> usize {
            self.rank
        }

        fn workers(&self) -> usize {
            self.shared.barrier_size()
        }

        fn all_to_all(&self, out: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>> {
            self.shared.slots.lock().unwrap()[self.rank] = out;
            self.shared.barrier.wait();
            let got = {
                let mut slots = self.shared.slots.lock().unwrap();
                (0..slots.len())
                    .map(|from| std::mem::take(&mut slots[from][self.rank]))
                    .collect()
            };
            self.shared.barrier.wait();
            Ok(got)
        }

        fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>> {
            let n = self.workers();
            self.all_to_all(vec![mine; n])
        }
    }

    impl Shared {
        fn barrier_size(&self) -> usize {
            self.slots.lock().unwrap().len()
        }
    }
}
