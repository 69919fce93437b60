//! Buckets on disk: the fixed-width state files of checkpoints of format 3
//! (little-endian `(key, count)` entries; newer files are packed, see
//! `packed.rs`), the run's folder (the work directory's, or a
//! temporary one when the states outgrow memory), how many buckets a layer
//! needs to merge each in memory, and the disk budget.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::folder::{Folder, Kind};
use super::options::RunOptions;
use super::words::{entry_bytes, io, Stop, Word};
use crate::Error;

/// The most buckets a layer may be split into on disk.
pub(super) const MAX_BUCKETS: usize = 1 << 9;
/// The least memory bound under which states go to disk rather than stop.
const MIN_DISK_BUDGET: u64 = 1 << 18;
/// Bytes of memory a state costs in a step, counting its successors.
pub(super) const STEP_BYTES_PER_STATE: u64 = 64;
/// The share of the free disk a count takes by default, in percent.
const DEFAULT_DISK_SHARE: u64 = 80;

/// A writer that takes the CRC-32 of what passes through it.
pub(super) struct Checksummed<W> {
    pub inner: W,
    pub hasher: crc32fast::Hasher,
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Reads `count` fixed-width entries from `skip` (the state files of
/// format 3).
pub(super) fn read_entries<K: Word, C: Word>(
    path: &Path,
    skip: u64,
    count: usize,
) -> std::result::Result<Vec<(K, C)>, Stop> {
    let eb = entry_bytes::<K, C>();
    let mut f = File::open(path).map_err(|e| io("read", path, e))?;
    f.seek(SeekFrom::Start(skip * eb as u64))
        .map_err(|e| io("read", path, e))?;
    let mut f = BufReader::with_capacity(1 << 20, f);
    let mut out = Vec::with_capacity(count);
    let mut buf = vec![0u8; eb * 4096];
    let mut left = count;
    while left > 0 {
        let take = left.min(4096);
        f.read_exact(&mut buf[..take * eb])
            .map_err(|e| io("read", path, e))?;
        for e in buf[..take * eb].chunks_exact(eb) {
            out.push((K::get(&e[..K::BYTES]), C::get(&e[K::BYTES..])));
        }
        left -= take;
    }
    Ok(out)
}

/// Where a run keeps its files, and whether it removes them at the end
/// (a directory of its own under the system's temporary directory).
pub(crate) struct Disk {
    pub dir: PathBuf,
    pub temporary: bool,
    /// The lock a run in a work directory holds on its count (see
    /// `checkpoint::lock_run`) until it ends; a temporary folder's, the
    /// lock that claims it (see [`remove_stale`]).
    pub _lock: Option<fs::File>,
    /// The folder, open (see `folder.rs`): a checkpoint is written
    /// through it.
    pub folder: Option<Folder>,
}

impl Drop for Disk {
    fn drop(&mut self) {
        if self.temporary {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// The prefix of a temporary state directory's name; the process id and
/// the run's fingerprint follow.
pub(super) const TEMPORARY_PREFIX: &str = "knights-count-";

/// The name of a run's checkpoint manifest in its folder.
pub(super) const MANIFEST: &str = "checkpoint.json";

/// The file in a temporary folder whose lock claims it for its run.
const CLAIM: &str = "claim.lock";

impl Disk {
    /// A directory of its own under the system's temporary directory, for
    /// a run whose states outgrow memory without a work directory. First
    /// removes what runs killed before they could clean up left there
    /// (see [`remove_stale`]).
    pub fn temporary(fingerprint: &str) -> std::result::Result<Disk, Stop> {
        let base = std::env::temp_dir();
        remove_stale(&base, TEMPORARY_PREFIX);
        let name = format!("{TEMPORARY_PREFIX}{}-{fingerprint}", std::process::id());
        Ok(Disk::claimed(&base, TEMPORARY_PREFIX, &name)?)
    }

    /// The folder `name` in `base`, made and claimed for this run: made
    /// under a hidden name, its lock file locked, then renamed, so that no
    /// other count ever sees it unclaimed. The lock is held until the run
    /// ends (or its process dies); the folder is removed at the end.
    pub fn claimed(base: &Path, prefix: &str, name: &str) -> Result<Disk, Error> {
        let parent = Folder::open(base).map_err(|e| super::io_error("open", base, e))?;
        // The name of a killed run of this process id (from another PID
        // namespace) is taken back if its claim is free.
        remove_if_stale(&parent, prefix, name);
        let hidden = format!(".{name}");
        parent.remove_sub(&hidden)?;
        let folder = parent.make_sub(&hidden)?;
        let claim = folder.join(CLAIM);
        let lock = folder
            .lock_file(CLAIM)
            .map_err(|e| super::io_error("create", &claim, e))?;
        lock.try_lock()
            .map_err(|e| super::io_error("lock", &claim, e.into()))?;
        let path = parent.join(name);
        parent
            .rename(&hidden, name)
            .map_err(|e| super::io_error("create", &path, e))?;
        Ok(Disk {
            dir: path,
            temporary: true,
            _lock: Some(lock),
            folder: parent.sub(name)?,
        })
    }
}

/// Removes from `dir` the folders named `{prefix}...` that counts killed
/// before they could clean up left: folders of this user (never a link,
/// nor another user's) whose claim (a lock file in them, held by the run
/// for its life) is free. A folder without one (made by an older version)
/// is removed if its name's process id (`{prefix}{pid}-...`) no longer
/// exists (on systems without `/proc`, never).
pub(crate) fn remove_stale(dir: &Path, prefix: &str) {
    let Ok(parent) = Folder::open(dir) else {
        return;
    };
    for name in parent.names().unwrap_or_default() {
        if name.starts_with(prefix) {
            remove_if_stale(&parent, prefix, &name);
        }
    }
}

/// Removes the folder `name` (`{prefix}...`) in `parent` if it is a
/// killed run's (see [`remove_stale`]).
fn remove_if_stale(parent: &Folder, prefix: &str, name: &str) {
    if parent.kind(name) != Kind::Folder {
        return;
    }
    // A link or another user's folder: an error, and left alone.
    let Ok(Some(folder)) = parent.sub(name) else {
        return;
    };
    let stale = match folder.read(CLAIM) {
        // Held while the folder is removed.
        Ok(claim) => claim.try_lock().is_ok(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let pid = name
                .strip_prefix(prefix)
                .and_then(|rest| rest.split('-').next())
                .and_then(|pid| pid.parse::<u32>().ok());
            Path::new("/proc/self").exists()
                && pid.is_some_and(|pid| !Path::new("/proc").join(pid.to_string()).exists())
        }
        Err(_) => false,
    };
    if stale {
        let _ = parent.remove_sub(name);
    }
}

/// Where a count goes when its states outgrow the memory bound `budget`
/// (`needed` bytes, `next` states expected): to disk, in a temporary
/// directory; or, for a count kept in memory or a bound too small even for
/// the disk program, nowhere: an error.
pub(super) fn spill(
    opts: &RunOptions<'_>,
    budget: u64,
    next: u64,
    fingerprint: &str,
    needed: u64,
) -> std::result::Result<Disk, Stop> {
    if let Some(board) = opts.memory_only {
        // The bound, set at the start: what is available now is less by
        // what this count holds.
        let available = match opts.count.max_memory {
            Some(limit) if limit <= budget => {
                format!("the memory bound is {}", crate::memory::human_bytes(limit))
            }
            _ => format!(
                "the memory bound is {}, four fifths of the memory available when the count began",
                crate::memory::human_bytes(budget)
            ),
        };
        return Err(Error::TooLarge {
            what: "count",
            rows: board.rows(),
            cols: board.cols(),
            needed: crate::memory::human_bytes(needed.max(budget.saturating_add(1))),
            available,
            hint: None,
        }
        .into());
    }
    if budget < MIN_DISK_BUDGET {
        return Err(over_budget(opts.count.max_memory, next).into());
    }
    Disk::temporary(fingerprint)
}

/// The number of next buckets: enough to keep every core busy, and on disk
/// small enough that the threads can each merge one in memory.
pub(super) fn next_buckets(
    next: u64,
    on_disk: bool,
    budget: u64,
    threads: u64,
    opts: &RunOptions<'_>,
) -> std::result::Result<usize, Stop> {
    let mut nb = (next / (1 << 12)).clamp(1, 64).next_power_of_two() as usize;
    if on_disk {
        let share = (budget / 2 / threads).max(1);
        let need = next.saturating_mul(STEP_BYTES_PER_STATE) / share + 1;
        nb = nb.max(need.next_power_of_two() as usize).max(16);
        if nb > MAX_BUCKETS {
            return Err(over_budget(opts.count.max_memory, next).into());
        }
    }
    Ok(nb)
}

/// The file of a next bucket's unmerged successors, packed blocks
/// appended by every chunk: the entries and bytes written so far.
pub(super) struct RawFile {
    pub w: BufWriter<File>,
    pub entries: u64,
    pub bytes: u64,
}

/// The files of a disk run's unmerged successors after square `t + 1`,
/// by next bucket: the file's path, and the file while its bucket's pass
/// writes it.
pub(super) type RawFiles = Vec<(PathBuf, Option<Mutex<RawFile>>)>;

/// The raw files of the next buckets `j` of `nb` that `keep(j)`, their
/// buffers together within an eighth of the memory bound `budget` (from
/// 4 KiB to 64 KiB each). [`Stop::OverMemory`] if the allocator refuses
/// the buffers' room (under an address-space limit), which is asked first:
/// a buffer's own allocation cannot fail without aborting.
pub(super) fn raw_files(
    d: &Disk,
    t: usize,
    (nb, budget): (usize, u64),
    keep: impl Fn(usize) -> bool,
) -> std::result::Result<RawFiles, Stop> {
    let buffer = (budget / 8 / nb as u64).clamp(1 << 12, 1 << 16) as usize;
    let room = buffer * (0..nb).filter(|&j| keep(j)).count();
    if Vec::<u8>::new().try_reserve_exact(room).is_err() {
        return Err(Stop::OverMemory(room as u64));
    }
    (0..nb)
        .map(|j| {
            let path = d.dir.join(format!("raw-s{}-b{j}.bin", t + 1));
            if !keep(j) {
                return Ok((path, None));
            }
            let f = File::create(&path).map_err(|e| io("write", &path, e))?;
            let file = RawFile {
                w: BufWriter::with_capacity(buffer, f),
                entries: 0,
                bytes: 0,
            };
            Ok((path, Some(Mutex::new(file))))
        })
        .collect()
}

/// The most passes a square on disk may take (each expands the whole
/// layer once).
pub(super) const MAX_PASSES: usize = 8;

/// The passes square `t + 1` of `n` takes on disk: its files are `layer`
/// bytes now, and it writes about `written` bytes of unmerged successors
/// and `new` bytes of merged ones. In one pass they must fit in the disk
/// budget and the free space; else the square is expanded in up to
/// [`MAX_PASSES`] passes, each writing and merging the successors of a
/// share of the next buckets, which trades time (the layer is expanded once
/// a pass) for disk. Stops the count when even that does not fit.
pub(super) fn disk_passes(
    d: &Disk,
    opts: &RunOptions<'_>,
    t: usize,
    n: usize,
    layer: u64,
    written: u64,
    new: u64,
) -> std::result::Result<usize, Stop> {
    let free = crate::memory::free_disk_bytes(&d.dir);
    let limit = match opts.count.max_disk {
        Some(m) => m,
        None => match free {
            Some(f) => layer.saturating_add(f / 100 * DEFAULT_DISK_SHARE),
            None => return Ok(1),
        },
    };
    // In pass p of k the disk holds the layer, the merged buckets of the
    // passes before, and the pass's unmerged successors.
    let fits = |k: u64| {
        let more = written / k + new / k * (k - 1);
        let need = layer.saturating_add(more).saturating_add(1 << 16);
        need <= limit && free.is_none_or(|f| more <= f)
    };
    if let Some(k) = (1..=MAX_PASSES as u64).find(|&k| fits(k)) {
        return Ok(k as usize);
    }
    let need = layer.saturating_add(written).saturating_add(1 << 16);
    let over = Error::OverDisk {
        square: t + 1,
        squares: n,
        needed: need,
        now: layer,
        next: written,
        budget: budget_phrase(opts.count.max_disk, free, layer, &d.dir),
        hint: None,
    };
    // "Its checkpoint is kept" only once there is one.
    let checkpointed = d
        .folder
        .as_ref()
        .is_some_and(|f| f.kind(MANIFEST) == Kind::File);
    let hint = if d.temporary || !checkpointed {
        crate::Hint::MoreRoom
    } else {
        crate::Hint::ResumeWithRoom
    };
    Err(over.with_hint(hint).into())
}

/// The disk limit a count is over, as a phrase that names the one that
/// binds, with both numbers: the disk budget `max_disk` (else its share of
/// the `free` bytes), or the free space of the disk that holds `dir` when
/// it leaves less room than the budget does with `now` bytes on disk:
/// "the disk budget of 1.0 GiB (the disk holding /w has 30.0 GiB free)".
pub(super) fn budget_phrase(
    max_disk: Option<u64>,
    free: Option<u64>,
    now: u64,
    dir: &Path,
) -> String {
    let human = crate::memory::human_bytes;
    let dir = dir.display();
    match (max_disk, free) {
        (Some(m), Some(f)) if f < m.saturating_sub(now) => format!(
            "the {} free on the disk holding {dir}, which binds before the disk budget of {}",
            human(f),
            human(m)
        ),
        (Some(m), Some(f)) => format!(
            "the disk budget of {} (the disk holding {dir} has {} free)",
            human(m),
            human(f)
        ),
        (Some(m), None) => format!("the disk budget of {}", human(m)),
        (None, Some(f)) => format!(
            "{DEFAULT_DISK_SHARE} % of the {} free on the disk holding {dir} (the default disk budget)",
            human(f)
        ),
        (None, None) => "the disk".to_string(),
    }
}

/// The bytes the states of a count may take on disk: `max_disk`, else
/// its share of the `free` bytes (`None`: no bound known).
pub(super) fn disk_limit(max_disk: Option<u64>, free: Option<u64>) -> Option<u64> {
    max_disk.or(free.map(|f| f / 100 * DEFAULT_DISK_SHARE))
}

fn over_budget(max_memory: Option<u64>, states: u64) -> Error {
    let bytes = states.saturating_mul(STEP_BYTES_PER_STATE);
    match max_memory {
        Some(limit) => Error::OverBudget(format!(
            "the count stopped: its frontier grew to about {states} states (about {}), too many to handle within the memory bound of {} even on disk",
            crate::memory::human_bytes(bytes),
            crate::memory::human_bytes(limit)
        ).into())
        .with_hint(crate::Hint::Raise(crate::Budget::Memory)),
        None => Error::OverBudget(format!(
            "the count stopped: its frontier grew to about {states} states (about {}), more than the memory there is can handle even on disk: {}",
            crate::memory::human_bytes(bytes),
            crate::memory::available_phrase()
        ).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_too_large_for_the_disk_runs_in_the_fewest_passes_that_fit() {
        let dir = std::env::temp_dir().join(format!("knights-passes-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let d = Disk {
            dir,
            temporary: true,
            _lock: None,
            folder: None,
        };
        const MB: u64 = 1 << 20;
        let passes = |max_disk: u64| {
            let opts = RunOptions {
                count: &crate::count::CountOptions {
                    max_disk: Some(max_disk * MB),
                    ..crate::count::CountOptions::default()
                },
                ..RunOptions::default()
            };
            // A layer of 100 MB, 1000 MB of successors to merge into 200 MB.
            disk_passes(&d, &opts, 5, 10, 100 * MB, 1000 * MB, 200 * MB).ok()
        };
        // In k passes: 100 + 1000 / k + 200 (k - 1) / k, and 64 KiB.
        assert_eq!(passes(1200), Some(1));
        assert_eq!(passes(1000), Some(2));
        assert_eq!(passes(600), Some(3));
        assert_eq!(passes(500), Some(5));
        assert_eq!(passes(401), Some(8));
        // 100 + 125 + 175 and 64 KiB: eight passes do not fit 400 MB.
        let opts = RunOptions {
            count: &crate::count::CountOptions {
                max_disk: Some(400 * MB),
                ..crate::count::CountOptions::default()
            },
            ..RunOptions::default()
        };
        let Err(Stop::Err(e)) = disk_passes(&d, &opts, 5, 10, 100 * MB, 1000 * MB, 200 * MB) else {
            panic!("over the disk budget");
        };
        assert!(e.to_string().contains("before square 6 of 10"), "{e}");
        assert!(
            e.to_string()
                .contains("the disk budget of 400.0 MiB (the disk holding"),
            "{e}"
        );
    }

    #[test]
    fn the_phrase_names_the_disk_limit_that_binds() {
        const GB: u64 = 1 << 30;
        let dir = Path::new("/w");
        // Free space under what the budget leaves binds.
        let free = budget_phrase(Some(10 * GB), Some(2 * GB), GB, dir);
        assert_eq!(
            free,
            "the 2.0 GiB free on the disk holding /w, which binds before the disk budget of 10.0 GiB"
        );
        let budget = budget_phrase(Some(GB), Some(30 * GB), 0, dir);
        assert_eq!(
            budget,
            "the disk budget of 1.0 GiB (the disk holding /w has 30.0 GiB free)"
        );
        let share = budget_phrase(None, Some(10 * GB), 0, dir);
        assert!(
            share.starts_with("80 % of the 10.0 GiB free on the disk holding /w"),
            "{share}"
        );
    }

    #[test]
    fn a_killed_run_s_temporary_files_are_removed_by_the_next() {
        if !Path::new("/proc/self").exists() {
            return;
        }
        // No process has the largest id (Linux caps them at 2^22).
        let stale = std::env::temp_dir().join(format!("{TEMPORARY_PREFIX}4294967295-test"));
        fs::create_dir_all(&stale).unwrap();
        fs::write(stale.join("s1-b0.bin"), b"left behind").unwrap();
        let Ok(disk) = Disk::temporary("a_killed_run_test") else {
            panic!("the temporary directory could not be made");
        };
        assert!(!stale.exists());
        assert!(disk.dir.exists());
        let dir = disk.dir.clone();
        drop(disk);
        assert!(!dir.exists());
    }
}
