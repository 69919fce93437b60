//! The frontier ("transfer matrix", path decomposition) dynamic program:
//! the states and their transitions. The `executor` stores and steps the states.
//!
//! The graph's vertices are processed in a fixed order; processing vertex `v`
//! decides which of its edges to earlier vertices belong to the cycle or path
//! (zero, one or two of them). After vertex `v` the *frontier* is the set of
//! processed vertices that still have an unprocessed neighbour (on a board of
//! width `w` taken row by row, at most `2w + 1` squares). A state gives each
//! frontier vertex a role — untouched (degree 0), an end of a partial path
//! (degree 1) or done (degree 2) — plus which ends are joined by a path, the
//! voltage of each path (for quotient graphs, see `symmetry.rs`) and, when
//! counting paths, how many ends of the final path (*terminals*) have been
//! fixed. A vertex leaving the frontier must be done (or become a terminal);
//! every vertex must still be able to get its two edges from the neighbours
//! not yet processed; a cycle may close only at the very last vertex.
//!
//! **Open tours (paths)** are pruned harder, since most of their states
//! would die late: a state dies when more than two vertices must be
//! terminals (those fixed, untouched frontier vertices with one neighbour
//! left, unprocessed vertices with at most one neighbour that can still take
//! an edge), or, on a 2-coloured graph such as the knight graph, when the
//! terminals' colours cannot add up to the colour sum of all vertices taken
//! twice (every other vertex has degree 2 and every edge joins two colours;
//! the colours of the terminals fixed so far are twice the processed
//! vertices' colour sum less the frontier's edges still to come, each
//! counted with its vertex's colour). In a sweep over
//! prefixes, each a graph of its own, a state is kept while some prefix
//! still to come could take it: the frontier's forced terminals count
//! against every prefix (a prefix leaves a vertex no more neighbours than
//! the whole graph does), the colours are judged against the range of the
//! later prefixes' colour sums, and two bounds must leave some prefix
//! between them: the first unprocessed vertex no tour may hold (scarce, as
//! above) ends the prefixes a state may become, and the neighbours the
//! frontier's vertices still need begin them (an untouched vertex needs
//! the prefix to hold two of its later neighbours, an end one, one less
//! for a vertex that may become a terminal; each new vertex brings at most
//! two edges). What each rule saves is measured in BENCHMARKS.md, "Exact
//! counting".
//!
//! **Closed tours (cycles)** are judged by the same rule with no terminals
//! at all: a state dies when an unprocessed vertex is left with at most one
//! neighbour that can still take an edge (in a sweep, as above, only the
//! prefixes that hold it).
//! Colours tell nothing here: with no terminals, the colour test above
//! holds for every state by itself.
//!
//! **Mirror images.** A problem may name a symmetry (the left-right mirror
//! of a board). After a vertex whose processed vertices the symmetry maps
//! onto themselves (the end of a row) a state and its image have the same
//! completions, so the smaller of the two keys stands for both with their
//! counts added. A whole graph's count is unchanged; a part's final layer
//! (see `meet.rs`) is then right only summed against something symmetric.
//!
//! **Key.** A state is packed into one integer: 2 bits per frontier vertex in
//! frontier order (0 untouched, 1 done, 2 end of a path to another frontier
//! end, 3 end of a path that leads to a terminal), then, above them, the
//! mixed-radix number `term + t * (pairing + P * voltages)`: the pairing of the
//! `e` paired ends is ranked among the `P = (e-1)!!` perfect matchings (the
//! first end's mate is one of the `e-1` others, and so on), and one voltage
//! digit per pair. Equal states get equal keys. On an 8-wide board the key
//! takes at most `2 x 17 + 21 = 55` bits, so the states of 8x8 fit `u64` keys.
//! These *ranked keys* are as short as keys go, but a step must decode them
//! into arrays and rank the pairing again. Where the frontier and the new
//! vertex fit in 16 slots and there are no voltages (boards up to 7 wide),
//! the program uses *nibble keys* instead (see the `nibble` module notes),
//! 4 bits a slot with the pairing as labels, which a step works on in place,
//! for a fraction of the instructions.
//!
//! One concern a file, each importing only its siblings:
//!
//! - `problem.rs`: the [`Problem`] and what the build reads off its graph;
//! - `program.rs`: the program's data (the cell codes, the decoded state,
//!   the steps and the prepared [`Engine`]);
//! - `build.rs`: the [`Engine`] built from a problem, a step per vertex;
//! - `keys.rs`: the ranked keys, decoded and encoded;
//! - `nibble.rs`: the nibble keys and their step;
//! - `step.rs`: the step on decoded states (the successors of a state, the
//!   tours a prefix completes);
//! - `prune.rs`: the pruning of tours, its masks and its check.

mod build;
mod keys;
mod nibble;
mod problem;
mod program;
mod prune;
mod step;
pub(crate) use problem::Problem;
pub(crate) use program::{Engine, Route, Step, DONE, END, FREE, MAX_FRONTIER, UNTOUCHED};
