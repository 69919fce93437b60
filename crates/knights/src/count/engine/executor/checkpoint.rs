//! Checkpoints: a run's folder in the work directory, its manifest (the
//! layer's state files, each with its length and CRC-32, sealed by a
//! checksum of its own and written atomically), the rules of `--resume`
//! and `--fresh`, and resuming from the last complete layer.
//!
//! A checkpoint is read back as untrusted input: the manifest names only
//! state files of the count's own naming (`s35-b0.bin`: the square and the
//! bucket), each with its number of states and the CRC-32 of its bytes,
//! and a resume checks every name, length and checksum before it reads a
//! state or removes a file. An edited name (`../../victim/precious.bin`)
//! or a damaged file is an error naming the file, never a wrong count.

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::disk::{Disk, MAX_BUCKETS};
use super::folder::{Folder, Kind};
use super::options::{Run, RunOptions};
pub(super) use super::validate::{state_file_name, Manifest, StateFile};
use super::words::{entry_bytes, io, io_error, Stop, Tally, Word, COUNT_BITS};
use crate::count::engine::frontier::{Engine, Problem};
use crate::{Error, Result};

impl Manifest {
    /// The manifest as written: its JSON with its checksum.
    pub fn sealed(mut self) -> String {
        self.checksum = 0;
        self.checksum = crc_of(&self);
        serde_json::to_string(&self).expect("a manifest serialises")
    }
}

/// The CRC-32 of `value`'s JSON: a count's small files (the manifest, a
/// meeting's summary) carry it, so that an edited or damaged digit of a
/// count is refused rather than answered. Their values read back serialise
/// to the same JSON, so the checksum is taken again from what was read.
pub(crate) fn crc_of<T: Serialize>(value: &T) -> u32 {
    crc32fast::hash(
        serde_json::to_string(value)
            .expect("a count's file serialises")
            .as_bytes(),
    )
}

/// The error for a count's small file at `path` whose checksum is not
/// that of its contents.
pub(crate) fn edited(path: &Path) -> Error {
    Error::Parse(
        format!(
            "{} is damaged or edited (its checksum is not that of its contents)",
            path.display()
        )
        .into(),
    )
    .with_hint(crate::Hint::StartFresh)
}

pub(super) use super::disk::MANIFEST;

/// The manifest's format: 2 gave every state file a checksum, 3 the
/// manifest itself (older ones are refused: they cannot be checked), 4
/// packed the state files (those of format 3, fixed-width, are still read),
/// 5 bound the count to its run (see [`binding`]; older ones resume only
/// while they hold no count, which the run then makes itself), 6 records a
/// meet's join in the manifest of the run whose final layer it streams
/// (`join`, see `replay.rs`; a finished run of format 5 has no join
/// recorded, and its meet joins from the first part).
pub(super) const MANIFEST_VERSION: u32 = 6;

/// The oldest manifest format a resume reads.
const OLDEST_READ: u32 = 3;

/// Whether `name` is a file a run makes in its folder: a state file
/// (`s3-b0.bin`), an unmerged one (`raw-s3-b0.bin`) or the manifest being
/// written; nothing else there is ever read or removed.
pub(super) fn is_run_file(name: &str) -> bool {
    let state = |n: &str| {
        n.strip_prefix('s')
            .and_then(|n| n.strip_suffix(".bin"))
            .and_then(|n| n.split_once("-b"))
            .is_some_and(|(square, bucket)| is_number(square) && is_number(bucket))
    };
    state(name) || name.strip_prefix("raw-").is_some_and(state) || name == format!("{MANIFEST}.tmp")
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.len() <= 10 && text.bytes().all(|b| b.is_ascii_digit())
}

/// Reads and checks the manifest at `path`: its format version, that it is
/// this run's (`fingerprint`) of `n` squares, that it names only state
/// files of its own square with distinct buckets below `max_buckets`, and
/// that its fields agree with each other and with its count's binding
/// (see `validate.rs`).
pub(super) fn read_manifest(
    path: &Path,
    fingerprint: &str,
    max_buckets: usize,
    n: usize,
) -> std::result::Result<Manifest, Error> {
    let text = read_small(path)?;
    let not_a_checkpoint = |e: serde_json::Error| {
        Error::Parse(format!("{} is not a checkpoint: {e}", path.display()).into())
    };
    #[derive(Deserialize)]
    struct Version {
        version: u32,
    }
    let v: Version = serde_json::from_str(&text).map_err(not_a_checkpoint)?;
    if !(OLDEST_READ..=MANIFEST_VERSION).contains(&v.version) {
        return Err(Error::Parse(format!(
            "{} is a checkpoint of format {} (this version of knights reads formats {OLDEST_READ} to {MANIFEST_VERSION}, whose files carry checksums)",
            path.display(),
            v.version
        ).into())
        .with_hint(crate::Hint::StartFresh));
    }
    let mut m: Manifest = serde_json::from_str(&text).map_err(not_a_checkpoint)?;
    let checksum = std::mem::take(&mut m.checksum);
    if crc_of(&m) != checksum {
        return Err(edited(path));
    }
    if m.fingerprint != fingerprint {
        return Err(Error::Parse(
            format!("{} belongs to another count", path.display()).into(),
        ));
    }
    let mut seen = vec![false; max_buckets];
    for f in &m.buckets {
        let bucket = f
            .name
            .strip_prefix(&format!("s{}-b", m.step))
            .and_then(|rest| rest.strip_suffix(".bin"))
            .filter(|digits| is_number(digits))
            .and_then(|digits| digits.parse::<usize>().ok())
            .filter(|&j| j < max_buckets && state_file_name(m.step, j) == f.name);
        match bucket {
            Some(j) if !seen[j] => seen[j] = true,
            _ => {
                return Err(Error::Parse(format!(
                    "{} names the state file '{}', which is not one this count makes (after square {} they are s{}-b0.bin, s{}-b1.bin, ..., each once); the checkpoint was edited or damaged",
                    path.display(),
                    crate::excerpt(&f.name),
                    m.step,
                    m.step,
                    m.step
                ).into())
                .with_hint(crate::Hint::StartFresh))
            }
        }
    }
    super::validate::check_fields(&m, path, n)?;
    Ok(m)
}

/// The most bytes of a manifest (a few kilobytes in practice).
const MAX_MANIFEST: u64 = 16 << 20;

/// Reads a small text file of a count (never through a link), refusing
/// one past [`MAX_MANIFEST`] or not UTF-8 as damaged.
pub(crate) fn read_small(path: &Path) -> std::result::Result<String, Error> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let f = Folder::open(parent)
        .and_then(|folder| folder.read(name))
        .map_err(|e| not_regular(path, e))?;
    let mut bytes = Vec::new();
    f.take(MAX_MANIFEST + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error("read", path, e))?;
    if bytes.len() as u64 > MAX_MANIFEST {
        return Err(Error::Parse(
            format!(
                "{} is larger than any checkpoint (over {})",
                path.display(),
                crate::memory::human_bytes(MAX_MANIFEST)
            )
            .into(),
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        Error::Parse(
            format!(
                "{} is damaged or edited (it is not UTF-8 text, as a count writes it)",
                path.display()
            )
            .into(),
        )
        .with_hint(crate::Hint::StartFresh)
    })
}

/// The error of a count's file at `path` that could not be opened: a
/// link or other than a regular file is damage (status 2), the rest I/O.
fn not_regular(path: &Path, e: std::io::Error) -> Error {
    match e.kind() {
        std::io::ErrorKind::InvalidInput => Error::Parse(
            format!(
                "{} is damaged or planted ({e}; a count writes regular files only)",
                path.display()
            )
            .into(),
        )
        .with_hint(crate::Hint::StartFresh),
        _ => io_error("read", path, e),
    }
}

/// Checks that the state file `f` in the run's folder holds the bytes its
/// checksum was taken of, and `f.states` entries: packed blocks, or
/// (`packed` false) fixed-width entries. Returns its bytes.
fn check_state_file<K: Word, C: Word>(
    dir: &Folder,
    f: &StateFile,
    packed: bool,
) -> std::result::Result<u64, Error> {
    let path = dir.join(&f.name);
    let damaged = |what: &str| {
        Error::Parse(format!("the state file {} is damaged ({what})", path.display()).into())
            .with_hint(crate::Hint::StartFresh)
    };
    // The file itself, never what a link points to: a state file replaced
    // by a link to another file is not read (nor later removed) as states.
    let mut r = match dir.read(&f.name) {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(damaged("it is missing")),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            return Err(damaged("it is not a regular file"))
        }
        Err(e) => return Err(io_error("read", &path, e)),
    };
    let len = r.metadata().map_err(|e| io_error("read", &path, e))?.len();
    if !packed && f.states.checked_mul(entry_bytes::<K, C>() as u64) != Some(len) {
        return Err(damaged("its length is not the checkpoint's"));
    }
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let got = r.read(&mut buf).map_err(|e| io_error("read", &path, e))?;
        if got == 0 {
            break;
        }
        hasher.update(&buf[..got]);
    }
    if hasher.finalize() != f.crc32 {
        return Err(damaged("its checksum is not the checkpoint's"));
    }
    if packed {
        match super::packed::count_entries::<K, C>(&path) {
            Ok(n) if n == f.states => {}
            Ok(_) => return Err(damaged("it holds other than the checkpoint's states")),
            Err(Stop::Err(e)) => return Err(e),
            Err(_) => return Err(damaged("its blocks cannot be read")),
        }
    }
    Ok(len)
}

/// Writes `text` to `name` in `dir` atomically (temporary file, then
/// rename), never through a link.
pub(super) fn write_atomic(dir: &Folder, name: &str, text: &[u8]) -> std::result::Result<(), Stop> {
    dir.write_atomic(name, text)
        .map_err(|e| io("write", &dir.join(name), e))
}

/// A hash of the problem alone, naming its files.
pub(crate) fn problem_hash(p: &Problem) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    p.hash(&mut h);
    h.finish()
}

/// Names a run's checkpoint: the problem, the widths of its keys and
/// counts, and the encoding of its keys (a checkpoint written with ranked
/// keys is never read as nibble keys).
pub(super) fn fingerprint<K: Word, C: Word>(p: &Problem, engine: &Engine) -> String {
    fingerprint_of(p, K::BYTES, C::BYTES, engine.nibble_keys)
}

fn fingerprint_of(p: &Problem, key_bytes: usize, count_bytes: usize, nibbles: bool) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    p.hash(&mut h);
    // The ranked keys' fingerprints are those of before nibble keys.
    let encoding = if nibbles { 2u32 } else { 1u32 };
    (key_bytes, count_bytes, encoding).hash(&mut h);
    format!("{:016x}-k{key_bytes}-c{count_bytes}", h.finish())
}

/// Makes the work directory `dir` ready for a count that starts: creates
/// it, and its missing parents, if it does not exist (the user asked for
/// that folder; `mkdir -p`). Whether the count may resume or overwrite a
/// checkpoint is decided per run, for the count's own problems (see
/// [`check_checkpoint`]).
pub(crate) fn prepare_work_dir(dir: &Path, resume: bool, fresh: bool) -> Result<()> {
    if resume && fresh {
        return Err(Error::Unsupported(
            "a count either resumes its checkpoint or starts afresh, not both".into(),
        ));
    }
    if !dir.exists() {
        if resume {
            return Err(no_checkpoint(dir));
        }
        fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("create the work directory {}", dir.display()), e))?;
    } else if !dir.is_dir() {
        return Err(Error::Parse(
            format!("the work directory {} is not a directory", dir.display()).into(),
        ));
    }
    Ok(())
}

/// The error of a count that resumes where it has no checkpoint.
pub(super) fn no_checkpoint(dir: &Path) -> Error {
    Error::NoCheckpoint(
        format!(
            "there is no checkpoint of this count in {} to resume",
            dir.display()
        )
        .into(),
    )
    .with_hint(crate::Hint::DontResume)
}

/// The checkpoint rules of a run of `p` in the work directory, before it
/// starts. A run that resumes needs a checkpoint of `p` (finished or not),
/// unless it is a later part of its count (`RunOptions::later`), which may
/// have stopped before that part began. A run that does not resume
/// refuses an unfinished checkpoint of `p` unless it starts `fresh`, which
/// removes it; a finished one is counted again. Other counts' files in the
/// folder are never looked at.
pub(crate) fn check_checkpoint(p: &Problem, opts: &RunOptions<'_>) -> Result<()> {
    let Some(dir) = opts.count.work_dir.as_deref() else {
        return Ok(());
    };
    // A run folder replaced by a link (or another user's) is refused
    // whatever the count would do with it.
    let work = Folder::open(dir).map_err(|e| io_error("open", dir, e))?;
    for fp in fingerprints(p) {
        work.sub(&format!("count-{fp}"))?;
    }
    let manifests = manifests(p, dir);
    if opts.count.resume {
        return match manifests.is_empty() && !opts.later {
            true => Err(no_checkpoint(dir)),
            false => Ok(()),
        };
    }
    if opts.count.fresh {
        return clear_checkpoints(p, dir);
    }
    if manifests.iter().any(|m| !is_finished(m)) {
        return Err(unfinished(dir));
    }
    Ok(())
}

/// The manifests of `p`'s runs in `dir`, whatever their widths.
pub(crate) fn manifests(p: &Problem, dir: &Path) -> Vec<PathBuf> {
    manifests_of(fingerprints(p), dir)
}

/// The manifests in `dir` of the runs with fingerprints `prints`: a run
/// folder or manifest that is a link is none.
fn manifests_of(prints: Vec<String>, dir: &Path) -> Vec<PathBuf> {
    prints
        .into_iter()
        .map(|fp| dir.join(format!("count-{fp}")))
        .filter(|run| fs::symlink_metadata(run).is_ok_and(|m| m.is_dir()))
        .map(|run| run.join(MANIFEST))
        .filter(|m| fs::symlink_metadata(m).is_ok_and(|m| m.is_file()))
        .collect()
}

/// The error of a count that would overwrite its unfinished checkpoint.
pub(crate) fn unfinished(dir: &Path) -> Error {
    Error::Parse(
        format!(
            "{} holds an unfinished checkpoint of this count",
            dir.display()
        )
        .into(),
    )
    .with_hint(crate::Hint::ResumeOrFresh)
}

/// Whether the manifest at `path` is that of a finished run (one that
/// cannot be read counts as unfinished: it is not overwritten unasked).
fn is_finished(path: &Path) -> bool {
    #[derive(serde::Deserialize)]
    struct Finished {
        count: Option<String>,
    }
    read_small(path)
        .ok()
        .and_then(|text| serde_json::from_str::<Finished>(&text).ok())
        .is_some_and(|m| m.count.is_some())
}

/// The fingerprints of every run of `p`, whatever its key and count widths.
fn fingerprints(p: &Problem) -> Vec<String> {
    let mut prints = encoded(p, false);
    prints.extend(encoded(p, true));
    prints
}

/// The fingerprints of the runs of `p` with nibble keys or ranked keys,
/// whatever their key and count widths.
fn encoded(p: &Problem, nibbles: bool) -> Vec<String> {
    let mut prints = Vec::new();
    for bits in COUNT_BITS {
        let count_bytes = bits as usize / 8;
        prints.push(fingerprint_of(p, 8, count_bytes, nibbles));
        prints.push(fingerprint_of(p, 16, count_bytes, nibbles));
    }
    prints
}

/// Whether a run of `p` that resumes finds its checkpoint written with
/// ranked keys only, by a version of knights from before `p`'s board took
/// nibble keys (boards 7 wide, until December 2026): the run goes on with
/// ranked keys, so that its files read as written.
pub(crate) fn resumes_ranked_keys(p: &Problem, opts: &RunOptions<'_>) -> bool {
    let Some(dir) = opts.count.work_dir.as_deref() else {
        return false;
    };
    let found = |nibbles| !manifests_of(encoded(p, nibbles), dir).is_empty();
    opts.count.resume && opts.workers.is_none() && found(false) && !found(true)
}

/// Removes every checkpoint of `p` in `dir`, whatever its key and count
/// widths: a count that starts afresh must not later resume an older one.
/// A run of them still going in another process is not touched: the
/// count is refused.
pub(crate) fn clear_checkpoints(p: &Problem, dir: &Path) -> Result<()> {
    let work = Folder::open(dir).map_err(|e| io_error("open", dir, e))?;
    for fp in fingerprints(p) {
        let name = format!("count-{fp}");
        if work.kind(&name) != Kind::Missing {
            let _running_elsewhere = lock_run(dir, &fp)?;
            work.remove_sub(&name)?;
        }
    }
    Ok(())
}

/// Where a run starts: from its start state, or from its checkpoint.
#[derive(Default)]
pub(super) struct Opened {
    /// The run's figures so far.
    pub run: Run,
    /// Squares done.
    pub step: usize,
    /// The state files of the layer after them (none: the start state).
    pub files: Vec<PathBuf>,
    /// Their states, bytes and checksums, in the same order.
    pub sizes: Vec<(u64, u64, u32)>,
    /// Whether they are packed (format 4) or fixed-width (format 3).
    pub packed: bool,
    /// The bytes of unmerged successors its last square wrote.
    pub raw_bytes: Option<u64>,
    /// The run's folder, with a work directory.
    pub disk: Option<Disk>,
    /// Whether the checkpoint holds the finished run's count.
    pub finished: bool,
}

/// Opens the run `fp` of `n` squares in the work directory, if any:
/// resumes from its checkpoint (checking every state file) or starts its
/// folder afresh. The run's folder is reached through the work
/// directory's handle and must be a folder this user made, not a link.
pub(super) fn open<K: Word, C: Tally>(
    fp: &str,
    opts: &RunOptions<'_>,
    n: usize,
    mut run: Run,
) -> std::result::Result<Opened, Stop> {
    let mut opened = Opened {
        packed: true,
        ..Opened::default()
    };
    let Some(work_dir) = opts.count.work_dir.as_deref() else {
        opened.run = run;
        return Ok(opened);
    };
    let lock = lock_run(work_dir, fp)?;
    let work = Folder::open(work_dir).map_err(|e| io("open", work_dir, e))?;
    let name = format!("count-{fp}");
    let existing = match opts.count.resume {
        true => work
            .sub(&name)?
            .filter(|d| d.kind(MANIFEST) != Kind::Missing),
        false => None,
    };
    let folder = match existing {
        Some(folder) => {
            resume_from::<K, C>(&folder, fp, n, &mut run, &mut opened)?;
            folder
        }
        None => {
            work.remove_sub(&name)?;
            // The work directory exists (see `prepare_work_dir`): only the
            // run's own folder is made.
            work.make_sub(&name)?
        }
    };
    opened.run = run;
    opened.disk = Some(Disk {
        dir: folder.path().to_path_buf(),
        temporary: false,
        _lock: Some(lock),
        folder: Some(folder),
    });
    Ok(opened)
}

/// Reads the checkpoint in the run's `folder` into `run` and `opened`,
/// checking every state file, and removes what a killed step left there.
pub(super) fn resume_from<K: Word, C: Tally>(
    folder: &Folder,
    fp: &str,
    n: usize,
    run: &mut Run,
    opened: &mut Opened,
) -> std::result::Result<(), Stop> {
    let manifest = folder.join(MANIFEST);
    let m = read_manifest(&manifest, fp, MAX_BUCKETS, n)?;
    run.states_per_step = m.states_per_step;
    run.peak = m.peak;
    run.prefix_counts = m.prefix_counts;
    run.on_disk = true;
    if let Some(count) = m.count {
        run.count = count.parse().map_err(|_: Error| {
            Error::Parse(format!("{} holds a bad count", manifest.display()).into())
                .with_hint(crate::Hint::StartFresh)
        })?;
        opened.finished = true;
    }
    opened.step = m.step;
    opened.packed = m.version >= 4;
    opened.raw_bytes = m.raw_bytes;
    for f in &m.buckets {
        let bytes = check_state_file::<K, C>(folder, f, opened.packed)?;
        opened.files.push(folder.join(&f.name));
        opened.sizes.push((f.states, bytes, f.crc32));
    }
    // Remove what a killed step left behind: files of the run's own
    // naming that the manifest does not name, in the run's own folder.
    let names = folder.names().map_err(|e| io("read", folder.path(), e))?;
    for name in names {
        if is_run_file(&name) && !m.buckets.iter().any(|f| f.name == name) {
            let _ = folder.remove(&name);
        }
    }
    Ok(())
}

/// Locks the run `fp` in the work directory `work` for this process (an
/// empty file `count-{fp}.lock` beside the run's folder, locked until
/// the run ends or its process dies), or refuses it while another
/// process counts it there: two runs of one count in one folder would
/// overwrite each other's state files and checkpoint. The lock file is
/// opened relative to the work directory and never through a link.
pub(crate) fn lock_run(work: &Path, fp: &str) -> Result<File> {
    let name = format!("count-{fp}.lock");
    let path = work.join(&name);
    let file = Folder::open(work)
        .and_then(|folder| folder.lock_file(&name))
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput => Error::Parse(format!(
                "{} is not a lock file this count made ({e}); knights does not open it (remove it, or give another work directory)",
                path.display()
            ).into()),
            _ => io_error("create", &path, e),
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(fs::TryLockError::WouldBlock) => Err(Error::Unsupported(format!(
            "another process is running this count in the work directory {}; wait for it to end, or give another work directory",
            work.display()
        ).into())),
        Err(fs::TryLockError::Error(e)) => Err(io_error("lock", &path, e)),
    }
}

/// Writes the checkpoint of run `fp` after square `step` (unless its
/// folder is temporary): the manifest naming the layer's state `files`
/// (`(path, states, crc32)`), the run's figures, the bytes of unmerged
/// successors the square wrote, and once finished its count.
pub(super) fn write_manifest(
    disk: &Disk,
    fp: &str,
    step: usize,
    files: &[(&Path, u64, u32)],
    run: &Run,
    raw_bytes: Option<u64>,
    count: Option<String>,
) -> std::result::Result<(), Stop> {
    let m = Manifest {
        version: MANIFEST_VERSION,
        fingerprint: fp.to_string(),
        step,
        buckets: files
            .iter()
            .map(|&(path, states, crc32)| StateFile {
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
                states,
                crc32,
            })
            .collect(),
        states_per_step: run.states_per_step.clone(),
        peak: run.peak,
        count,
        prefix_counts: run.prefix_counts.clone(),
        raw_bytes,
        join: None,
        binding: None,
        checksum: 0,
    };
    let m = Manifest {
        binding: Some(super::validate::binding(&m)),
        ..m
    };
    let text = m.sealed();
    if let (false, Some(folder)) = (disk.temporary, &disk.folder) {
        write_atomic(folder, MANIFEST, text.as_bytes())?;
    }
    Ok(())
}
