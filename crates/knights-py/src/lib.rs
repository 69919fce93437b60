//! The native half of the Python package `knights`: keyword arguments
//! mapped onto the library's requests ([`knights::request`]), which the
//! library validates and runs, compiled as the extension module
//! `knights._native` (PyO3, stable ABI 3.9+).
//!
//! The public classes `knights.Tour` and `knights.Tourney` are defined here
//! (`classes`, with their methods in `tour` and `tourney`), `to_numpy()`
//! included, `knights.Position` and its `Hint` (`position`), and the
//! clue puzzles' `knights.Puzzle` (`puzzle`, its pictures in `puzzle_pictures`); `python/knights/__init__.py` re-exports them, adds the
//! notebook's `_repr_svg_` and gives the functions their keyword arguments
//! and docstrings. One module per job; across them:
//!
//! - every library error becomes an exception of `knights._errors` chosen
//!   from [`knights::Error::category`] in one place, `errors::to_pyerr`;
//! - every long call runs on a worker thread with the GIL released while
//!   the calling thread watches for Ctrl-C (`run::run_watched`): a signal raises
//!   the library's [`knights::StopFlag`] and the call ends with `KeyboardInterrupt`;
//! - large lists (squares, grids, cycles) are built only after
//!   `memory::ensure_memory` has checked they fit: a list too large for
//!   memory is `MemoryError`, never a null pointer or an aborted allocation;
//! - a panic of the library is caught and raised as `knights.InternalError`,
//!   never as a Rust panic;
//! - the knight graph of any board (`graph`), which `knights.graph`
//!   hands to networkx and numpy;
//! - the `knights` command itself (`command`): the console script and
//!   `python -m knights` run the CLI's own entry, without MPI.

mod cipher;
mod classes;
mod command;
mod convert;
mod count;
mod errors;
mod estimate;
mod exists;
mod files;
mod graph;
mod magic;
mod memory;
mod pictures;
mod position;
mod puzzle;
mod puzzle_pictures;
mod rails;
mod run;
mod stats;
mod tour;
mod tourney;

use pyo3::prelude::*;

/// The native module `knights._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<classes::PyTour>()?;
    m.add_class::<classes::PyTourney>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<position::PyHint>()?;
    m.add_class::<puzzle::PyPuzzle>()?;
    m.add_function(wrap_pyfunction!(tour::algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(command::run_command_line, m)?)?;
    m.add_function(wrap_pyfunction!(convert::board, m)?)?;
    m.add_function(wrap_pyfunction!(errors::hint_words, m)?)?;
    m.add_function(wrap_pyfunction!(files::check, m)?)?;
    m.add_function(wrap_pyfunction!(cipher::run_cipher, m)?)?;
    m.add_function(wrap_pyfunction!(count::count_tours, m)?)?;
    m.add_function(wrap_pyfunction!(count::count_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(exists::exists, m)?)?;
    m.add_function(wrap_pyfunction!(exists::decide, m)?)?;
    m.add_function(wrap_pyfunction!(rails::join, m)?)?;
    m.add_function(wrap_pyfunction!(rails::obfuscate, m)?)?;
    m.add_function(wrap_pyfunction!(files::read, m)?)?;
    m.add_function(wrap_pyfunction!(rails::shatter, m)?)?;
    m.add_function(wrap_pyfunction!(stats::stats, m)?)?;
    m.add_function(wrap_pyfunction!(tour::tour, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::puzzle, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle::solve, m)?)?;
    m.add_function(wrap_pyfunction!(tourney::tourney, m)?)?;
    m.add_function(wrap_pyfunction!(magic::magic, m)?)?;
    m.add_function(wrap_pyfunction!(graph::graph, m)?)?;
    m.add_function(wrap_pyfunction!(graph::ensure_fits, m)?)?;
    // Declared once, in Rust (signature, defaults, docstring), and
    // re-exported by `knights/__init__.py` as the package's own.
    for f in [
        wrap_pyfunction!(estimate::dry_run, m)?,
        wrap_pyfunction!(estimate::estimate, m)?,
    ] {
        f.setattr("__module__", "knights")?;
        m.add_function(f)?;
    }
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
