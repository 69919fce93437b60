//! Storing and stepping the frontier states: layers split into
//! hash-partitioned buckets, in memory or on disk, with checkpoints.
//!
//! A layer (the states after some vertex) is a list of buckets, each a vector
//! of `(key, count)` with no key twice. One step reads the
//! layer in chunks (in parallel), expands every state, sends each successor
//! to the bucket `hash(key)` of the next layer, merges each chunk's
//! share; then each next bucket gathers its shares and merges them. A merge
//! adds up the counts of equal keys through a hash table (sorting instead
//! past four million entries, where the table would be large).
//! Addition commutes, so the layer (and the count) is the same for any number
//! of threads. Keys are `u64` when the widest state fits (8-wide boards) and
//! counts `u64` unless one overflows, in which case the count restarts with
//! `u128` counts.
//!
//! **Disk.** With a work directory (or when a layer would not fit in the
//! memory bound), shares are appended to one file per next bucket and the
//! merged buckets written to files; after every layer a manifest naming
//! them is written to a temporary file and renamed over `checkpoint.json`, and
//! only then are the previous layer's files removed. A run killed at any
//! moment therefore resumes (`resume`) from the last complete layer.

use std::borrow::Cow;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use bnum::types::{U1024, U2048, U256, U4096, U512};

use super::disk::{
    check_state_file, entry_bytes, file_states, io, is_run_file, read_entries, read_manifest,
    state_file_name, write_atomic, write_entries, Checksummed, Disk, Key, Manifest, StateFile,
    Stop, Tally, Word, MANIFEST, MANIFEST_VERSION,
};
use super::frontier::{Engine, Problem, Step};
use super::number::Count;
use crate::{Error, Result};

/// What the dynamic program hands to the progress callback after each vertex.
#[derive(Copy, Clone, Debug)]
pub struct FrontierProgress {
    /// Vertices processed so far.
    pub step: usize,
    /// Vertices in all.
    pub steps: usize,
    /// States in the frontier now.
    pub states: usize,
    /// The most states seen so far.
    pub peak: usize,
    /// Whether the states are kept on disk.
    pub on_disk: bool,
    /// Successors generated at this square, before equal states merged.
    pub generated: u64,
    /// Bytes of state files on disk now (0 in memory).
    pub disk_bytes: u64,
    /// The projected peak of the states (see the `project` module notes):
    /// the states measured so far, then the model's.
    pub projected_peak: u64,
    /// The projected seconds left in this run, at the speed of the last row.
    pub seconds_left: Option<f64>,
}

/// How a run stores its states and where it may stop.
#[derive(Copy, Clone, Default)]
pub(crate) struct RunOptions<'a> {
    pub max_memory: Option<u64>,
    pub progress: Option<&'a (dyn Fn(&FrontierProgress) + Sync)>,
    pub work_dir: Option<&'a Path>,
    pub resume: bool,
    /// Start afresh: remove the run's checkpoint, if any, rather than
    /// refuse it (see [`check_checkpoint`]).
    pub fresh: bool,
    /// A later run of a count that runs several (a meeting's bottom part,
    /// the quotients of a symmetry after the first): resuming, it starts
    /// afresh where it has no checkpoint, since its count may have stopped
    /// before it began.
    pub later: bool,
    pub stop: Option<&'a crate::StopFlag>,
    /// The most bytes the state files may take (default: what they take now
    /// and 80 % of the free space on their file system).
    pub max_disk: Option<u64>,
    /// Keep the state files of a finished run.
    pub keep: bool,
    /// For a part of a graph (see `Problem::external`): called with the
    /// states after the last vertex, chunk by chunk and in parallel, as
    /// `(key, count)` pairs.
    pub final_layer: Option<&'a FinalLayer<'a>>,
    /// The bits the count is expected to need: the run starts with counts
    /// that wide (0: `u64`), and widens them if they overflow.
    pub count_bits: u32,
    /// Keep the states in memory, never on disk (a count on a board with
    /// holes, wrapping or another leaper, whose states have no disk program
    /// yet): past the memory bound the count stops with
    /// [`Error::TooLarge`] naming this board.
    pub memory_only: Option<crate::Board>,
}

impl RunOptions<'_> {
    /// [`Error::Interrupted`] if the stop flag is raised, saying where the
    /// count stopped (`when`: "after square 5 of 24", ...).
    pub fn check_stop(&self, when: &str) -> Result<()> {
        if !self.stop.is_some_and(crate::StopFlag::is_stopped) {
            return Ok(());
        }
        let stopped = Error::Interrupted(format!("the count was stopped {when}"));
        Err(match self.work_dir {
            Some(_) => stopped.with_hint(crate::Hint::Resume),
            None => stopped,
        })
    }

    /// The memory bound in bytes: `max_memory`, else what is available.
    pub fn budget(&self) -> u64 {
        self.max_memory
            .or_else(crate::memory::available_bytes)
            .unwrap_or(u64::MAX)
    }
}

/// Where a count stops after its last square: while its parts' final
/// states are joined (meeting in the middle).
pub(crate) const JOINING: &str = "while its parts were joined";

/// A consumer of a part's final states.
pub(crate) type FinalLayer<'a> = dyn Fn(&[(u128, u128)]) -> Result<()> + Sync + 'a;

/// The figures of a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Run {
    pub count: Count,
    pub states_per_step: Vec<u64>,
    pub peak: u64,
    pub slots: usize,
    pub key_bytes: usize,
    pub on_disk: bool,
    /// Successors generated (before equal states are merged), over all steps.
    pub generated: u64,
    /// The most bytes of state files on disk at once (this run's share).
    #[serde(default)]
    pub peak_disk: u64,
    /// For a sweep: the count of each prefix (see `Problem::prefixes`), by
    /// its number of vertices.
    #[serde(default)]
    pub prefix_counts: Vec<(usize, Count)>,
}

/// The count widths a run may use, narrowest first.
const COUNT_BITS: [u32; 7] = [64, 128, 256, 512, 1024, 2048, 4096];

/// Runs the dynamic program on `p`, with counts as wide as
/// `opts.count_bits` asks and wider if they overflow.
pub(crate) fn run(p: &Problem, opts: &RunOptions<'_>) -> Result<Run> {
    let engine = Engine::new(p)?;
    check_checkpoint(p, opts)?;
    let narrow = engine.key_bits <= 64;
    let mut width = COUNT_BITS
        .iter()
        .position(|&b| b >= opts.count_bits)
        .unwrap_or(COUNT_BITS.len() - 1);
    loop {
        let outcome = if narrow {
            run_width::<u64>(p, &engine, opts, width)
        } else {
            run_width::<u128>(p, &engine, opts, width)
        };
        match outcome {
            Ok(run) => return Ok(run),
            Err(Stop::Err(e)) => return Err(e),
            Err(Stop::Overflow) if width + 1 < COUNT_BITS.len() => width += 1,
            Err(Stop::Overflow) => return Err(overflow()),
            Err(Stop::OverMemory(_)) => {
                return Err(Error::Internal(
                    "a count on disk passed its memory bound".into(),
                ))
            }
        }
    }
}

fn run_width<K: Key>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
    width: usize,
) -> std::result::Result<Run, Stop> {
    match COUNT_BITS[width] {
        64 => run_typed::<K, u64>(p, engine, opts),
        128 => run_typed::<K, u128>(p, engine, opts),
        256 => run_typed::<K, U256>(p, engine, opts),
        512 => run_typed::<K, U512>(p, engine, opts),
        1024 => run_typed::<K, U1024>(p, engine, opts),
        2048 => run_typed::<K, U2048>(p, engine, opts),
        _ => run_typed::<K, U4096>(p, engine, opts),
    }
}

/// A chunk's successors, by next bucket.
type Shares<K, C> = Vec<Vec<(K, C)>>;

/// What one chunk of a layer gives at a step.
struct ChunkOut<K, C> {
    shares: Shares<K, C>,
    /// Tours completed at the last step.
    done: C,
    /// Tours of the prefix completed at a prefix step.
    prefix: C,
    /// Successors generated, and written after the chunk's own merge.
    generated: u64,
    written: u64,
}

enum Bucket<K, C> {
    Mem(Vec<(K, C)>),
    /// A state file, and the CRC-32 of its bytes.
    Disk {
        path: PathBuf,
        states: u64,
        crc32: u32,
    },
}

impl<K, C> Bucket<K, C> {
    fn states(&self) -> u64 {
        match self {
            Bucket::Mem(v) => v.len() as u64,
            Bucket::Disk { states, .. } => *states,
        }
    }
}

/// States read and expanded by one task.
const CHUNK: usize = 1 << 20;
/// The most buckets a layer may be split into on disk.
const MAX_BUCKETS: usize = 1 << 9;
/// The least memory bound under which states go to disk rather than stop.
const MIN_DISK_BUDGET: u64 = 1 << 18;
/// Bytes of memory a state costs in a step, counting its successors.
const STEP_BYTES_PER_STATE: u64 = 64;
/// The share of the free disk a count takes by default, in percent.
pub(crate) const DEFAULT_DISK_SHARE: u64 = 80;

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
fn fingerprint<K: Word, C: Word>(p: &Problem, engine: &Engine) -> String {
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
/// it if it does not exist (its parent must: a mistyped path is not made
/// into a tree of folders). Whether the count may resume or overwrite a
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
        fs::create_dir(dir)
            .map_err(|e| Error::io(format!("create the work directory {}", dir.display()), e))?;
    } else if !dir.is_dir() {
        return Err(Error::Parse(format!(
            "the work directory {} is not a directory",
            dir.display()
        )));
    }
    Ok(())
}

/// The error of a count that resumes where it has no checkpoint.
fn no_checkpoint(dir: &Path) -> Error {
    Error::Parse(format!(
        "there is no checkpoint of this count in {} to resume",
        dir.display()
    ))
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
    let Some(dir) = opts.work_dir else {
        return Ok(());
    };
    let manifests = manifests(p, dir);
    if opts.resume {
        return match manifests.is_empty() && !opts.later {
            true => Err(no_checkpoint(dir)),
            false => Ok(()),
        };
    }
    if opts.fresh {
        return clear_checkpoints(p, dir);
    }
    if manifests.iter().any(|m| !is_finished(m)) {
        return Err(unfinished(dir));
    }
    Ok(())
}

/// The manifests of `p`'s runs in `dir`, whatever their widths.
pub(crate) fn manifests(p: &Problem, dir: &Path) -> Vec<PathBuf> {
    fingerprints(p)
        .into_iter()
        .map(|fp| dir.join(format!("count-{fp}")).join(MANIFEST))
        .filter(|m| m.is_file())
        .collect()
}

/// The error of a count that would overwrite its unfinished checkpoint.
pub(crate) fn unfinished(dir: &Path) -> Error {
    Error::Parse(format!(
        "{} holds an unfinished checkpoint of this count",
        dir.display()
    ))
    .with_hint(crate::Hint::ResumeOrFresh)
}

/// Whether the manifest at `path` is that of a finished run (one that
/// cannot be read counts as unfinished: it is not overwritten unasked).
fn is_finished(path: &Path) -> bool {
    #[derive(serde::Deserialize)]
    struct Finished {
        count: Option<String>,
    }
    super::disk::read_small(path)
        .ok()
        .and_then(|text| serde_json::from_str::<Finished>(&text).ok())
        .is_some_and(|m| m.count.is_some())
}

/// The fingerprints of every run of `p`, whatever its key and count widths.
fn fingerprints(p: &Problem) -> Vec<String> {
    let mut prints = Vec::new();
    for bits in COUNT_BITS {
        let count_bytes = bits as usize / 8;
        for nibbles in [false, true] {
            prints.push(fingerprint_of(p, 8, count_bytes, nibbles));
            prints.push(fingerprint_of(p, 16, count_bytes, nibbles));
        }
    }
    prints
}

/// Removes every checkpoint of `p` in `dir`, whatever its key and count
/// widths: a count that starts afresh must not later resume an older one.
pub(crate) fn clear_checkpoints(p: &Problem, dir: &Path) -> Result<()> {
    for fp in fingerprints(p) {
        let d = dir.join(format!("count-{fp}"));
        if d.exists() {
            fs::remove_dir_all(&d).map_err(|e| super::disk::io_error("clear", &d, e))?;
        }
    }
    Ok(())
}

#[inline]
fn bucket_of<K: Key>(key: K, buckets: usize) -> usize {
    if buckets == 1 {
        return 0;
    }
    let k = key.to_u128();
    let h = ((k as u64) ^ ((k >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((h >> 32) as usize) & (buckets - 1)
}

/// Adds up the counts of equal keys, leaving each key once (in no
/// particular order).
pub(super) fn merge<K: Key, C: Tally>(v: &mut Vec<(K, C)>) -> std::result::Result<(), Stop> {
    if v.len() > MAX_HASHED {
        return merge_sorted(v);
    }
    // Open addressing over the distinct keys met so far, which are moved
    // to the front of `v` (a read index never trails the write index).
    let bits = (2 * v.len()).next_power_of_two().max(16).trailing_zeros();
    let mask = (1usize << bits) - 1;
    let mut table: Vec<u32> = vec![u32::MAX; mask + 1];
    let mut w = 0usize;
    for r in 0..v.len() {
        let (key, count) = v[r];
        let k = key.to_u128();
        let h =
            ((k as u64) ^ ((k >> 64) as u64).rotate_left(23)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let mut i = (h >> (64 - bits)) as usize;
        loop {
            let at = table[i];
            if at == u32::MAX {
                table[i] = w as u32;
                v[w] = (key, count);
                w += 1;
                break;
            }
            let e = &mut v[at as usize];
            if e.0 == key {
                e.1 = e.1.add(count).ok_or(Stop::Overflow)?;
                break;
            }
            i = (i + 1) & mask;
        }
    }
    v.truncate(w);
    Ok(())
}

/// The most entries [`merge`] adds up by hashing; longer vectors are
/// sorted, which needs no table beside them.
const MAX_HASHED: usize = 1 << 22;

/// Sorts by key and adds up the counts of equal keys.
fn merge_sorted<K: Key, C: Tally>(v: &mut Vec<(K, C)>) -> std::result::Result<(), Stop> {
    v.sort_unstable_by_key(|e| e.0);
    let mut w = 0usize;
    for r in 0..v.len() {
        if w > 0 && v[w - 1].0 == v[r].0 {
            v[w - 1].1 = v[w - 1].1.add(v[r].1).ok_or(Stop::Overflow)?;
        } else {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
    Ok(())
}

fn run_typed<K: Key, C: Tally>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
) -> std::result::Result<Run, Stop> {
    let n = engine.steps.len();
    let fp = fingerprint::<K, C>(p, engine);
    let budget = opts.budget();
    let mut disk: Option<Disk> = None;
    let mut cur: Vec<Bucket<K, C>> = vec![Bucket::Mem(vec![(
        K::from_u128(engine.start_key()),
        C::ONE,
    )])];
    let mut t0 = 0usize;
    let mut run = Run {
        slots: engine.width,
        key_bytes: K::BYTES,
        peak: 1,
        ..Run::default()
    };
    if let Some(dir) = opts.work_dir {
        let dir = dir.join(format!("count-{fp}"));
        let manifest = dir.join(MANIFEST);
        if opts.resume && manifest.exists() {
            let m = read_manifest(&manifest, &fp, MAX_BUCKETS)?;
            run.states_per_step = m.states_per_step;
            run.peak = m.peak;
            run.prefix_counts = m.prefix_counts;
            run.on_disk = true;
            if let Some(count) = m.count {
                run.count = count.parse().map_err(|_: Error| {
                    Error::Parse(format!("{} holds a bad count", manifest.display()))
                })?;
                if opts.final_layer.is_none() {
                    return Ok(run);
                }
            }
            t0 = m.step;
            cur.clear();
            for f in &m.buckets {
                check_state_file(&dir, f, entry_bytes::<K, C>())?;
                cur.push(Bucket::Disk {
                    path: dir.join(&f.name),
                    states: f.states,
                    crc32: f.crc32,
                });
            }
            // Remove what a killed step left behind: files of the run's own
            // naming that the manifest does not name.
            for entry in fs::read_dir(&dir)
                .map_err(|e| io("read", &dir, e))?
                .flatten()
            {
                let name = entry.file_name().to_string_lossy().into_owned();
                if is_run_file(&name) && !m.buckets.iter().any(|f| f.name == name) {
                    let _ = fs::remove_file(entry.path());
                }
            }
        } else {
            if dir.exists() {
                fs::remove_dir_all(&dir).map_err(|e| io("clear", &dir, e))?;
            }
            // The work directory exists (see `prepare_work_dir`): only the
            // run's own folder is made.
            fs::create_dir(&dir).map_err(|e| io("create", &dir, e))?;
        }
        disk = Some(Disk {
            dir,
            temporary: false,
        });
    }
    let threads = rayon::current_num_threads().max(1) as u64;
    let mut total = C::ZERO;
    let eb = entry_bytes::<K, C>() as u64;
    let w = super::project::period(p);
    let last_row = super::project::LastRow::of(p);
    // Per square of this run: (states, successors, seconds since the start).
    let mut timeline: Vec<(u64, u64, f64)> = Vec::new();
    let started = std::time::Instant::now();
    // Successors written to disk per state they merged into, last square.
    let mut raw_ratio: Option<f64> = None;
    for t in t0..n {
        let step = &engine.steps[t];
        let states: u64 = cur.iter().map(Bucket::states).sum();
        let growth = match run.states_per_step.len() {
            0 | 1 => 4.0,
            l => (run.states_per_step[l - 1] as f64 / run.states_per_step[l - 2].max(1) as f64)
                .clamp(1.0, 4.0),
        };
        let next_est = (states as f64 * growth) as u64 + 1;
        let step_bytes = (states + next_est).saturating_mul(STEP_BYTES_PER_STATE);
        if disk.is_none() && step_bytes > budget {
            disk = Some(spill(opts, budget, next_est, &fp, step_bytes)?);
        }
        // Phase 1: expand every chunk, split its successors by next bucket;
        // again on disk if the successors outgrow the memory bound.
        let when = format!("during square {} of {n}", t + 1);
        let (nb, raw, shares) = loop {
            if let Some(d) = &disk {
                check_disk(d, opts, t, n, states * eb, next_est, raw_ratio, eb)?;
            }
            let nb = next_buckets(next_est, disk.is_some(), budget, threads, opts)?;
            let chunk = match &disk {
                // A few chunks a thread, so that small layers use every core.
                None => (states / (4 * threads)).clamp(1 << 12, CHUNK as u64),
                Some(_) => {
                    (budget / 4 / threads / STEP_BYTES_PER_STATE).clamp(1 << 10, 8 * CHUNK as u64)
                }
            };
            let raw = match &disk {
                None => None,
                Some(d) => Some(raw_files(d, t, nb)?),
            };
            let guard = StepGuard {
                opts,
                when: &when,
                // On disk each chunk's successors leave memory as it ends.
                limit: match &disk {
                    None => budget.saturating_sub(states * eb),
                    Some(_) => u64::MAX,
                },
                threads,
                held: AtomicU64::new(0),
                states,
                expanded: AtomicU64::new(0),
            };
            let chunks = chunks_of(&cur, chunk);
            match expand_layer(engine, step, &cur, &chunks, nb, raw.as_ref(), &guard) {
                Ok(shares) => break (nb, raw, shares),
                Err(Stop::OverMemory(bytes)) if disk.is_none() => {
                    drop(raw);
                    let needed = states * eb + bytes;
                    disk = Some(spill(opts, budget, next_est, &fp, needed)?);
                }
                Err(e) => return Err(e),
            }
        };
        let mut pieces: Vec<Vec<Vec<(K, C)>>> = (0..nb).map(|_| Vec::new()).collect();
        let mut generated = 0u64;
        let mut written = 0u64;
        let mut prefix_total = C::ZERO;
        for c in shares {
            total = total.add(c.done).ok_or(Stop::Overflow)?;
            prefix_total = prefix_total.add(c.prefix).ok_or(Stop::Overflow)?;
            generated += c.generated;
            written += c.written;
            for (j, v) in c.shares.into_iter().enumerate() {
                if !v.is_empty() {
                    pieces[j].push(v);
                }
            }
        }
        // The old layer's memory goes now, its files once the checkpoint is written.
        let old: Vec<PathBuf> = std::mem::take(&mut cur)
            .into_iter()
            .filter_map(|b| match b {
                Bucket::Disk { path, .. } => Some(path),
                Bucket::Mem(_) => None,
            })
            .collect();
        if let Some(files) = raw {
            for (path, w) in files {
                let mut w = w.into_inner().unwrap_or_else(|e| e.into_inner());
                w.flush().map_err(|e| io("write", &path, e))?;
            }
        }
        // Phase 2: merge each next bucket.
        let next: Vec<Bucket<K, C>> = pieces
            .into_par_iter()
            .enumerate()
            .map(|(j, parts)| -> std::result::Result<Bucket<K, C>, Stop> {
                let mut v: Vec<(K, C)>;
                match &disk {
                    None => {
                        v = Vec::with_capacity(parts.iter().map(Vec::len).sum());
                        for part in parts {
                            v.extend_from_slice(&part);
                        }
                    }
                    Some(d) => {
                        let path = d.dir.join(format!("raw-s{}-b{j}.bin", t + 1));
                        let len = file_states::<K, C>(&path)? as usize;
                        v = read_entries(&path, 0, len)?;
                        let _ = fs::remove_file(&path);
                    }
                }
                merge(&mut v)?;
                v.shrink_to_fit();
                match &disk {
                    None => Ok(Bucket::Mem(v)),
                    Some(d) => {
                        let path = d.dir.join(state_file_name(t + 1, j));
                        let f = File::create(&path).map_err(|e| io("write", &path, e))?;
                        let mut w = Checksummed {
                            inner: BufWriter::with_capacity(1 << 20, f),
                            hasher: crc32fast::Hasher::new(),
                        };
                        write_entries(&mut w, &v).map_err(|e| io("write", &path, e))?;
                        let crc32 = w.hasher.finalize();
                        let f = w
                            .inner
                            .into_inner()
                            .map_err(|e| io("write", &path, e.into_error()))?;
                        if !d.temporary {
                            f.sync_all().map_err(|e| io("write", &path, e))?;
                        }
                        Ok(Bucket::Disk {
                            path,
                            states: v.len() as u64,
                            crc32,
                        })
                    }
                }
            })
            .collect::<std::result::Result<_, Stop>>()?;
        let states: u64 = next.iter().map(Bucket::states).sum();
        if disk.is_some() {
            let read: u64 = cur.iter().map(Bucket::states).sum();
            run.peak_disk = run.peak_disk.max((read + written.max(states)) * eb);
            raw_ratio = Some(written as f64 / states.max(1) as f64);
        }
        if step.prefix {
            run.prefix_counts
                .push((t + 1, Count::from_big(prefix_total.big())));
        }
        cur = next;
        run.peak = run.peak.max(states);
        run.states_per_step.push(states);
        run.generated += generated;
        if let Some(d) = &disk {
            run.on_disk = true;
            let finished = t + 1 == n;
            // A finished run that hands its states to no one keeps only its
            // manifest (with the count), unless asked to keep them.
            let clean = finished && opts.final_layer.is_none() && !opts.keep && !d.temporary;
            let m = Manifest {
                version: MANIFEST_VERSION,
                fingerprint: fp.clone(),
                step: t + 1,
                buckets: if clean {
                    Vec::new()
                } else {
                    cur.iter()
                        .map(|b| match b {
                            Bucket::Disk {
                                path,
                                states,
                                crc32,
                            } => StateFile {
                                name: path
                                    .file_name()
                                    .unwrap_or_default()
                                    .to_string_lossy()
                                    .into_owned(),
                                states: *states,
                                crc32: *crc32,
                            },
                            Bucket::Mem(_) => unreachable!("disk runs write every bucket"),
                        })
                        .collect()
                },
                states_per_step: run.states_per_step.clone(),
                peak: run.peak,
                count: finished.then(|| total.big().to_string()),
                prefix_counts: run.prefix_counts.clone(),
                checksum: 0,
            };
            let text = m.sealed();
            if !d.temporary {
                write_atomic(&d.dir, MANIFEST, &text)?;
            }
            if clean {
                for b in std::mem::take(&mut cur) {
                    if let Bucket::Disk { path, .. } = b {
                        let _ = fs::remove_file(path);
                    }
                }
            }
        }
        for path in old {
            let _ = fs::remove_file(path);
        }
        timeline.push((states, generated, started.elapsed().as_secs_f64()));
        if let Some(f) = opts.progress {
            let projected = super::project::extend(&run.states_per_step, n, w, last_row);
            let (ratio, per) = super::project::rates(&timeline, w);
            let (peak, _, _, left) = super::project::figures(&projected, t + 1, ratio, eb);
            f(&FrontierProgress {
                step: t + 1,
                steps: n,
                states: states as usize,
                peak: run.peak as usize,
                on_disk: disk.is_some(),
                generated,
                disk_bytes: if disk.is_some() { states * eb } else { 0 },
                projected_peak: peak.max(run.peak),
                seconds_left: (per > 0.0).then_some(per * left),
            });
        }
        if t + 1 < n {
            opts.check_stop(&format!("after square {} of {n}", t + 1))?;
        }
    }
    run.count = Count::from_big(total.big());
    if let Some(consume) = opts.final_layer {
        hand_over(&cur, consume, opts)?;
    }
    Ok(run)
}

/// Where a count goes when its states outgrow the memory bound `budget`
/// (`needed` bytes, `next` states expected): to disk, in a temporary
/// directory; or, for a count kept in memory or a bound too small even for
/// the disk program, nowhere: an error.
fn spill(
    opts: &RunOptions<'_>,
    budget: u64,
    next: u64,
    fingerprint: &str,
    needed: u64,
) -> std::result::Result<Disk, Stop> {
    if let Some(board) = opts.memory_only {
        let available = match opts.max_memory {
            Some(limit) => format!("the memory bound is {}", crate::memory::human_bytes(limit)),
            None => crate::memory::available_phrase(),
        };
        return Err(Error::TooLarge {
            what: "count",
            rows: board.rows(),
            cols: board.cols(),
            needed: crate::memory::human_bytes(needed.max(budget.saturating_add(1))),
            available,
        }
        .into());
    }
    if budget < MIN_DISK_BUDGET {
        return Err(over_budget(opts.max_memory, next).into());
    }
    Disk::temporary(fingerprint)
}

/// The number of next buckets: enough to keep every core busy, and on disk
/// small enough that the threads can each merge one in memory.
fn next_buckets(
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
            return Err(over_budget(opts.max_memory, next).into());
        }
    }
    Ok(nb)
}

/// The files of a disk run's unmerged successors after square `t + 1`,
/// one a next bucket.
type RawFiles = Vec<(PathBuf, Mutex<BufWriter<File>>)>;

fn raw_files(d: &Disk, t: usize, nb: usize) -> std::result::Result<RawFiles, Stop> {
    (0..nb)
        .map(|j| {
            let path = d.dir.join(format!("raw-s{}-b{j}.bin", t + 1));
            let f = File::create(&path).map_err(|e| io("write", &path, e))?;
            Ok((path, Mutex::new(BufWriter::with_capacity(1 << 16, f))))
        })
        .collect()
}

/// Watches the expansion of a square: the stop flag, and the memory the
/// successors held in memory take against what the bound leaves them.
struct StepGuard<'a> {
    opts: &'a RunOptions<'a>,
    /// Where the count stops if asked: "during square 5 of 24".
    when: &'a str,
    /// The bytes the successors may take.
    limit: u64,
    threads: u64,
    /// Bytes of the merged successors of the chunks done.
    held: AtomicU64,
    /// States of the layer, and those expanded so far (roughly).
    states: u64,
    expanded: AtomicU64,
}

/// States expanded between two looks at the stop flag and the memory.
const GUARD_EVERY: usize = 1 << 10;

impl StepGuard<'_> {
    /// Stops the square if the stop flag is raised, or if a chunk's
    /// successors so far (`growing` bytes, as many in every other thread)
    /// would pass the limit with what the chunks done hold; the error
    /// carries the bytes the whole square would take at that rate.
    fn check(&self, growing: u64) -> std::result::Result<(), Stop> {
        self.opts.check_stop(self.when)?;
        let expanded = self
            .expanded
            .fetch_add(GUARD_EVERY as u64, Ordering::Relaxed);
        let held = self.held.load(Ordering::Relaxed);
        let in_flight = held.saturating_add(growing.saturating_mul(self.threads));
        if in_flight > self.limit {
            let share = (expanded + GUARD_EVERY as u64).min(self.states).max(1) as f64;
            let whole = in_flight as f64 * self.states as f64 / share;
            return Err(Stop::OverMemory(whole as u64));
        }
        Ok(())
    }
}

/// Phase 1 of a square: expands every chunk of the layer `cur`, merges each
/// chunk's successors and splits them by next bucket (appended to the raw
/// files on disk).
fn expand_layer<K: Key, C: Tally>(
    engine: &Engine,
    step: &Step,
    cur: &[Bucket<K, C>],
    chunks: &[(usize, u64, usize)],
    nb: usize,
    raw: Option<&RawFiles>,
    guard: &StepGuard<'_>,
) -> std::result::Result<Vec<ChunkOut<K, C>>, Stop> {
    chunks
        .par_iter()
        .map(|&(b, start, len)| -> std::result::Result<_, Stop> {
            let states = read_chunk(&cur[b], start, len)?;
            let (mut out, done, prefix) = expand_chunk(engine, step, &states, nb, guard)?;
            let generated: u64 = out.iter().map(|v| v.len() as u64).sum();
            let mut written = 0u64;
            for v in &mut out {
                merge(v)?;
                v.shrink_to_fit();
                written += v.len() as u64;
            }
            match raw {
                Some(files) => {
                    for (j, v) in out.iter_mut().enumerate() {
                        if v.is_empty() {
                            continue;
                        }
                        let (path, w) = &files[j];
                        let mut w = w.lock().unwrap_or_else(|e| e.into_inner());
                        write_entries(&mut *w, v).map_err(|e| io("write", path, e))?;
                        *v = Vec::new();
                    }
                }
                None => {
                    let bytes = written * entry_bytes::<K, C>() as u64;
                    guard.held.fetch_add(bytes, Ordering::Relaxed);
                }
            }
            Ok(ChunkOut {
                shares: out,
                done,
                prefix,
                generated,
                written,
            })
        })
        .collect()
}

/// The layer's states in pieces of at most `chunk`, at least one a bucket
/// (an empty bucket gives an empty piece): (bucket, start, length).
fn chunks_of<K, C>(layer: &[Bucket<K, C>], chunk: u64) -> Vec<(usize, u64, usize)> {
    layer
        .iter()
        .enumerate()
        .flat_map(|(b, bucket)| {
            let s = bucket.states();
            (0..s.div_ceil(chunk).max(1)).map(move |i| {
                let start = i * chunk;
                (b, start, (s - start).min(chunk) as usize)
            })
        })
        .collect()
}

/// The `len` states of `bucket` from `start`: borrowed in memory, read from disk.
fn read_chunk<K: Key, C: Tally>(
    bucket: &Bucket<K, C>,
    start: u64,
    len: usize,
) -> std::result::Result<Cow<'_, [(K, C)]>, Stop> {
    Ok(match bucket {
        Bucket::Mem(v) => Cow::Borrowed(&v[start as usize..start as usize + len]),
        Bucket::Disk { path, .. } => Cow::Owned(read_entries::<K, C>(path, start, len)?),
    })
}

/// Hands the states of a final layer to `consume`, chunk by chunk in
/// parallel, unless the count is stopped.
fn hand_over<K: Key, C: Tally>(
    layer: &[Bucket<K, C>],
    consume: &FinalLayer<'_>,
    opts: &RunOptions<'_>,
) -> std::result::Result<(), Stop> {
    let states: u64 = layer.iter().map(Bucket::states).sum();
    let threads = rayon::current_num_threads().max(1) as u64;
    // A few chunks a thread, so that a small layer uses every core.
    let chunk = (states / (4 * threads)).clamp(1 << 12, CHUNK as u64);
    chunks_of(layer, chunk).par_iter().try_for_each(
        |&(b, start, len)| -> std::result::Result<(), Stop> {
            opts.check_stop(JOINING)?;
            let wide: Vec<(u128, u128)> = read_chunk(&layer[b], start, len)?
                .iter()
                .map(|&(k, c)| Ok((k.to_u128(), c.to_u128().ok_or_else(part_overflow)?)))
                .collect::<Result<_>>()?;
            consume(&wide).map_err(Stop::Err)
        },
    )
}

/// Expands the states of one chunk; returns the successors by next bucket
/// and the number of tours completed (at the last step).
fn expand_chunk<K: Key, C: Tally>(
    engine: &Engine,
    step: &Step,
    states: &[(K, C)],
    nb: usize,
    guard: &StepGuard<'_>,
) -> std::result::Result<(Shares<K, C>, C, C), Stop> {
    let mut out: Vec<Vec<(K, C)>> = (0..nb)
        .map(|_| Vec::with_capacity(2 * states.len() / nb + 16))
        .collect();
    let mut done = C::ZERO;
    let mut prefix = C::ZERO;
    let mut over = false;
    for (i, &(key, count)) in states.iter().enumerate() {
        if i % GUARD_EVERY == GUARD_EVERY - 1 {
            let bytes: usize = out.iter().map(Vec::capacity).sum();
            guard.check((bytes * entry_bytes::<K, C>()) as u64)?;
        }
        if step.prefix {
            for _ in 0..engine.prefix_tours(step, key.to_u128()) {
                match prefix.add(count) {
                    Some(p) => prefix = p,
                    None => over = true,
                }
            }
        }
        engine.expand(step, key.to_u128(), |succ| match succ {
            Some(k) => {
                let k = K::from_u128(k);
                out[bucket_of(k, nb)].push((k, count));
            }
            None => match done.add(count) {
                Some(d) => done = d,
                None => over = true,
            },
        });
    }
    if over {
        return Err(Stop::Overflow);
    }
    Ok((out, done, prefix))
}

/// A count past the widest counts.
pub(crate) fn overflow() -> Error {
    Error::Unsupported("the count exceeds 2^4096, more than this counter can hold".into())
}

/// A part's count (meeting in the middle) past `u128`.
pub(super) fn part_overflow() -> Error {
    Error::Unsupported(
        "a part of the board has more than 2^128 partial tours, more than meeting in the middle carries".into(),
    )
    .with_hint(crate::Hint::UseMethod("forward"))
}

/// Stops a count on disk before square `t + 1` of `n` when its files would
/// outgrow the disk budget or the free space: `layer` bytes now, and
/// `next` states expected after the square, written first as about
/// `raw_ratio` times as many unmerged successors.
#[allow(clippy::too_many_arguments)]
fn check_disk(
    d: &Disk,
    opts: &RunOptions<'_>,
    t: usize,
    n: usize,
    layer: u64,
    next: u64,
    raw_ratio: Option<f64>,
    eb: u64,
) -> std::result::Result<(), Stop> {
    let ratio = raw_ratio.map_or(2.0, |r| (r * 1.1).max(1.1));
    let written = (next as f64 * ratio * eb as f64) as u64;
    let need = layer.saturating_add(written).saturating_add(1 << 16);
    let free = crate::memory::free_disk_bytes(&d.dir);
    let limit = match opts.max_disk {
        Some(m) => m,
        None => match free {
            Some(f) => layer.saturating_add(f / 100 * DEFAULT_DISK_SHARE),
            None => return Ok(()),
        },
    };
    let short_of_free = free.is_some_and(|f| written > f);
    if need <= limit && !short_of_free {
        return Ok(());
    }
    let human = crate::memory::human_bytes;
    let budget = match (opts.max_disk, free) {
        (Some(m), Some(f)) => format!("the disk budget of {} ({} free)", human(m), human(f)),
        (Some(m), None) => format!("the disk budget of {}", human(m)),
        (None, Some(f)) => format!(
            "{DEFAULT_DISK_SHARE} % of the {} free on its disk (the default disk budget)",
            human(f)
        ),
        (None, None) => "the disk".to_string(),
    };
    let over = Error::OverDisk {
        square: t + 1,
        squares: n,
        needed: need,
        now: layer,
        next: written,
        budget,
    };
    let hint = if d.temporary {
        crate::Hint::MoreRoom
    } else {
        crate::Hint::ResumeWithRoom
    };
    Err(over.with_hint(hint).into())
}

fn over_budget(max_memory: Option<u64>, states: u64) -> Error {
    let bytes = states.saturating_mul(STEP_BYTES_PER_STATE);
    match max_memory {
        Some(limit) => Error::GaveUp(format!(
            "the count stopped: its frontier grew to about {states} states (about {}), too many to handle within the memory bound of {} even on disk",
            crate::memory::human_bytes(bytes),
            crate::memory::human_bytes(limit)
        ))
        .with_hint(crate::Hint::Raise(crate::Budget::Memory)),
        None => Error::GaveUp(format!(
            "the count stopped: its frontier grew to about {states} states (about {}), more than the memory available can handle even on disk",
            crate::memory::human_bytes(bytes)
        )),
    }
}
