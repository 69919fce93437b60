//! Random-probe estimates of the number of tours of boards too large to
//! count (D. E. Knuth, *Estimating the efficiency of backtrack programs*,
//! Math. Comp. 29 (1975), cited in McKay 1997).
//!
//! A probe makes random choices down a tree of partial solutions; if a
//! choice is made with probability `p`, weighting it by `1/p` makes the
//! probe's result an unbiased estimate of the number of tours, and the mean
//! of independent probes is the estimate. The methods ([`EstimateMethod`]):
//!
//! * [`EstimateMethod::Frontier`] (the default for closed tours where it
//!   fits): a run of the exact counter's frontier program (see the `frontier`
//!   module notes) that keeps at most [`EstimateOptions::keep`] states after
//!   each square. When there are more, state `i` of weight `w_i` (the number
//!   of partial tours it stands for) is kept with probability
//!   `p_i = min(1, w_i / tau)`, `tau` chosen so that the `p_i` add up to
//!   `keep`, by systematic sampling in key order, and its weight becomes
//!   `w_i / p_i`. Each step is unbiased and the count is linear in the
//!   weights, so each run is an unbiased estimate. Equal states merge, so a
//!   kept state carries all the partial tours that reach it: on 8x8 closed a
//!   run keeping 100,000 states is within about 7 % (one standard
//!   deviation), and when a board never has more states than `keep` the run
//!   is exact. It needs the frontier to fit the counter's keys (boards with a
//!   short side of at most 11).
//! * [`EstimateMethod::Sis`] (the default for open tours and for wider
//!   boards), sequential importance sampling of walks: a walk is a knight's
//!   path grown one square at a time in the pruned tree below, choosing an
//!   allowed move to a square with `k` onward free squares with probability
//!   proportional to `exp(-0.35 k)` (Warnsdorff-like) and multiplying its
//!   weight by `1/p`. Once at most 16 squares are left, the weight is
//!   multiplied by the exact number of completions, found by enumeration
//!   (states met twice, by the squares left and the path's end, are counted
//!   once).
//! * [`EstimateMethod::Pruned`], uniform walks of the pruned tree.
//! * [`EstimateMethod::Knuth`], Knuth's plain probe of plain backtracking:
//!   a node is a knight's path, its children the unvisited squares a move
//!   away, chosen uniformly. Almost every probe strands itself in a corner
//!   long before it covers the board (none in 100,000 reach a tour of 8x8),
//!   which is why it is kept only to show the problem.
//!
//! **The pruned tree.** A move is allowed only if afterwards every unvisited
//! square keeps two free neighbours (unvisited squares, the path's end, and
//! for closed tours the start square, which the tour returns to; an open
//! path may leave one square with one, its last), and the unvisited squares
//! stay connected: the square moved to must not be a cut square of the
//! graph of the unvisited squares, found for all moves at once by Tarjan's
//! depth-first search. These are necessary conditions, so no tour is pruned
//! and the weights stay exact. Closed tours start at the corner and leave it
//! for its first neighbour, so each undirected tour is one leaf; open tours
//! start at a uniformly random square (the estimate is multiplied by the
//! number of squares and halved for direction).
//!
//! **The error.** Probes are independent, so the standard error is the
//! spread of their results over the square root of their number. Results
//! are skewed (a few walks carry much of the sum), which makes the plain
//! interval `mean +- 1.96 standard errors` too low too often; the 95 %
//! interval is therefore Hall's skewness-corrected one (the Edgeworth
//! expansion of the studentised mean, P. Hall, *The Bootstrap and Edgeworth
//! Expansion*, 1992): with `g` the sample skewness of the probes and `n`
//! their number, `c = g (2 t^2 + 1) / (6 sqrt n)` (at most `t`), the interval
//! is `mean - (t - c) se` to `mean + (t + c) se`, with `t` Student's 97.5 %
//! point for `n - 1` degrees of freedom. Its coverage was measured against
//! exact counts (docs/estimates.md).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;
use rayon::prelude::*;
use serde::Serialize;

use super::frontier::Engine;
use super::Kind;
use crate::{rng, Board, Control, Error, Phase, Progress, Result};

/// Walks per batch: batch `i` uses [`rng::for_batch`]`(seed, i)`. A run of
/// the frontier method is a batch of its own.
pub const BATCH: u64 = 256;

/// States kept per square by [`EstimateMethod::Frontier`] unless told.
pub const KEEP: usize = 100_000;

/// How probes choose their way.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EstimateMethod {
    /// [`EstimateMethod::Frontier`] for closed tours where the frontier
    /// program fits, else [`EstimateMethod::Sis`].
    #[default]
    Auto,
    /// Runs of the frontier program that keep a sample of its states.
    Frontier,
    /// Sequential importance sampling of walks on the pruned tree with a
    /// Warnsdorff-like proposal.
    Sis,
    /// Uniform walks of the tree pruned by dead-end and connectivity checks.
    Pruned,
    /// Knuth's plain probe of plain backtracking (rarely reaches a tour).
    Knuth,
}

impl EstimateMethod {
    /// Every method, in the order of the command line's list.
    pub const ALL: [EstimateMethod; 5] = [
        EstimateMethod::Auto,
        EstimateMethod::Frontier,
        EstimateMethod::Sis,
        EstimateMethod::Pruned,
        EstimateMethod::Knuth,
    ];

    /// The method's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EstimateMethod::Auto => "auto",
            EstimateMethod::Frontier => "frontier",
            EstimateMethod::Sis => "sis",
            EstimateMethod::Pruned => "pruned",
            EstimateMethod::Knuth => "knuth",
        }
    }

    /// One line about the method.
    pub fn about(self) -> &'static str {
        match self {
            EstimateMethod::Auto => {
                "frontier for closed tours of boards with a short side of at most 11, else sis"
            }
            EstimateMethod::Frontier => {
                "runs of the exact counter's frontier program keeping a sample of its states"
            }
            EstimateMethod::Sis => {
                "importance sampling of walks on the pruned tree, preferring squares with few ways out"
            }
            EstimateMethod::Pruned => {
                "uniform walks of the tree pruned by dead-end and connectivity checks"
            }
            EstimateMethod::Knuth => {
                "Knuth's plain probe of plain backtracking (rarely reaches a tour)"
            }
        }
    }

    /// Probes made when none are asked for: 10 runs of the frontier
    /// program, 300,000 walks for the others.
    pub fn default_samples(self) -> u64 {
        match self {
            EstimateMethod::Frontier => 10,
            _ => 300_000,
        }
    }
}

/// The proposal's strength: a move to a square with `k` onward free squares
/// weighs `exp(-BETA k)` (measured on 8x8: stronger preferences make the
/// weights heavier-tailed, `ln 2` doubled the standard error).
const BETA: f64 = 0.35;

/// Walks with at most this many unvisited squares are completed by exact
/// enumeration of the pruned subtree instead of one random descent.
const TAIL: usize = 16;

/// The enumeration remembers the states with at least this many squares
/// left (below, counting again is cheaper than looking up).
const MEMO_FROM: usize = 8;

/// Options of [`estimate()`].
#[derive(Copy, Clone, Debug)]
pub struct EstimateOptions {
    /// Closed or open tours.
    pub kind: Kind,
    /// Number of probes: walks, or runs of the frontier program (with
    /// `seconds`, the most probes made); 0 for the method's
    /// [`EstimateMethod::default_samples`].
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
    /// States kept after each square by a run of the frontier method.
    pub keep: usize,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            kind: Kind::Closed,
            samples: 0,
            seed: 0,
            method: EstimateMethod::default(),
            seconds: None,
            keep: KEEP,
        }
    }
}

/// An estimate with its spread.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// Estimated number of undirected tours.
    pub tours: f64,
    /// Standard error of `tours`.
    pub tours_error: f64,
    /// Lower end of the 95 % interval of `tours` (never below 0).
    pub low: f64,
    /// Upper end of the 95 % interval of `tours`.
    pub high: f64,
    /// Estimated number of nodes of the tree the walks probe (0 for the
    /// frontier method).
    pub tree: f64,
    /// Standard error of `tree`.
    pub tree_error: f64,
    /// Probes that found a tour.
    pub hits: u64,
    /// Probes made.
    pub samples: u64,
    /// The method used ([`EstimateMethod::Auto`] resolved).
    pub method: EstimateMethod,
    /// Whether the estimate is exact: every run of the frontier method kept
    /// all its states.
    pub exact: bool,
    /// Sample skewness of the probes' results (0 for fewer than 3 probes).
    pub skewness: f64,
    /// The largest probe result's share of their sum (0 to 1; near 1, one
    /// probe made the estimate).
    pub largest: f64,
}

#[derive(Copy, Clone, Default)]
struct Sums {
    tours: f64,
    tours2: f64,
    tours3: f64,
    max: f64,
    tree: f64,
    tree2: f64,
    hits: u64,
    samples: u64,
    /// Runs of the frontier method that dropped states.
    sampled: u64,
}

impl Sums {
    fn add_one(&mut self, tours: f64, tree: f64) {
        self.tours += tours;
        self.tours2 += tours * tours;
        self.tours3 += tours * tours * tours;
        self.max = self.max.max(tours);
        self.tree += tree;
        self.tree2 += tree * tree;
        self.hits += u64::from(tours > 0.0);
        self.samples += 1;
    }

    fn add(&mut self, p: &Sums) {
        self.tours += p.tours;
        self.tours2 += p.tours2;
        self.tours3 += p.tours3;
        self.max = self.max.max(p.max);
        self.tree += p.tree;
        self.tree2 += p.tree2;
        self.hits += p.hits;
        self.samples += p.samples;
        self.sampled += p.sampled;
    }
}

/// The method [`EstimateMethod::Auto`] stands for on `board` for `kind`
/// (any other method is itself).
pub fn resolve_method(board: Board, kind: Kind, method: EstimateMethod) -> EstimateMethod {
    match method {
        EstimateMethod::Auto if auto_frontier(board, kind) => EstimateMethod::Frontier,
        EstimateMethod::Auto => EstimateMethod::Sis,
        m => m,
    }
}

/// Whether [`EstimateMethod::Auto`] means the frontier method: for closed
/// tours wherever it fits (for open tours walks measured better on 6x6 and
/// 7x7, and neither is good on 8x8; docs/estimates.md).
fn auto_frontier(board: Board, kind: Kind) -> bool {
    kind == Kind::Closed && fits(board, kind)
}

/// Whether the frontier program of `board` fits the counter's keys.
fn fits(board: Board, kind: Kind) -> bool {
    let (r, c) = (board.rows(), board.cols());
    // The frontier holds at most 2w + 1 squares of the short side w; the
    // engine decides (and refuses the widest).
    r.min(c) <= 11
        && crate::memory::ensure_fits(board, "frontier program", 256).is_ok()
        && Engine::new(&super::board_problem(board, kind)).is_ok()
}

/// Resolves [`EstimateMethod::Auto`] for `board` and `kind`, and prepares
/// the frontier program if the method needs it.
fn resolve(
    board: Board,
    kind: Kind,
    method: EstimateMethod,
) -> Result<(EstimateMethod, Option<Engine>)> {
    let engine = || Engine::new(&super::board_problem(board, kind));
    match method {
        EstimateMethod::Auto if auto_frontier(board, kind) => {
            Ok((EstimateMethod::Frontier, Some(engine()?)))
        }
        EstimateMethod::Auto => Ok((EstimateMethod::Sis, None)),
        EstimateMethod::Frontier => match engine() {
            Ok(e) => Ok((EstimateMethod::Frontier, Some(e))),
            Err(_) => Err(Error::Unsupported(format!(
                "the frontier method needs a board whose short side is at most 11, and {board} is wider"
            ))
            .with_hint(crate::Hint::UseMethod("sis"))),
        },
        m => Ok((m, None)),
    }
}

/// An estimate of the number of undirected tours of `board` (and, for the
/// walks, of the size of the search tree they probe).
///
/// # Complexity
/// A run of the frontier method: `squares x keep` state expansions, each
/// `O(width)`. A walk: `squares x 8` steps for [`EstimateMethod::Knuth`],
/// up to `squares^2 x 8` for the pruned walks (a depth-first search per
/// step). Probes run in parallel.
///
/// # Example
/// ```
/// use knights::count::{estimate, EstimateMethod, EstimateOptions};
/// use knights::Kind;
/// let opts = EstimateOptions {
///     kind: Kind::Open,
///     samples: 20_000,
///     seed: 1,
///     method: EstimateMethod::Sis,
///     ..Default::default()
/// };
/// let e = estimate("3x4".parse()?, &opts)?; // exactly 8 open tours
/// assert!(e.low <= 8.0 && 8.0 <= e.high);
/// // Closed tours of 6x6 never need more than 2^20 states: the frontier
/// // method (the default for closed tours) is exact.
/// let roomy = EstimateOptions { samples: 2, keep: 1 << 20, ..Default::default() };
/// let e = estimate("6x6".parse()?, &roomy)?;
/// assert_eq!((e.tours, e.exact), (9862.0, true));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn estimate(board: Board, opts: &EstimateOptions) -> Result<Estimate> {
    probe(board, opts, &Control::new())
}

/// An estimate to make, with its options and [`Control`]: made by
/// [`Estimate::builder`].
#[derive(Clone, Debug)]
#[must_use = "an EstimateBuilder does nothing until run"]
pub struct EstimateBuilder<'a> {
    board: Board,
    opts: EstimateOptions,
    control: Option<&'a Control>,
}

impl Estimate {
    /// A builder of an estimate of the closed tours of `board` by the
    /// default method and number of probes, seed 0.
    ///
    /// # Example
    /// ```
    /// use knights::count::{Estimate, EstimateMethod};
    /// use knights::{Control, Kind};
    /// let e = Estimate::builder("3x4".parse()?)
    ///     .kind(Kind::Open)
    ///     .method(EstimateMethod::Sis)
    ///     .samples(20_000)
    ///     .seed(1)
    ///     .control(&Control::new())
    ///     .run()?;
    /// assert!(e.low <= 8.0 && 8.0 <= e.high); // exactly 8 open tours
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn builder<'a>(board: Board) -> EstimateBuilder<'a> {
        EstimateBuilder {
            board,
            opts: EstimateOptions::default(),
            control: None,
        }
    }
}

impl<'a> EstimateBuilder<'a> {
    /// Estimates tours of this kind.
    pub fn kind(mut self, kind: Kind) -> Self {
        self.opts.kind = kind;
        self
    }

    /// Makes this many probes (see [`EstimateOptions::samples`]).
    pub fn samples(mut self, samples: u64) -> Self {
        self.opts.samples = samples;
        self
    }

    /// Seeds the probes.
    pub fn seed(mut self, seed: u64) -> Self {
        self.opts.seed = seed;
        self
    }

    /// Probes by this method.
    pub fn method(mut self, method: EstimateMethod) -> Self {
        self.opts.method = method;
        self
    }

    /// Probes for this many seconds (see [`EstimateOptions::seconds`]).
    pub fn seconds(mut self, seconds: f64) -> Self {
        self.opts.seconds = Some(seconds);
        self
    }

    /// Keeps this many states a square in a run of the frontier method.
    pub fn keep(mut self, keep: usize) -> Self {
        self.opts.keep = keep;
        self
    }

    /// Takes all options at once.
    pub fn options(mut self, opts: EstimateOptions) -> Self {
        self.opts = opts;
        self
    }

    /// Reports [`Phase::Estimating`] progress (the probes finished) after
    /// each batch of probes, and stops with [`Error::Interrupted`] when its
    /// flag is raised.
    pub fn control(mut self, control: &'a Control) -> Self {
        self.control = Some(control);
        self
    }

    /// The estimate (see [`estimate()`]).
    pub fn run(self) -> Result<Estimate> {
        match self.control {
            Some(control) => probe(self.board, &self.opts, control),
            None => probe(self.board, &self.opts, &Control::new()),
        }
    }
}

/// [`estimate()`], reporting the probes finished to `control` after each
/// batch of probes (from any thread) and stopping when its flag is raised.
fn probe(board: Board, opts: &EstimateOptions, control: &Control) -> Result<Estimate> {
    // The deadline is taken now, so that a time past what a clock can hold
    // is refused here rather than panicking later.
    let deadline = match opts.seconds {
        None => None,
        Some(s) => Some(
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .and_then(|d| Instant::now().checked_add(d))
                .ok_or_else(|| {
                    Error::Unsupported(format!(
                        "an estimate needs a positive number of seconds that a clock can hold, not {s}"
                    ))
                })?,
        ),
    };
    if opts.keep == 0 || opts.keep > 1 << 26 {
        return Err(Error::Unsupported(format!(
            "the frontier method keeps from 1 to {} states a square, not {}",
            1u64 << 26,
            opts.keep
        )));
    }
    crate::memory::ensure_fits(board, "probe", 64)?;
    let (method, engine) = resolve(board, opts.kind, opts.method)?;
    let samples = match opts.samples {
        0 => method.default_samples(),
        s => s,
    };
    let graph = Graph::new(board);
    let per = if engine.is_some() { 1 } else { BATCH };
    let done = AtomicU64::new(0);
    let total = opts.seconds.is_none().then_some(samples);
    let run_batch = |b: u64, count: u64| -> Sums {
        if control.stop_flag().is_stopped() {
            return Sums::default();
        }
        let mut rng = rng::for_batch(opts.seed, b);
        let mut sums = Sums::default();
        if let Some(engine) = &engine {
            for _ in 0..count {
                let (t, sampled) = frontier_run(engine, opts.keep, &mut rng);
                sums.add_one(t, 0.0);
                sums.sampled += u64::from(sampled);
            }
        } else if method == EstimateMethod::Knuth {
            let mut visited = vec![false; graph.n];
            for _ in 0..count {
                let (t, size) = knuth_probe(&graph, opts.kind, &mut visited, &mut rng);
                sums.add_one(t, size);
            }
        } else {
            let mut walk = Walk::new(graph.n);
            let mut sc = Scratch::new(graph.n);
            let sis = method == EstimateMethod::Sis;
            for _ in 0..count {
                let (t, size) = walk_probe(&graph, opts.kind, sis, &mut walk, &mut sc, &mut rng);
                sums.add_one(t, size);
            }
        }
        let done = done.fetch_add(count, Ordering::Relaxed) + count;
        control.report(&Progress::new(Phase::Estimating, done, total));
        sums
    };
    let mut s = Sums::default();
    match deadline {
        None => {
            let batches = samples.div_ceil(per);
            let parts: Vec<Sums> = (0..batches)
                .into_par_iter()
                .map(|b| run_batch(b, per.min(samples - b * per)))
                .collect();
            for p in &parts {
                s.add(p);
            }
        }
        Some(deadline) => {
            let round = rayon::current_num_threads() as u64 * if per == 1 { 1 } else { 4 };
            let mut next = 0u64;
            while Instant::now() < deadline
                && s.samples < samples
                && !control.stop_flag().is_stopped()
            {
                let parts: Vec<Sums> = (next..next + round)
                    .into_par_iter()
                    .map(|b| run_batch(b, per))
                    .collect();
                next += round;
                for p in &parts {
                    s.add(p);
                }
            }
        }
    }
    control.check("the estimate")?;
    Ok(summarise(&s, method))
}

/// The estimate, its errors and interval from the probes' sums.
fn summarise(s: &Sums, method: EstimateMethod) -> Estimate {
    let k = s.samples as f64;
    let spread = |sum: f64, sum2: f64| {
        let mean = sum / k;
        let var = if s.samples > 1 {
            ((sum2 - k * mean * mean) / (k - 1.0)).max(0.0)
        } else {
            0.0
        };
        (mean, var)
    };
    let (tours, var) = spread(s.tours, s.tours2);
    let (tree, tree_var) = spread(s.tree, s.tree2);
    let se = (var / k).sqrt();
    let skewness = if s.samples > 2 && var > 0.0 {
        // Third central moment from the raw sums, over the variance^1.5.
        let m3 = s.tours3 / k - 3.0 * tours * s.tours2 / k + 2.0 * tours.powi(3);
        m3 / var.powf(1.5)
    } else {
        0.0
    };
    let (low, high) = interval(tours, se, skewness, s.samples);
    Estimate {
        tours,
        tours_error: se,
        low,
        high,
        tree,
        tree_error: (tree_var / k).sqrt(),
        hits: s.hits,
        samples: s.samples,
        method,
        exact: method == EstimateMethod::Frontier && s.sampled == 0,
        skewness,
        largest: if s.tours > 0.0 { s.max / s.tours } else { 0.0 },
    }
}

/// The 95 % interval of a mean of `n` results with standard error `se` and
/// sample skewness `g`: Student's `t` widened on the side of the skew
/// (Hall's Edgeworth correction), cut at 0.
fn interval(mean: f64, se: f64, g: f64, n: u64) -> (f64, f64) {
    if se == 0.0 || n < 2 {
        return (mean, mean);
    }
    let t = student_975(n - 1);
    let c = (g * (2.0 * t * t + 1.0) / (6.0 * (n as f64).sqrt())).clamp(-t, t);
    ((mean - (t - c) * se).max(0.0), mean + (t + c) * se)
}

/// Student's t distribution's 97.5 % point for `df` degrees of freedom, by
/// the Cornish-Fisher expansion around the normal's 1.96 (within 0.1 % from
/// 5 degrees of freedom; exact table values below).
fn student_975(df: u64) -> f64 {
    const SMALL: [f64; 5] = [12.706, 4.303, 3.182, 2.776, 2.571];
    if (1..=5).contains(&df) {
        return SMALL[df as usize - 1];
    }
    let z: f64 = 1.959_964;
    let v = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
}

/// States of the sampled frontier program, merged by key.
type Merged = HashMap<u128, f64, BuildHasherDefault<Mix>>;

/// One run of the frontier program that keeps at most `keep` states after
/// each square: an unbiased estimate of the undirected tours, and whether
/// any state was dropped.
fn frontier_run<R: Rng + ?Sized>(engine: &Engine, keep: usize, rng: &mut R) -> (f64, bool) {
    let mut states: Vec<(u128, f64)> = vec![(engine.start_key(), 1.0)];
    let mut next = Merged::default();
    let mut tours = 0.0;
    let mut sampled = false;
    for step in &engine.steps {
        next.clear();
        for &(key, w) in &states {
            engine.expand(step, key, |out| match out {
                Some(k) => *next.entry(k).or_insert(0.0) += w,
                None => tours += w,
            });
        }
        states.clear();
        states.extend(next.iter().map(|(&k, &w)| (k, w)));
        if states.len() > keep {
            // Key order makes the sample independent of the map's order.
            states.sort_unstable_by_key(|s| s.0);
            thin(&mut states, keep, rng);
            sampled = true;
        }
    }
    (tours, sampled)
}

/// Keeps about `keep` of the weighted states: state `i` with probability
/// `p_i = min(1, w_i / tau)` (the `tau` that makes them sum to `keep`), its
/// weight divided by `p_i`, by systematic sampling in the given order; the
/// weighted sum of any function of the states stays unbiased.
fn thin<R: Rng + ?Sized>(states: &mut Vec<(u128, f64)>, keep: usize, rng: &mut R) {
    let mut w: Vec<f64> = states.iter().map(|s| s.1).collect();
    w.sort_unstable_by(|a, b| b.total_cmp(a));
    // The heaviest states are kept for sure while they weigh at least tau.
    let mut rest: f64 = w.iter().sum();
    let mut tau = rest / keep as f64;
    for (j, &x) in w.iter().enumerate().take(keep) {
        tau = rest / (keep - j) as f64;
        if x < tau {
            break;
        }
        rest -= x;
    }
    let mut acc = 0.0;
    let mut mark: f64 = rng.random();
    let mut out = 0;
    for i in 0..states.len() {
        let (k, x) = states[i];
        acc += (x / tau).min(1.0);
        if acc > mark {
            states[out] = (k, x.max(tau));
            out += 1;
            mark += 1.0;
        }
    }
    states.truncate(out);
}

/// A cheap hasher for 128-bit keys.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u128(&mut self, x: u128) {
        let h = (x as u64) ^ ((x >> 64) as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = (h ^ (h >> 29)).wrapping_mul(0x94D0_49BB_1331_11EB);
    }
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

/// Knuth's plain probe: (estimate of undirected tours, estimate of tree nodes).
fn knuth_probe<R: Rng + ?Sized>(
    g: &Graph,
    kind: Kind,
    visited: &mut [bool],
    rng: &mut R,
) -> (f64, f64) {
    let n = g.n;
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
    let tours = if depth < n {
        0.0
    } else {
        match kind {
            Kind::Closed if g.board.move_between(at, start).is_some() => weight / 2.0,
            Kind::Closed => 0.0,
            Kind::Open => weight * n as f64 / 2.0,
        }
    };
    (tours, tree)
}

/// A walk's knight's path and the free-neighbour counts it leaves.
struct Walk {
    visited: Vec<bool>,
    /// Free neighbours of each square (unvisited squares, the path's end,
    /// and for closed tours the start).
    free: Vec<u8>,
    /// The path's end.
    at: u32,
    /// Squares on the path.
    depth: usize,
    /// Unvisited squares with at most one free neighbour.
    ones: usize,
}

impl Walk {
    fn new(n: usize) -> Walk {
        Walk {
            visited: vec![false; n],
            free: vec![0; n],
            at: 0,
            depth: 0,
            ones: 0,
        }
    }
}

/// Scratch memory of the cut-square search and of the exact completion.
struct Scratch {
    /// Tarjan's search: discovery times, low points, parents, cut marks,
    /// the clock (times above its value at a search's start are that
    /// search's) and the stack of squares with their next neighbour.
    disc: Vec<u32>,
    low: Vec<u32>,
    parent: Vec<u32>,
    cut: Vec<u32>,
    clock: u32,
    dfs: Vec<(u32, u32)>,
    /// Each square's place among the squares left when the exact
    /// completion starts.
    index: Vec<u32>,
    /// Completions and subtree nodes of the states already met, by the
    /// squares visited since the completion started and the path's end.
    memo: HashMap<u128, (f64, f64), BuildHasherDefault<Mix>>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            disc: vec![0; n],
            low: vec![0; n],
            parent: vec![0; n],
            cut: vec![0; n],
            clock: 0,
            dfs: Vec::with_capacity(n),
            index: vec![0; n],
            memo: HashMap::default(),
        }
    }
}

/// A walk down the pruned tree, uniform or (with `sis`) with the
/// Warnsdorff-like proposal: (estimate of undirected tours, estimate of the
/// pruned tree's nodes).
fn walk_probe<R: Rng + ?Sized>(
    g: &Graph,
    kind: Kind,
    sis: bool,
    walk: &mut Walk,
    sc: &mut Scratch,
    rng: &mut R,
) -> (f64, f64) {
    let n = g.n;
    let closed = kind == Kind::Closed;
    // Closed tours start at the corner 0 and leave it for its first
    // neighbour, coming back from its second: each undirected tour once.
    if closed && g.nb(0).len() < 2 {
        return (0.0, 1.0);
    }
    let start = if closed {
        0
    } else {
        rng.random_range(0..n as u32)
    };
    if !begin(g, walk, closed, start) {
        return (0.0, 1.0);
    }
    let mut weight = 1.0f64;
    let mut tree = 1.0f64;
    let mut options = [0u32; 8];
    let mut ones_after = [0usize; 8];
    let mut score = [0f64; 8];
    while n - walk.depth > TAIL {
        let d = children(g, walk, sc, closed, &mut options, &mut ones_after);
        if d == 0 {
            return (0.0, tree);
        }
        let at = walk.at;
        let pick = if d == 1 {
            0
        } else if sis {
            let mut total = 0.0;
            for j in 0..d {
                let c = options[j];
                let k = g
                    .nb(c)
                    .iter()
                    .filter(|&&u| u != at && !walk.visited[u as usize])
                    .count();
                score[j] = (-(k as f64) * BETA).exp();
                total += score[j];
            }
            let mut x = rng.random::<f64>() * total;
            let mut pick = d - 1;
            for (j, &sc) in score.iter().enumerate().take(d) {
                if x < sc {
                    pick = j;
                    break;
                }
                x -= sc;
            }
            weight *= total / score[pick];
            pick
        } else {
            weight *= d as f64;
            rng.random_range(0..d)
        };
        tree += weight;
        advance(g, walk, closed, options[pick], ones_after[pick]);
    }
    index_left(walk, sc);
    let (t, nodes) = complete(g, walk, sc, closed, 0);
    let t = if closed { t } else { t * n as f64 / 2.0 };
    (weight * t, tree + weight * (nodes - 1.0))
}

/// Starts the walk at `start`; false if some square is already stranded.
fn begin(g: &Graph, walk: &mut Walk, closed: bool, start: u32) -> bool {
    let n = g.n;
    walk.visited.fill(false);
    for s in 0..n as u32 {
        walk.free[s as usize] = g.nb(s).len() as u8;
    }
    walk.visited[start as usize] = true;
    walk.at = start;
    walk.depth = 1;
    walk.ones = (0..n as u32)
        .filter(|&s| s != start && walk.free[s as usize] <= 1)
        .count();
    let stranded = (0..n).any(|s| s != start as usize && walk.free[s] == 0);
    !stranded && walk.ones <= usize::from(!closed)
}

/// Prepares [`complete`] for the walk's unvisited squares.
fn index_left(walk: &Walk, sc: &mut Scratch) {
    sc.memo.clear();
    let mut left = 0;
    for (s, &v) in walk.visited.iter().enumerate() {
        if !v {
            sc.index[s] = left;
            left += 1;
        }
    }
}

/// The allowed children of the walk's path, with the value of `ones`
/// after each move; a closed tour's first move is to the corner's first
/// neighbour.
fn children(
    g: &Graph,
    walk: &Walk,
    sc: &mut Scratch,
    closed: bool,
    options: &mut [u32; 8],
    ones_after: &mut [usize; 8],
) -> usize {
    let at = walk.at;
    let left = g.n - walk.depth;
    // The end `at` stops being free when the path moves on, unless it is
    // the start of a closed tour.
    let leaves = !(closed && at == 0);
    let mut d = 0;
    // The cut squares' mark, once computed.
    let mut mark = 0;
    'child: for &c in g.nb(at) {
        if walk.visited[c as usize] || (closed && walk.depth == 1 && c != g.nb(0)[0]) {
            continue;
        }
        let mut o = walk.ones - usize::from(walk.free[c as usize] <= 1);
        if leaves {
            for &u in g.nb(at) {
                if u == c || walk.visited[u as usize] {
                    continue;
                }
                match walk.free[u as usize] {
                    1 => continue 'child,
                    2 => o += 1,
                    _ => {}
                }
            }
        }
        if o > usize::from(!closed) {
            continue;
        }
        // The squares left after the move must stay connected: `c` must
        // not be a cut square of the unvisited squares.
        if left > 2 {
            if mark == 0 {
                mark = mark_cuts(g, walk, sc, c, left);
                if mark == u32::MAX {
                    return 0;
                }
            }
            if sc.cut[c as usize] == mark {
                continue;
            }
        }
        options[d] = c;
        ones_after[d] = o;
        d += 1;
    }
    d
}

/// Moves the path's end to `c`, with `ones` unvisited squares left with at
/// most one free neighbour.
fn advance(g: &Graph, walk: &mut Walk, closed: bool, c: u32, ones: usize) {
    let at = walk.at;
    if !(closed && at == 0) {
        for &u in g.nb(at) {
            if !walk.visited[u as usize] && u != c {
                walk.free[u as usize] -= 1;
            }
        }
    }
    walk.visited[c as usize] = true;
    walk.at = c;
    walk.depth += 1;
    walk.ones = ones;
}

/// Undoes [`advance`] back to the end `at` with `ones`.
fn retreat(g: &Graph, walk: &mut Walk, closed: bool, at: u32, ones: usize) {
    let c = walk.at;
    walk.visited[c as usize] = false;
    if !(closed && at == 0) {
        for &u in g.nb(at) {
            if !walk.visited[u as usize] && u != c {
                walk.free[u as usize] += 1;
            }
        }
    }
    walk.at = at;
    walk.depth -= 1;
    walk.ones = ones;
}

/// The exact number of completions (tours) of the walk's path in the pruned
/// tree, and the number of nodes of that subtree (`mask`: the squares
/// visited since the completion started, by [`Scratch::index`]).
fn complete(g: &Graph, walk: &mut Walk, sc: &mut Scratch, closed: bool, mask: u64) -> (f64, f64) {
    let at = walk.at;
    let left = g.n - walk.depth;
    if left == 0 {
        let done = !closed || g.board.move_between(at, 0).is_some();
        return (if done { 1.0 } else { 0.0 }, 1.0);
    }
    let key = (u128::from(mask) << 32) | u128::from(at);
    let memo = left >= MEMO_FROM;
    if memo {
        if let Some(&v) = sc.memo.get(&key) {
            return v;
        }
    }
    let mut options = [0u32; 8];
    let mut ones_after = [0usize; 8];
    let d = children(g, walk, sc, closed, &mut options, &mut ones_after);
    let ones = walk.ones;
    let (mut tours, mut nodes) = (0.0, 1.0);
    for i in 0..d {
        let c = options[i];
        advance(g, walk, closed, c, ones_after[i]);
        let (t, k) = complete(g, walk, sc, closed, mask | 1 << sc.index[c as usize]);
        retreat(g, walk, closed, at, ones);
        tours += t;
        nodes += k;
    }
    if memo {
        sc.memo.insert(key, (tours, nodes));
    }
    (tours, nodes)
}

/// Marks the cut squares of the graph of the `left` unvisited squares
/// (those whose removal disconnects it) by Tarjan's depth-first search from
/// the unvisited square `root`, and returns the mark (`u32::MAX` if the
/// unvisited squares are not connected).
fn mark_cuts(g: &Graph, walk: &Walk, sc: &mut Scratch, root: u32, left: usize) -> u32 {
    let n = g.n as u32;
    if sc.clock >= u32::MAX - 2 * n - 2 {
        sc.disc.fill(0);
        sc.cut.fill(0);
        sc.clock = 0;
    }
    let base = sc.clock;
    let mark = base + 1;
    let mut t = base + 1;
    let r = root as usize;
    sc.disc[r] = t;
    sc.low[r] = t;
    sc.parent[r] = u32::MAX;
    sc.dfs.clear();
    sc.dfs.push((root, 0));
    let mut root_children = 0;
    while let Some(top) = sc.dfs.last_mut() {
        let (v, i) = (top.0 as usize, top.1 as usize);
        let nb = g.nb(v as u32);
        if i < nb.len() {
            top.1 += 1;
            let w = nb[i] as usize;
            if walk.visited[w] {
                continue;
            }
            if sc.disc[w] <= base {
                t += 1;
                sc.disc[w] = t;
                sc.low[w] = t;
                sc.parent[w] = v as u32;
                sc.dfs.push((w as u32, 0));
                root_children += u32::from(v == r);
            } else if w as u32 != sc.parent[v] {
                sc.low[v] = sc.low[v].min(sc.disc[w]);
            }
        } else {
            sc.dfs.pop();
            if let Some(&(p, _)) = sc.dfs.last() {
                let p = p as usize;
                sc.low[p] = sc.low[p].min(sc.low[v]);
                if p != r && sc.low[v] >= sc.disc[p] {
                    sc.cut[p] = mark;
                }
            }
        }
    }
    if root_children > 1 {
        sc.cut[r] = mark;
    }
    sc.clock = t;
    if (t - base) as usize == left {
        mark
    } else {
        u32::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(kind: Kind, samples: u64, seed: u64, method: EstimateMethod) -> EstimateOptions {
        EstimateOptions {
            kind,
            samples,
            seed,
            method,
            ..Default::default()
        }
    }

    /// Every method's interval holds the exact count for a pinned seed (the
    /// frontier method keeping 100 states, so that it samples).
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
            for (method, samples) in [
                (EstimateMethod::Sis, 20_000),
                (EstimateMethod::Pruned, 20_000),
                (EstimateMethod::Frontier, 1000),
            ] {
                let o = EstimateOptions {
                    keep: 100,
                    ..opts(kind, samples, 3, method)
                };
                let e = estimate(text.parse().unwrap(), &o).unwrap();
                assert!(
                    e.low <= want && want <= e.high,
                    "{text} {kind:?} {method:?}: {e:?} vs {want}"
                );
                assert!(e.hits > 0);
            }
        }
    }

    /// The pruned tree loses no tour: enumerated whole it has exactly the
    /// tours (closed from the corner, open from every start square, each
    /// open tour found from both ends), and on a board with no closed tour
    /// every walk fails.
    #[test]
    fn the_pruned_tree_holds_every_tour() {
        for (text, kind, want) in [
            ("5x6", Kind::Closed, 8.0),
            ("6x6", Kind::Closed, 9862.0),
            ("3x4", Kind::Open, 8.0),
            ("4x5", Kind::Open, 82.0),
            ("5x5", Kind::Open, 864.0),
        ] {
            let g = Graph::new(text.parse().unwrap());
            let mut walk = Walk::new(g.n);
            let mut sc = Scratch::new(g.n);
            let closed = kind == Kind::Closed;
            let starts = if closed { 0..1 } else { 0..g.n as u32 };
            let mut total = 0.0;
            for start in starts {
                if begin(&g, &mut walk, closed, start) {
                    index_left(&walk, &mut sc);
                    total += complete(&g, &mut walk, &mut sc, closed, 0).0;
                }
            }
            let got = if closed { total } else { total / 2.0 };
            assert_eq!(got, want, "{text} {kind:?}");
        }
        for method in [EstimateMethod::Sis, EstimateMethod::Pruned] {
            let e = estimate("5x5".parse().unwrap(), &opts(Kind::Closed, 1000, 1, method)).unwrap();
            assert_eq!((e.tours, e.hits), (0.0, 0));
        }
    }

    /// A frontier run that never holds more than `keep` states is the exact
    /// count; `auto` takes the frontier method for closed tours where it fits.
    #[test]
    fn frontier_runs_with_room_are_exact() {
        let roomy = EstimateOptions {
            keep: 1 << 20,
            ..opts(Kind::Closed, 3, 1, EstimateMethod::Auto)
        };
        let e = estimate("6x6".parse().unwrap(), &roomy).unwrap();
        assert_eq!((e.tours, e.tours_error, e.exact), (9862.0, 0.0, true));
        assert_eq!(
            (e.low, e.high, e.method),
            (9862.0, 9862.0, EstimateMethod::Frontier)
        );
        let open = opts(Kind::Open, 2, 1, EstimateMethod::Frontier);
        let e = estimate("5x5".parse().unwrap(), &open).unwrap();
        assert_eq!((e.tours, e.exact), (864.0, true));
        let e = estimate(
            "5x5".parse().unwrap(),
            &opts(Kind::Open, 10, 1, EstimateMethod::Auto),
        )
        .unwrap();
        assert_eq!(e.method, EstimateMethod::Sis);
        let auto =
            |text: &str, kind| resolve_method(text.parse().unwrap(), kind, EstimateMethod::Auto);
        assert_eq!(auto("8x8", Kind::Open), EstimateMethod::Sis);
        assert_eq!(auto("7x7", Kind::Open), EstimateMethod::Sis);
        assert_eq!(auto("11x40", Kind::Closed), EstimateMethod::Frontier);
        assert_eq!(auto("12x12", Kind::Closed), EstimateMethod::Sis);
    }

    /// Thinning keeps about `keep` states, never lowers a weight, keeps the
    /// heavy states as they are, and leaves the total unbiased.
    #[test]
    fn thinning_is_unbiased() {
        let states: Vec<(u128, f64)> = (0..200u128)
            .map(|k| {
                (
                    k,
                    if k % 50 == 0 {
                        1000.0
                    } else {
                        1.0 + (k % 7) as f64
                    },
                )
            })
            .collect();
        let total: f64 = states.iter().map(|s| s.1).sum();
        let mut rng = rng::seeded(5);
        let trials = 4000;
        let mut sum = 0.0;
        for _ in 0..trials {
            let mut s = states.clone();
            thin(&mut s, 20, &mut rng);
            assert!((19..=21).contains(&s.len()), "{}", s.len());
            for &(k, w) in &s {
                assert!(w >= states[k as usize].1);
            }
            for k in [0, 50, 100, 150] {
                assert!(s.contains(&(k, 1000.0)), "heavy state {k} kept as it is");
            }
            sum += s.iter().map(|s| s.1).sum::<f64>();
        }
        let mean = sum / trials as f64;
        assert!((mean / total - 1.0).abs() < 0.01, "{mean} vs {total}");
    }

    /// Student's quantiles against the table (to 3 decimals).
    #[test]
    fn student_quantiles_match_the_table() {
        for (df, t) in [
            (1, 12.706),
            (5, 2.571),
            (6, 2.447),
            (9, 2.262),
            (19, 2.093),
            (30, 2.042),
            (100, 1.984),
        ] {
            assert!(
                (student_975(df) - t).abs() < 0.002,
                "{df}: {}",
                student_975(df)
            );
        }
    }

    /// The interval leans towards the skew and never goes below 0.
    #[test]
    fn the_interval_leans_with_the_skew() {
        let (lo, hi) = interval(100.0, 10.0, 0.0, 1000);
        assert!((100.0 - lo - (hi - 100.0)).abs() < 1e-9);
        let (lo2, hi2) = interval(100.0, 10.0, 5.0, 1000);
        assert!(lo2 > lo && hi2 > hi);
        assert_eq!(interval(1.0, 10.0, 0.0, 1000).0, 0.0);
    }

    /// The same seed and number of probes give the same estimate on 1 and 3
    /// threads.
    #[test]
    fn estimate_is_the_same_on_any_number_of_threads() {
        for (method, samples) in [(EstimateMethod::Sis, 3000), (EstimateMethod::Frontier, 6)] {
            let o = EstimateOptions {
                keep: 500,
                ..opts(Kind::Closed, samples, 11, method)
            };
            let run = |threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| estimate("6x6".parse().unwrap(), &o).unwrap())
            };
            assert_eq!(run(1), run(3));
        }
    }

    #[test]
    fn estimate_refuses_bad_options() {
        let board = "6x6".parse().unwrap();
        let keep = EstimateOptions {
            keep: 0,
            ..Default::default()
        };
        assert!(estimate(board, &keep).is_err());
        let secs = EstimateOptions {
            seconds: Some(0.0),
            ..Default::default()
        };
        assert!(estimate(board, &secs).is_err());
        // Past what a clock can hold: refused as bad input, not a panic.
        for seconds in [1e300, f64::INFINITY, f64::NAN, -1.0, 1e-300] {
            let secs = EstimateOptions {
                seconds: Some(seconds),
                ..Default::default()
            };
            let err = estimate(board, &secs).unwrap_err();
            assert_eq!(
                err.category(),
                crate::Category::BadInput,
                "{seconds}: {err}"
            );
        }
        let wide = opts(Kind::Closed, 1, 1, EstimateMethod::Frontier);
        let err = estimate("12x12".parse().unwrap(), &wide).unwrap_err();
        assert_eq!(err.category(), crate::Category::BadInput, "{err}");
    }
}
