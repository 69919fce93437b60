//! Exact counting of knight's tours by a frontier dynamic program.
//!
//! A [`Counter`] takes a board (or a [`crate::Shape`]) and the options of
//! a count; its [`tours`](Counter::tours) counts the closed tours
//! (Hamiltonian cycles of the knight graph) or the open tours (Hamiltonian
//! paths, including those whose ends are a knight's move apart),
//! undirected: a cycle or a path and its reverse are one tour. The squares
//! are processed in row-major order with the board turned so that its rows
//! are the shorter side (`w` squares); since a knight's move spans at most
//! two rows, the frontier (the processed squares with a neighbour still to
//! come) holds at most `2w + 1` squares, and a state records for each of
//! them whether it is untouched, an end of a partial path or finished, and
//! which ends are joined, packed in one 64-bit key up to `w = 8`. This is
//! the method of Knuth's Algorithm E and of the counts behind OEIS
//! A193055.
//!
//! Closed tours of boards with at least 6 rows and at most 8 columns are
//! counted by *meeting in the middle* (see the `strategy::meet` module notes, the method
//! of McKay 1997; the cut board's parts, shared with the open tours' meeting,
//! are in `strategy::halves`): the program runs on the board's top rows and on its
//! bottom rows apart, and their final states are joined where two pairings
//! of path ends make one cycle. That skips the forward program's second
//! half, where most of its work went: 8x8 takes minutes instead of hours.
//! Open tours meet in the middle too, from 7x5 and 6x6 on (see the
//! `strategy::meet_paths` module notes: the separator squares may be terminals, and
//! the parts hold terminals of their own); 7x7 open takes about a minute.
//! [`Method::Forward`] forces the single program; the plan (see the
//! `plan` module notes) chooses.
//!
//! The states of a square are kept by the executor (see the `engine::executor`
//! module notes) as `(key, count)` runs split into hash-partitioned
//! buckets, expanded and merged in parallel (the answer is the same for
//! any number of threads). When they outgrow [`Counter::max_memory`], or
//! when [`Counter::work_dir`] is given, the buckets live on disk with a
//! checkpoint after every square, and a killed count continues with
//! [`Counter::resume`].
//!
//! The folders follow the roles: `counter` (the front door), `plan`
//! (method, orientation, problems, bounds), `strategy` (the meetings and
//! symmetric counts), `engine` (the frontier program, its executors and
//! exact numbers) and `projection` (the model, its trial run, the time
//! left).
//!
//! How a count flows: the counter asks the plan for a strategy (the
//! forward program over the whole board, or a meeting of two parts); every
//! strategy runs the frontier program through an executor, square by
//! square, whose layer step is one interface (so that an executor across
//! processes is one more implementation); a meeting's join takes the
//! parts' final layers.
//!
//! ```text
//! Counter ──> plan ─────> strategy ──────────────────────────────> CountReport
//!             (method,    forward | meet (closed) | meet_paths (open)
//!              turn)                 │ top part        │ bottom part
//!                                    ▼                 ▼
//!          frontier program <── executor: layer step (expand, route by key,
//!          (keys, steps,         merge), in memory or in files, checkpoints
//!           pruning)                 │ final layers
//!                                    ▼
//!                              held (memory, or files by pattern)
//!                                    ▼
//!                              join: table in parts, requests folded
//! ```
//!
//! [`Counter::symmetric`] counts the closed tours unchanged by a half turn,
//! and [`Counter::classes`] the tours up to rotation and reflection
//! (Burnside's lemma), both on quotient graphs (see the `strategy::symmetry`
//! module notes); [`Counter::all_lengths`] every length of a strip in one pass, and
//! [`Counter::project`] projects a count's states, disk and time without
//! counting. [`Estimate::builder`] is Knuth's random-probe estimate for boards too
//! large to count.
//!
//! **Directed counts**: a closed tour can be run in 2 directions (with no
//! fixed start square) and an open tour from either end, so the directed
//! count is twice the undirected one in both cases; with a fixed start square
//! a closed tour would be counted `2 x squares` times instead.
//!
//! # Example
//! ```
//! use knights::count::Counter;
//! use knights::Kind;
//! let board: knights::Board = "6x6".parse()?;
//! assert_eq!(Counter::new(board).tours()?.count, 9862);
//! assert_eq!(Counter::new("3x4".parse()?).kind(Kind::Open).tours()?.count, 8);
//! # Ok::<(), knights::Error>(())
//! ```

mod counter;
mod engine;
pub(crate) mod estimate;
pub(crate) mod exchange;
mod plan;
pub(crate) mod projection;
mod published;
mod strategy;

use std::time::Duration;

use serde::Serialize;

pub use counter::cells::CellSweep;
pub use counter::Counter;
use engine::executor::RunOptions;
pub use engine::executor::{FrontierProgress, Joining, SquarePhase, SquareProgress};
pub use engine::number::Count;
pub use estimate::{Estimate, EstimateBuilder, EstimateMethod, EstimateOptions};
pub use exchange::Exchange;
use plan::bound::refuse_before_building;
pub use plan::options::CountOptions;
use plan::shape_problem;
pub use plan::{Method, SquareOrder};
pub use projection::project::{Join, Projection, Source, WorkerProjection};
pub use projection::time_left::Stage;
pub use published::{published, Published, PUBLISHED};
pub use strategy::halves::MiddleEdges;
pub use strategy::symmetry::Classes;

pub use crate::Kind;
use crate::{Board, Result};

impl From<&FrontierProgress> for crate::Progress {
    /// The square done, of all, with the frontier's states and figures.
    fn from(p: &FrontierProgress) -> crate::Progress {
        crate::Progress {
            phase: crate::Phase::Counting,
            done: p.step as u64,
            total: Some(p.steps as u64),
            states: Some(p.states as u64),
            frontier: Some(*p),
        }
    }
}

/// The result of a count and the figures of its run.
///
/// Serialised as the figures alone (`method`, `states_per_step`, `meet`,
/// `peak_states`, `frontier_squares`, ...), within the count's answer
/// ([`crate::request::CountAnswer`]), which carries the count (directed
/// or not) and the time.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CountReport {
    /// The number of undirected tours.
    #[serde(skip)]
    pub count: Count,
    /// The method that ran: [`Method::Forward`] or [`Method::Meet`].
    pub method: Method,
    /// Frontier states after each processed square (meeting in the middle:
    /// the top part's squares, then the bottom part's; open tours of an
    /// even number of rows run the top part alone).
    pub states_per_step: Vec<u64>,
    /// Meeting in the middle: the states of the top part kept in memory,
    /// and the pairs of a top and a bottom state tested for one cycle
    /// (serialised as `meet`, `{"table_states", "pairs_tested"}`).
    #[serde(rename = "meet", serialize_with = "meet")]
    pub meet_pairs: Option<(u64, u64)>,
    /// The largest number of states held at once.
    pub peak_states: u64,
    /// Squares in the widest frontier (serialised as `frontier_squares`).
    #[serde(rename = "frontier_squares")]
    pub frontier_slots: usize,
    /// Bytes of a state's key (8 or 16).
    pub key_bytes: usize,
    /// Whether the states went to disk.
    pub on_disk: bool,
    /// The most bytes of state files on disk at once (0 in memory; for a
    /// meeting whose held states went to disk, at most this).
    pub peak_disk_bytes: u64,
    /// Successors generated over all squares, before equal states merge.
    pub generated: u64,
    /// Wall-clock time of the run.
    #[serde(skip)]
    pub elapsed: Duration,
    /// Spread over workers ([`Counter::workers`]): each worker's share.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers: Vec<WorkerShare>,
}

/// One worker's share of a count spread over workers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WorkerShare {
    /// The worker's number, from 0.
    pub worker: usize,
    /// The most states the worker held at once (its share of a layer).
    pub peak_states: u64,
    /// Bytes of successors the worker sent to the others, over all squares.
    pub sent_bytes: u64,
}

/// A meeting's figures as `{"table_states", "pairs_tested"}`, for serde.
fn meet<S: serde::Serializer>(
    pairs: &Option<(u64, u64)>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Meet {
        table_states: u64,
        pairs_tested: u64,
    }
    pairs
        .map(|(table_states, pairs_tested)| Meet {
            table_states,
            pairs_tested,
        })
        .serialize(s)
}

/// The counts of a sweep over lengths: see [`Counter::all_lengths`].
#[derive(Clone, Debug, Default)]
pub struct Sweep {
    /// `(board, count)` for every length from 1 up, in order.
    pub counts: Vec<(Board, Count)>,
    /// The figures of the one pass (its `count` is the longest board's).
    pub report: CountReport,
}

/// The number of Hamiltonian paths of the knight graph of `board` from `s`
/// to `t` (undirected), by the frontier program with both ends fixed; what
/// the table of [`crate::exists::ends`] is made of.
///
/// # Example
/// ```
/// let board: knights::Board = "3x4".parse()?;
/// assert_eq!(knights::count::paths_between(board, 0, 1)?, 0);
/// assert!(knights::count::paths_between(board, 0, 11)? > 0);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn paths_between(board: Board, s: crate::Square, t: crate::Square) -> Result<u128> {
    if s == t {
        return Ok(u128::from(board.squares() == 1));
    }
    let shape = crate::Shape::new(board);
    refuse_before_building(&shape, Kind::Open, SquareOrder::Rows)?;
    let problem = shape_problem(&shape, Kind::Open, Some([s, t]), SquareOrder::Rows)?;
    engine::executor::run(&problem, &RunOptions::default())?
        .count
        .to_u128()
        .ok_or_else(|| {
            crate::Error::Unsupported(
                format!("the paths of {board} between two squares pass 2^128").into(),
            )
        })
}
