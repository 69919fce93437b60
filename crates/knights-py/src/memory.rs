//! Memory checks before large results are built in Python: a list too
//! large for memory is `MemoryError`, never an aborted allocation.

use knights::Board;
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

/// Requests smaller than this are not checked against the memory left
/// (reading it costs more than a small tour); the library's threshold.
const ALWAYS_FITS: u64 = 64 << 20;

/// Bytes a square of a tour takes as text (JSON, a move list, a grid or an
/// SVG picture, 7 to 14 bytes a square): the library's string, the room it
/// grows into and Python's copy.
const TEXT_BYTES: u64 = 48;

/// `MemoryError` unless `bytes` more fit in this process's memory (the
/// library's [`knights::memory::available_bytes`]): big Python objects are
/// refused before they are built, as the library refuses big boards.
pub(crate) fn ensure_memory(what: &str, bytes: u64) -> PyResult<()> {
    if bytes < ALWAYS_FITS {
        return Ok(());
    }
    match knights::memory::available_bytes() {
        Some(available) if bytes > available => Err(PyMemoryError::new_err(format!(
            "{what} needs about {} of memory, but {}",
            knights::memory::human_bytes(bytes),
            knights::memory::available_phrase()
        ))),
        _ => Ok(()),
    }
}

/// [`ensure_memory`] for `what`, a text of a board ([`TEXT_BYTES`] a square).
pub(crate) fn ensure_text_fits(what: &str, board: Board) -> PyResult<()> {
    let what = format!("{what} of this {board} board");
    ensure_memory(&what, (board.squares() as u64).saturating_mul(TEXT_BYTES))
}

/// `len` numbers as native-endian `uint32` bytes, written in place (a
/// failed allocation is Python's `MemoryError`, never a panic).
pub(crate) fn uint32_bytes(
    py: Python<'_>,
    numbers: impl Iterator<Item = u32>,
    len: usize,
) -> PyResult<Bound<'_, PyByteArray>> {
    PyByteArray::new_with(py, len * 4, |bytes| {
        for (at, n) in bytes.chunks_exact_mut(4).zip(numbers) {
            at.copy_from_slice(&n.to_ne_bytes());
        }
        Ok(())
    })
}
