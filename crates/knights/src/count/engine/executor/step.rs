//! The layer step as an interface ([`Executor`]), and the part of it every
//! executor shares: expanding a piece of a layer through the frontier
//! program's step for the next square, each successor addressed to the
//! partition its key picks ([`partition_of`]).
//!
//! An executor holds a layer split into partitions and turns it into the
//! next; the driver (`drive.rs`) only asks it to step, to checkpoint and
//! to hand over its final states. Successors leave a piece of a layer as
//! `(key, count)` runs addressed to a partition number ([`Shares`]), so an
//! executor may carry them anywhere: to a vector of the same process, a
//! file, or another machine.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::merge::partition_of;
use super::options::{
    part_overflow, FinalLayer, FrontierProgress, ProgressFn, Run, RunOptions, SquarePhase,
    SquareProgress, WITHIN_EVERY,
};
use super::words::{memory_entry_bytes, Key, Stop, Tally};
use crate::count::engine::frontier::{Engine, Step};
use crate::Result;

/// One square's work, as the driver hands it to an executor.
pub(super) struct Square<'a> {
    /// The frontier program.
    pub engine: &'a Engine,
    /// Its step for this square.
    pub step: &'a Step,
    /// The square's number from 0, and the run's squares.
    pub t: usize,
    pub n: usize,
    /// The states expected after the square (to size partitions and budgets).
    pub expected: u64,
    pub opts: &'a RunOptions<'a>,
    /// The figures after the square before, for reports within this one
    /// (`None` when no one listens).
    pub before: Option<FrontierProgress>,
}

impl Square<'_> {
    /// Where the count stops if asked during this square.
    pub fn when(&self) -> String {
        format!("during square {} of {}", self.t + 1, self.n)
    }
}

/// What a layer step gives.
pub(super) struct Stepped<C> {
    /// Tours completed (at the last square).
    pub done: C,
    /// Tours of the prefix completed (at a prefix square).
    pub prefix: C,
    /// Successors generated, before equal keys merged.
    pub generated: u64,
    /// States of the new layer.
    pub states: u64,
}

/// Holds a layer of states in partitions and turns it into the next.
pub(super) trait Executor<K: Key, C: Tally> {
    /// States in the layer.
    fn states(&self) -> u64;

    /// The layer step: expands every state through `square.step`, sends
    /// each successor as a `(key, count)` run to the partition its key
    /// picks, merges equal keys in every partition; the layer becomes the
    /// next one.
    fn step(&mut self, square: &Square<'_>) -> std::result::Result<Stepped<C>, Stop>;

    /// Whether the layer is on disk.
    fn on_disk(&self) -> bool {
        false
    }

    /// Bytes of the layer's state files.
    fn disk_bytes(&self) -> u64 {
        0
    }

    /// The most bytes of state files the run has had on disk.
    fn peak_disk(&self) -> u64 {
        0
    }

    /// Makes the layer after `square` the run's checkpoint, if it keeps
    /// one (`run`: its figures after the square).
    fn checkpoint(&mut self, _square: &Square<'_>, _run: &Run) -> std::result::Result<(), Stop> {
        Ok(())
    }

    /// Whether the count stops between squares (`when`: "after square 5
    /// of 24"): here, if its stop flag is raised; across workers, if any
    /// worker's is, so that all stop after the same square.
    fn check_stop(&self, opts: &RunOptions<'_>, when: &str) -> std::result::Result<(), Stop> {
        Ok(opts.check_stop(when)?)
    }

    /// Hands the layer's states to `consume`, piece by piece, unless the
    /// count is stopped.
    fn hand_over(
        &self,
        consume: &FinalLayer<'_>,
        opts: &RunOptions<'_>,
    ) -> std::result::Result<(), Stop>;
}

/// A piece's successors, by the partition they go to.
pub(super) type Shares<K, C> = Vec<Vec<(K, C)>>;

/// Tells the progress callback how far a square is while it runs, at most
/// once every few seconds ([`SquareProgress`]).
pub(super) struct SquareWatch<'a> {
    report: Option<(&'a ProgressFn<'a>, FrontierProgress)>,
    started: Instant,
    every: Duration,
    /// When the next report is due, in nanoseconds from `started`.
    due: AtomicU64,
}

impl<'a> SquareWatch<'a> {
    pub fn new(sq: &Square<'a>) -> Self {
        let every = sq.opts.within_every.unwrap_or(WITHIN_EVERY);
        SquareWatch {
            report: sq.opts.progress.zip(sq.before),
            started: Instant::now(),
            every,
            due: AtomicU64::new(every.as_nanos() as u64),
        }
    }

    /// `done` of `total` of `phase` in pass `pass` (from 1) of `passes`:
    /// told if a report is due.
    pub fn tell(&self, phase: SquarePhase, (pass, passes): (usize, usize), done: u64, total: u64) {
        let Some((f, before)) = &self.report else {
            return;
        };
        let now = self.started.elapsed();
        let (ns, due) = (now.as_nanos() as u64, self.due.load(Ordering::Relaxed));
        let next = ns.saturating_add(self.every.as_nanos() as u64);
        // One thread reports; the others find the report no longer due.
        if ns < due
            || self
                .due
                .compare_exchange(due, next, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        f(&FrontierProgress {
            within: Some(SquareProgress {
                phase,
                pass,
                passes,
                done: done.min(total),
                total,
                seconds: now.as_secs_f64(),
            }),
            ..*before
        });
    }
}

/// Watches the expansion of a square: the stop flag, the memory the
/// successors held in memory take against what the bound leaves them, and
/// how far it is.
pub(super) struct StepGuard<'a> {
    pub opts: &'a RunOptions<'a>,
    /// Where the count stops if asked: "during square 5 of 24".
    pub when: &'a str,
    /// The bytes the successors may take.
    pub limit: u64,
    pub threads: u64,
    /// Bytes of the merged successors of the chunks done.
    pub held: AtomicU64,
    /// States of the layer, and those expanded so far (roughly).
    pub states: u64,
    pub expanded: AtomicU64,
    /// Where the expansion is reported, and the pass it is (from 1, of how
    /// many).
    pub watch: &'a SquareWatch<'a>,
    pub pass: (usize, usize),
}

/// States expanded between two looks at the stop flag and the memory.
const GUARD_EVERY: usize = 1 << 10;

impl<'a> StepGuard<'a> {
    /// The guard of square `sq`'s expansion of a layer of `states` by
    /// `threads` threads, whose successors in memory may take `limit`
    /// bytes, in its only pass.
    pub fn new(
        sq: &Square<'a>,
        when: &'a str,
        watch: &'a SquareWatch<'a>,
        limit: u64,
        threads: u64,
        states: u64,
    ) -> Self {
        StepGuard {
            opts: sq.opts,
            when,
            limit,
            threads,
            held: AtomicU64::new(0),
            states,
            expanded: AtomicU64::new(0),
            watch,
            pass: (1, 1),
        }
    }

    /// Stops the square if the stop flag is raised, or if a chunk's
    /// successors so far (`growing` bytes, as many in every other thread)
    /// would pass the limit with what the chunks done hold; the error
    /// carries the bytes the whole square would take at that rate.
    pub fn check(&self, growing: u64) -> std::result::Result<(), Stop> {
        self.opts.check_stop(self.when)?;
        let expanded = self
            .expanded
            .fetch_add(GUARD_EVERY as u64, Ordering::Relaxed);
        let done = expanded + GUARD_EVERY as u64;
        self.watch
            .tell(SquarePhase::Expanding, self.pass, done, self.states);
        let held = self.held.load(Ordering::Relaxed);
        let in_flight = held.saturating_add(growing.saturating_mul(self.threads));
        if in_flight > self.limit {
            return Err(self.over(growing));
        }
        Ok(())
    }

    /// Counts `bytes` more held by the chunks done (their successors
    /// gathered), and stops the square if that passes the limit.
    pub fn hold(&self, bytes: u64) -> std::result::Result<(), Stop> {
        let held = self.held.fetch_add(bytes, Ordering::Relaxed) + bytes;
        match held > self.limit {
            true => Err(self.over(0)),
            false => Ok(()),
        }
    }

    /// The stop of a square whose successors passed what it may hold
    /// (the limit, or what the allocator would give) with a chunk's
    /// `growing` bytes: the bytes the whole square would take at that rate.
    pub fn over(&self, growing: u64) -> Stop {
        let held = self.held.load(Ordering::Relaxed);
        let in_flight = held.saturating_add(growing.saturating_mul(self.threads));
        let done = self.expanded.load(Ordering::Relaxed);
        let share = done.min(self.states).max(1) as f64;
        let whole = in_flight as f64 * self.states as f64 / share;
        Stop::OverMemory(whole as u64)
    }
}

/// `v` with room for `more` entries, or `None` where the allocator
/// refuses (under an address-space limit, `ulimit -v`, it does rather
/// than the process being killed).
pub(super) fn try_with_capacity<T>(more: usize) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(more).ok()?;
    Some(v)
}

/// Expands the states of one chunk; returns the successors by next bucket
/// and the number of tours completed (at the last step).
pub(super) fn expand_chunk<K: Key, C: Tally>(
    engine: &Engine,
    step: &Step,
    states: &[(K, C)],
    nb: usize,
    guard: &StepGuard<'_>,
) -> std::result::Result<(Shares<K, C>, C, C), Stop> {
    let growing = |out: &Shares<K, C>| {
        let entries: usize = out.iter().map(Vec::capacity).sum();
        (entries * memory_entry_bytes::<K, C>()) as u64
    };
    // Every allocation of the successors asks the allocator first: a
    // refusal is the bound passed, as the guard's own check is.
    let mut out: Shares<K, C> = Vec::new();
    for _ in 0..nb {
        match try_with_capacity(2 * states.len() / nb + 16) {
            Some(v) => out.push(v),
            None => return Err(guard.over(growing(&out).max(1))),
        }
    }
    let mut done = C::ZERO;
    let mut prefix = C::ZERO;
    let mut over = false;
    let mut refused = false;
    for (i, &(key, count)) in states.iter().enumerate() {
        if i % GUARD_EVERY == GUARD_EVERY - 1 {
            guard.check(growing(&out))?;
        }
        if step.prefix {
            for _ in 0..engine.prefix_tours(step, key.to_u128()) {
                match prefix.add(count) {
                    Some(p) => prefix = p,
                    None => over = true,
                }
            }
        }
        engine.expand(step, key.to_u128(), |succ| match succ {
            Some(k) => {
                let k = K::from_u128(k);
                let v = &mut out[partition_of(k, nb)];
                if v.len() == v.capacity() && v.try_reserve(v.len().max(16)).is_err() {
                    refused = true;
                } else if !refused {
                    v.push((k, count));
                }
            }
            None => match done.add(count) {
                Some(d) => done = d,
                None => over = true,
            },
        });
        if refused {
            return Err(guard.over(growing(&out).saturating_mul(2)));
        }
    }
    if over {
        return Err(Stop::Overflow);
    }
    Ok((out, done, prefix))
}

/// The states of a piece of a final layer as `(u128, u128)` pairs, for
/// its consumer.
pub(super) fn widen<K: Key, C: Tally>(states: &[(K, C)]) -> Result<Vec<(u128, u128)>> {
    states
        .iter()
        .map(|&(k, c)| {
            let c = c.to_u128().ok_or_else(part_overflow)?;
            Ok((k.to_u128(), c))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Duration;

    use super::super::drive::run;
    use super::*;
    use crate::count::plan::board_problem;
    use crate::Kind;

    #[test]
    fn a_square_on_disk_tells_how_far_it_is_between_the_squares_ends() {
        let p = board_problem("6x6".parse().unwrap(), Kind::Closed);
        let seen = Mutex::new(Vec::new());
        let record = |f: &FrontierProgress| seen.lock().unwrap().push(*f);
        let got = run(
            &p,
            &RunOptions {
                count: &crate::count::CountOptions {
                    max_memory: Some(1 << 18),
                    ..crate::count::CountOptions::default()
                },
                // Small enough that the states go to disk at once.
                progress: Some(&record),
                within_every: Some(Duration::ZERO),
                ..RunOptions::default()
            },
        )
        .unwrap();
        assert_eq!(got.count.to_string(), "9862");
        assert!(got.on_disk);
        let seen = seen.into_inner().unwrap();
        // Every square's end once, in order; the reports within a square
        // carry the figures of the square before.
        let ends: Vec<usize> = seen
            .iter()
            .filter(|f| f.within.is_none())
            .map(|f| f.step)
            .collect();
        assert_eq!(ends, (1..=36).collect::<Vec<_>>());
        let (mut step, mut states) = (0, 1);
        let mut phases = Vec::new();
        for f in &seen {
            let Some(w) = f.within else {
                (step, states) = (f.step, f.states as u64);
                continue;
            };
            assert_eq!((f.step, f.steps, f.states as u64), (step, 36, states));
            assert!(w.done <= w.total && w.pass <= w.passes, "{w:?}");
            match w.phase {
                SquarePhase::Expanding => assert_eq!(w.total, states, "{w:?}"),
                SquarePhase::Merging => assert!(w.done >= 1, "{w:?}"),
            }
            phases.push(w.phase);
        }
        assert!(phases.contains(&SquarePhase::Expanding));
        assert!(phases.contains(&SquarePhase::Merging));
        // Nothing within a square unless asked.
        let quiet = Mutex::new(0);
        let count =
            |f: &FrontierProgress| *quiet.lock().unwrap() += usize::from(f.within.is_some());
        run(
            &p,
            &RunOptions {
                progress: Some(&count),
                ..RunOptions::default()
            },
        )
        .unwrap();
        assert_eq!(quiet.into_inner().unwrap(), 0);
    }
}
