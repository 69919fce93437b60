//! Refusing work that cannot fit in memory, before allocating it.
//!
//! Big boards ask for one or more arrays of a few bytes per square. Linux
//! over-commits memory, so a failed allocation would often show up as the
//! process being killed rather than as an error; instead every large array is
//! requested through [`try_vec`], which compares the request with the memory
//! the process may still use and uses `try_reserve` as a second guard.
//!
//! That room is the smallest of three: the memory the system reports as
//! available, the room under the address-space limit (`ulimit -v`, less
//! what the allocator's per-thread arenas and the threads' stacks reserve
//! without using), and the room under the memory limit of the process's
//! control group (cgroup v2 `memory.max`, or v1 `memory.limit_in_bytes`,
//! the tightest of its own group and its parents), which is what a
//! container's limit is. The
//! kernel kills a process past its cgroup's limit without a message, so
//! that limit must be seen before the work starts.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::{Board, Error, Result};

mod amount;
pub(crate) use amount::deserialize_amount;
pub use amount::{human_bytes, parse_amount};

/// Bytes of memory this process may still allocate, if the system says: the
/// smallest of the memory the system reports as available, the room left
/// under the process's address-space limit (`ulimit -v`, `RLIMIT_AS`) and
/// the room left under its control group's memory limit.
pub fn available_bytes() -> Option<u64> {
    smallest([
        system_available(),
        address_space_room().map(|(room, _)| room),
        cgroup_room().map(|(room, _)| room),
    ])
}

/// The smallest of the readings the system gave.
fn smallest(readings: [Option<u64>; 3]) -> Option<u64> {
    readings.into_iter().flatten().min()
}

/// What is available, as the end of a sentence that starts "but": names
/// the address-space limit or the control group's limit when that is
/// what binds.
pub fn available_phrase() -> String {
    let system = system_available();
    let address = address_space_room();
    let group = cgroup_room();
    let below = |room: u64, other: Option<u64>| other.is_none_or(|o| room < o);
    match (address, group) {
        (Some((room, limit)), _)
            if below(room, system) && below(room, group.map(|(r, _)| r)) =>
        {
            format!(
                "only {} is left under the address-space limit of {} (ulimit -v)",
                human_bytes(room),
                human_bytes(limit)
            )
        }
        (_, Some((room, limit))) if below(room, system) => format!(
            "only {} is left under the memory limit of {} of its control group (cgroup, such as a container's limit)",
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

/// Address space glibc's malloc reserves for each thread that allocates
/// (an arena, up to eight a core), counted by an address-space limit
/// though little of it is resident.
const ARENA: u64 = 64 << 20;
/// A thread's stack.
const STACK: u64 = 2 << 20;
/// Room kept under an address-space limit for the small allocations no
/// bound counts (buffers of files, messages, the program's tables).
const SMALL_ALLOCATIONS: u64 = 32 << 20;

/// The address space the threads of parallel work will take besides what
/// they allocate: an arena for each of rayon's threads
/// (`RAYON_NUM_THREADS`, else one a core) and for a helper such as a
/// progress line's, less the arenas already mapped, their stacks, and
/// [`SMALL_ALLOCATIONS`].
fn threads_reserve() -> u64 {
    let threads = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .filter(|&t| t > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u64));
    // Read asking the allocator first: with the address space full, no
    // arena is counted and the room is none.
    let maps = read_within("/proc/self/maps").unwrap_or_default();
    (threads + 1).saturating_sub(arenas_mapped(&maps)) * ARENA
        + (threads + 1) * STACK
        + SMALL_ALLOCATIONS
}

/// The text of the file at `path`, or `None` if it cannot be read or the
/// allocator refuses its room.
fn read_within(path: &str) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let (mut text, mut block) = (Vec::new(), [0u8; 4096]);
    loop {
        let n = file.read(&mut block).ok()?;
        if n == 0 {
            return String::from_utf8(text).ok();
        }
        text.try_reserve(n).ok()?;
        text.extend_from_slice(&block[..n]);
    }
}

/// The allocator's thread arenas in `/proc/self/maps` text: anonymous
/// regions of [`ARENA`] bytes aligned to it, a read-write mapping and the
/// inaccessible rest.
fn arenas_mapped(maps: &str) -> u64 {
    let anonymous: Vec<(u64, u64)> = maps
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let (range, inode, path) = (fields.next()?, fields.nth(3)?, fields.next());
            let (start, end) = range.split_once('-')?;
            let start = u64::from_str_radix(start, 16).ok()?;
            let end = u64::from_str_radix(end, 16).ok()?;
            (inode == "0" && path.is_none()).then_some((start, end))
        })
        .collect();
    let mut arenas = 0;
    for (i, &(start, end)) in anonymous.iter().enumerate() {
        if start % ARENA != 0 {
            continue;
        }
        let whole = end - start == ARENA
            || anonymous
                .get(i + 1)
                .is_some_and(|&(s, e)| s == end && e - start == ARENA);
        arenas += u64::from(whole);
    }
    arenas
}

/// The room left under the address-space limit and the limit, if one is set:
/// the soft limit of `/proc/self/limits` less the process's `VmSize` and
/// the address space its threads would reserve besides (see
/// [`threads_reserve`]).
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
    Some((limit.saturating_sub(used + threads_reserve()), limit))
}

/// The room left under the memory limit of the process's control group and
/// that limit, if one is set (see the module notes).
fn cgroup_room() -> Option<(u64, u64)> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    cgroup_room_from(&cgroups, &mountinfo, &read)
}

/// A cgroup file system's mount: the group at its root, and where it is.
struct CgroupMount {
    root: String,
    at: PathBuf,
}

/// The mounts of the cgroup v2 file system and of v1's memory controller
/// in `/proc/self/mountinfo` text (fields: id, parent, device, root, mount
/// point, options, optional fields, "-", type, source, super options).
fn cgroup_mounts(mountinfo: &str) -> (Option<CgroupMount>, Option<CgroupMount>) {
    let (mut v2, mut v1) = (None, None);
    for line in mountinfo.lines() {
        let Some((before, after)) = line.split_once(" - ") else {
            continue;
        };
        let fields: Vec<&str> = before.split_whitespace().collect();
        let tail: Vec<&str> = after.split_whitespace().collect();
        let (Some(root), Some(at), Some(kind)) = (fields.get(3), fields.get(4), tail.first())
        else {
            continue;
        };
        let mount = CgroupMount {
            root: (*root).to_string(),
            at: PathBuf::from(at),
        };
        let memory = tail
            .get(2)
            .is_some_and(|opts| opts.split(',').any(|o| o == "memory"));
        match *kind {
            "cgroup2" if v2.is_none() => v2 = Some(mount),
            "cgroup" if memory && v1.is_none() => v1 = Some(mount),
            _ => {}
        }
    }
    (v2, v1)
}

/// The room under the tightest memory limit of the process's control
/// group and its parents, and that limit: `cgroups` is the text of
/// `/proc/self/cgroup`, `mountinfo` of `/proc/self/mountinfo`, and `read`
/// reads a file of the cgroup file system. Version 2 is asked first (the
/// line `0::PATH`, files `memory.max`, where "max" is no limit, and
/// `memory.current`), then version 1's memory controller (the line
/// `N:...memory...:PATH`, files `memory.limit_in_bytes` and
/// `memory.usage_in_bytes`). Without a mount in `mountinfo` the usual
/// places under `/sys/fs/cgroup` are tried.
fn cgroup_room_from(
    cgroups: &str,
    mountinfo: &str,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<(u64, u64)> {
    let (v2_mount, v1_mount) = cgroup_mounts(mountinfo);
    let mut best: Option<(u64, u64)> = None;
    for line in cgroups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        // The mount's root and where it is, or the usual place.
        let mount_or = |m: &Option<CgroupMount>, usual: &str| {
            m.as_ref().map_or_else(
                || ("/".to_string(), PathBuf::from(usual)),
                |m| (m.root.clone(), m.at.clone()),
            )
        };
        let (mount, files) = if id == "0" && controllers.is_empty() {
            let mount = mount_or(&v2_mount, "/sys/fs/cgroup");
            (mount, ["memory.max", "memory.current"])
        } else if controllers.split(',').any(|c| c == "memory") {
            let mount = mount_or(&v1_mount, "/sys/fs/cgroup/memory");
            (mount, ["memory.limit_in_bytes", "memory.usage_in_bytes"])
        } else {
            continue;
        };
        if let Some(found) = tightest_limit(&mount.0, &mount.1, path, files, read) {
            if best.is_none_or(|b| found.0 < b.0) {
                best = Some(found);
            }
        }
    }
    best
}

/// Limits at or above this (cgroup v1's "no limit" is about 2^63) are none.
const NO_CGROUP_LIMIT: u64 = 1 << 62;

/// The room under the tightest limit of the group `path` and its parents,
/// up to the mount `at` of the group `root`: `files` are the limit's and
/// the usage's file names.
fn tightest_limit(
    root: &str,
    at: &Path,
    path: &str,
    files: [&str; 2],
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<(u64, u64)> {
    // The group's path below the mount's root (a container often mounts
    // its own group as the root).
    let below = path
        .strip_prefix(root.trim_end_matches('/'))
        .unwrap_or(path)
        .trim_start_matches('/');
    let mut dir = at.to_path_buf();
    dir.extend(below.split('/').filter(|c| !c.is_empty() && *c != ".."));
    let mut best: Option<(u64, u64)> = None;
    loop {
        let number = |name: &str| read(&dir.join(name)).and_then(|t| t.trim().parse::<u64>().ok());
        if let Some(limit) = number(files[0]).filter(|&l| l < NO_CGROUP_LIMIT) {
            let room = limit.saturating_sub(number(files[1]).unwrap_or(0));
            if best.is_none_or(|b| room < b.0) {
                best = Some((room, limit));
            }
        }
        if dir.as_path() == at || !dir.pop() {
            break;
        }
    }
    best
}

/// Requests smaller than this are not checked against the system's memory.
const ALWAYS_FITS: u64 = 64 << 20;

/// Checks that `bytes_per_square` bytes for every square of `board` fit in
/// the available memory; `what` names the thing for the error message.
pub fn ensure_fits(board: Board, what: &'static str, bytes_per_square: u64) -> Result<()> {
    ensure_bytes_fit(board, what, board.squares() as u64 * bytes_per_square)
}

/// Checks that `needed` bytes for `what` on `board` (a picture, whose
/// size is in pixels rather than squares) fit in the available memory.
pub fn ensure_bytes_fit(board: Board, what: &'static str, needed: u64) -> Result<()> {
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
        hint: None,
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
        return Err(Error::Parse(
            format!(
                "reading this {what} of {} needs about {} of memory, but {}",
                human_bytes(len as u64),
                human_bytes(needed),
                available_phrase()
            )
            .into(),
        ));
    }
    Ok(())
}

/// An I/O error as a phrase without the system's error number: "No such
/// file or directory".
pub(crate) fn io_phrase(e: &std::io::Error) -> String {
    let text = e.to_string();
    text.split(" (os error").next().unwrap_or(&text).to_string()
}

/// Reads all of `reader` as text for a reader that takes up to
/// `bytes_per_byte` bytes of memory per byte of text, and at most `max`
/// bytes: past what fits in memory (or `max`) it stops reading at once
/// and refuses, instead of reading everything first and checking after.
/// `what` names the input in the errors ("standard input").
pub fn read_text_within(
    reader: impl Read,
    what: &str,
    bytes_per_byte: u64,
    max: u64,
) -> Result<String> {
    let fits = available_bytes().map_or(u64::MAX, |a| a / bytes_per_byte.max(1));
    let limit = fits.min(max);
    let mut text = String::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_string(&mut text)
        .map_err(|e| {
            Error::Parse(format!("cannot read {what} as text: {}", io_phrase(&e)).into())
        })?;
    if text.len() as u64 > limit {
        let why = if limit < max {
            format!(
                "reading it takes up to {bytes_per_byte} bytes of memory a byte, but {}",
                available_phrase()
            )
        } else {
            "more than any input this reads".to_string()
        };
        return Err(Error::Parse(
            format!(
                "{what} is longer than {}: {why}; give a smaller input",
                human_bytes(limit)
            )
            .into(),
        ));
    }
    Ok(text)
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
    fn reading_stops_at_the_limit() {
        let endless = std::io::repeat(b'y');
        let err = read_text_within(endless, "standard input", 8, 1 << 20).unwrap_err();
        assert!(err.to_string().contains("longer than 1.0 MiB"), "{err}");
        let text = read_text_within(&b"1 2 3"[..], "a file", 8, 5).unwrap();
        assert_eq!(text, "1 2 3");
        assert!(read_text_within(&b"1 2 3 4"[..], "a file", 8, 5).is_err());
    }

    #[test]
    fn the_allocator_s_arenas_are_found_in_the_maps() {
        let maps = "\
55d0c0000000-55d0c0021000 r-xp 00000000 fd:01 1234 /usr/bin/knights
7f0000000000-7f0000021000 rw-p 00000000 00:00 0 
7f0000021000-7f0004000000 ---p 00000000 00:00 0 
7f0004000000-7f0008000000 rw-p 00000000 00:00 0 
7f0008000000-7f0008001000 rw-p 00000000 00:00 0 
7f0009000000-7f000d000000 rw-p 00000000 00:00 0 [stack]
7f000c000000-7f000c021000 rw-p 00000000 00:00 0 
";
        // Two whole arenas; a region not 64 MiB long, one named and one
        // cut short are none.
        assert_eq!(arenas_mapped(maps), 2);
        assert_eq!(arenas_mapped(""), 0);
    }

    /// A reader of the files in `files`, as a cgroup file system would be.
    fn files(files: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> {
        let map: std::collections::HashMap<PathBuf, String> = files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), (*t).to_string()))
            .collect();
        move |p: &Path| map.get(p).cloned()
    }

    const V2_MOUNT: &str =
        "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw\n";

    #[test]
    fn cgroup_v2_takes_the_tightest_of_the_group_and_its_parents() {
        let read = files(&[
            ("/sys/fs/cgroup/box/memory.max", "314572800\n"),
            ("/sys/fs/cgroup/box/memory.current", "104857600\n"),
            ("/sys/fs/cgroup/box/job/memory.max", "max\n"),
            ("/sys/fs/cgroup/box/job/memory.current", "1000\n"),
        ]);
        let room = cgroup_room_from("0::/box/job\n", V2_MOUNT, &read);
        assert_eq!(room, Some((200 << 20, 300 << 20)));
        // A tighter limit below wins.
        let read = files(&[
            ("/sys/fs/cgroup/box/memory.max", "314572800\n"),
            ("/sys/fs/cgroup/box/memory.current", "0\n"),
            ("/sys/fs/cgroup/box/job/memory.max", "1048576\n"),
            ("/sys/fs/cgroup/box/job/memory.current", "4096\n"),
        ]);
        let room = cgroup_room_from("0::/box/job\n", V2_MOUNT, &read);
        assert_eq!(room, Some(((1 << 20) - 4096, 1 << 20)));
    }

    #[test]
    fn cgroup_max_or_missing_files_are_no_limit() {
        let read = files(&[("/sys/fs/cgroup/box/memory.max", "max\n")]);
        assert_eq!(cgroup_room_from("0::/box\n", V2_MOUNT, &read), None);
        assert_eq!(cgroup_room_from("0::/\n", "", &files(&[])), None);
        assert_eq!(cgroup_room_from("", "", &files(&[])), None);
        // Usage past the limit leaves no room, not a wrapped number.
        let read = files(&[
            ("/sys/fs/cgroup/memory.max", "100\n"),
            ("/sys/fs/cgroup/memory.current", "200\n"),
        ]);
        assert_eq!(cgroup_room_from("0::/\n", "", &read), Some((0, 100)));
    }

    #[test]
    fn cgroup_v1_reads_the_memory_controller_s_mount() {
        let mountinfo = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 /docker/abc /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
";
        let cgroups = "5:devices:/docker/abc\n4:memory:/docker/abc\n1:cpu:/\n0::/\n";
        let read = files(&[
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "314572800\n"),
            ("/sys/fs/cgroup/memory/memory.usage_in_bytes", "52428800\n"),
        ]);
        let room = cgroup_room_from(cgroups, mountinfo, &read);
        assert_eq!(room, Some((250 << 20, 300 << 20)));
        // v1's "no limit" is a number near 2^63.
        let read = files(&[
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "9223372036854771712\n",
            ),
            ("/sys/fs/cgroup/memory/memory.usage_in_bytes", "1\n"),
        ]);
        assert_eq!(cgroup_room_from(cgroups, mountinfo, &read), None);
    }

    /// The room is the tightest reading, never more than the system's
    /// available memory. (Two live readings of MemAvailable are not
    /// compared: the other tests' allocations move it between them.)
    #[test]
    fn the_available_room_is_at_most_the_system_s() {
        let system = Some(8 << 30);
        for (address_space, cgroup, room) in [
            (None, None, 8 << 30),
            (Some(2 << 30), None, 2 << 30),
            (None, Some(300 << 20), 300 << 20),
            (Some(16 << 30), Some(12 << 30), 8 << 30),
        ] {
            let all = smallest([system, address_space, cgroup]);
            assert_eq!(all, Some(room));
            assert!(all <= system);
        }
        assert_eq!(smallest([None, None, Some(1)]), Some(1));
        assert_eq!(smallest([None, None, None]), None);
    }
}
