//! The driver: runs the frontier program square by square on an
//! executor (resume, checkpoints, progress, stopping), with counts as
//! wide as they need.

use std::time::Instant;

use super::checkpoint::{check_checkpoint, fingerprint, open, resumes_ranked_keys};
use super::local::Local;
use super::options::{overflow, FrontierProgress, Run, RunOptions};
use super::spread::Spread;
use super::spread_checkpoint::ShareFiles;
use super::step::{Executor, Square};
use super::words::{entry_bytes, Key, Stop, Tally, COUNT_BITS};
use crate::count::engine::frontier::{Engine, Problem};
use crate::count::engine::number::Count;
use crate::count::projection::project;
use crate::{Error, Result};

use bnum::types::{U1024, U2048, U256, U4096, U512};

/// Runs the dynamic program on `p`, with counts as wide as
/// `opts.count_bits` asks and wider if they overflow.
pub(crate) fn run(p: &Problem, opts: &RunOptions<'_>) -> Result<Run> {
    let engine = if resumes_ranked_keys(p, opts) {
        Engine::ranked(p)?
    } else {
        Engine::new(p)?
    };
    run_engine(p, &engine, opts)
}

/// [`run`] with the program `engine` of `p`.
fn run_engine(p: &Problem, engine: &Engine, opts: &RunOptions<'_>) -> Result<Run> {
    // Workers check their own checkpoints, together (see `spread_checkpoint.rs`).
    if opts.workers.is_none() {
        check_checkpoint(p, opts)?;
    }
    let narrow = engine.key_bits <= 64;
    let mut width = COUNT_BITS
        .iter()
        .position(|&b| b >= opts.count_bits)
        .unwrap_or(COUNT_BITS.len() - 1);
    loop {
        let outcome = if narrow {
            run_width::<u64>(p, engine, opts, width)
        } else {
            run_width::<u128>(p, engine, opts, width)
        };
        match outcome {
            Ok(run) => return Ok(run),
            Err(Stop::Err(e)) => return Err(e),
            Err(Stop::Overflow) if width + 1 < COUNT_BITS.len() => width += 1,
            Err(Stop::Overflow) => return Err(overflow()),
            Err(Stop::OverMemory(_)) => {
                return Err(Error::Internal(
                    "a count on disk passed its memory bound".into(),
                ))
            }
        }
    }
}

fn run_width<K: Key>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
    width: usize,
) -> std::result::Result<Run, Stop> {
    match COUNT_BITS[width] {
        64 => run_local::<K, u64>(p, engine, opts),
        128 => run_local::<K, u128>(p, engine, opts),
        256 => run_local::<K, U256>(p, engine, opts),
        512 => run_local::<K, U512>(p, engine, opts),
        1024 => run_local::<K, U1024>(p, engine, opts),
        2048 => run_local::<K, U2048>(p, engine, opts),
        _ => run_local::<K, U4096>(p, engine, opts),
    }
}

/// Runs `p` on this machine's executor, from its checkpoint if it
/// resumes, or spread over the workers of `opts.workers`.
fn run_local<K: Key, C: Tally>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
) -> std::result::Result<Run, Stop> {
    if let Some(ex) = opts.workers {
        return run_spread::<K, C>(p, engine, opts, ex);
    }
    let fp = fingerprint::<K, C>(p, engine);
    let fresh = Run {
        slots: engine.width,
        key_bytes: K::BYTES,
        peak: 1,
        ..Run::default()
    };
    let opened = open::<K, C>(&fp, opts, engine.steps.len(), fresh)?;
    if opened.finished && opts.final_layer.is_none() {
        return Ok(opened.run);
    }
    let start = K::from_u128(engine.start_key());
    let mut local = Local::<K, C>::new(start, fp, opened.disk, opts);
    if opened.step > 0 {
        local.resume(opened.files, &opened.sizes, opened.packed, opened.raw_bytes);
    }
    drive(p, engine, opts, &mut local, opened.step, opened.run)
}

/// Runs `p` spread over the workers of `ex`, in their memory.
fn run_spread<K: Key, C: Tally>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
    ex: &dyn crate::count::Exchange,
) -> std::result::Result<Run, Stop> {
    let fresh = Run {
        slots: engine.width,
        key_bytes: K::BYTES,
        peak: 1,
        ..Run::default()
    };
    let shares = ShareFiles::new(opts, &fingerprint::<K, C>(p, engine), ex)?;
    let mut spread = Spread::<K, C>::new(ex, K::from_u128(engine.start_key()), shares);
    let n = engine.steps.len();
    let (t0, start) = spread.open(opts, n, fresh)?;
    // A finished run resumed: its count is the checkpoint's.
    let finished = (t0 == n).then_some(start.count);
    let mut run = drive(p, engine, opts, &mut spread, t0, start)?;
    if let Some(count) = finished {
        run.count = count;
    }
    (run.sent_bytes, run.held_peak) = (spread.sent, spread.held_peak);
    Ok(run)
}

/// Runs the squares from `t0` on `exec`, whose layer is that after square
/// `t0` (`run`: the figures so far); hands the final layer to
/// `opts.final_layer`.
pub(super) fn drive<K: Key, C: Tally>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
    exec: &mut impl Executor<K, C>,
    t0: usize,
    mut run: Run,
) -> std::result::Result<Run, Stop> {
    let n = engine.steps.len();
    let mut total = C::ZERO;
    let mut watch = Watch::new(p, engine, entry_bytes::<K, C>() as u64);
    // The figures after the square before, which reports within a square
    // carry. A resumed run says at once where its checkpoint left it: its
    // next square may take long.
    let mut before = opts.progress.map(|f| {
        let disk = exec.on_disk().then(|| exec.disk_bytes());
        if t0 == 0 || t0 == n {
            let states = exec.states() as usize;
            return FrontierProgress {
                states,
                ..figures_at(&run, t0, n, disk, &[])
            };
        }
        let p = watch.resumed(&run, t0, n, disk);
        f(&p);
        p
    });
    for t in t0..n {
        let sq = Square {
            engine,
            step: &engine.steps[t],
            t,
            n,
            expected: expected(&run.states_per_step, exec.states()),
            opts,
            before,
        };
        let s = exec.step(&sq)?;
        total = total.add(s.done).ok_or(Stop::Overflow)?;
        if sq.step.prefix {
            run.prefix_counts
                .push((t + 1, Count::from_big(s.prefix.big())));
        }
        run.peak = run.peak.max(s.states);
        run.states_per_step.push(s.states);
        run.generated += s.generated;
        run.peak_disk = run.peak_disk.max(exec.peak_disk());
        if exec.on_disk() {
            run.on_disk = true;
        }
        if t + 1 == n {
            run.count = Count::from_big(total.big());
        }
        exec.checkpoint(&sq, &run)?;
        if let Some(f) = opts.progress {
            let disk = exec.on_disk().then(|| exec.disk_bytes());
            let p = watch.progress(&run, t, n, s.generated, disk);
            f(&p);
            before = Some(p);
        }
        if t + 1 < n {
            exec.check_stop(opts, &format!("after square {} of {n}", t + 1))?;
            if let Some(e) = out_of_reach(p, &watch, opts, &run, t + 1, n, exec.on_disk()) {
                // In a work directory the checkpoint stays, for a disk
                // a thousand times larger.
                return Err(match opts.count.work_dir.as_deref() {
                    Some(_) => e.with_hint(crate::Hint::ResumeWithRoom),
                    None => e,
                }
                .into());
            }
        }
    }
    run.count = Count::from_big(total.big());
    if let Some(consume) = opts.final_layer {
        exec.hand_over(consume, opts)?;
    }
    Ok(run)
}

/// How many times its disk budget a count must be projected to need
/// before it stops as out of reach: the projection is within a factor of a
/// few where it has been checked, so a count stopped would not have fit.
const OUT_OF_REACH: u64 = 1000;

/// The fewest bytes a state takes on disk (packed: a key's difference
/// from the one before and a count, a byte or more each).
const LEAST_DISK_BYTES_PER_STATE: u64 = 2;

/// [`Error::OutOfReach`] if, after `done` squares of `n` (at least two
/// rows', so that the growth is measured), the states are projected to
/// outgrow the memory bound and to need more than [`OUT_OF_REACH`] times
/// the disk budget at their peak. Only where the options ask
/// ([`RunOptions::judge_reach`]); not for a count kept in memory, whose
/// bound stops it, one spread over workers, each with its own disk, or a
/// sweep over prefixes, whose states the bounds of the prefixes cut late,
/// so that the projection, which extends the growth measured, would judge
/// out of reach sweeps that fit.
fn out_of_reach(
    p: &Problem,
    watch: &Watch,
    opts: &RunOptions<'_>,
    run: &Run,
    done: usize,
    n: usize,
    on_disk: bool,
) -> Option<Error> {
    let sweep = !p.prefixes.is_empty();
    if !opts.judge_reach
        || done < 2 * watch.growth.w
        || sweep
        || opts.memory_only.is_some()
        || opts.workers.is_some()
    {
        return None;
    }
    let projected = project::extend(&run.states_per_step, n, watch.growth);
    let (peak, peak_square) = projected
        .iter()
        .enumerate()
        .skip(done)
        .map(|(t, &x)| (x, t + 1))
        .max()?;
    let fits_memory = peak.saturating_mul(super::disk::STEP_BYTES_PER_STATE) <= opts.budget();
    if fits_memory && !on_disk {
        return None;
    }
    let dir = opts
        .count
        .work_dir
        .clone()
        .unwrap_or_else(std::env::temp_dir);
    let free = crate::memory::free_disk_bytes(&dir);
    let limit = super::disk::disk_limit(opts.count.max_disk, free)?;
    let needed = peak.saturating_mul(LEAST_DISK_BYTES_PER_STATE);
    (needed / OUT_OF_REACH > limit).then(|| Error::OutOfReach {
        square: done,
        squares: n,
        needed,
        peak_square,
        budget: super::disk::budget_phrase(opts.count.max_disk, free, 0, &dir),
        hint: None,
    })
}

/// The states expected after the next square of a layer of `states`: as
/// many times more as the last square gave (1 to 4, 4 at first).
fn expected(states_per_step: &[u64], states: u64) -> u64 {
    let growth = match states_per_step.len() {
        0 | 1 => 4.0,
        l => (states_per_step[l - 1] as f64 / states_per_step[l - 2].max(1) as f64).clamp(1.0, 4.0),
    };
    (states as f64 * growth) as u64 + 1
}

/// The figures behind a run's progress: its squares' states, successors
/// and times, and the shape the projection follows.
struct Watch {
    growth: project::Growth,
    entry_bytes: u64,
    /// Per square of this run: (states, successors, seconds since the start).
    timeline: Vec<(u64, u64, f64)>,
    started: Instant,
}

impl Watch {
    fn new(p: &Problem, engine: &Engine, entry_bytes: u64) -> Watch {
        Watch {
            growth: project::Growth::of(p, engine),
            entry_bytes,
            timeline: Vec::new(),
            started: Instant::now(),
        }
    }

    /// The progress of a run resumed after square `t0` of `n`, before it
    /// steps: its checkpoint's figures, with no time measured yet.
    fn resumed(&self, run: &Run, t0: usize, n: usize, disk: Option<u64>) -> FrontierProgress {
        let projected = project::extend(&run.states_per_step, n, self.growth);
        figures_at(run, t0, n, disk, &projected)
    }

    /// The progress after square `t + 1` of `n`, which generated
    /// `generated` successors, with the layer's bytes on disk if it is there.
    fn progress(
        &mut self,
        run: &Run,
        t: usize,
        n: usize,
        generated: u64,
        disk: Option<u64>,
    ) -> FrontierProgress {
        let states = run.states_per_step.last().copied().unwrap_or(0);
        let elapsed = self.started.elapsed().as_secs_f64();
        self.timeline.push((states, generated, elapsed));
        let projected = project::extend(&run.states_per_step, n, self.growth);
        let (ratio, per) = project::rates(&self.timeline, self.growth.w);
        let (_, _, _, left) = project::figures(&projected, t + 1, ratio, self.entry_bytes);
        FrontierProgress {
            generated,
            seconds_left: (per > 0.0).then_some(per * left),
            ..figures_at(run, t + 1, n, disk, &projected)
        }
    }
}

/// The figures of `run` after square `step` of `n` whose states are
/// projected to be `projected`, with no successors or time counted.
fn figures_at(
    run: &Run,
    step: usize,
    n: usize,
    disk: Option<u64>,
    projected: &[u64],
) -> FrontierProgress {
    let peak = projected.iter().copied().max().unwrap_or(0);
    FrontierProgress {
        step,
        steps: n,
        states: run.states_per_step.last().copied().unwrap_or(0) as usize,
        peak: run.peak as usize,
        on_disk: disk.is_some(),
        generated: 0,
        disk_bytes: disk.unwrap_or(0),
        projected_peak: peak.max(run.peak),
        seconds_left: None,
        stage: None,
        joining: None,
        within: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::plan::strip_problem;
    use crate::count::{CountOptions, FrontierProgress, Kind, SquareOrder};

    /// A count of a board 7 wide stopped with ranked keys (as versions of
    /// knights before nibble keys reached 7 wide wrote it) resumes with
    /// ranked keys from its checkpoint, to the count of a fresh run.
    #[test]
    fn a_checkpoint_of_ranked_keys_resumes_with_them() {
        let p = strip_problem(5, 7, Kind::Open, SquareOrder::Rows);
        let fresh = run(&p, &RunOptions::default()).unwrap();
        assert!(Engine::new(&p).unwrap().nibble_keys);
        let dir = tempfile::tempdir().unwrap();
        let flag = crate::StopFlag::default();
        let resuming = std::sync::atomic::AtomicBool::new(false);
        let squares = std::sync::Mutex::new(Vec::new());
        let record = |pr: &FrontierProgress| {
            if pr.within.is_none() {
                squares.lock().unwrap().push(pr.step);
            }
            if pr.step == 20 && !resuming.load(std::sync::atomic::Ordering::Relaxed) {
                flag.stop();
            }
        };
        let run_in = |resume: bool, engine: Option<Engine>| {
            let count = CountOptions {
                work_dir: Some(dir.path().to_path_buf()),
                resume,
                ..CountOptions::default()
            };
            let opts = RunOptions {
                count: &count,
                stop: (!resume).then_some(&flag),
                progress: Some(&record),
                ..RunOptions::default()
            };
            match engine {
                Some(engine) => run_engine(&p, &engine, &opts),
                None => run(&p, &opts),
            }
        };
        let stopped = run_in(false, Some(Engine::ranked(&p).unwrap())).unwrap_err();
        assert!(stopped.to_string().contains("after square 20"), "{stopped}");
        squares.lock().unwrap().clear();
        resuming.store(true, std::sync::atomic::Ordering::Relaxed);
        let resumed = run_in(true, None).unwrap();
        assert_eq!(resumed.count, fresh.count);
        assert!(resumed.count != Count::ZERO);
        // From the checkpoint on: no square before it was run again.
        let again = squares.lock().unwrap();
        assert!(again.iter().all(|&s| s >= 20), "{again:?}");
    }
}
