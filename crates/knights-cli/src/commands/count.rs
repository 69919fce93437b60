//! `knights count`: the exact number of tours, by the frontier dynamic program.
//!
//! The flags become the library's [`CountRequest`], which checks them and
//! counts under a [`knights::Control`]: Ctrl-C stops it, and its progress
//! feeds the bar or the status lines here. The answer prints as its count,
//! one line per length, or (`--json`) serialised as it is. `--dry-run`
//! runs the library's [`DryRunRequest`] of the same request instead. Only
//! the warning that no tour exists, the words of the projection and the
//! projection across `--processes` are the command's own.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use knights::count::{Exchange, FrontierProgress as Progress, Method, Source};
use knights::request::{CountOf, CountPlan, CountRequest, DryRunAnswer, DryRunRequest, JobRequest};
use knights::Kind;
use serde_json::json;

use crate::cli::{CountArgs, CountMethod};

pub fn run(args: CountArgs) -> Result<u8> {
    #[cfg(not(feature = "distributed"))]
    if args.distributed || (args.processes.is_some() && !args.dry_run) {
        return Err(knights::Error::Parse(
            "this knights was built without MPI, so it cannot spread a count over processes; \
             build the command with `cargo install knights-cli --features distributed` \
             (with an MPI library such as Open MPI installed), or count without --processes"
                .into(),
        )
        .into());
    }
    // A worker of a spread count joins the job first, so that whatever
    // fails from here on reaches the other workers (see `distributed`).
    #[cfg(feature = "distributed")]
    if args.distributed {
        let mpi = crate::distributed::Mpi::start(args.round_bytes)?;
        let outcome = count(&args, Some(&mpi));
        return Ok(mpi.conclude(outcome));
    }
    count(&args, None)
}

/// The count, in this process or (`workers`) as one worker of a spread one.
fn count(args: &CountArgs, workers: Option<&dyn Exchange>) -> Result<u8> {
    // Worker 0 speaks for a count spread over workers; the others are quiet.
    let speaks = workers.is_none_or(|w| w.rank() == 0);
    // The library checks the flags together (what applies to classes,
    // symmetric tours, a shape, a work directory) into its plan, once.
    let request = request(args)?;
    if args.dry_run {
        let per = Spread {
            workers: args.processes,
            memory: request.max_memory,
        };
        let dry_run = DryRunRequest(request);
        let plan = dry_run.plan()?;
        warn_if_no_tour_in(&plan, speaks);
        return dry_run_of(args, plan, per);
    }
    let plan = request.plan()?;
    warn_if_no_tour_in(&plan, speaks);
    #[cfg(feature = "distributed")]
    if let Some(n) = args.processes {
        return crate::distributed::launch(n, plan.shape().squares());
    }
    let reporter = Arc::new(Reporter::new(args.quiet || !speaks));
    // The first Ctrl-C stops the count after the square in progress (its
    // checkpoint kept for --resume); a second ends the process at once.
    let control = reporter.control(
        crate::output::stop_on_ctrl_c(),
        args.stop_after,
        args.stop_in_join,
    );
    let answer = match workers {
        Some(w) => CountRequest::run_plan_across(plan, &control, w),
        None => CountRequest::run_plan(plan, &control),
    };
    reporter.finish();
    let answer = answer?;
    if !speaks {
        return Ok(crate::exit::EXIT_SUCCESS);
    }
    if args.json {
        crate::outln!("{}", serde_json::to_string(&answer)?)?;
    } else if answer.of == CountOf::AllLengths {
        for length in &answer.lengths {
            crate::outln!("{} {}", length.board, length.count)?;
        }
    } else if answer.of == CountOf::AllCells {
        for cells in &answer.cells {
            crate::outln!("{} {}", cells.cells, cells.count)?;
        }
    } else {
        crate::outln!("{}", answer.count)?;
    }
    Ok(crate::exit::EXIT_SUCCESS)
}

/// The counting method the flags name.
fn method(args: &CountArgs) -> Method {
    match args.method {
        CountMethod::Auto => Method::Auto,
        CountMethod::Forward => Method::Forward,
        CountMethod::Meet => Method::Meet,
    }
}

/// Warns (when this process `speaks`) that no tour of the plan's kind
/// exists on its plain board.
fn warn_if_no_tour_in(plan: &CountPlan, speaks: bool) {
    let (shape, options) = (plan.shape(), plan.options());
    if shape.is_plain() && speaks && !knights::exists::tour_exists(shape.board(), options.kind) {
        warn_if_no_tour(shape.board(), options.kind, options.method);
    }
}

/// Warns, before counting, that no tour of the kind exists, and which
/// theorem says so.
fn warn_if_no_tour(board: knights::Board, kind: Kind, method: Method) {
    let e = if kind == Kind::Open {
        knights::exists::open_tour(board)
    } else {
        knights::exists::closed_tour(board)
    };
    let kind_name = if kind == Kind::Open { "open" } else { "closed" };
    // Only the default method answers from the theorem; a method the
    // user names still runs (and may refuse the board), so the line
    // promises no count there.
    let answer = if method == Method::Auto {
        ", so the count is 0"
    } else {
        ""
    };
    crate::warn!(
        "knights: no {kind_name} tour exists on {board}: {} ({}){answer}",
        e.reason,
        e.theorem
    );
}

/// The library's request for the flags.
fn request(args: &CountArgs) -> Result<CountRequest> {
    let (board, holes) = super::place(&args.board)?;
    let bytes = |t: &Option<String>, what| {
        t.as_deref()
            .map(|t| knights::memory::parse_amount(t, what))
            .transpose()
    };
    let of = match (
        args.symmetric,
        args.classes,
        args.all_lengths,
        args.all_cells,
    ) {
        (true, ..) => CountOf::Symmetric,
        (_, true, ..) => CountOf::Classes,
        (_, _, true, _) => CountOf::AllLengths,
        (.., true) => CountOf::AllCells,
        _ => CountOf::Tours,
    };
    Ok(CountRequest {
        board,
        holes,
        wrap: args.shape.wrap.clone(),
        leaper: args.shape.leaper.clone(),
        kind: if args.kind.open {
            Kind::Open
        } else {
            Kind::Closed
        },
        of,
        directed: args.directed,
        method: method(args),
        outside_in: args.outside_in,
        staggered: args.staggered,
        middle: args.middle.parse()?,
        max_memory: bytes(&args.max_memory, "memory")?,
        max_disk: bytes(&args.max_disk, "disk")?,
        memory_only: false,
        work_dir: args.work_dir.clone(),
        resume: args.resume,
        fresh: args.fresh,
        keep: args.keep,
    })
}

/// How a count shows how far it is: a bar on a terminal; otherwise a
/// status line every 30 seconds from a thread of its own (a single square
/// of a big count can take longer than that, so the lines cannot wait for
/// the squares). Under `--quiet` no bar, and a status line every minute
/// only: a count of less than a minute says nothing but its answer, a long
/// one is never silent for more than a minute.
struct Reporter {
    bar: Option<ProgressBar>,
    /// The last report's status, for the status lines; they end when it
    /// is dropped.
    latest: Arc<Mutex<Option<String>>>,
}

impl Reporter {
    fn new(quiet: bool) -> Reporter {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar
        });
        let latest = Arc::new(Mutex::new(None));
        if bar.is_none() {
            let started = Instant::now();
            let weak = Arc::downgrade(&latest);
            let every = crate::support::status_every() * if quiet { 2 } else { 1 };
            crate::support::status_ticker_every(every, move || {
                let Some(latest) = weak.upgrade() else {
                    return ControlFlow::Break(());
                };
                let latest = latest.lock().unwrap_or_else(|e| e.into_inner());
                ControlFlow::Continue(latest.as_ref().map(|status| {
                    format!(
                        "knights count: {} elapsed, {status}",
                        human_time(started.elapsed().as_secs_f64()),
                    )
                }))
            });
        }
        Reporter { bar, latest }
    }

    /// The control of a count watching `stop` and reporting here. With
    /// `stop_after` (`--stop-after`, a hidden flag for tests of resuming)
    /// it raises `stop` itself once that square is done and its checkpoint
    /// written, so the count stops there as after a Ctrl-C; with
    /// `stop_in_join` (`--stop-in-join`, likewise) once a meeting's join
    /// has joined and recorded that many parts of its table.
    fn control(
        self: &Arc<Self>,
        stop: knights::StopFlag,
        stop_after: Option<usize>,
        stop_in_join: Option<u64>,
    ) -> knights::Control {
        let reporter = Arc::clone(self);
        let raise = stop.clone();
        knights::Control::new().stop(stop).progress(move |p| {
            if let Some(f) = &p.frontier {
                reporter.report(f);
            }
            if stop_after.is_some_and(|square| p.done == square as u64) {
                raise.stop();
            }
            let part = p.frontier.and_then(|f| f.joining).map(|j| j.part);
            if stop_in_join.is_some_and(|done| part == Some(done + 1)) {
                raise.stop();
            }
        })
    }

    /// A square is done.
    fn report(&self, p: &Progress) {
        if let Some(bar) = &self.bar {
            // A join fills the bar again, by the states it has joined.
            let (done, all) = match p.joining {
                Some(j) => (j.done, j.total),
                None => (p.step as u64, p.steps as u64),
            };
            bar.set_length(all);
            bar.set_position(done);
            bar.set_message(status(p));
        } else {
            *self.latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(status(p));
        }
    }

    /// The count is over: the bar goes, and so do the status lines.
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        self.latest.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// The figures of a square for the bar and the status lines: the phase
/// and how far it is (square of squares; a meeting's join, states joined),
/// states, the projected peak, disk in use and the time left in the whole
/// count ("estimating the time left" until the library can tell it).
fn status(p: &Progress) -> String {
    let left = match p.seconds_left {
        Some(left) => format!("about {} left", human_time(left)),
        None => "estimating the time left".to_string(),
    };
    if let Some(j) = p.joining {
        let part = match j.parts {
            1 => String::new(),
            n => format!(" (table part {} of {n})", j.part),
        };
        return format!(
            "join: {} of {} bottom states joined{part}, {left}",
            group(j.done),
            group(j.total)
        );
    }
    let stage = match p.stage {
        Some(s) if s != knights::count::Stage::Squares => format!(" ({})", s.name()),
        _ => String::new(),
    };
    let mut line = format!(
        "square {}/{}{stage}: {} states (peak so far {}, projected {})",
        p.step,
        p.steps,
        group(p.states as u64),
        group(p.peak as u64),
        group(p.projected_peak)
    );
    if p.on_disk {
        line += &format!(", {} on disk", knights::memory::human_bytes(p.disk_bytes));
    }
    line += &format!(", {left}");
    if let Some(w) = p.within {
        line += &format!("; square {}: {}", p.step + 1, within(&w));
    }
    line
}

/// How far a square in progress is: "912,000,000 of 1,869,565,461 states
/// expanded, 25 min in".
fn within(w: &knights::count::SquareProgress) -> String {
    let what = match w.phase {
        knights::count::SquarePhase::Expanding => "states expanded",
        knights::count::SquarePhase::Merging => "buckets merged",
    };
    let pass = match w.passes {
        1 => String::new(),
        n => format!(" (pass {} of {n})", w.pass),
    };
    format!(
        "{} of {} {what}{pass}, {} in",
        group(w.done),
        group(w.total),
        human_time(w.seconds)
    )
}

/// A dry run's workers (with `--processes`) and the memory of each
/// (`--max-memory`, else what this machine has available).
struct Spread {
    workers: Option<usize>,
    memory: Option<u64>,
}

/// `knights count --dry-run`: the projection alone.
fn dry_run_of(args: &CountArgs, plan: CountPlan, spread: Spread) -> Result<u8> {
    if spread.workers == Some(0) {
        return Err(knights::Error::Parse(
            "--processes takes the number of worker processes, 1 or more".into(),
        )
        .into());
    }
    let control = knights::Control::new().stop(crate::output::stop_on_ctrl_c());
    // The request's own plan, so that every option that changes it
    // (order, method, sweep, shape) reaches the projection.
    let answer = DryRunRequest::run_plan(plan, &control)?;
    if args.json {
        let mut json = serde_json::to_value(&answer)?;
        if let Some(n) = spread.workers {
            let w = answer.projection.per_worker(n);
            json["per_worker"] = json!({
                "workers": n, "peak_states": w.peak_states, "memory_bytes": w.memory_bytes,
                "join_bytes": w.join_bytes, "sent_bytes_per_square": w.sent_per_square,
                "sent_bytes": w.sent_bytes, "hours_alike": w.hours_alike,
                "memory_per_worker": memory_per_worker(&spread),
            });
        }
        crate::outln!("{json}")?;
        return Ok(crate::exit::EXIT_SUCCESS);
    }
    print_dry_run(&answer, &spread)
}

/// The dry run's answer in words.
fn print_dry_run(answer: &DryRunAnswer, spread: &Spread) -> Result<u8> {
    let (p, shape, source) = (&answer.projection, &answer.board, answer.source());
    let kind_name = answer.kind.name();
    let method = answer.method().name();
    let order = answer.order.name();
    let dir = &answer.work_dir;
    if source == Source::Nothing {
        crate::outln!(
            "{shape} {kind_name}: nothing to count (no tour exists), so no states, disk or time"
        )?;
        return Ok(crate::exit::EXIT_SUCCESS);
    }
    // Meeting in the middle, the parts' squares are counted one after the
    // other (and a part may take squares of the middle too).
    let at = if p.peak_step == 0 || p.steps == 0 {
        String::new()
    } else if method == "meet" {
        format!(
            " after square {} of the {} its two parts process",
            p.peak_step, p.steps
        )
    } else {
        format!(" after square {} of {}", p.peak_step, p.steps)
    };
    let what = match answer.of {
        CountOf::AllLengths => "tours of every length",
        CountOf::AllCells => "tours of every prefix of cells",
        CountOf::Symmetric => "tours a half turn keeps, on its quotient graph,",
        _ => "tours",
    };
    let how_counted = match order {
        "rows" => method.to_string(),
        order => format!("{method}, {order}"),
    };
    crate::outln!("{shape} {kind_name} {what} ({how_counted}), projected:")?;
    crate::outln!("  peak states  about {}{at}", group(p.peak_states))?;
    crate::outln!(
        "  disk         at most about {} at the peak, if the states go to disk (--work-dir, or past --max-memory)",
        knights::memory::human_bytes(p.disk_bytes)
    )?;
    crate::outln!("  time         about {}", human_time(p.seconds))?;
    let how = match source {
        Source::Trial => format!(
            "from a trial run of the first {} squares in {}, extended row by row at the growth it measured; within about a factor of 2 on the boards checked in BENCHMARKS.md, 3 for open tours met in the middle, but at least 1.6 times too low on 8x8 open and up to about 10 times too high on long strips (6x33 open)",
            p.measured_steps,
            human_time(p.trial.as_secs_f64())
        ),
        other => other.describe().to_string(),
    };
    crate::outln!("  ({how})")?;
    if !answer.plain && source == Source::Trial {
        crate::outln!(
            "  (on a board with holes or wrapping the model is rough: on the 5x5 torus it projects 450 million states where 309 million were counted; on a cylinder whose rows are rings it runs high, 105 million for the 6x10 one, which peaks at 7 million)"
        )?;
    }
    if let Some(n) = spread.workers {
        print_per_worker(p, n, spread)?;
    }
    if let Some(max) = answer.max_disk {
        let fits = if p.disk_bytes <= max {
            "fits in"
        } else {
            "is more than"
        };
        crate::outln!(
            "  the projection {fits} the disk budget of --max-disk ({})",
            knights::memory::human_bytes(max)
        )?;
    } else if let Some(free) = answer.free_disk_bytes {
        let budget = free / 100 * 80;
        let fits = if p.disk_bytes <= budget {
            "fits in"
        } else {
            "is more than"
        };
        crate::outln!(
            "  {} free on the disk of {}: the projection {fits} the default budget of 80 % ({})",
            knights::memory::human_bytes(free),
            dir.display(),
            knights::memory::human_bytes(budget)
        )?;
    }
    Ok(crate::exit::EXIT_SUCCESS)
}

/// The memory each worker has: `--max-memory`, else this machine's.
fn memory_per_worker(spread: &Spread) -> Option<u64> {
    spread.memory.or_else(knights::memory::available_bytes)
}

/// The dry run's lines for `n` workers.
fn print_per_worker(p: &knights::count::Projection, n: usize, spread: &Spread) -> Result<()> {
    let w = p.per_worker(n);
    let human = knights::memory::human_bytes;
    crate::outln!("  on {n} workers, each:")?;
    crate::outln!(
        "    states       about {} at the peak, taking about {} of memory",
        group(w.peak_states),
        human(w.memory_bytes)
    )?;
    if w.join_bytes > 0 {
        crate::outln!(
            "    join         about {} for its part of the table{}",
            human(w.join_bytes),
            if p.join == Some(knights::count::Join::Open) {
                " and every bottom state (past a third of its memory, on its disk)"
            } else {
                ""
            }
        )?;
    }
    crate::outln!(
        "    sends        about {} in the square after the peak, {} in all",
        human(w.sent_per_square),
        human(w.sent_bytes)
    )?;
    crate::outln!(
        "    time         about {} if each worker is as fast as this machine",
        human_time(w.hours_alike * 3600.0)
    )?;
    if let Some(memory) = memory_per_worker(spread) {
        let needed = w.memory_bytes.max(w.join_bytes);
        let verdict = if needed <= memory {
            "fits".to_string()
        } else {
            let more = (needed as f64 / memory as f64 * n as f64).ceil();
            format!(
                "does not fit (each worker holds its share in memory): about {more} workers would"
            )
        };
        crate::outln!("    with {} of memory each, it {verdict}", human(memory))?;
    }
    Ok(())
}

/// A number with thousands separators.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration in seconds in the largest fitting unit ("12 s", "4.5 min", "3.2 h").
fn human_time(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return "an unknown time".into();
    }
    if secs < 90.0 {
        format!("{secs:.0} s")
    } else if secs < 90.0 * 60.0 {
        format!("{:.1} min", secs / 60.0)
    } else if secs < 48.0 * 3600.0 {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.1} days", secs / 86400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_in_progress_is_told_after_the_square_before() {
        use knights::count::Stage;
        use knights::count::{Joining, SquarePhase, SquareProgress};
        let after = Progress {
            step: 37,
            steps: 48,
            states: 1_869_565_461,
            peak: 1_869_565_461,
            on_disk: true,
            generated: 0,
            disk_bytes: 7 << 30,
            projected_peak: 2_000_000_000,
            seconds_left: Some(11.0 * 3600.0),
            stage: Some(Stage::Squares),
            joining: None,
            within: None,
        };
        assert_eq!(
            status(&after),
            "square 37/48: 1,869,565,461 states (peak so far 1,869,565,461, projected 2,000,000,000), 7.0 GiB on disk, about 11.0 h left"
        );
        let within = |phase, pass, passes, done, total| Progress {
            within: Some(SquareProgress {
                phase,
                pass,
                passes,
                done,
                total,
                seconds: 1500.0,
            }),
            seconds_left: Some(10.6 * 3600.0),
            ..after
        };
        let expanding = within(SquarePhase::Expanding, 1, 1, 912_000_000, 1_869_565_461);
        assert_eq!(
            status(&expanding),
            "square 37/48: 1,869,565,461 states (peak so far 1,869,565,461, projected 2,000,000,000), 7.0 GiB on disk, about 10.6 h left; square 38: 912,000,000 of 1,869,565,461 states expanded, 25.0 min in"
        );
        let merging = within(SquarePhase::Merging, 2, 3, 40, 64);
        assert!(
            status(&merging)
                .ends_with("; square 38: 40 of 64 buckets merged (pass 2 of 3), 25.0 min in"),
            "{}",
            status(&merging)
        );
        // A meeting names its part, says when it is still estimating, and
        // after the last square tells the join.
        let bottom = Progress {
            stage: Some(Stage::BottomPart),
            seconds_left: None,
            on_disk: false,
            ..after
        };
        assert!(
            status(&bottom).starts_with("square 37/48 (bottom part): ")
                && status(&bottom).ends_with(", estimating the time left"),
            "{}",
            status(&bottom)
        );
        let join = Progress {
            stage: Some(Stage::Join),
            step: 48,
            seconds_left: Some(200.0),
            joining: Some(Joining {
                part: 1,
                parts: 1,
                done: 1_000,
                total: 4_000,
                seconds_left: None,
            }),
            ..after
        };
        assert_eq!(
            status(&join),
            "join: 1,000 of 4,000 bottom states joined, about 3.3 min left"
        );
    }
}
