//! A projection's trial run (see `Counter::project`): the first squares of
//! each problem of a count run in memory, for a few seconds or until their
//! states pass a bound, and the `project` model extends the states
//! measured to the last square. A trial that finishes is the count itself,
//! so its figures are the real ones.

use super::project::{self, Projection, Source};
use crate::count::engine::executor::{self, RunOptions};
use crate::count::engine::frontier::{Engine, Problem};
use crate::count::FrontierProgress;
use crate::{Result, StopFlag};

/// The longest a projection's trial run takes, in seconds (all the
/// problems together, such as both parts when meeting in the middle), and
/// the states after which it stops early.
const TRIAL_SECONDS: f64 = 20.0;
const TRIAL_STATES: u64 = 6_000_000;

/// The projection of a count that runs `problems` one after another: each
/// tried for its share of [`TRIAL_SECONDS`], the peak the highest of
/// theirs, the steps, time and states of all in a row. A raised `stop`
/// stops it with [`crate::Error::Interrupted`].
pub(crate) fn project(problems: &[Problem], stop: Option<&StopFlag>) -> Result<Projection> {
    let seconds = TRIAL_SECONDS / problems.len() as f64;
    let mut total = Projection {
        source: Some(Source::Complete),
        ..Projection::default()
    };
    for p in problems {
        let one = trial(p, seconds, stop)?;
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
        total.successors_per_state = total.successors_per_state.max(one.successors_per_state);
        total.state_bytes = total.state_bytes.max(one.state_bytes);
        total.final_states.extend(one.final_states);
        if one.source == Some(Source::Trial) {
            total.source = Some(Source::Trial);
        }
    }
    Ok(total)
}

/// Runs the first squares of `p` in memory for at most `seconds` (or until
/// [`TRIAL_STATES`]) and projects the rest.
fn trial(p: &Problem, seconds: f64, stop: Option<&StopFlag>) -> Result<Projection> {
    let rec = project::Trial::new();
    let flag = StopFlag::new();
    let record = |pr: &FrontierProgress| {
        if pr.within.is_some() {
            // Not a square's end: the stop is judged at squares' ends.
            return;
        }
        let at = rec.start.elapsed().as_secs_f64();
        rec.steps.lock().unwrap_or_else(|e| e.into_inner()).push((
            pr.states as u64,
            pr.generated,
            at,
        ));
        if at > seconds || pr.states as u64 > TRIAL_STATES || stop.is_some_and(StopFlag::is_stopped)
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
            if matches!(e, crate::Error::Interrupted(_))
                && !stop.is_some_and(StopFlag::is_stopped) =>
        {
            false
        }
        Err(crate::Error::Interrupted(_)) => {
            return Err(crate::Error::Interrupted(
                "the projection was stopped".into(),
            ))
        }
        Err(e) => return Err(e),
    };
    let trial = rec.start.elapsed();
    let steps = rec.steps.into_inner().unwrap_or_else(|e| e.into_inner());
    let measured: Vec<u64> = steps.iter().map(|s| s.0).collect();
    let engine = Engine::new(p)?;
    let growth = project::Growth::of(p, &engine);
    let states = project::extend(&measured, p.n, growth);
    let (ratio, per) = project::rates(&steps, growth.w);
    let entry_bytes = if engine.key_bits <= 64 { 16 } else { 24 };
    let (peak, at, disk, left) = project::figures(&states, measured.len(), ratio, entry_bytes);
    let last = states.last().copied();

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
        successors_per_state: ratio,
        state_bytes: if entry_bytes == 16 { 16 } else { 32 },
        final_states: last.into_iter().collect(),
        join: None,
    })
}
