//! What a run is asked and what it answers: its options (memory and disk
//! bounds, the work directory, the stop flag, the final layer's consumer),
//! the progress it reports after every square and within a long one, and
//! its figures.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::count::engine::number::Count;
use crate::count::CountOptions;
use crate::{Error, Result};

/// What the dynamic program hands to the progress callback after each vertex.
#[derive(Copy, Clone, Debug)]
pub struct FrontierProgress {
    /// Vertices processed so far.
    pub step: usize,
    /// Vertices in all.
    pub steps: usize,
    /// States in the frontier now.
    pub states: usize,
    /// The most states seen so far.
    pub peak: usize,
    /// Whether the states are kept on disk.
    pub on_disk: bool,
    /// Successors generated at this square, before equal states merged.
    pub generated: u64,
    /// Bytes of state files on disk now (0 in memory).
    pub disk_bytes: u64,
    /// The projected peak of the states (see the `project` module notes):
    /// the states measured so far, then the model's.
    pub projected_peak: u64,
    /// The projected seconds left: from the executor, in this run, at the
    /// speed of its last row; from a [`crate::count::Counter`], in the
    /// whole count, every phase still to run (a meeting's join too), or
    /// `None` while it is estimating (see the `time_left` module).
    pub seconds_left: Option<f64>,
    /// The phase of the count (from a [`crate::count::Counter`]; `None`
    /// from the executor, which knows one run only).
    pub stage: Option<crate::count::projection::time_left::Stage>,
    /// While a meeting's parts are joined (after the last square): how far
    /// the join is.
    pub joining: Option<Joining>,
    /// Within a square that takes a while: how far it is. The other
    /// figures are then those after the square before (`step` squares
    /// done); a report with `within` set is not a square's end.
    pub within: Option<SquareProgress>,
}

/// How far the square after `step` is: reported every few seconds while a
/// square takes long (on disk, an hour is not rare).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SquareProgress {
    /// What the square is doing: expanding the layer's states, or merging
    /// the successors of each next bucket.
    pub phase: SquarePhase,
    /// The pass of the square, from 1 (a square whose successors outgrow
    /// the disk's share runs in passes, each expanding every state and
    /// keeping the successors of some buckets).
    pub pass: usize,
    /// The square's passes.
    pub passes: usize,
    /// States expanded (expanding) or buckets merged (merging) in this
    /// pass so far.
    pub done: u64,
    /// The states to expand or the buckets to merge in this pass.
    pub total: u64,
    /// Seconds since the square began.
    pub seconds: f64,
}

/// The phase of a square in progress (see [`SquareProgress`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SquarePhase {
    /// Reading the layer's states and sending their successors to the
    /// next layer's buckets (`done` and `total` count states).
    Expanding,
    /// Merging equal states in the next layer's buckets (`done` and
    /// `total` count buckets).
    Merging,
}

/// A run's progress callback.
pub(crate) type ProgressFn<'a> = dyn Fn(&FrontierProgress) + Sync + 'a;

/// How often a square in progress is reported, at most.
pub(crate) const WITHIN_EVERY: Duration = Duration::from_secs(2);

/// How far the join of a meeting's parts is: the table is built in
/// `parts` parts by pattern, and every part meets all the bottom states.
#[derive(Copy, Clone, Debug)]
pub struct Joining {
    /// The part of the table being joined, from 1.
    pub part: u64,
    /// Parts of the table in all.
    pub parts: u64,
    /// Bottom states joined with this part so far.
    pub done: u64,
    /// Bottom states in all.
    pub total: u64,
    /// The projected seconds left in the join, at its speed so far.
    pub seconds_left: Option<f64>,
}

/// How a run stores its states and where it may stop: the count's options
/// (borrowed, never copied: the bounds, the work directory and its
/// checkpoints), and what is this run's own.
#[derive(Copy, Clone)]
pub(crate) struct RunOptions<'a> {
    /// The count's options.
    pub count: &'a CountOptions,
    pub progress: Option<&'a ProgressFn<'a>>,
    /// How often `progress` hears of a square in progress, at most
    /// (`None`: [`WITHIN_EVERY`]).
    pub within_every: Option<Duration>,
    /// A later run of a count that runs several (a meeting's bottom part,
    /// the quotients of a symmetry after the first): resuming, it starts
    /// afresh where it has no checkpoint, since its count may have stopped
    /// before it began.
    pub later: bool,
    pub stop: Option<&'a crate::StopFlag>,
    /// For a part of a graph (see `Problem::external`): called with the
    /// states after the last vertex, chunk by chunk and in parallel, as
    /// `(key, count)` pairs.
    pub final_layer: Option<&'a FinalLayer<'a>>,
    /// The bits the count is expected to need: the run starts with counts
    /// that wide (0: `u64`), and widens them if they overflow.
    pub count_bits: u32,
    /// Keep the states in memory, never on disk (a count on a board with
    /// holes, wrapping or another leaper, whose states have no disk program
    /// yet): past the memory bound the count stops with
    /// [`Error::TooLarge`] naming this board.
    pub memory_only: Option<crate::Board>,
    /// The workers the count is spread over (see `count::exchange`), this
    /// process being one of them; `None`: this process alone.
    pub workers: Option<&'a dyn crate::count::Exchange>,
    /// Spread over workers, for a part whose final layer a meet joins by
    /// pattern: the pattern of a final state, which picks the worker it
    /// goes to (see [`RunOptions::owns`]); `None`: every worker gets the
    /// whole final layer.
    pub route: Option<&'a Route<'a>>,
    /// Whether the run may stop at once as out of reach, when its peak is
    /// projected far past the disk: only for a board's count taken by rows,
    /// whose states the projection models (a torus keeps its first rows in
    /// the frontier, and a cylinder's states level off early).
    pub judge_reach: bool,
    /// Whether a finished run in a work directory keeps its final layer's
    /// state files with no `final_layer` to hand them to: a meet streams
    /// them into its join later (see `replay.rs`).
    pub keep_final: bool,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            count: &crate::count::plan::options::DEFAULT,
            progress: None,
            within_every: None,
            later: false,
            stop: None,
            final_layer: None,
            count_bits: 0,
            memory_only: None,
            workers: None,
            route: None,
            judge_reach: false,
            keep_final: false,
        }
    }
}

impl RunOptions<'_> {
    /// [`Error::Interrupted`] if the stop flag is raised, saying where the
    /// count stopped (`when`: "after square 5 of 24", ...).
    pub fn check_stop(&self, when: &str) -> Result<()> {
        if !self.stop.is_some_and(crate::StopFlag::is_stopped) {
            return Ok(());
        }
        let stopped = Error::Interrupted(format!("the count was stopped {when}").into());
        Err(match self.count.work_dir {
            Some(_) => stopped.with_hint(crate::Hint::Resume),
            None => stopped,
        })
    }

    /// Whether this worker holds the part of a meet's table of `pattern`
    /// (and joins the states that meet it): every pattern, unless the
    /// count is spread over workers, then the patterns their hash gives it.
    pub fn owns(&self, pattern: u64) -> bool {
        self.workers.is_none_or(|ex| {
            super::merge::partition_of(u128::from(pattern), ex.workers()) == ex.rank()
        })
    }

    /// The sum over the workers of each one's `mine` (its share of a
    /// join), or `mine` in a count of one process.
    pub fn summed(&self, mine: Count) -> Result<Count> {
        let Some(ex) = self.workers else {
            return Ok(mine);
        };
        let all = ex.all_gather(mine.to_string().into_bytes())?;
        all.iter().try_fold(Count::ZERO, |sum, bytes| {
            let n: Count = std::str::from_utf8(bytes)
                .ok()
                .and_then(|t| t.parse().ok())
                .ok_or_else(crate::count::exchange::garbled)?;
            sum.checked_add(n).ok_or_else(overflow)
        })
    }

    /// [`RunOptions::summed`] for a figure (saturating).
    pub fn summed_u64(&self, mine: u64) -> Result<u64> {
        let Some(ex) = self.workers else {
            return Ok(mine);
        };
        let all = crate::count::exchange::gather_fixed(ex, &[mine])?;
        Ok(all.iter().fold(0u64, |sum, w| sum.saturating_add(w[0])))
    }

    /// The memory bound in bytes: four fifths of what is available, or
    /// `max_memory` if that is less (a bound past what the machine has is
    /// judged against it, as one within it is kept). The bound is charged
    /// the states and successors, not the allocator's slack, the merge's
    /// tables or what other processes take meanwhile, so a bound of all
    /// that is available leaves the process no room for those and invites
    /// the kernel to kill it.
    pub fn budget(&self) -> u64 {
        let room = crate::memory::available_bytes().map_or(u64::MAX, |a| a / 5 * 4);
        self.count.max_memory.map_or(room, |m| m.min(room))
    }
}

/// Where a count stops after its last square: while its parts' final
/// states are joined (meeting in the middle).
pub(crate) const JOINING: &str = "while its parts were joined";

/// A consumer of a part's final states.
/// The pattern of a final state (see [`RunOptions::route`]).
pub(crate) type Route<'a> = dyn Fn(u128) -> u64 + Sync + 'a;

pub(crate) type FinalLayer<'a> = dyn Fn(&[(u128, u128)]) -> Result<()> + Sync + 'a;

/// The figures of a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Run {
    pub count: Count,
    pub states_per_step: Vec<u64>,
    pub peak: u64,
    pub slots: usize,
    pub key_bytes: usize,
    pub on_disk: bool,
    /// Successors generated (before equal states are merged), over all steps.
    pub generated: u64,
    /// The most bytes of state files on disk at once (this run's share).
    #[serde(default)]
    pub peak_disk: u64,
    /// For a sweep: the count of each prefix (see `Problem::prefixes`), by
    /// its number of vertices.
    #[serde(default)]
    pub prefix_counts: Vec<(usize, Count)>,
    /// Spread over workers: the bytes of successors this worker sent to
    /// the others.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sent_bytes: u64,
    /// Spread over workers: the most states this worker held at once.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub held_peak: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// A count past the widest counts.
pub(crate) fn overflow() -> Error {
    Error::Unsupported("the count exceeds 2^4096, more than this counter can hold".into())
}

/// A part's count (meeting in the middle) past `u128`.
pub(crate) fn part_overflow() -> Error {
    Error::Unsupported(
        "a part of the board has more than 2^128 partial tours, more than meeting in the middle carries".into(),
    )
    .with_hint(crate::Hint::UseMethod(crate::count::Method::Forward))
}
