//! The depth-first walk of one (first, last) pair's tree, with the node
//! budget, the stop flag and progress checked every 2^16 nodes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rand::Rng;

use super::engine::Engine;
use crate::rng::KnightRng;
use crate::{Control, Phase, Progress, Result, Square};

/// How often (in nodes, a power of two) the walk looks at the control.
const CHECK_EVERY: u64 = 1 << 16;

/// Why a walk ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// The tree is searched through.
    Go,
    /// The caller wants no more tours.
    Enough,
    /// The node budget ran out.
    OutOfNodes,
    /// The control's flag was raised.
    Stopped,
    /// The walker's slice of nodes ran out (a restart is due).
    Slice,
}

/// The counters and limits of a walk, kept across the pairs of a search.
pub(crate) struct Walker<'c> {
    control: &'c Control,
    /// Nodes searched by this walker.
    pub nodes: u64,
    /// Nodes already added to `shared`.
    reported: u64,
    budget: Option<u64>,
    /// A budget shared with other walkers (the enumeration's threads).
    shared: Option<&'c AtomicU64>,
    /// Raised when another walker failed.
    abort: Option<&'c AtomicBool>,
    rng: Option<KnightRng>,
    /// Whether the walk stopped for the budget.
    pub out_of_nodes: bool,
    /// The node count at which the current slice ends.
    pub slice_end: u64,
}

impl<'c> Walker<'c> {
    /// A walker within `budget` nodes; `rng` shuffles ties of the move
    /// order (none: the board's order).
    pub fn new(control: &'c Control, budget: Option<u64>, rng: Option<KnightRng>) -> Walker<'c> {
        Walker {
            control,
            nodes: 0,
            reported: 0,
            budget,
            shared: None,
            abort: None,
            rng,
            out_of_nodes: false,
            slice_end: u64::MAX,
        }
    }

    /// Counts the nodes in `total` too, and stops when it reaches the
    /// budget.
    pub fn shared(mut self, total: &'c AtomicU64) -> Walker<'c> {
        self.shared = Some(total);
        self
    }

    /// Stops when `flag` is raised too.
    pub fn abort(mut self, flag: &'c AtomicBool) -> Walker<'c> {
        self.abort = Some(flag);
        self
    }

    /// Counts one node; `Some` when the walk must end.
    fn tick(&mut self) -> Option<Flow> {
        self.nodes += 1;
        if self.nodes >= self.slice_end {
            return Some(Flow::Slice);
        }
        if let Some(b) = self.budget {
            let used = match self.shared {
                Some(t) if self.nodes & (CHECK_EVERY - 1) == 0 => self.flush(t),
                Some(_) => 0,
                None => self.nodes,
            };
            if used >= b {
                self.out_of_nodes = true;
                return Some(Flow::OutOfNodes);
            }
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            if self.control.is_stopped() || self.abort.is_some_and(|a| a.load(Ordering::Relaxed)) {
                return Some(Flow::Stopped);
            }
            if self.shared.is_none() {
                self.control
                    .report(&Progress::new(Phase::Searching, self.nodes, self.budget));
            }
        }
        None
    }

    /// Adds the nodes not yet counted to `total`; the new total.
    pub fn flush(&mut self, total: &AtomicU64) -> u64 {
        let delta = self.nodes - self.reported;
        self.reported = self.nodes;
        total.fetch_add(delta, Ordering::Relaxed) + delta
    }

    /// The order to try the moves in: fewest onward moves first, ties
    /// shuffled by the seed (or in board order).
    fn order(&mut self, moves: &mut [(u8, usize)]) {
        if let Some(rng) = &mut self.rng {
            for i in (1..moves.len()).rev() {
                moves.swap(i, rng.random_range(0..=i));
            }
        }
        moves.sort_by_key(|m| m.0);
    }
}

/// Walks the tree below `e`'s path, calling `found` with each full path
/// and the nodes so far; `found` answers whether to go on.
pub(crate) fn dfs(
    e: &mut Engine<'_>,
    w: &mut Walker<'_>,
    found: &mut dyn FnMut(&[Square], u64) -> Result<bool>,
) -> Result<Flow> {
    if let Some(flow) = w.tick() {
        return Ok(flow);
    }
    if e.is_full() {
        return Ok(if found(e.path(), w.nodes)? {
            Flow::Go
        } else {
            Flow::Enough
        });
    }
    let (mut buf, len) = e.moves();
    w.order(&mut buf[..len]);
    for &(_, s) in &buf[..len] {
        if e.try_step(s) {
            let flow = dfs(e, w, found)?;
            e.undo();
            if flow != Flow::Go {
                return Ok(flow);
            }
        }
    }
    Ok(Flow::Go)
}
