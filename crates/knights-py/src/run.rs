//! Running library work from Python: on the calling thread (`guard`,
//! `run_inline`) or on a watched worker thread (`run_watched`) that gives
//! Ctrl-C back to Python at once; a panic becomes an internal error.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::errors::lib;
use knights::{Error, StopFlag};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks for Ctrl-C while a worker runs.
const WATCH: Duration = Duration::from_millis(20);

/// A caught panic as an internal error.
fn panic_error(payload: &(dyn std::any::Any + Send)) -> Error {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    Error::Internal(what.into())
}

/// Runs quick library work on the calling thread, a panic becoming an
/// internal error.
pub(crate) fn guard<T>(py: Python<'_>, work: impl FnOnce() -> knights::Result<T>) -> PyResult<T> {
    let r = catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|p| Err(panic_error(&*p)));
    lib(py, r)
}

/// Runs quick work on the calling thread with the GIL released (other
/// Python threads go on meanwhile), a panic becoming an internal error.
pub(crate) fn run_inline<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> knights::Result<T> + Send,
) -> PyResult<T> {
    let r = py
        .detach(|| catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|p| Err(panic_error(&*p))));
    lib(py, r)
}

/// How long an interrupted call waits for its worker to see the stop flag
/// before it raises `KeyboardInterrupt` all the same. Work that watches the
/// flag returns well within it; work that does not yet (see `run_watched`)
/// finishes on its own in the background.
const GRACE: Duration = Duration::from_secs(1);

/// What a watched call shares with its worker thread: the flag that Ctrl-C
/// raises, and the first exception raised by Python code the work calls
/// back (a progress callback), which wins over the work's result.
#[derive(Clone, Default)]
pub(crate) struct Watch {
    stop: StopFlag,
    failed: Arc<Mutex<Option<PyErr>>>,
}

impl Watch {
    /// Keeps the first exception of a callback and stops the work.
    pub(crate) fn fail(&self, e: PyErr) {
        if let Ok(mut slot) = self.failed.lock() {
            slot.get_or_insert(e);
        }
        self.stop.stop();
    }

    /// The exception a callback raised, if any.
    fn failure(&self) -> Option<PyErr> {
        self.failed.lock().map(|mut f| f.take()).unwrap_or(None)
    }
}

/// Runs `work` on a worker thread with the GIL released (other Python
/// threads go on meanwhile), handing it the watch's stop flag, while this
/// thread checks for signals every [`WATCH`]. A pending `KeyboardInterrupt`
/// (or any exception a signal handler raises) raises the flag, waits up to
/// [`GRACE`] for the worker to return, and is raised instead of the work's
/// result. Every long call goes through here, so that the library's
/// entry points that do not yet take a stop flag still give Ctrl-C back to
/// Python at once; their worker then ends in the background. A panic of
/// the work is an internal error.
pub(crate) fn run_watched<T: Send + 'static>(
    py: Python<'_>,
    watch: &Watch,
    work: impl FnOnce(StopFlag) -> knights::Result<T> + Send + 'static,
) -> PyResult<T> {
    let (tx, mut rx) = mpsc::channel();
    let stop = watch.stop.clone();
    std::thread::Builder::new()
        .name("knights-work".into())
        .spawn(move || {
            let r = catch_unwind(AssertUnwindSafe(|| work(stop)))
                .unwrap_or_else(|p| Err(panic_error(&*p)));
            let _ = tx.send(r);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("could not start a worker thread: {e}")))?;
    let result = loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(WATCH);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(r) => break r,
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    watch.stop.stop();
                    py.detach(move || {
                        let _ = rx.recv_timeout(GRACE);
                    });
                    return Err(watch.failure().unwrap_or(interrupt));
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                break Err(Error::Internal(
                    "the worker thread ended without an answer".into(),
                ))
            }
        }
    };
    match watch.failure() {
        Some(e) => Err(e),
        None => lib(py, result),
    }
}
