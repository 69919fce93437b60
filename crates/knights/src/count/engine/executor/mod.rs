//! The executor: the part of the counting engine that holds a layer of
//! frontier states (the states after some square) and turns it into the
//! next, square by square.
//!
//! ```text
//!   layer t (partitions)          expand             route by key           layer t + 1
//!   +------------------+    each (key, count)   successor k goes to     +------------------+
//!   | p0: (k, c) ...   | -> through the step -> partition hash(k) -> | p0: merged       |
//!   | p1: (k, c) ...   |    for square t + 1    as (key, count) runs   | p1: merged       |
//!   +------------------+                        then merge equal keys  +------------------+
//! ```
//!
//! The layer step is an interface (`step.rs`): an executor holds the
//! layer in partitions and steps it; the driver (`drive.rs`) runs it
//! square by square, with resume, checkpoints, progress and stopping, and
//! hands the final layer to its consumer. This machine's executor
//! (`local.rs`) keeps its partitions in memory, or on disk (`disk.rs`) in
//! packed files (`packed.rs`: sorted keys as varint differences, a few
//! bytes a state) with a checkpoint after every square (`checkpoint.rs`);
//! a test-only
//! executor splits every layer into a few partitions that exchange their
//! successors only through the interface, as processes would. Keys are
//! `u64` when the widest state fits (8-wide boards) and counts `u64`
//! unless one overflows, in which case the count restarts with wider
//! counts (`words.rs`). Merging adds counts, which commutes, so a layer
//! (and the count) is the same for any number of threads or partitions.

mod checkpoint;
mod disk;
mod drive;
mod folder;
mod local;
mod merge;
mod options;
mod packed;
#[cfg(test)]
mod partitioned;
mod replay;
mod spread;
mod spread_checkpoint;
mod step;
mod validate;
mod words;

pub(crate) use checkpoint::{
    clear_checkpoints, crc_of, edited, manifests, prepare_work_dir, problem_hash, read_small,
    unfinished,
};
pub(crate) use disk::{remove_stale, Disk};
pub(crate) use drive::run;
pub(crate) use folder::Folder;
pub(crate) use merge::merge;
pub(crate) use options::{overflow, part_overflow, FinalLayer, Route, Run, RunOptions, JOINING};
pub use options::{FrontierProgress, Joining, SquarePhase, SquareProgress};
pub(crate) use replay::{FinishedLayer, JoinRecord};
pub(crate) use words::{io_error, Stop};
