//! Stopping long work from outside: a flag that a Ctrl-C handler, another
//! thread or a web request's cancellation raises, and that searches and
//! counts watch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag the caller raises to stop a search early (from another thread or
/// a Ctrl-C handler); clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not raised.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Raises the flag: searches watching it stop soon after.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl PartialEq for StopFlag {
    /// Two flags are equal when they are the same flag.
    fn eq(&self, other: &StopFlag) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopFlag {}
