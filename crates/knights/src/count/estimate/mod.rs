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
//!   long before it covers the board, which is why it is kept only to show
//!   the problem.
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

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

mod report;
mod sampled;
mod walks;

use report::{summarise, Sums};
pub use report::{Estimate, EstimateMethod};
use sampled::frontier_run;
use walks::{knuth_probe, walk_probe, Graph, Scratch, Walk};

use super::Kind;
use crate::count::engine::frontier::Engine;
use crate::{rng, Board, Control, Error, Phase, Progress, Result};

/// Walks per batch: batch `i` uses [`rng::for_batch`]`(seed, i)`. A run of
/// the frontier method is a batch of its own.
pub(crate) const WALKS_PER_BATCH: u64 = 256;

/// States kept per square by [`EstimateMethod::Frontier`] unless told.
pub(crate) const KEEP: usize = 100_000;

/// Options of an estimate ([`EstimateBuilder::options`]).
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

/// The method [`EstimateMethod::Auto`] stands for on `board` for `kind`
/// (any other method is itself).
pub(crate) fn resolve_method(board: Board, kind: Kind, method: EstimateMethod) -> EstimateMethod {
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
        && Engine::new(&crate::count::plan::board_problem(board, kind)).is_ok()
}

/// Resolves [`EstimateMethod::Auto`] for `board` and `kind`, and prepares
/// the frontier program if the method needs it.
fn resolve(
    board: Board,
    kind: Kind,
    method: EstimateMethod,
) -> Result<(EstimateMethod, Option<Engine>)> {
    let engine = || Engine::new(&crate::count::plan::board_problem(board, kind));
    match method {
        EstimateMethod::Auto if auto_frontier(board, kind) => {
            Ok((EstimateMethod::Frontier, Some(engine()?)))
        }
        EstimateMethod::Auto => Ok((EstimateMethod::Sis, None)),
        EstimateMethod::Frontier => match engine() {
            Ok(e) => Ok((EstimateMethod::Frontier, Some(e))),
            Err(_) => Err(Error::Unsupported(format!(
                "the frontier method needs a board whose short side is at most 11, and {board} is wider"
            ).into())
            .with_hint(crate::Hint::UseEstimateMethod(crate::count::EstimateMethod::Sis))),
        },
        m => Ok((m, None)),
    }
}

/// [`EstimateBuilder::run`] with `opts`, never stopped (for the tests).
#[cfg(test)]
fn estimate(board: Board, opts: &EstimateOptions) -> Result<Estimate> {
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

    /// An estimate of the number of undirected tours of the board (and,
    /// for the walks, of the size of the search tree they probe).
    ///
    /// # Complexity
    /// A run of the frontier method: `squares x keep` state expansions,
    /// each `O(width)`. A walk: `squares x 8` steps for
    /// [`EstimateMethod::Knuth`], up to `squares^2 x 8` for the pruned
    /// walks (a depth-first search per step). Probes run in parallel.
    ///
    /// # Example
    /// ```
    /// use knights::count::{Estimate, EstimateOptions};
    /// // Closed tours of 6x6 never need more than 2^20 states: the frontier
    /// // method (the default for closed tours) is exact.
    /// let roomy = EstimateOptions { samples: 2, keep: 1 << 20, ..Default::default() };
    /// let e = Estimate::builder("6x6".parse()?).options(roomy).run()?;
    /// assert_eq!((e.tours, e.exact), (9862.0, true));
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn run(self) -> Result<Estimate> {
        match self.control {
            Some(control) => probe(self.board, &self.opts, control),
            None => probe(self.board, &self.opts, &Control::new()),
        }
    }
}

/// The estimate of `board` with `opts`, reporting the probes finished to
/// `control` after each batch of probes (from any thread) and stopping
/// when its flag is raised.
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
                    ).into())
                })?,
        ),
    };
    if opts.keep == 0 || opts.keep > 1 << 26 {
        return Err(Error::Unsupported(
            format!(
                "the frontier method keeps from 1 to {} states a square, not {}",
                1u64 << 26,
                opts.keep
            )
            .into(),
        ));
    }
    crate::memory::ensure_fits(board, "probe", 64)?;
    let (method, engine) = resolve(board, opts.kind, opts.method)?;
    let samples = match opts.samples {
        0 => method.default_samples(),
        s => s,
    };
    let graph = Graph::new(board);
    let per = if engine.is_some() { 1 } else { WALKS_PER_BATCH };
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
        let err = estimate("16x16".parse().unwrap(), &wide).unwrap_err();
        assert_eq!(err.category(), crate::Category::BadInput, "{err}");
    }
}
