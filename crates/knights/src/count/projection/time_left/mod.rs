//! A count's time left: one estimator for every phase of it (a forward
//! count's squares; a meeting's top part, bottom part and join), a pure
//! function of the work recorded so far ([`time_left`]), so that recorded
//! runs test it; and the `Tracker` that records a running count's work
//! from its progress and tells the estimate with each report.
//!
//! A frontier phase's own time left is the projection's (the `project`
//! module: its successors still to come at the time per successor of its
//! last row); a join's is its time so far scaled by the states still to
//! join. The estimate is `None` ("estimating") until each phase still to
//! run can be judged: the phase running must have done a quarter of its
//! squares and run [`MIN_SECONDS`] (the first squares take too little to
//! time, and the first rows' growth is not the later rows'), a frontier
//! phase not begun cannot be judged at all, and a join not begun is taken
//! as [`JOIN_SHARE`] of the time of the part before it.

use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;

use crate::count::engine::executor::FrontierProgress;
use crate::Kind;

/// The phase of a count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The squares of one forward program.
    Squares,
    /// A meeting's top part.
    TopPart,
    /// A meeting's bottom part.
    BottomPart,
    /// A meeting's join of the two parts' final states.
    Join,
}

impl Stage {
    /// The phase's name for people: "squares", "top part", "bottom part",
    /// "join".
    pub fn name(self) -> &'static str {
        match self {
            Stage::Squares => "squares",
            Stage::TopPart => "top part",
            Stage::BottomPart => "bottom part",
            Stage::Join => "join",
        }
    }
}

/// The work of one phase so far.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PhaseWork {
    /// The phase.
    pub stage: Stage,
    /// Its squares (a join: the states it joins; 0 while unknown).
    pub total: u64,
    /// The squares (states) done.
    pub done: u64,
    /// Seconds it has run (0 if not begun).
    pub seconds: f64,
    /// Seconds it had run when its last square ended.
    pub at_square: f64,
    /// A frontier phase: the projection's seconds left in it, made at its
    /// last square.
    pub model_left: Option<f64>,
}

impl PhaseWork {
    /// A phase of `total` squares not begun.
    pub fn new(stage: Stage, total: u64) -> PhaseWork {
        PhaseWork {
            stage,
            total,
            done: 0,
            seconds: 0.0,
            at_square: 0.0,
            model_left: None,
        }
    }

    /// Whether it has begun: work done or time run, or a join told its
    /// states at its start.
    fn begun(&self) -> bool {
        self.done > 0 || self.seconds > 0.0 || (self.stage == Stage::Join && self.total > 0)
    }
}

/// What a count is doing and the seconds it has left, if known.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeLeft {
    /// The phase running.
    pub stage: Stage,
    /// Seconds left in the whole count (every phase still to run);
    /// `None` while estimating.
    pub seconds: Option<f64>,
}

/// The least seconds a phase runs before its time left is told.
pub const MIN_SECONDS: f64 = 3.0;

/// A join not begun, as a share of the time of the part before it (its
/// seconds so far and left): the join of a closed meeting streams the
/// bottom part's final states past the top part's table, that of an open
/// one reads and folds them part by part. Measured on recorded runs
/// (`time_left` tests).
pub const JOIN_SHARE: [(Kind, f64); 2] = [(Kind::Closed, 0.6), (Kind::Open, 0.3)];

/// The share of `kind`'s join (see [`JOIN_SHARE`]).
pub fn join_share(kind: Kind) -> f64 {
    JOIN_SHARE.iter().find(|s| s.0 == kind).map_or(0.5, |s| s.1)
}

/// The estimate after the work of `phases` (in the order they run): the
/// phase running (the last begun) and the seconds left in all of them; a
/// join not begun is `join_share` of the part before it.
pub fn time_left(phases: &[PhaseWork], join_share: f64) -> TimeLeft {
    let current = phases.iter().rposition(PhaseWork::begun).unwrap_or(0);
    let stage = phases.get(current).map_or(Stage::Squares, |p| p.stage);
    let mut left = 0.0;
    // The seconds, run and left, of the phase before the one judged.
    let mut before: Option<f64> = None;
    for (i, p) in phases.iter().enumerate() {
        let this = if i < current {
            Some(0.0)
        } else if p.stage == Stage::Join {
            join_left(p, before, join_share, i == current)
        } else if i == current {
            frontier_left(p)
        } else {
            None
        };
        let Some(this) = this else {
            return TimeLeft {
                stage,
                seconds: None,
            };
        };
        left += this;
        before = Some(p.seconds + this);
    }
    TimeLeft {
        stage,
        seconds: Some(left),
    }
}

/// A frontier phase's seconds left, once it has run long enough to judge.
fn frontier_left(p: &PhaseWork) -> Option<f64> {
    if p.done >= p.total && p.total > 0 {
        return Some(0.0);
    }
    if p.seconds < MIN_SECONDS || p.done * 4 < p.total {
        return None;
    }
    // Within a square, the projection made at the square before has run
    // for as long as the square has.
    p.model_left
        .map(|m| (m - (p.seconds - p.at_square)).max(0.0))
}

/// A join's seconds left: its rate so far once it has run long enough and
/// joined a hundredth of its states, else `share` of the part before it.
fn join_left(p: &PhaseWork, before: Option<f64>, share: f64, running: bool) -> Option<f64> {
    if running && p.seconds >= MIN_SECONDS && p.total > 0 && p.done * 100 >= p.total {
        return Some(p.seconds * (p.total - p.done.min(p.total)) as f64 / p.done as f64);
    }
    let prior = before? * share;
    Some((prior - p.seconds).max(0.0))
}

/// Records a running count's work from its progress reports (the layout
/// of its phases given at the start) and tells [`time_left`] with each.
pub(crate) struct Tracker {
    started: Instant,
    share: f64,
    /// The squares before each phase, in the reports' numbering.
    offsets: Vec<u64>,
    state: Mutex<Track>,
}

struct Track {
    phases: Vec<PhaseWork>,
    /// When each phase began, in seconds from the start.
    began: Vec<Option<f64>>,
}

impl Tracker {
    /// A tracker of a count whose phases are `layout` (each with its
    /// squares, a join with 0), `kind` choosing the join's share.
    pub(crate) fn new(layout: &[(Stage, usize)], kind: Kind) -> Tracker {
        let mut offsets = Vec::with_capacity(layout.len());
        let mut at = 0u64;
        for &(_, n) in layout {
            offsets.push(at);
            at += n as u64;
        }
        Tracker {
            started: Instant::now(),
            share: join_share(kind),
            offsets,
            state: Mutex::new(Track {
                phases: layout
                    .iter()
                    .map(|&(stage, n)| PhaseWork::new(stage, n as u64))
                    .collect(),
                began: vec![None; layout.len()],
            }),
        }
    }

    /// `p` with the phase and the estimate of the whole count.
    pub(crate) fn see(&self, p: &FrontierProgress) -> FrontierProgress {
        let now = self.started.elapsed().as_secs_f64();
        let mut track = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let Track { phases, began } = &mut *track;
        if phases.is_empty() {
            return *p;
        }
        let join = phases.iter().position(|w| w.stage == Stage::Join);
        let square = p.step as u64 + u64::from(p.within.is_some());
        let i = match (p.joining, join) {
            (Some(_), Some(j)) => j,
            _ => {
                let last = join.unwrap_or(phases.len()).max(1) - 1;
                (0..=last)
                    .rev()
                    .find(|&i| square > self.offsets[i])
                    .unwrap_or(0)
            }
        };
        // A run that starts again from its first square (the quotients
        // of a symmetry after the whole board's count) is a phase anew.
        if phases.len() == 1 && p.within.is_none() && (square as f64) < phases[0].done as f64 {
            phases[0] = PhaseWork::new(phases[0].stage, p.steps as u64);
            began[0] = Some(now);
        }
        for earlier in phases.iter_mut().take(i) {
            earlier.done = earlier.done.max(earlier.total);
            earlier.model_left = Some(0.0);
        }
        let start = *began[i].get_or_insert(if i == 0 { 0.0 } else { now });
        let w = &mut phases[i];
        w.seconds = now - start;
        if let Some(j) = p.joining {
            w.total = j.parts * j.total;
            w.done = (j.part.max(1) - 1) * j.total + j.done;
        } else if p.within.is_none() {
            if w.total == 0 {
                w.total = (p.steps as u64).saturating_sub(self.offsets[i]);
            }
            w.done = square - self.offsets[i];
            w.at_square = w.seconds;
            w.model_left = p.seconds_left;
        }
        let estimate = time_left(phases, self.share);
        FrontierProgress {
            stage: Some(estimate.stage),
            seconds_left: estimate.seconds,
            ..*p
        }
    }
}

#[cfg(test)]
mod tests;
