//! Refusing work that cannot fit in memory, before allocating it.
//!
//! Big boards ask for one or more arrays of a few bytes per square. Linux
//! over-commits memory, so a failed allocation would often show up as the
//! process being killed rather than as an error; instead every large array is
//! requested through [`try_vec`], which compares the request with the memory
//! the system reports as available and uses `try_reserve` as a second guard.

use crate::{Board, Error, Result};

/// Bytes of memory this process may still allocate, if the system says: the
/// smaller of the memory the system reports as available and the room left
/// under the process's address-space limit (`ulimit -v`, `RLIMIT_AS`).
pub fn available_bytes() -> Option<u64> {
    match (system_available(), address_space_room()) {
        (Some(a), Some((room, _))) => Some(a.min(room)),
        (a, room) => a.or(room.map(|(r, _)| r)),
    }
}

/// What is available, as the end of a sentence that starts "but": names
/// the address-space limit when that is what binds.
pub fn available_phrase() -> String {
    let system = system_available();
    match address_space_room() {
        Some((room, limit)) if system.is_none_or(|a| room < a) => format!(
            "only {} is left under the address-space limit of {} (ulimit -v)",
            human_bytes(room),
            human_bytes(limit)
        ),
        _ => format!("only {} is available", human_bytes(system.unwrap_or(0))),
    }
}

/// The memory the system reports as available (`MemAvailable`).
fn system_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

/// A field in kB of a `/proc` file, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map(|kb| kb * 1024)
}

/// The room left under the address-space limit and the limit, if one is set:
/// the soft limit of `/proc/self/limits` less the process's `VmSize`.
fn address_space_room() -> Option<(u64, u64)> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?;
    let limit: u64 = soft.parse().ok()?; // "unlimited" is no limit
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used = kib_field(&status, "VmSize:").unwrap_or(0);
    Some((limit.saturating_sub(used), limit))
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
        return Err(too_large(board, what, needed));
    }
    Ok(())
}

/// The error for `what` on `board` needing `needed` bytes, with what is
/// available (and which limit binds).
pub fn too_large(board: Board, what: &'static str, needed: u64) -> Error {
    Error::TooLarge {
        what,
        rows: board.rows(),
        cols: board.cols(),
        needed: human_bytes(needed),
        available: available_phrase(),
    }
}

/// Checks that reading an input of `len` bytes, which takes up to
/// `bytes_per_byte` bytes of memory per byte of text, fits in memory.
pub fn ensure_input_fits(what: &str, len: usize, bytes_per_byte: u64) -> Result<()> {
    let needed = (len as u64).saturating_mul(bytes_per_byte);
    if needed < ALWAYS_FITS {
        return Ok(());
    }
    if needed > available_bytes().unwrap_or(u64::MAX) {
        return Err(Error::Parse(format!(
            "reading this {what} of {} needs about {} of memory, but {}",
            human_bytes(len as u64),
            human_bytes(needed),
            available_phrase()
        )));
    }
    Ok(())
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
        .map_err(|_| too_large(board, what, n as u64 * per))?;
    v.resize(n, value);
    Ok(v)
}

/// Bytes free for an unprivileged user on the file system that holds
/// `path` (`statvfs`: available blocks times the fragment size), if the
/// system says; `path` or its nearest existing ancestor is asked.
pub fn free_disk_bytes(path: &std::path::Path) -> Option<u64> {
    let mut p = path;
    while !p.exists() {
        p = p.parent()?;
    }
    statvfs_available(if p.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        p
    })
}

#[cfg(unix)]
fn statvfs_available(path: &std::path::Path) -> Option<u64> {
    let s = nix::sys::statvfs::statvfs(path).ok()?;
    #[allow(clippy::unnecessary_cast)] // the field types vary by platform
    Some((s.blocks_available() as u64).saturating_mul(s.fragment_size() as u64))
}

#[cfg(not(unix))]
fn statvfs_available(_path: &std::path::Path) -> Option<u64> {
    None
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
