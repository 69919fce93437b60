//! The counter's front door: [`Counter`], a builder that takes what a count
//! is asked (kind, method, memory and disk bounds, work directory,
//! checkpoints, [`Control`]) and runs it. Each finishing method plans the
//! count (forward or meeting in the middle, see the `plan` module notes)
//! and hands the executor its options, so the strategies never see the
//! caller's settings, only the executor's.

use std::path::Path;
use std::time::Instant;

use super::{
    Count, CountOptions, CountReport, Exchange, FrontierProgress, Method, MiddleEdges, Sweep,
    WorkerShare,
};
use crate::count::engine::executor::{self, RunOptions};
use crate::count::plan::tours::{plan, plan_tours, Goal, Plan, Strategy};
use crate::count::plan::SquareOrder;
use crate::count::projection::project::{self, Projection, Source};
use crate::count::projection::time_left::{self, Stage};
use crate::count::projection::trial;
use crate::count::strategy::symmetry::{self, Classes};
use crate::count::strategy::{meet, meet_paths};
use crate::{Board, Control, Kind, Result, Shape};

/// A count to run, with its options: made by [`Counter::new`] for a board
/// (every count) or [`Counter::on_shape`] for a board with holes, wrapped
/// edges or another leaper (its tours only); `On` is what is counted.
///
/// The finishing methods say what is counted: [`tours`](Counter::tours),
/// [`all_lengths`](Counter::all_lengths), [`symmetric`](Counter::symmetric),
/// [`classes`](Counter::classes), or [`project`](Counter::project) for a
/// projection instead of a count.
///
/// # Example
/// ```
/// use knights::count::{Counter, Method};
/// use knights::{Control, Kind};
/// let control = Control::new();
/// let report = Counter::new("5x6".parse()?)
///     .kind(Kind::Closed)
///     .method(Method::Forward)
///     .max_memory(64 << 20)
///     .control(&control)
///     .tours()?;
/// assert_eq!(report.count, 8);
/// assert_eq!(Counter::new("3x4".parse()?).kind(Kind::Open).tours()?.count, 8);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug)]
#[must_use = "a Counter does nothing until it counts"]
pub struct Counter<'a, On = Board> {
    on: On,
    options: CountOptions,
    control: Option<&'a Control>,
    workers: Option<Workers<'a>>,
}

/// The workers a count is spread over (see [`Counter::workers`]).
#[derive(Copy, Clone)]
struct Workers<'a>(&'a dyn Exchange);

impl std::fmt::Debug for Workers<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "worker {} of {}", self.0.rank(), self.0.workers())
    }
}

impl<'a> Counter<'a> {
    /// A count of the closed tours of `board` by [`Method::Auto`], in
    /// memory while the states fit, else on disk in a temporary directory.
    pub fn new(board: Board) -> Counter<'a> {
        Counter::with(board)
    }
}

impl<'a> Counter<'a, &'a Shape> {
    /// A count of the closed tours of `shape`: a board with holes, wrapped
    /// edges or another leaper, counted by one forward program in memory
    /// (see [`Counter::tours`] on a shape); a plain shape counts as its
    /// board.
    pub fn on_shape(shape: &'a Shape) -> Counter<'a, &'a Shape> {
        Counter::with(shape)
    }
}

impl<'a, On> Counter<'a, On> {
    /// A count of `on` with every default.
    fn with(on: On) -> Counter<'a, On> {
        Counter {
            on,
            options: CountOptions::default(),
            control: None,
            workers: None,
        }
    }

    /// The same count of `other`.
    fn same_for<T>(&self, other: T) -> Counter<'a, T> {
        Counter {
            on: other,
            options: self.options.clone(),
            control: self.control,
            workers: self.workers,
        }
    }

    /// Counts with `options`, every one at once (they replace those set
    /// before; the control and the workers stay).
    pub fn options(mut self, options: CountOptions) -> Self {
        self.options = options;
        self
    }

    /// The options this count runs with.
    pub fn count_options(&self) -> &CountOptions {
        &self.options
    }

    /// Counts closed or open tours.
    pub fn kind(mut self, kind: Kind) -> Self {
        self.options.kind = kind;
        self
    }

    /// Counts forward or by meeting in the middle (default [`Method::Auto`]).
    pub fn method(mut self, method: Method) -> Self {
        self.options.method = method;
        self
    }

    /// Keeps the states in memory only while they need less than this many
    /// bytes (default: the memory the system reports as available); past it
    /// they go to disk, and a count that cannot be done within it even there
    /// stops with [`crate::Error::OverBudget`].
    pub fn max_memory(mut self, bytes: u64) -> Self {
        self.options.max_memory = Some(bytes);
        self
    }

    /// Tells `control` the [`crate::Progress`] (with the
    /// [`FrontierProgress`]) after every square; its flag, raised by the
    /// caller (Ctrl-C, a cancelled job), stops the count after the square in
    /// progress (or, once the parts met in the middle are done, after the
    /// piece of their join in progress), with [`crate::Error::Interrupted`];
    /// a count with a work directory keeps its checkpoint for
    /// [`resume`](Counter::resume). Raised by the progress callback at a
    /// square, it stops the count right after that square.
    pub fn control(mut self, control: &'a Control) -> Self {
        self.control = Some(control);
        self
    }

    /// Keeps the states on disk in this directory, with a checkpoint after
    /// every square (default: in memory, or when they do not fit, in a
    /// directory of the system's temporary directory removed at the end).
    pub fn work_dir(mut self, dir: &Path) -> Self {
        self.options.work_dir = Some(dir.to_path_buf());
        self
    }

    /// Continues from this count's checkpoint in the work directory (a
    /// finished count answers at once from it); without one there, the
    /// count stops with [`crate::Error::Parse`]. A count that does not
    /// resume refuses an unfinished checkpoint of the same count, unless
    /// [`fresh`](Counter::fresh), and counts a finished one again. Other
    /// counts' files in the work directory are never looked at.
    pub fn resume(mut self, resume: bool) -> Self {
        self.options.resume = resume;
        self
    }

    /// Discards this count's checkpoints in the work directory and starts
    /// afresh.
    pub fn fresh(mut self, fresh: bool) -> Self {
        self.options.fresh = fresh;
        self
    }

    /// The most bytes the state files may take on disk, when they go to
    /// disk (default: 80 % of the free space on their file system, besides
    /// what they take already). Before every square the count checks that
    /// the next layer fits, from the growth measured so far, and stops with
    /// [`crate::Error::OverDisk`] if not (a count with a work directory
    /// keeps its checkpoint for [`resume`](Counter::resume)).
    pub fn max_disk(mut self, bytes: u64) -> Self {
        self.options.max_disk = Some(bytes);
        self
    }

    /// Keeps the state files of a finished count in the work directory
    /// (default: only a small summary with the count stays, from which
    /// [`resume`](Counter::resume) answers at once).
    pub fn keep(mut self, keep: bool) -> Self {
        self.options.keep = keep;
        self
    }

    /// Takes each row from the outside in: [`order`](Counter::order) with
    /// [`SquareOrder::OutsideIn`] (or [`SquareOrder::Rows`] when false).
    pub fn outside_in(mut self, outside_in: bool) -> Self {
        self.options.order = match outside_in {
            true => SquareOrder::OutsideIn,
            false => SquareOrder::Rows,
        };
        self
    }

    /// Takes the squares in `order` (by default [`SquareOrder::Rows`]). The
    /// count is the same, reached through other states, so a run in one
    /// order checks a run in another (it runs forward). A mirror image or
    /// rows in alternating directions would not: the knight graph is its
    /// own mirror image, so they pass through the same states. Sweeps over
    /// lengths take whole rows ([`SquareOrder::Rows`] or [`SquareOrder::OutsideIn`]),
    /// sweeps over cells [`SquareOrder::Rows`] only.
    ///
    /// # Example
    /// ```
    /// use knights::count::{Counter, SquareOrder};
    /// use knights::shape::{Shape, Wrap};
    /// let torus = Shape::new("3x4".parse()?).with_wrap(Wrap::Both);
    /// let rows = Counter::on_shape(&torus).tours()?;
    /// let staggered = Counter::on_shape(&torus).order(SquareOrder::Staggered).tours()?;
    /// assert_eq!(rows.count, 14934);
    /// assert_eq!(staggered.count, rows.count);
    /// assert_ne!(staggered.states_per_step, rows.states_per_step);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn order(mut self, order: SquareOrder) -> Self {
        self.options.order = order;
        self
    }

    /// Shares out the edges between the middle rows of a board of even
    /// rows in a meet of open tours by `share` (by default
    /// [`MiddleEdges::Outer`]): the same count through other states, so a
    /// run with one share checks a run with the other. Any other count with
    /// [`MiddleEdges::Inner`] is refused.
    ///
    /// # Example
    /// ```
    /// use knights::count::{Counter, Method, MiddleEdges};
    /// use knights::Kind;
    /// let board = "4x8".parse()?;
    /// let outer = Counter::new(board).kind(Kind::Open).method(Method::Meet).tours()?;
    /// let inner = Counter::new(board)
    ///     .kind(Kind::Open)
    ///     .method(Method::Meet)
    ///     .middle(MiddleEdges::Inner)
    ///     .tours()?;
    /// assert_eq!(outer.count, 31_088);
    /// assert_eq!(inner.count, outer.count);
    /// assert_ne!(inner.states_per_step, outer.states_per_step);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn middle(mut self, share: MiddleEdges) -> Self {
        self.options.middle = share;
        self
    }

    /// Keeps the states in memory only, never in a temporary directory:
    /// past the memory bound the count stops with
    /// [`crate::Error::TooLarge`] (for callers that must not touch the file
    /// system, such as a server). A work directory still puts the states on
    /// disk.
    pub fn memory_only(mut self, memory_only: bool) -> Self {
        self.options.memory_only = memory_only;
        self
    }

    /// Spreads the count over workers: this process is one of the
    /// workers of `exchange`, all of which run the same count (see the
    /// `exchange` module notes). Each holds its share of every layer of
    /// states in memory (no work directory yet); a meeting's final states
    /// go to every worker, which each run the whole join. The count and
    /// the figures are the same on every worker and for any number of
    /// workers.
    pub fn workers(mut self, exchange: &'a dyn Exchange) -> Self {
        self.workers = Some(Workers(exchange));
        self
    }

    /// Makes the work directory ready for a count that starts (see
    /// `executor::prepare_work_dir`).
    fn prepare(&self) -> Result<()> {
        match &self.options.work_dir {
            Some(dir) => executor::prepare_work_dir(dir, self.options.resume, self.options.fresh),
            None => Ok(()),
        }
    }

    /// The engine's progress callback: the control's, told each square,
    /// with the phase and the time left in the count, whose phases are
    /// `layout` (see [`time_left::Tracker`]).
    fn forward(&self, layout: &[(Stage, usize)]) -> impl Fn(&FrontierProgress) + Sync + 'a {
        let control = self.control;
        let tracker = time_left::Tracker::new(layout, self.options.kind);
        move |p| {
            if let Some(control) = control {
                control.report(&crate::Progress::from(&tracker.see(p)));
            }
        }
    }

    /// The executor's options for a count of `board`, whose progress goes
    /// to `forward` (see [`Counter::forward`]).
    fn run_options<'b>(
        &'b self,
        board: Board,
        forward: &'b (dyn Fn(&FrontierProgress) + Sync),
    ) -> RunOptions<'b> {
        RunOptions {
            count: &self.options,
            progress: self.control.map(|_| forward),
            within_every: None,
            later: false,
            stop: self.control.map(Control::stop_flag),
            final_layer: None,
            count_bits: 0,
            memory_only: self.options.memory_only.then_some(board),
            workers: self.workers.map(|w| w.0),
            route: None,
            judge_reach: self.options.order == SquareOrder::Rows,
            keep_final: false,
        }
    }

    /// Spread over workers: every worker's share (this one's: the most
    /// states it `held` at once, the bytes it `sent`); else none.
    fn shares(&self, held: u64, sent: u64) -> Result<Vec<WorkerShare>> {
        let Some(Workers(ex)) = self.workers else {
            return Ok(Vec::new());
        };
        let all = super::exchange::gather_fixed(ex, &[held, sent])?;
        Ok(all
            .iter()
            .enumerate()
            .map(|(worker, w)| WorkerShare {
                worker,
                peak_states: w[0],
                sent_bytes: w[1],
            })
            .collect())
    }

    /// The report of a board of one square: one open tour of no moves, no
    /// closed one.
    fn one_square(&self) -> CountReport {
        CountReport {
            count: Count::from(u64::from(self.options.kind == Kind::Open)),
            ..CountReport::default()
        }
    }
}

impl Counter<'_> {
    /// The number of undirected closed or open tours of the board.
    ///
    /// # Complexity
    /// Time and memory grow with the number of frontier states, which is
    /// exponential in the shorter side `w` and linear in the longer one
    /// (about 16 bytes a state in memory or on disk, and 64 while a square
    /// is processed). Meeting in the middle (the default for closed tours
    /// with at least 6 rows and at most 8 columns, and for open tours from
    /// 7x4 and 6x5 on) keeps far fewer
    /// states than the forward program; open tours have more states than
    /// closed ones. The times of boards counted here are in
    /// `BENCHMARKS.md`. Boards with `w > 11` are refused.
    ///
    /// # Example
    /// ```
    /// use knights::count::{Counter, Method};
    /// let board = "6x6".parse()?;
    /// assert_eq!(Counter::new(board).tours()?.count, 9862);
    /// let forward = Counter::new(board).method(Method::Forward).tours()?;
    /// assert_eq!(forward.count, 9862);
    /// assert_eq!(forward.method, Method::Forward);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn tours(&self) -> Result<CountReport> {
        let t0 = Instant::now();
        let board = self.on;
        let plan = plan_tours(board, &self.options)?;
        self.prepare()?;
        let strategy = match plan {
            Plan::OneSquare => return Ok(self.one_square()),
            Plan::NoTour => {
                return Ok(CountReport {
                    elapsed: t0.elapsed(),
                    ..CountReport::default()
                })
            }
            Plan::Run(strategy) => strategy,
        };
        let (rows, w) = (strategy.rows, strategy.w);
        let forward = self.forward(&strategy.layout()?);
        let run_opts = RunOptions {
            count_bits: strategy.bits,
            ..self.run_options(board, &forward)
        };
        if strategy.meet {
            let m = match self.options.kind {
                Kind::Closed => meet::closed_tours(rows, w, &run_opts)?,
                Kind::Open => meet_paths::open_tours(rows, w, &run_opts)?,
            };
            let (t, b) = (&m.top, &m.bottom);
            let kept = t.states_per_step.last().copied().unwrap_or(0);
            return Ok(CountReport {
                count: m.count,
                method: Method::Meet,
                states_per_step: [&t.states_per_step[..], &b.states_per_step[..]].concat(),
                meet_pairs: Some((kept, m.pairs_tested)),
                peak_states: b.peak.max(t.peak),
                frontier_slots: b.slots.max(t.slots),
                key_bytes: b.key_bytes.max(t.key_bytes),
                on_disk: b.on_disk || t.on_disk || m.held_disk > 0,
                // The held states' files stand beside the bottom part's.
                peak_disk_bytes: b.peak_disk.max(t.peak_disk) + m.held_disk,
                generated: b.generated + t.generated,
                elapsed: t0.elapsed(),
                workers: self.shares(t.held_peak.max(b.held_peak), t.sent_bytes + b.sent_bytes)?,
            });
        }
        let run = executor::run(&strategy.problems()?[0], &run_opts)?;
        let workers = self.shares(run.held_peak, run.sent_bytes)?;
        Ok(CountReport {
            workers,
            ..forward_report(run, t0)
        })
    }

    /// The number of undirected tours of every board `W x L` for
    /// `L = 1..=N`, where the board is `W x N` (`W` its rows as written,
    /// the side that stays): one forward pass of the frontier program over
    /// `N` rows of `W` squares, which after each row also counts the states
    /// that finish a tour of the board cut there, as the tables of the
    /// integer-sequence literature are made. Each count equals
    /// [`tours`](Counter::tours) of that board.
    ///
    /// # Complexity
    /// About one forward count of `W x N` ([`Method::Forward`]); its states
    /// are bounded by the width `W`, so time grows linearly in `N`.
    ///
    /// # Example
    /// ```
    /// use knights::count::Counter;
    /// let s = Counter::new("3x12".parse()?).all_lengths()?;
    /// let last: Vec<String> = s.counts[9..].iter().map(|(b, n)| format!("{b} {n}")).collect();
    /// assert_eq!(last, ["3x10 16", "3x11 0", "3x12 176"]);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn all_lengths(&self) -> Result<Sweep> {
        let t0 = Instant::now();
        let (w, rows) = (self.on.rows() as usize, self.on.cols() as usize);
        let run = self.sweep(Goal::Lengths)?;
        let mut counts = Vec::with_capacity(rows);
        for &(vertices, n) in &run.prefix_counts {
            counts.push((vertices / w, n));
        }
        counts.push((rows, run.count));
        let counts = counts
            .into_iter()
            .map(|(l, n)| {
                let b = Board::new(w as u64, l as u64)?;
                let n = if b.squares() == 1 {
                    self.one_square().count
                } else {
                    n
                };
                Ok((b, n))
            })
            .collect::<Result<Vec<_>>>()?;
        let workers = self.shares(run.held_peak, run.sent_bytes)?;
        Ok(Sweep {
            report: CountReport {
                count: counts.last().map_or(Count::ZERO, |c| c.1),
                workers,
                ..forward_report(run, t0)
            },
            counts,
        })
    }

    /// The one forward pass of a sweep (`goal`, over lengths or cells)
    /// over the board as a strip as wide as its rows (see
    /// [`Counter::all_lengths`]).
    fn sweep(&self, goal: Goal) -> Result<executor::Run> {
        let strategy = plan(self.on, &self.options, goal)?;
        self.prepare()?;
        let forward = self.forward(&strategy.layout()?);
        executor::run(
            &strategy.problems()?[0],
            &RunOptions {
                count_bits: strategy.bits,
                ..self.run_options(self.on, &forward)
            },
        )
    }

    /// The number of closed tours of the board unchanged by a half turn
    /// (180-degree rotation), undirected.
    ///
    /// # Complexity
    /// The frontier dynamic program on the half-board quotient graph:
    /// seconds on 8x8.
    ///
    /// # Example
    /// ```
    /// use knights::count::Counter;
    /// assert_eq!(Counter::new("6x6".parse()?).symmetric()?.count, 78);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn symmetric(&self) -> Result<CountReport> {
        let strategy = plan(self.on, &self.options, Goal::HalfTurn)?;
        self.prepare()?;
        let t0 = Instant::now();
        let forward = self.forward(&strategy.layout()?);
        let run = self.run_options(self.on, &forward);
        let (count, peak) = symmetry::run_quotient(&strategy.problems()?, &run, false)?;
        Ok(CountReport {
            count,
            peak_states: peak,
            elapsed: t0.elapsed(),
            ..CountReport::default()
        })
    }

    /// The number of classes of closed tours of the board under its
    /// symmetries (4 for a rectangle, 8 for a square), by Burnside's lemma:
    /// the average over the symmetries of the number of tours each leaves
    /// unchanged.
    ///
    /// # Complexity
    /// One full count ([`tours`](Counter::tours)) plus one quotient count
    /// per symmetry.
    ///
    /// # Example
    /// ```
    /// use knights::count::Counter;
    /// let c = Counter::new("6x6".parse()?).classes()?;
    /// assert_eq!(c.tours, 9862);
    /// assert_eq!(c.classes, 1245);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn classes(&self) -> Result<Classes> {
        plan(self.on, &self.options, Goal::HalfTurn)?;
        self.prepare()?;
        let t0 = Instant::now();
        let all = self.tours()?.count;
        let forward = self.forward(&[(Stage::Squares, 0)]);
        symmetry::classes(self.on, all, &self.run_options(self.on, &forward), t0)
    }

    /// Projects the peak states, the disk and the time of
    /// [`tours`](Counter::tours), without counting: from the table of
    /// boards measured in full (`BENCHMARKS.md`), else from a trial run of
    /// the first squares in memory (at most about 20 seconds, or until 6
    /// million states), whose states the model of the
    /// `projection::project` module (its notes) extends to the last square.
    /// The disk figure is what the states would take if they went to disk
    /// (a work directory, or past the memory bound). Of the options, the
    /// kind, the method, the order and the control's stop flag apply.
    ///
    /// # Example
    /// ```
    /// use knights::count::{Counter, Source};
    /// let p = Counter::new("5x6".parse()?).project()?;
    /// assert_eq!(p.source, Some(Source::Complete)); // small: the trial counts it all
    /// assert!(p.peak_states > 0);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn project(&self) -> Result<Projection> {
        match plan_tours(self.on, &self.options)? {
            Plan::OneSquare | Plan::NoTour => Ok(Projection {
                source: Some(Source::Nothing),
                ..Projection::default()
            }),
            Plan::Run(strategy) => self.projection(&strategy),
        }
    }

    /// The projection of the count `strategy` plans: from the table of
    /// boards measured in full where it applies, else a trial run of its
    /// problems.
    fn projection(&self, strategy: &Strategy) -> Result<Projection> {
        let (rows, w, join) = (strategy.rows, strategy.w, strategy.join());
        let open = self.options.kind == Kind::Open;
        let table = strategy
            .tabled()
            .then(|| project::from_table(rows, w, open, strategy.meet))
            .flatten();
        if let Some(p) = table {
            return Ok(Projection { join, ..p });
        }
        let problems = strategy.problems()?;
        // A symmetry that fixes no tour of the board (an odd one) leaves
        // no quotient problem: nothing runs.
        if problems.is_empty() {
            return Ok(Projection {
                source: Some(Source::Nothing),
                ..Projection::default()
            });
        }
        let stop = self.control.map(Control::stop_flag);
        let p = trial::project(&problems, stop)?;
        Ok(Projection { join, ..p })
    }
}

/// The report of one forward run started at `t0`.
fn forward_report(run: executor::Run, t0: Instant) -> CountReport {
    CountReport {
        count: run.count,
        method: Method::Forward,
        meet_pairs: None,
        states_per_step: run.states_per_step,
        peak_states: run.peak,
        frontier_slots: run.slots,
        key_bytes: run.key_bytes,
        on_disk: run.on_disk,
        peak_disk_bytes: run.peak_disk,
        generated: run.generated,
        elapsed: t0.elapsed(),
        workers: Vec::new(),
    }
}

pub(super) mod cells;
mod shape;
#[cfg(test)]
mod tests;
