//! One way to watch and stop long work: a [`Control`] holds the caller's
//! [`StopFlag`] and progress callback, and every long operation (a count,
//! an estimate, statistics) takes one and reports through it one value
//! type, [`Progress`], so that every caller watches and stops work the
//! same way.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::{Result, StopFlag};

/// What long work is doing when it reports [`Progress`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// An exact count: `done` squares of `total` processed.
    Counting,
    /// An estimate: `done` probes (walks or runs) finished.
    Estimating,
    /// Statistics: `done` samples of `total` drawn.
    Sampling,
    /// A search: `done` nodes of a budget of `total`, or (an enumeration)
    /// `done` ranges of `total` finished.
    Searching,
}

/// How far long work has come: one value for counts, estimates and
/// statistics.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// What the work is.
    pub phase: Phase,
    /// Steps done so far (squares, probes or samples).
    pub done: u64,
    /// Steps in all, where known in advance.
    pub total: Option<u64>,
    /// States held now (a count's frontier), where the work has states.
    pub states: Option<u64>,
    /// A count's figures of the square just done (peak, disk, projection).
    pub frontier: Option<crate::count::FrontierProgress>,
}

impl Progress {
    /// `done` steps of `phase` out of `total`, without states.
    pub fn new(phase: Phase, done: u64, total: Option<u64>) -> Progress {
        Progress {
            phase,
            done,
            total,
            states: None,
            frontier: None,
        }
    }
}

/// The callback a [`Control`] calls with each [`Progress`].
type Callback = Arc<dyn Fn(&Progress) + Send + Sync>;

/// The stop flag and progress callback of one long operation; clones share
/// both.
///
/// # Example
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use std::sync::Arc;
/// use knights::{stats::{Sampled, Summary}, Control, Progress, StopFlag, Wanted};
/// let seen = Arc::new(AtomicU64::new(0));
/// let counter = Arc::clone(&seen);
/// let control = Control::new()
///     .stop(StopFlag::new())
///     .progress(move |p: &Progress| { counter.fetch_max(p.done, Ordering::Relaxed); });
/// let job = Sampled::Tour("warnsdorff".parse()?, Wanted::Either, None);
/// let s = Summary::builder("8x8".parse()?, job).samples(10).control(&control).run()?;
/// assert_eq!((s.count, seen.load(Ordering::Relaxed)), (10, 10));
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Control {
    stop: StopFlag,
    progress: Option<Callback>,
}

impl Control {
    /// A control that never stops and reports nowhere.
    pub fn new() -> Control {
        Control::default()
    }

    /// Watches `flag`: raising it stops the work with
    /// [`crate::Error::Interrupted`].
    pub fn stop(mut self, flag: StopFlag) -> Control {
        self.stop = flag;
        self
    }

    /// Calls `f` with each [`Progress`] (from any thread).
    pub fn progress(mut self, f: impl Fn(&Progress) + Send + Sync + 'static) -> Control {
        self.progress = Some(Arc::new(f));
        self
    }

    /// The stop flag watched.
    pub fn stop_flag(&self) -> &StopFlag {
        &self.stop
    }

    /// Hands `progress` to the callback, if any.
    pub fn report(&self, progress: &Progress) {
        if let Some(f) = &self.progress {
            f(progress);
        }
    }

    /// Whether the stop flag is raised.
    pub fn is_stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    /// [`crate::Error::Interrupted`] saying that `what` was stopped, if the
    /// flag is raised.
    pub fn check(&self, what: &str) -> Result<()> {
        self.stop.check(what)
    }
}

impl PartialEq for Control {
    /// Two controls are equal when they watch the same flag and report to
    /// the same callback (or both to none).
    fn eq(&self, other: &Control) -> bool {
        let same_progress = match (&self.progress, &other.progress) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        self.stop == other.stop && same_progress
    }
}

impl Eq for Control {}

impl fmt::Debug for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("stopped", &self.stop.is_stopped())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_equal_when_they_share_the_flag_and_the_callback() {
        let control = Control::new().progress(|_| {});
        assert_eq!(control, control.clone());
        assert_ne!(control, Control::new());
        let flag = StopFlag::new();
        assert_eq!(Control::new().stop(flag.clone()), Control::new().stop(flag));
        assert_ne!(Control::new(), Control::new());
    }
}
