//! Exact counting of knight's tours by a frontier dynamic program.
//!
//! [`tours`] counts the closed tours (Hamiltonian cycles of the knight graph)
//! or the open tours (Hamiltonian paths, including those whose ends are a
//! knight's move apart) of a board, undirected: a cycle or a path and its
//! reverse are one tour. The squares are processed in row-major order with the
//! board turned so that its rows are the shorter side (`w` squares); since a
//! knight's move spans at most two rows, the frontier (the processed squares
//! with a neighbour still to come) holds at most `2w + 1` squares, and a state
//! records for each of them whether it is untouched, an end of a partial path
//! or finished, and which ends are joined, packed in one 64-bit key up to
//! `w = 8`. This is the method of Knuth's Algorithm E and of the counts
//! behind OEIS A193055.
//!
//! Closed tours of boards with at least 6 rows and at most 8 columns are
//! counted by *meeting in the middle* (see the `meet` module notes, the method
//! of McKay 1997; the cut board's parts, shared with the open tours' meeting,
//! are in `halves`): the program runs on the board's top rows and on its
//! bottom rows apart, and their final states are joined where two pairings
//! of path ends make one cycle. That skips the forward program's second
//! half, where most of its work went: 8x8 takes minutes instead of hours.
//! Open tours meet in the middle too, from 7x5 and 6x6 on (see the
//! `meet_paths` module notes: the separator squares may be terminals, and
//! the parts hold terminals of their own); 7x7 open takes about a minute.
//! [`Method::Forward`] forces the single program.
//!
//! The states of a square are kept by the executor (see the `executor`
//! module notes) as `(key, count)` runs split into hash-partitioned
//! buckets, expanded and merged in parallel (the answer is
//! the same for any number of threads). When they outgrow
//! [`Options::max_memory`], or when [`Options::work_dir`] is given, the
//! buckets live on disk with a checkpoint after every square, and a killed
//! count continues with [`Options::resume`].
//!
//! [`symmetric`] counts the closed tours unchanged by a half turn, and
//! [`classes`] the tours up to rotation and reflection (Burnside's lemma),
//! both on quotient graphs (see the `symmetry` module notes). [`estimate()`]
//! is Knuth's random-probe estimate for boards too large to count.
//!
//! **Directed counts**: a closed tour can be run in 2 directions (with no
//! fixed start square) and an open tour from either end, so the directed
//! count is twice the undirected one in both cases; with a fixed start square
//! a closed tour would be counted `2 x squares` times instead.
//!
//! # Example
//! ```
//! use knights::count::{self, Options};
//! use knights::Kind;
//! let board: knights::Board = "6x6".parse()?;
//! assert_eq!(count::tours(board, &Options::default())?.count, 9862);
//! let open = Options { kind: Kind::Open, ..Options::default() };
//! assert_eq!(count::tours("3x4".parse()?, &open)?.count, 8);
//! # Ok::<(), knights::Error>(())
//! ```

pub mod estimate;
mod executor;
mod frontier;
mod halves;
mod meet;
mod meet_paths;
mod number;
mod planner;
pub mod project;
mod published;
mod separator;
mod symmetry;

use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;

pub use estimate::{estimate, Estimate, EstimateBuilder, EstimateMethod, EstimateOptions};
use executor::RunOptions;
pub use executor::{FrontierProgress, Joining};
use frontier::Problem;
pub use number::Count;
pub use planner::Method;
use planner::{
    expected_bits, meets, oriented, shape_problem, strip_problem, PROBLEM_BYTES_PER_SQUARE,
};
pub use project::{Projection, Source};
pub use published::{published, Published, PUBLISHED};
pub use symmetry::{classes, symmetric, Classes};

pub use crate::Kind;
use crate::{Board, Control, Result};

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

/// Options of a count.
#[derive(Copy, Clone, Default)]
pub struct Options<'a> {
    /// Closed or open tours.
    pub kind: Kind,
    /// Forward or meet in the middle.
    pub method: Method,
    /// Keep the states in memory only while they need less than this many
    /// bytes (default: the memory the system reports as available); past it
    /// they go to disk, and a count that cannot be done within it even there
    /// stops with [`crate::Error::GaveUp`].
    pub max_memory: Option<u64>,
    /// Told the [`crate::Progress`] (with the [`FrontierProgress`]) after
    /// every square; its flag, raised by the caller (Ctrl-C, a cancelled
    /// job), stops the count after the square in progress (or, once the
    /// parts met in the middle are done, after the piece of their join in
    /// progress), with [`crate::Error::Interrupted`]; a count with a work
    /// directory keeps its checkpoint for `resume`. Raised by the progress
    /// callback at a square, it stops the count right after that square
    /// (how the tests stop a count to resume it).
    pub control: Option<&'a Control>,
    /// Keep the states on disk in this directory, with a checkpoint after
    /// every square (default: in memory, or when they do not fit, in a
    /// directory of the system's temporary directory removed at the end).
    pub work_dir: Option<&'a Path>,
    /// Continue from this count's checkpoint in `work_dir` (a finished
    /// count answers at once from it); without one there, the count stops
    /// with [`crate::Error::Parse`]. A count that does not resume refuses
    /// an unfinished checkpoint of the same count, unless `fresh`, and
    /// counts a finished one again. Other counts' files in `work_dir` are
    /// never looked at.
    pub resume: bool,
    /// Discard this count's checkpoints in `work_dir` and start afresh.
    pub fresh: bool,
    /// The most bytes the state files may take on disk, when they go to
    /// disk (default: 80 % of the free space on their file system, besides
    /// what they take already). Before every square the count checks that
    /// the next layer fits, from the growth measured so far, and stops with
    /// [`crate::Error::OverDisk`] if not (a count with a work directory
    /// keeps its checkpoint for `resume`).
    pub max_disk: Option<u64>,
    /// Keep the state files of a finished count in `work_dir` (default:
    /// only a small summary with the count stays, from which `resume`
    /// answers at once).
    pub keep: bool,
    /// Take each row from the outside in (its first square, its last, its
    /// second, its last but one, ...) instead of from first to last. The
    /// count is the same, reached through other states between the row
    /// ends, so such a run checks a plain one (it runs forward). A mirror
    /// image or rows in alternating directions would not: the knight graph
    /// is its own mirror image, so they pass through the same states.
    pub outside_in: bool,
    /// Keep the states in memory only, never in a temporary directory:
    /// past the memory bound the count stops with [`crate::Error::TooLarge`]
    /// (for callers that must not touch the file system, such as a server).
    /// A `work_dir` still puts the states on disk.
    pub memory_only: bool,
}

impl<'a> Options<'a> {
    /// Makes the work directory ready for a count that starts (see
    /// `executor::prepare_work_dir`).
    fn prepare(&self) -> Result<()> {
        match self.work_dir {
            Some(dir) => executor::prepare_work_dir(dir, self.resume, self.fresh),
            None => Ok(()),
        }
    }

    /// The engine's progress callback: the control's, told each square.
    fn forward(&self) -> impl Fn(&FrontierProgress) + Sync + '_ {
        move |p| {
            if let Some(control) = self.control {
                control.report(&crate::Progress::from(p));
            }
        }
    }

    /// The options of the frontier program for a count of `board`, whose
    /// progress goes to `forward` (see [`Options::forward`]).
    fn run<'b>(
        &'b self,
        board: Board,
        forward: &'b (dyn Fn(&FrontierProgress) + Sync),
    ) -> RunOptions<'b> {
        RunOptions {
            max_memory: self.max_memory,
            progress: self.control.map(|_| forward),
            work_dir: self.work_dir,
            resume: self.resume,
            fresh: self.fresh,
            later: false,
            stop: self.control.map(Control::stop_flag),
            max_disk: self.max_disk,
            keep: self.keep,
            final_layer: None,
            count_bits: 0,
            memory_only: self.memory_only.then_some(board),
        }
    }
}

impl fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("kind", &self.kind)
            .field("method", &self.method)
            .field("max_memory", &self.max_memory)
            .field("control", &self.control)
            .field("work_dir", &self.work_dir)
            .field("resume", &self.resume)
            .field("fresh", &self.fresh)
            .field("max_disk", &self.max_disk)
            .field("keep", &self.keep)
            .field("outside_in", &self.outside_in)
            .field("memory_only", &self.memory_only)
            .finish()
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
    /// The most bytes of state files on disk at once (0 in memory).
    pub peak_disk_bytes: u64,
    /// Successors generated over all squares, before equal states merge.
    pub generated: u64,
    /// Wall-clock time of the run.
    #[serde(skip)]
    pub elapsed: Duration,
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

/// The number of undirected closed or open tours of `board`.
///
/// # Complexity
/// Time and memory grow with the number of frontier states, which is
/// exponential in the shorter side `w` and linear in the longer one (about
/// 16 bytes a state in memory or on disk, and 64 while a square is
/// processed). Forward: 6x6 takes a fraction of a second, 8x6 seconds, 8x7
/// minutes, 8x8 hours; meeting in the middle (the default for closed tours)
/// takes 8x7 in seconds and 8x8 in minutes (`BENCHMARKS.md`). Open tours
/// have more states: met in the middle, 6x6 open takes a few hundredths of
/// a second, 8x6 open seconds, 7x7 open about a minute and a few GB.
/// Boards with `w > 11` are refused.
///
/// # Example
/// ```
/// use knights::count::{self, Options};
/// assert_eq!(count::tours("5x6".parse()?, &Options::default())?.count, 8);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tours(board: Board, opts: &Options<'_>) -> Result<CountReport> {
    opts.prepare()?;
    let t0 = Instant::now();
    if board.squares() == 1 {
        return Ok(CountReport {
            count: Count::from(u64::from(opts.kind == Kind::Open)),
            ..CountReport::default()
        });
    }
    // An explicit method still runs (the tests check the theorems with it).
    if opts.method == Method::Auto && !crate::exists::tour_exists(board, opts.kind) {
        return Ok(CountReport {
            elapsed: t0.elapsed(),
            ..CountReport::default()
        });
    }
    let bits = expected_bits(board, opts.kind)?;
    crate::memory::ensure_fits(board, "count", PROBLEM_BYTES_PER_SQUARE)?;
    let (rows, w) = oriented(board);
    let forward = opts.forward();
    let run_opts = RunOptions {
        count_bits: bits,
        ..opts.run(board, &forward)
    };
    if meets(board, opts.kind, opts.method, opts.outside_in)? {
        let m = match opts.kind {
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
            on_disk: b.on_disk || t.on_disk,
            peak_disk_bytes: b.peak_disk.max(t.peak_disk),
            generated: b.generated + t.generated,
            elapsed: t0.elapsed(),
        });
    }
    let problem = strip_problem(rows, w, opts.kind, opts.outside_in);
    let run = executor::run(&problem, &run_opts)?;
    Ok(forward_report(run, t0))
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
    }
}

/// The counts of a sweep over lengths: see [`all_lengths`].
#[derive(Clone, Debug, Default)]
pub struct Sweep {
    /// `(board, count)` for every length from 1 up, in order.
    pub counts: Vec<(Board, Count)>,
    /// The figures of the one pass (its `count` is the longest board's).
    pub report: CountReport,
}

/// The number of undirected tours of every board `W x L` for `L = 1..=N`,
/// where `board` is `W x N` (`W` its rows as written, the side that stays):
/// one forward pass of the frontier program over `N` rows of `W` squares,
/// which after each row also counts the states that finish a tour of the
/// board cut there, as the tables of the integer-sequence literature are
/// made. Each count equals [`tours`] of that board.
///
/// # Complexity
/// About one forward count of `W x N` ([`Method::Forward`]); its states are
/// bounded by the width `W`, so time grows linearly in `N`.
///
/// # Example
/// ```
/// use knights::count::{self, Options};
/// let s = count::all_lengths("3x12".parse()?, &Options::default())?;
/// let last: Vec<String> = s.counts[9..].iter().map(|(b, n)| format!("{b} {n}")).collect();
/// assert_eq!(last, ["3x10 16", "3x11 0", "3x12 176"]);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn all_lengths(board: Board, opts: &Options<'_>) -> Result<Sweep> {
    opts.prepare()?;
    let t0 = Instant::now();
    if opts.method == Method::Meet {
        return Err(
            crate::Error::Unsupported("a sweep over lengths runs forward".into())
                .with_hint(crate::Hint::UseMethod("forward")),
        );
    }
    let (w, rows) = (board.rows() as usize, board.cols() as usize);
    let bits = expected_bits(board, opts.kind)?;
    crate::memory::ensure_fits(board, "count", PROBLEM_BYTES_PER_SQUARE)?;
    let mut problem = strip_problem(rows, w, opts.kind, opts.outside_in);
    problem.prefixes = (1..rows).map(|l| l * w).collect();
    let forward = opts.forward();
    let run = executor::run(
        &problem,
        &RunOptions {
            count_bits: bits,
            ..opts.run(board, &forward)
        },
    )?;
    let mut counts = Vec::with_capacity(rows);
    for &(vertices, n) in &run.prefix_counts {
        counts.push((vertices / w, n));
    }
    counts.push((rows, run.count));
    let counts = counts
        .into_iter()
        .map(|(l, n)| {
            let b = Board::new(w as u64, l as u64)?;
            // One square: an open tour of no moves, no closed one.
            let n = if b.squares() == 1 {
                Count::from(u64::from(opts.kind == Kind::Open))
            } else {
                n
            };
            Ok((b, n))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Sweep {
        report: CountReport {
            count: counts.last().map_or(Count::ZERO, |c| c.1),
            ..forward_report(run, t0)
        },
        counts,
    })
}

/// The number of undirected closed or open tours of a board with holes,
/// wrapped edges or another leaper ([`tours`] on the plain board): one
/// frontier program over the move graph, the squares taken row by row
/// along the longer side, holes skipped. It runs where the frontier stays
/// within the counter's limit: small boards, and cylinders whose wrap
/// joins the two long edges (the frontier then spans the short side once).
///
/// # Errors
/// [`crate::Error::Unsupported`] when the frontier would be too wide (a
/// torus or a wrap along the long side, except on small boards).
///
/// # Example
/// ```
/// use knights::{count, shape::{Shape, Wrap}};
/// let torus = Shape::new("4x4".parse()?).with_wrap(Wrap::Both);
/// assert!(count::tours_on(&torus, &count::Options::default())?.count > count::Count::ZERO);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tours_on(shape: &crate::Shape, opts: &Options<'_>) -> Result<CountReport> {
    if shape.is_plain() {
        return tours(shape.board(), opts);
    }
    opts.prepare()?;
    let t0 = Instant::now();
    if shape.squares() == 1 {
        return Ok(CountReport {
            count: Count::from(u64::from(opts.kind == Kind::Open)),
            ..CountReport::default()
        });
    }
    let problem = shape_problem(shape, opts.kind, None)?;
    let forward = opts.forward();
    let run_opts = RunOptions {
        memory_only: Some(shape.board()),
        ..opts.run(shape.board(), &forward)
    };
    let run = executor::run(&problem, &run_opts)?;
    Ok(forward_report(run, t0))
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
    let problem = shape_problem(&crate::Shape::new(board), Kind::Open, Some([s, t]))?;
    let opts = Options::default();
    executor::run(&problem, &opts.run(board, &|_| {}))?
        .count
        .to_u128()
        .ok_or_else(|| {
            crate::Error::Unsupported(format!(
                "the paths of {board} between two squares pass 2^128"
            ))
        })
}

/// The longest a projection's trial run takes, in seconds (both parts
/// together when meeting in the middle), and the states after which it
/// stops early.
const TRIAL_SECONDS: f64 = 20.0;
const TRIAL_STATES: u64 = 6_000_000;

/// Projects the peak states, the disk and the time of [`tours`] with
/// `opts`, without counting: from the table of boards measured in full
/// (`BENCHMARKS.md`), else from a trial run of the first squares in
/// memory (at most about 20 seconds, or until 6 million states), whose
/// states the model of the [`project`](mod@project) module extends to the last square.
/// The disk figure is what the states would take if they went to disk
/// (`work_dir`, or past `max_memory`).
///
/// # Example
/// ```
/// use knights::count::{self, Options, Source};
/// let p = count::project("5x6".parse()?, &Options::default())?;
/// assert_eq!(p.source, Some(Source::Complete)); // small: the trial counts it all
/// assert!(p.peak_states > 0);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn project(board: Board, opts: &Options<'_>) -> Result<Projection> {
    if board.squares() == 1
        || (opts.method == Method::Auto && !crate::exists::tour_exists(board, opts.kind))
    {
        return Ok(Projection {
            source: Some(Source::Nothing),
            ..Projection::default()
        });
    }
    expected_bits(board, opts.kind)?;
    crate::memory::ensure_fits(board, "count", PROBLEM_BYTES_PER_SQUARE)?;
    let (rows, w) = oriented(board);
    let meet = meets(board, opts.kind, opts.method, opts.outside_in)?;
    if let Some(p) = project::from_table(rows, w, opts.kind == Kind::Open, meet) {
        return Ok(p);
    }
    let problems = if meet && opts.kind == Kind::Open {
        meet_paths::part_problems(rows, w)
    } else if meet {
        meet::part_problems(rows, w).to_vec()
    } else {
        vec![strip_problem(rows, w, opts.kind, opts.outside_in)]
    };
    let seconds = TRIAL_SECONDS / problems.len() as f64;
    let mut total = Projection {
        source: Some(Source::Complete),
        ..Projection::default()
    };
    for p in &problems {
        let one = trial(p, seconds, opts.control.map(Control::stop_flag))?;
        if one.peak_states > total.peak_states {
            total.peak_states = one.peak_states;
            // Counted over both parts, as `steps` is.
            total.peak_step = total.steps + one.peak_step;
        }
        total.steps += one.steps;
        total.disk_bytes = total.disk_bytes.max(one.disk_bytes);
        total.seconds += one.seconds;
        total.measured_steps += one.measured_steps;
        total.states_per_step.extend(one.states_per_step);
        total.trial += one.trial;
        if one.source == Some(Source::Trial) {
            total.source = Some(Source::Trial);
        }
    }
    Ok(total)
}

/// Runs the first squares of `p` in memory for at most `seconds` (or until
/// [`TRIAL_STATES`]) and projects the rest.
fn trial(p: &Problem, seconds: f64, stop: Option<&crate::StopFlag>) -> Result<Projection> {
    let rec = project::Trial::new();
    let flag = crate::StopFlag::new();
    let record = |pr: &FrontierProgress| {
        let at = rec.start.elapsed().as_secs_f64();
        rec.steps.lock().unwrap_or_else(|e| e.into_inner()).push((
            pr.states as u64,
            pr.generated,
            at,
        ));
        if at > seconds
            || pr.states as u64 > TRIAL_STATES
            || stop.is_some_and(crate::StopFlag::is_stopped)
        {
            flag.stop();
        }
    };
    let run = executor::run(
        p,
        &RunOptions {
            progress: Some(&record),
            stop: Some(&flag),
            ..RunOptions::default()
        },
    );
    let complete = match run {
        Ok(_) => true,
        Err(e)
            if matches!(e.unhinted(), crate::Error::Interrupted(_))
                && !stop.is_some_and(crate::StopFlag::is_stopped) =>
        {
            false
        }
        Err(e) if matches!(e.unhinted(), crate::Error::Interrupted(_)) => {
            return Err(crate::Error::Interrupted(
                "the projection was stopped".into(),
            ))
        }
        Err(e) => return Err(e),
    };
    let trial = rec.start.elapsed();
    let steps = rec.steps.into_inner().unwrap_or_else(|e| e.into_inner());
    let measured: Vec<u64> = steps.iter().map(|s| s.0).collect();
    let w = project::period(p);
    let states = project::extend(&measured, p.n, w, project::LastRow::of(p));
    let (ratio, per) = project::rates(&steps, w);
    let entry_bytes = if frontier::Engine::new(p)?.key_bits <= 64 {
        16
    } else {
        24
    };
    let (peak, at, disk, left) = project::figures(&states, measured.len(), ratio, entry_bytes);

    Ok(Projection {
        steps: p.n,
        peak_states: peak,
        peak_step: at,
        disk_bytes: disk,
        seconds: trial.as_secs_f64() + per * left,
        states_per_step: states,
        measured_steps: measured.len(),
        trial,
        source: Some(if complete {
            Source::Complete
        } else {
            Source::Trial
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str, kind: Kind) -> Count {
        let opts = Options {
            kind,
            ..Options::default()
        };
        tours(text.parse().unwrap(), &opts).unwrap().count
    }

    #[test]
    fn small_known_counts() {
        assert_eq!(count("5x6", Kind::Closed), 8);
        assert_eq!(count("6x5", Kind::Closed), 8);
        assert_eq!(count("3x4", Kind::Open), 8);
        assert_eq!(count("4x3", Kind::Open), 8);
        assert_eq!(count("4x4", Kind::Closed), 0);
        assert_eq!(count("1x1", Kind::Open), 1);
        assert_eq!(count("1x1", Kind::Closed), 0);
        assert_eq!(count("2x3", Kind::Open), 0);
    }

    #[test]
    fn counts_on_shapes_keep_to_the_memory_bound() {
        let torus = crate::Shape::new("5x5".parse().unwrap()).with_wrap(crate::shape::Wrap::Both);
        let opts = Options {
            kind: Kind::Open,
            max_memory: Some(8 << 20),
            ..Options::default()
        };
        let err = tours_on(&torus, &opts).unwrap_err();
        assert!(matches!(err, crate::Error::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("8.0 MiB"), "{err}");
    }

    /// 6x8 open met in the middle expands its lower part's states to about
    /// 700 MB in the join: under a bound of 160 MB the join takes its
    /// chunks in pieces, to the same count (it was killed in a 300 MB
    /// container).
    #[test]
    fn a_join_keeps_to_the_memory_bound() {
        let opts = Options {
            kind: Kind::Open,
            max_memory: Some(160 << 20),
            ..Options::default()
        };
        let r = tours("6x8".parse().unwrap(), &opts).unwrap();
        assert_eq!(r.method, Method::Meet);
        assert_eq!(r.count, 24_964_893_804u128);
    }

    /// 6x7 open under 20 MiB: the table would take more than a third of
    /// what the held states leave, so it is built in parts by pattern
    /// (four here), each joined with all the bottom states, to the same
    /// count.
    #[test]
    fn a_table_past_the_bound_is_joined_in_parts() {
        let opts = Options {
            kind: Kind::Open,
            max_memory: Some(20 << 20),
            ..Options::default()
        };
        let r = tours("6x7".parse().unwrap(), &opts).unwrap();
        assert_eq!(r.method, Method::Meet);
        assert_eq!(r.count, 389_969_466u128);
    }

    /// A count past its memory bound goes to a temporary directory, unless
    /// it is kept in memory: then it stops with `TooLarge` (the server's
    /// counts must not touch the file system).
    #[test]
    fn a_memory_only_count_stops_at_its_bound_instead_of_spilling() {
        let board: Board = "6x6".parse().unwrap();
        let spilling = Options {
            method: Method::Forward,
            max_memory: Some(1 << 20),
            ..Options::default()
        };
        let spilled = tours(board, &spilling).unwrap();
        assert_eq!(spilled.count, 9862u128);
        assert!(spilled.on_disk);
        let in_memory = Options {
            memory_only: true,
            ..spilling
        };
        let err = tours(board, &in_memory).unwrap_err();
        assert!(matches!(err, crate::Error::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("6x6"), "{err}");
        assert!(!err.to_string().contains("--"), "{err}");
    }

    #[test]
    fn memory_bound_stops_cleanly() {
        let opts = Options {
            max_memory: Some(1000),
            ..Options::default()
        };
        let err = tours("6x6".parse().unwrap(), &opts).unwrap_err();
        assert!(matches!(err.unhinted(), crate::Error::GaveUp(_)), "{err}");
        assert_eq!(
            err.hint(),
            Some(crate::Hint::Raise(crate::Budget::Memory)),
            "{err}"
        );
    }

    #[test]
    fn a_stop_during_the_join_is_heard() {
        // The flag goes up once every square of the runs is done, so only
        // the join of the parts' final states can notice it: closed, open
        // across 6x6's middle block, open at the row cut with the middle
        // added to the top run's states (4x8), and with two runs side by
        // side (4x9).
        for (board, kind) in [
            ("5x6", Kind::Closed),
            ("6x6", Kind::Open),
            ("4x8", Kind::Open),
            ("4x9", Kind::Open),
        ] {
            let stop = crate::StopFlag::new();
            let raise = stop.clone();
            let squares = std::sync::atomic::AtomicU64::new(0);
            let control = Control::new().stop(stop).progress(move |p| {
                if Some(squares.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1) == p.total {
                    raise.stop();
                }
            });
            let opts = Options {
                kind,
                method: Method::Meet,
                control: Some(&control),
                ..Options::default()
            };
            let err = tours(board.parse().unwrap(), &opts).unwrap_err();
            assert!(
                matches!(err, crate::Error::Interrupted(_)),
                "{board}: {err}"
            );
            assert!(err.to_string().contains("joined"), "{board}: {err}");
        }
    }

    #[test]
    fn huge_counts_are_refused_not_wrapped() {
        // 3 x n open tours grow exponentially in n; 3 x 3000 passes 2^4096.
        let opts = Options {
            kind: Kind::Open,
            ..Options::default()
        };
        let err = tours(Board::new(3, 3000).unwrap(), &opts).unwrap_err();
        assert!(err.to_string().contains("2^4096"), "{err}");
        // No tour at all: 0 by the theorem, at once and without memory.
        let report = tours(Board::new(1, 4_000_000_000).unwrap(), &opts).unwrap();
        assert_eq!(report.count, 0);
    }

    #[test]
    fn the_join_reports_its_progress() {
        let last = std::sync::Arc::new(std::sync::Mutex::new(None));
        let saw = std::sync::Arc::clone(&last);
        let control = Control::new().progress(move |p| {
            if let Some(j) = p.frontier.and_then(|f| f.joining) {
                assert!(j.done <= j.total && j.part <= j.parts);
                *saw.lock().unwrap() = Some(j);
            }
        });
        let opts = Options {
            kind: Kind::Open,
            method: Method::Meet,
            max_memory: Some(20 << 20),
            control: Some(&control),
            ..Options::default()
        };
        tours("6x7".parse().unwrap(), &opts).unwrap();
        let j = last.lock().unwrap().expect("the join reported");
        assert!(j.parts > 1, "{j:?}");
        assert_eq!((j.part, j.done), (j.parts, j.total));
        assert!(j.total > 0);
    }

    #[test]
    fn progress_sees_every_square() {
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let saw = std::sync::Arc::clone(&seen);
        let control = Control::new().progress(move |p| {
            let f = p.frontier.expect("a count's figures");
            assert!(f.states <= f.peak);
            saw.store(p.done, std::sync::atomic::Ordering::Relaxed);
        });
        let opts = Options {
            method: Method::Forward,
            control: Some(&control),
            ..Options::default()
        };
        let report = tours("5x6".parse().unwrap(), &opts).unwrap();
        assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 30);
        assert_eq!(report.states_per_step.len(), 30);
        assert_eq!(report.frontier_slots, 11);
        // Meeting in the middle: the top part's 20 squares, then the
        // bottom part's 20, as one sequence.
        let opts = Options {
            method: Method::Meet,
            ..opts
        };
        let report = tours("5x6".parse().unwrap(), &opts).unwrap();
        assert_eq!(seen.load(std::sync::atomic::Ordering::Relaxed), 40);
        assert_eq!(report.states_per_step.len(), 40);
    }
}
