//! The frontier program's data, below the code that builds and runs it,
//! so that every file of the program uses it without importing the others:
//! the cell codes of a decoded state, the state itself, the steps and the
//! prepared program.

/// The most vertices a frontier may hold: the 2-bit roles of the frontier
/// and the vertex being processed fill one `u64`, and the alive ends of a
/// key one `u32` (a key must also fit its 128 bits: see `key_bits`).
pub(crate) const MAX_FRONTIER: usize = 31;
/// Room for the frontier plus the vertex being processed.
pub(super) const W: usize = MAX_FRONTIER + 1;

pub(crate) const UNTOUCHED: u8 = 0;
pub(crate) const DONE: u8 = 1;
pub(crate) const END: u8 = 2;
/// The mate of an end whose path leads to a terminal.
pub(crate) const FREE: u8 = 255;

/// Cycles (closed tours) or paths (open tours).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Route {
    /// One cycle through every vertex, whose voltage generates the group.
    Cycle,
    /// One path through every vertex, with both ends in `terminal_ok`.
    Path,
}

/// A decoded state over the working array: the previous frontier, then the
/// vertex being processed.
#[derive(Copy, Clone)]
pub(crate) struct Frontier {
    pub(super) st: [u8; W],
    pub(super) mate: [u8; W],
    /// Voltage from this end to its mate.
    pub(super) w: [u8; W],
    pub(super) term: u8,
}

/// A vertex whose remaining degree changes at a step, and what remains.
pub(super) struct Check {
    pub(super) slot: u8,
    pub(super) remaining: u32,
    pub(super) terminal_ok: bool,
}

/// Everything one step (processing one vertex) needs.
pub(crate) struct Step {
    /// Size of the frontier before the step (the new vertex is slot `prev`).
    pub(super) prev: usize,
    /// The new vertex's edges: (slot of the earlier vertex, voltage).
    pub(super) back: Vec<(u8, u8)>,
    pub(super) checks: Vec<Check>,
    /// The slots that form the frontier after the step, in order.
    pub keep: Vec<u8>,
    /// Masks over the roles of the kept slots: bit `2i` stands for
    /// `keep[i]` (the 2-bit role codes of [`Engine::roles`]), or bit `4i`
    /// with nibble keys. `kept` has every
    /// kept slot; `one_left` those left with one neighbour after the step.
    pub(super) kept: u64,
    pub(super) one_left: u64,
    /// The unprocessed vertices that have fewer than two unprocessed (or
    /// external) neighbours, so may run short of edges, in order.
    pub(super) scarce: Vec<Scarce>,
    /// Paths on a 2-coloured graph without external edges: the kept slots
    /// coloured +1 and -1 (masks over the role codes; `None`: not
    /// coloured), and twice the colour sum of the processed vertices.
    pub(super) keep_colour: Option<(u64, u64)>,
    pub(super) twice_processed: i32,
    /// In a sweep: for each kept slot, the fewest vertices of a prefix
    /// that gives it one more edge and two more (`u32::MAX`: none does),
    /// and the fewest vertices of a prefix a state after this step may
    /// become a tour of (two more than this vertex's index).
    pub(super) ready: Vec<(u32, u32)>,
    pub(super) first_prefix: u32,
    /// For a step after which states are replaced by the smaller of
    /// themselves and their mirror image: the mirror of each slot of `keep`
    /// (as indices into `keep`).
    pub(super) mirror: Vec<u8>,
    /// The index in `keep` of each working slot kept.
    pub(super) keep_index: [u8; W],
    /// The working slots not kept, last first.
    pub(super) drop_desc: Vec<u8>,
    /// Whether this is the last vertex.
    pub last: bool,
    /// Whether the vertices up to this one are a prefix to count too (see
    /// [`Problem::prefixes`](super::problem::Problem::prefixes)).
    pub prefix: bool,
}

/// An unprocessed vertex with fewer than two unprocessed neighbours.
pub(super) struct Scarce {
    /// The vertex.
    pub(super) vertex: u32,
    /// Its unprocessed (and external) neighbours.
    pub(super) base: u32,
    /// Its neighbours in the frontier, as a mask over the role codes.
    pub(super) slots: u64,
    pub(super) terminal_ok: bool,
    pub(super) colour: i8,
}

/// The prepared program: one [`Step`] per vertex.
pub(crate) struct Engine {
    /// Whether keys are nibble keys (see `nibble.rs`) rather than
    /// ranked keys.
    pub nibble_keys: bool,
    pub shape: Route,
    pub(super) m: u8,
    /// Radix of the terminal count (3 for paths, 1 for cycles).
    pub(super) t: u64,
    pub steps: Vec<Step>,
    /// Bits the widest key needs.
    pub key_bits: u32,
    /// The largest frontier.
    pub width: usize,
    /// The frontier after the last vertex (vertices with external edges).
    pub final_frontier: Vec<usize>,
    /// In a sweep, for each number of vertices `x` up to `n + 1`, the
    /// least `c >= x` of a prefix counted or the whole graph (`u32::MAX`:
    /// none); empty for a whole graph.
    pub(super) next_prefix: Vec<u32>,
    /// Paths on a 2-coloured graph, not a sweep: twice the colour sum of
    /// the graph (the whole one, if it is a part met in the middle), which
    /// the colours of the two terminals must add up to.
    pub(super) twice_total: Option<i32>,
    /// In a sweep of paths on a 2-coloured graph, twice the colour sums of
    /// the prefixes counted, to judge a state by those it may still become.
    pub(super) prefix_colours: PrefixColours,
}

/// Twice the colour sums of the prefixes counted in a sweep (and of the
/// whole graph), as a sparse table of ranges: `levels[j][c]` is the least
/// and greatest of those sums over the prefixes of `c` to `c + 2^j - 1`
/// vertices, `(i32::MAX, i32::MIN)` where none is counted. Empty where
/// states are not judged by colours.
#[derive(Default)]
pub(crate) struct PrefixColours {
    pub(super) levels: Vec<Vec<(i32, i32)>>,
}
