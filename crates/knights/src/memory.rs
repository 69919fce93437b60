//! Refusing work that cannot fit in memory, before allocating it.
//!
//! Big boards ask for one or more arrays of a few bytes per square. Linux
//! over-commits memory, so a failed allocation would often show up as the
//! process being killed rather than as an error; instead every large array is
//! requested through [`try_vec`], which compares the request with the memory
//! the system reports as available and uses `try_reserve` as a second guard.

use crate::{Board, Error, Result};

/// Bytes of memory the system reports as available, if it says.
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map(|kb| kb * 1024)
}

/// A number of bytes in human units ("1.5 GiB").
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Requests smaller than this are not checked against the system's memory.
const ALWAYS_FITS: u64 = 64 << 20;

/// Checks that `bytes_per_square` bytes for every square of `board` fit in
/// the available memory; `what` names the thing for the error message.
pub fn ensure_fits(board: Board, what: &'static str, bytes_per_square: u64) -> Result<()> {
    let needed = board.squares() as u64 * bytes_per_square;
    // Reading /proc/meminfo costs more than a whole small tour: requests
    // under this size fit on any machine that runs this program.
    if needed < ALWAYS_FITS {
        return Ok(());
    }
    let available = available_bytes().unwrap_or(u64::MAX);
    if needed > available {
        return Err(too_large(board, what, needed, available));
    }
    Ok(())
}

fn too_large(board: Board, what: &'static str, needed: u64, available: u64) -> Error {
    Error::TooLarge {
        what,
        rows: board.rows(),
        cols: board.cols(),
        needed: human_bytes(needed),
        available: human_bytes(available),
    }
}

/// A vector of one `value` per square of `board`, or an error if it would
/// not fit. `bytes_per_square` is the caller's estimate of all it will
/// allocate per square for this job, which is checked against the available
/// memory (pass `size_of::<T>()` to check only this vector).
pub fn try_vec<T: Clone>(
    board: Board,
    what: &'static str,
    bytes_per_square: u64,
    value: T,
) -> Result<Vec<T>> {
    let per = bytes_per_square.max(std::mem::size_of::<T>() as u64);
    ensure_fits(board, what, per)?;
    let n = board.squares();
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| too_large(board, what, n as u64 * per, available_bytes().unwrap_or(0)))?;
    v.resize(n, value);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_cannot_fit() {
        let board = Board::new(65_535, 65_535).unwrap();
        let err = try_vec(board, "tour", 1 << 20, 0u8).unwrap_err();
        assert!(err.to_string().contains("needs about"), "{err}");
    }

    #[test]
    fn human_units() {
        assert_eq!(human_bytes(10), "10 B");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }
}
