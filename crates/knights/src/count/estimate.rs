//! Random-probe estimates of the number of tours of boards too large to
//! count (D. E. Knuth, *Estimating the efficiency of backtrack programs*,
//! Math. Comp. 29 (1975), cited in McKay 1997).
//!
//! A probe walks down a search tree from the root, choosing one child at each
//! node; if child `c` is chosen with probability `p(c)`, the product of the
//! `1/p(c)` along the way is an unbiased estimate of the number of leaves
//! below the root, so the probe's weight when it ends in a tour (0 otherwise)
//! estimates the number of tours. Three trees and choices are offered
//! ([`EstimateMethod`]):
//!
//! * [`EstimateMethod::Knuth`], Knuth's plain probe of plain backtracking:
//!   a node is a knight's path, its children the unvisited squares a move
//!   away, chosen uniformly. Almost every probe strands itself in a corner
//!   long before it covers the board (none in 100,000 reach a tour of 8x8),
//!   which is why it is kept only to show the problem.
//! * [`EstimateMethod::Pruned`], uniform probes of the pruned tree: a child is
//!   allowed only if, after the move, every unvisited square keeps at least
//!   two free neighbours (unvisited squares, the path's end, and for closed
//!   tours the start square, which the tour returns to), except that an open
//!   path may leave one square with a single free neighbour (its last
//!   square), and the unvisited squares stay connected to the path's end.
//!   These are necessary conditions, so no tour is pruned and the weight (the
//!   product of the numbers of allowed children) stays exact.
//! * [`EstimateMethod::Sis`] (the default), sequential importance sampling on
//!   the same pruned tree with a Warnsdorff-like proposal: an allowed child
//!   with `k` onward free squares is chosen with probability proportional to
//!   `exp(-0.35 k)`, and the weight multiplied by `1/p(c)`. Preferring the squares
//!   with few ways out keeps probes alive to the end and makes the weights
//!   of the tours they reach more alike, so the estimate is tighter for the
//!   same seconds (measured in docs/estimates.md).
//!
//! Both pruned methods finish a probe by exact enumeration once at most 16
//! squares are left: the weight is multiplied by the exact number of
//! completions of the path in the pruned tree, which removes the variance of
//! the last steps.
//!
//! Closed tours start at square 0 (each undirected closed tour is then found
//! twice, once in each direction); open tours start at a random square (the
//! estimate is multiplied by the number of squares, and halved for
//! direction). The tree size reported is the number of nodes of the tree the
//! method probes (for open tours, the mean over start squares).
//!
//! The error: probes are independent, so the standard error is the spread of
//! the probes' weights over the square root of their number (equivalently,
//! that of the batch means, which have the same expectation). Weights are
//! heavy-tailed, so with few successful probes this underestimates the true
//! error; the 95 % interval is the estimate plus or minus 1.96 standard
//! errors, and its coverage was checked against exact counts
//! (docs/estimates.md).

use std::time::{Duration, Instant};

use rand::Rng;
use rayon::prelude::*;

use super::Kind;
use crate::{rng, Board, Error, Result};

/// Probes per batch: batch `i` uses [`rng::for_batch`]`(seed, i)`.
pub const BATCH: u64 = 256;

/// How probes choose their way down the search tree.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EstimateMethod {
    /// Knuth's plain probe of plain backtracking (rarely reaches a tour).
    Knuth,
    /// Uniform probes of the tree pruned by dead-end and connectivity checks.
    Pruned,
    /// Sequential importance sampling on the pruned tree with a
    /// Warnsdorff-like proposal.
    #[default]
    Sis,
}

impl EstimateMethod {
    /// Every method, in the order of the command line's list.
    pub const ALL: [EstimateMethod; 3] = [
        EstimateMethod::Sis,
        EstimateMethod::Pruned,
        EstimateMethod::Knuth,
    ];

    /// The method's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EstimateMethod::Knuth => "knuth",
            EstimateMethod::Pruned => "pruned",
            EstimateMethod::Sis => "sis",
        }
    }

    /// One line about the method.
    pub fn about(self) -> &'static str {
        match self {
            EstimateMethod::Knuth => {
                "Knuth's plain probe of plain backtracking (rarely reaches a tour)"
            }
            EstimateMethod::Pruned => {
                "uniform probes of the tree pruned by dead-end and connectivity checks"
            }
            EstimateMethod::Sis => {
                "importance sampling on the pruned tree, preferring squares with few ways out"
            }
        }
    }
}

/// The proposal's strength: a child with `k` onward free squares weighs
/// `exp(-BETA k)` (measured on 8x8: stronger preferences make the weights
/// heavier-tailed, `ln 2` doubled the standard error).
const BETA: f64 = 0.35;

/// Paths with at most this many unvisited squares are completed by exact
/// enumeration of the pruned subtree instead of one random descent.
const TAIL: usize = 16;

/// Options of [`estimate()`].
#[derive(Copy, Clone, Debug)]
pub struct EstimateOptions {
    /// Closed or open tours.
    pub kind: Kind,
    /// Number of random probes (with `seconds`, the most probes made).
    pub samples: u64,
    /// Seed of the probes (the same seed and number of probes give the same
    /// estimate on any number of threads).
    pub seed: u64,
    /// How probes choose their way.
    pub method: EstimateMethod,
    /// Probe until this much time has passed instead (whole rounds of
    /// batches, so the number of probes, and the estimate, depend on the
    /// machine's speed: not reproducible).
    pub seconds: Option<f64>,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            kind: Kind::Closed,
            samples: 100_000,
            seed: 0,
            method: EstimateMethod::default(),
            seconds: None,
        }
    }
}

/// An estimate with its spread.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Estimated number of undirected tours.
    pub tours: f64,
    /// Standard error of `tours`.
    pub tours_error: f64,
    /// Lower end of the 95 % interval of `tours` (never below 0).
    pub low: f64,
    /// Upper end of the 95 % interval of `tours`.
    pub high: f64,
    /// Estimated number of nodes of the search tree probed.
    pub tree: f64,
    /// Standard error of `tree`.
    pub tree_error: f64,
    /// Probes that ended in a tour.
    pub hits: u64,
    /// Probes made.
    pub samples: u64,
}

#[derive(Copy, Clone, Default)]
struct Sums {
    tours: f64,
    tours2: f64,
    tree: f64,
    tree2: f64,
    hits: u64,
    samples: u64,
}

impl Sums {
    fn add(&mut self, p: &Sums) {
        self.tours += p.tours;
        self.tours2 += p.tours2;
        self.tree += p.tree;
        self.tree2 += p.tree2;
        self.hits += p.hits;
        self.samples += p.samples;
    }
}

/// An estimate of the number of undirected tours of `board` and of the size
/// of the search tree probed.
///
/// # Complexity
/// `samples x squares x 8` steps for [`EstimateMethod::Knuth`], up to
/// `samples x squares^2 x 8` for the pruned methods (a connectivity check per
/// allowed child), in parallel over batches of probes.
///
/// # Example
/// ```
/// use knights::count::{estimate, EstimateOptions};
/// use knights::Kind;
/// let opts = EstimateOptions { kind: Kind::Open, samples: 20_000, seed: 1, ..Default::default() };
/// let e = estimate("3x4".parse()?, &opts)?; // exactly 8 open tours
/// assert!((e.tours - 8.0).abs() < 5.0 * e.tours_error);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn estimate(board: Board, opts: &EstimateOptions) -> Result<Estimate> {
    estimate_with(board, opts, &|_| {})
}

/// [`estimate()`], calling `progress(probes)` after each batch of probes
/// (from any thread).
pub fn estimate_with(
    board: Board,
    opts: &EstimateOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Estimate> {
    if opts.samples == 0 {
        return Err(Error::Unsupported(
            "an estimate needs at least one probe".into(),
        ));
    }
    if let Some(s) = opts.seconds {
        if !(s.is_finite() && s > 0.0) {
            return Err(Error::Unsupported(
                "an estimate needs a positive number of seconds".into(),
            ));
        }
    }
    crate::memory::ensure_fits(board, "probe", 64)?;
    let graph = Graph::new(board);
    let run_batch = |b: u64, count: u64| -> Sums {
        let mut rng = rng::for_batch(opts.seed, b);
        let mut state = State::new(graph.n);
        let mut sums = Sums::default();
        for _ in 0..count {
            let (t, size) = match opts.method {
                EstimateMethod::Knuth => knuth_probe(&graph, opts.kind, &mut state, &mut rng),
                EstimateMethod::Pruned => {
                    pruned_probe(&graph, opts.kind, false, &mut state, &mut rng)
                }
                EstimateMethod::Sis => pruned_probe(&graph, opts.kind, true, &mut state, &mut rng),
            };
            sums.tours += t;
            sums.tours2 += t * t;
            sums.tree += size;
            sums.tree2 += size * size;
            sums.hits += u64::from(t > 0.0);
        }
        sums.samples = count;
        progress(count);
        sums
    };
    let mut s = Sums::default();
    match opts.seconds {
        None => {
            let batches = opts.samples.div_ceil(BATCH);
            let parts: Vec<Sums> = (0..batches)
                .into_par_iter()
                .map(|b| run_batch(b, BATCH.min(opts.samples - b * BATCH)))
                .collect();
            for p in &parts {
                s.add(p);
            }
        }
        Some(secs) => {
            let deadline = Instant::now() + Duration::from_secs_f64(secs);
            let round = rayon::current_num_threads() as u64 * 4;
            let mut next = 0u64;
            while Instant::now() < deadline && s.samples < opts.samples {
                let parts: Vec<Sums> = (next..next + round)
                    .into_par_iter()
                    .map(|b| run_batch(b, BATCH))
                    .collect();
                next += round;
                for p in &parts {
                    s.add(p);
                }
            }
        }
    }
    let k = s.samples as f64;
    let spread = |sum: f64, sum2: f64| {
        let mean = sum / k;
        let var = if s.samples > 1 {
            ((sum2 - k * mean * mean) / (k - 1.0)).max(0.0)
        } else {
            0.0
        };
        (mean, (var / k).sqrt())
    };
    let (tours, tours_error) = spread(s.tours, s.tours2);
    let (tree, tree_error) = spread(s.tree, s.tree2);
    Ok(Estimate {
        tours,
        tours_error,
        low: (tours - 1.96 * tours_error).max(0.0),
        high: tours + 1.96 * tours_error,
        tree,
        tree_error,
        hits: s.hits,
        samples: s.samples,
    })
}

/// The knight's graph of a board as flat neighbour lists.
struct Graph {
    n: usize,
    start: Vec<u32>,
    adj: Vec<u32>,
    board: Board,
}

impl Graph {
    fn new(board: Board) -> Graph {
        let n = board.squares();
        let mut start = Vec::with_capacity(n + 1);
        let mut adj = Vec::with_capacity(n * 8);
        for s in 0..n as u32 {
            start.push(adj.len() as u32);
            adj.extend(board.neighbours(s).map(|(_, t)| t));
        }
        start.push(adj.len() as u32);
        Graph {
            n,
            start,
            adj,
            board,
        }
    }

    #[inline]
    fn nb(&self, s: u32) -> &[u32] {
        &self.adj[self.start[s as usize] as usize..self.start[s as usize + 1] as usize]
    }
}

/// A probe's working memory, reused between probes.
struct State {
    visited: Vec<bool>,
    /// Free neighbours of each square (unvisited squares, the path's end,
    /// and for closed tours the start).
    free: Vec<u8>,
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
}

impl State {
    fn new(n: usize) -> State {
        State {
            visited: vec![false; n],
            free: vec![0; n],
            seen: vec![0; n],
            stamp: 0,
            stack: Vec::with_capacity(n),
        }
    }
}

/// Knuth's plain probe: (estimate of undirected tours, estimate of tree nodes).
fn knuth_probe<R: Rng + ?Sized>(g: &Graph, kind: Kind, st: &mut State, rng: &mut R) -> (f64, f64) {
    let n = g.n;
    let visited = &mut st.visited;
    visited.fill(false);
    let start = match kind {
        Kind::Closed => 0,
        Kind::Open => rng.random_range(0..n as u32),
    };
    let mut at = start;
    visited[at as usize] = true;
    let mut weight = 1.0f64;
    let mut tree = 1.0f64;
    let mut depth = 1;
    let mut options = [0u32; 8];
    loop {
        let mut d = 0;
        for &s in g.nb(at) {
            if !visited[s as usize] {
                options[d] = s;
                d += 1;
            }
        }
        if d == 0 {
            break;
        }
        weight *= d as f64;
        tree += weight;
        at = options[rng.random_range(0..d)];
        visited[at as usize] = true;
        depth += 1;
    }
    (tour_weight(g, kind, depth, at, start, weight), tree)
}

fn tour_weight(g: &Graph, kind: Kind, depth: usize, at: u32, start: u32, weight: f64) -> f64 {
    if depth < g.n {
        0.0
    } else {
        match kind {
            Kind::Closed if g.board.move_between(at, start).is_some() => weight / 2.0,
            Kind::Closed => 0.0,
            Kind::Open => weight * g.n as f64 / 2.0,
        }
    }
}

/// A probe of the pruned tree, uniform or (with `sis`) with the
/// Warnsdorff-like proposal: (estimate of undirected tours, estimate of the
/// pruned tree's nodes).
fn pruned_probe<R: Rng + ?Sized>(
    g: &Graph,
    kind: Kind,
    sis: bool,
    st: &mut State,
    rng: &mut R,
) -> (f64, f64) {
    let n = g.n;
    let closed = kind == Kind::Closed;
    st.visited.fill(false);
    let start = if closed {
        0
    } else {
        rng.random_range(0..n as u32)
    };
    // Every square is free at first: unvisited ones, and the start (the
    // path's end, and for closed tours the square the tour returns to).
    for s in 0..n as u32 {
        st.free[s as usize] = g.nb(s).len() as u8;
    }
    st.visited[start as usize] = true;
    // Unvisited squares with at most one free neighbour.
    let mut ones = (0..n as u32)
        .filter(|&s| s != start && st.free[s as usize] <= 1)
        .count();
    if st
        .free
        .iter()
        .enumerate()
        .any(|(s, &f)| s != start as usize && f == 0)
        || ones > usize::from(!closed)
    {
        return (0.0, 1.0);
    }
    let mut at = start;
    let mut weight = 1.0f64;
    let mut tree = 1.0f64;
    let mut depth = 1;
    let mut options = [0u32; 8];
    let mut ones_after = [0usize; 8];
    let mut score = [0f64; 8];
    loop {
        if n - depth <= TAIL {
            let (t, nodes) = complete(g, st, closed, start, at, depth, ones);
            let t = if closed { t / 2.0 } else { t * n as f64 / 2.0 };
            return (weight * t, tree + weight * (nodes - 1.0));
        }
        let leaves = !(closed && at == start);
        let d = children(
            g,
            st,
            closed,
            start,
            at,
            depth,
            ones,
            &mut options,
            &mut ones_after,
        );
        if d == 0 {
            break;
        }
        let pick = if sis && d > 1 {
            let mut total = 0.0;
            for i in 0..d {
                let c = options[i];
                let k = g
                    .nb(c)
                    .iter()
                    .filter(|&&u| u != at && !st.visited[u as usize])
                    .count();
                score[i] = (-(k as f64) * BETA).exp();
                total += score[i];
            }
            let mut x = rng.random::<f64>() * total;
            let mut pick = d - 1;
            for (i, &sc) in score.iter().enumerate().take(d) {
                if x < sc {
                    pick = i;
                    break;
                }
                x -= sc;
            }
            weight *= total / score[pick];
            pick
        } else {
            weight *= d as f64;
            if d > 1 {
                rng.random_range(0..d)
            } else {
                0
            }
        };
        tree += weight;
        let c = options[pick];
        step(g, st, leaves, at, c, false);
        ones = ones_after[pick];
        at = c;
        depth += 1;
    }
    (tour_weight(g, kind, depth, at, start, weight), tree)
}

/// The allowed children of the path ending at `at` (`depth` squares
/// visited, `ones` unvisited squares with at most one free neighbour), with
/// the value of `ones` after each move.
#[allow(clippy::too_many_arguments)]
fn children(
    g: &Graph,
    st: &mut State,
    closed: bool,
    start: u32,
    at: u32,
    depth: usize,
    ones: usize,
    options: &mut [u32; 8],
    ones_after: &mut [usize; 8],
) -> usize {
    let n = g.n;
    // The end `at` stops being free when the path moves on, unless it is
    // the start of a closed tour.
    let leaves = !(closed && at == start);
    let mut d = 0;
    'child: for &c in g.nb(at) {
        if st.visited[c as usize] {
            continue;
        }
        let mut o = ones - usize::from(st.free[c as usize] <= 1);
        if leaves {
            for &u in g.nb(at) {
                if u == c || st.visited[u as usize] {
                    continue;
                }
                match st.free[u as usize] {
                    1 => continue 'child,
                    2 => o += 1,
                    _ => {}
                }
            }
        }
        if o > usize::from(!closed) {
            continue;
        }
        if depth + 1 < n && !connected(g, st, c, n - depth - 1) {
            continue;
        }
        options[d] = c;
        ones_after[d] = o;
        d += 1;
    }
    d
}

/// Moves the path's end from `at` to `c` (or back, with `undo`).
fn step(g: &Graph, st: &mut State, leaves: bool, at: u32, c: u32, undo: bool) {
    if leaves {
        for &u in g.nb(at) {
            if !st.visited[u as usize] && u != c {
                if undo {
                    st.free[u as usize] += 1;
                } else {
                    st.free[u as usize] -= 1;
                }
            }
        }
    }
    st.visited[c as usize] = !undo;
}

/// The exact number of directed completions (tours) of the path ending at
/// `at` in the pruned tree, and the number of nodes of that subtree.
fn complete(
    g: &Graph,
    st: &mut State,
    closed: bool,
    start: u32,
    at: u32,
    depth: usize,
    ones: usize,
) -> (f64, f64) {
    if depth == g.n {
        let done = !closed || g.board.move_between(at, start).is_some();
        return (if done { 1.0 } else { 0.0 }, 1.0);
    }
    let mut options = [0u32; 8];
    let mut ones_after = [0usize; 8];
    let leaves = !(closed && at == start);
    let d = children(
        g,
        st,
        closed,
        start,
        at,
        depth,
        ones,
        &mut options,
        &mut ones_after,
    );
    let (mut tours, mut nodes) = (0.0, 1.0);
    for i in 0..d {
        let c = options[i];
        step(g, st, leaves, at, c, false);
        let (t, k) = complete(g, st, closed, start, c, depth + 1, ones_after[i]);
        step(g, st, leaves, at, c, true);
        tours += t;
        nodes += k;
    }
    (tours, nodes)
}

/// Whether the `left` unvisited squares other than `c` are all reachable
/// from `c` through unvisited squares once the path moves to `c`.
fn connected(g: &Graph, st: &mut State, c: u32, left: usize) -> bool {
    st.stamp = st.stamp.wrapping_add(1);
    if st.stamp == 0 {
        st.seen.fill(0);
        st.stamp = 1;
    }
    let stamp = st.stamp;
    st.stack.clear();
    st.stack.push(c);
    st.seen[c as usize] = stamp;
    let mut reached = 0;
    while let Some(s) = st.stack.pop() {
        for &u in g.nb(s) {
            if !st.visited[u as usize] && u != c && st.seen[u as usize] != stamp {
                st.seen[u as usize] = stamp;
                reached += 1;
                if reached == left {
                    return true;
                }
                st.stack.push(u);
            }
        }
    }
    reached == left
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every method's interval holds the exact count for a pinned seed.
    #[test]
    fn estimate_intervals_hold_small_counts() {
        // Exact undirected counts (OEIS A390833 and A392000).
        for (text, kind, want) in [
            ("3x4", Kind::Open, 8.0),
            ("4x5", Kind::Open, 82.0),
            ("5x6", Kind::Closed, 8.0),
            ("6x6", Kind::Closed, 9862.0),
            ("5x5", Kind::Open, 864.0),
        ] {
            for method in [EstimateMethod::Sis, EstimateMethod::Pruned] {
                let opts = EstimateOptions {
                    kind,
                    samples: 20_000,
                    seed: 3,
                    method,
                    seconds: None,
                };
                let e = estimate(text.parse().unwrap(), &opts).unwrap();
                assert!(
                    e.low <= want && want <= e.high,
                    "{text} {kind:?} {method:?}: {e:?} vs {want}"
                );
                assert!(e.hits > 0);
            }
        }
    }

    /// The pruned tree loses no tour: on a board with no closed tour every
    /// probe fails, and on 3x4 open every probe that survives is a tour.
    #[test]
    fn estimate_pruning_is_sound() {
        let opts = EstimateOptions {
            kind: Kind::Closed,
            samples: 1000,
            seed: 1,
            ..Default::default()
        };
        let e = estimate("5x5".parse().unwrap(), &opts).unwrap();
        assert_eq!((e.tours, e.hits), (0.0, 0));
    }

    /// The same seed and number of probes give the same estimate on 1 and 3
    /// threads.
    #[test]
    fn estimate_is_the_same_on_any_number_of_threads() {
        let opts = EstimateOptions {
            kind: Kind::Closed,
            samples: 3000,
            seed: 11,
            ..Default::default()
        };
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| estimate("6x6".parse().unwrap(), &opts).unwrap())
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn estimate_refuses_no_probes() {
        let opts = EstimateOptions {
            samples: 0,
            ..Default::default()
        };
        assert!(estimate("6x6".parse().unwrap(), &opts).is_err());
    }
}
