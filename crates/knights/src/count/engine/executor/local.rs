//! The executor of one machine: a layer in hash-partitioned buckets, in
//! memory, or on disk when the states outgrow the memory bound or a work
//! directory is given.
//!
//! A step reads the layer in chunks (in parallel), expands every state,
//! sends each successor to the bucket of the next layer its key picks and
//! merges each chunk's share. In memory each share is then added into its
//! next bucket at once ([`Gathered`]), so the successors of the whole
//! layer are never held beside it; on disk the shares are sorted and
//! appended to one file per next bucket as packed blocks (`packed.rs`),
//! and each bucket's file is merged and written, packed, to a checksummed
//! state file. After every layer a manifest naming them is
//! written to a temporary file and renamed over `checkpoint.json`, and
//! only then are the previous layer's files removed, so a run killed at
//! any moment resumes from the last complete layer.

use std::borrow::Cow;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::checkpoint::{state_file_name, write_manifest};
use super::disk::{
    disk_passes, next_buckets, raw_files, read_entries, spill, Checksummed, Disk, RawFiles,
    STEP_BYTES_PER_STATE,
};
use super::merge::{merge, Gathered};
use super::options::{FinalLayer, Run, RunOptions, SquarePhase, JOINING};
use super::packed::{pack, packed_bound, read_all, read_packed, write_packed};
use super::step::{expand_chunk, widen, Executor, Square, SquareWatch, StepGuard, Stepped};
use super::words::{entry_bytes, io, memory_entry_bytes, Key, Stop, Tally};

/// States read and expanded by one task.
const CHUNK: usize = 1 << 20;
/// The fewest states a chunk on disk is cut down to when the allocator
/// refuses a larger one's memory.
const MIN_CHUNK: u64 = 1 << 10;

/// A bucket of a layer.
pub(super) enum Bucket<K, C> {
    Mem(Vec<(K, C)>),
    /// A state file: its states, bytes and CRC-32, and whether it is
    /// packed (`packed.rs`) or of fixed-width entries (the files of
    /// checkpoints of format 3).
    Disk {
        path: PathBuf,
        states: u64,
        bytes: u64,
        crc32: u32,
        packed: bool,
    },
}

impl<K, C> Bucket<K, C> {
    fn states(&self) -> u64 {
        match self {
            Bucket::Mem(v) => v.len() as u64,
            Bucket::Disk { states, .. } => *states,
        }
    }

    fn bytes(&self) -> u64 {
        match self {
            Bucket::Mem(_) => 0,
            Bucket::Disk { bytes, .. } => *bytes,
        }
    }
}

/// What one chunk of a layer gives at a step (its successors went to
/// their next buckets).
struct ChunkOut<C> {
    /// Tours completed at the last step.
    done: C,
    /// Tours of the prefix completed at a prefix step.
    prefix: C,
    /// Successors generated.
    generated: u64,
}

/// Where a square's successors go: the next buckets gathered in memory,
/// or the raw files of a pass's buckets on disk.
enum Sink<K, C> {
    Mem(Vec<Mutex<Gathered<K, C>>>),
    Disk(RawFiles),
}

/// A square's expansion (one pass of it): the next buckets, where their
/// successors went, and what each chunk gave.
type Expanded<K, C> = (usize, Sink<K, C>, Vec<ChunkOut<C>>);

/// Which next buckets a pass of a square gathers: those `j` with
/// `j % passes == pass`.
#[derive(Clone, Copy)]
struct Pass {
    pass: usize,
    passes: usize,
}

impl Pass {
    fn has(self, j: usize) -> bool {
        j % self.passes == self.pass
    }
}

/// The layer of a run on this machine, in memory or on disk.
pub(super) struct Local<K, C> {
    layer: Vec<Bucket<K, C>>,
    /// Where the buckets are, once on disk.
    disk: Option<Disk>,
    /// The run's fingerprint, naming its folders.
    fp: String,
    /// The memory bound in bytes, and the threads that share it.
    budget: u64,
    threads: u64,
    /// The most states a chunk on disk may have: halved each time the
    /// allocator refuses a chunk's memory (under an address-space limit).
    chunk_cap: u64,
    /// Bytes of unmerged successors the last square wrote to disk (they
    /// merged into the layer's states).
    raw_bytes: Option<u64>,
    /// The most bytes of state files at once.
    peak_disk: u64,
    /// The previous layer's files, removed once the checkpoint is written.
    old: Vec<PathBuf>,
}

impl<K: Key, C: Tally> Local<K, C> {
    /// A layer of one state, `start`, held in memory until `disk` is given.
    pub fn new(start: K, fp: String, disk: Option<Disk>, opts: &RunOptions<'_>) -> Self {
        Local {
            layer: vec![Bucket::Mem(vec![(start, C::ONE)])],
            disk,
            fp,
            budget: opts.budget(),
            threads: rayon::current_num_threads().max(1) as u64,
            chunk_cap: u64::MAX,
            raw_bytes: None,
            peak_disk: 0,
            old: Vec::new(),
        }
    }

    /// The layer of a checkpoint: its state `files`, each with its states,
    /// bytes and checksum, packed or not, and the bytes of unmerged
    /// successors its last square wrote.
    pub fn resume(
        &mut self,
        files: Vec<PathBuf>,
        sizes: &[(u64, u64, u32)],
        packed: bool,
        raw_bytes: Option<u64>,
    ) {
        self.raw_bytes = raw_bytes;
        self.layer = files
            .into_iter()
            .zip(sizes)
            .map(|(path, &(states, bytes, crc32))| Bucket::Disk {
                path,
                states,
                bytes,
                crc32,
                packed,
            })
            .collect();
    }

    /// Phase 1 of a square, or of pass `pass.pass` of it: expands every
    /// chunk of the layer, merges each chunk's successors and splits them
    /// by next bucket, keeping those of the pass's buckets (appended to the
    /// raw files on disk); goes to disk and again if the successors outgrow
    /// the memory bound. The first pass sets how many the square takes:
    /// one, or on disk as many as its unmerged successors need to fit.
    fn expand(
        &mut self,
        sq: &Square<'_>,
        pass: &mut Pass,
        watch: &SquareWatch<'_>,
    ) -> std::result::Result<Expanded<K, C>, Stop> {
        let states = self.states();
        let eb = entry_bytes::<K, C>() as u64;
        // In memory a pair takes its padded size.
        let mb = memory_entry_bytes::<K, C>() as u64;
        let (budget, threads) = (self.budget, self.threads);
        let when = sq.when();
        let step_bytes = (states + sq.expected).saturating_mul(STEP_BYTES_PER_STATE);
        if self.disk.is_none() && step_bytes > budget {
            self.disk = Some(spill(sq.opts, budget, sq.expected, &self.fp, step_bytes)?);
        }
        loop {
            if let (Some(d), 0) = (&self.disk, pass.pass) {
                let layer = self.disk_bytes();
                // Unmerged successors, from the last square's bytes per
                // state merged; before one, at twice the fixed width.
                let per_state = match self.raw_bytes {
                    Some(b) => b as f64 / states.max(1) as f64 * 1.1,
                    None => 2.0 * eb as f64,
                };
                let raw = (sq.expected as f64 * per_state) as u64;
                // The new layer, at the bytes a state of this one takes on
                // disk (fixed width for a layer still in memory).
                let per_state = match layer {
                    0 => eb as f64,
                    _ => (layer as f64 / states.max(1) as f64).clamp(1.0, eb as f64),
                };
                let new = (sq.expected as f64 * per_state) as u64;
                pass.passes = disk_passes(d, sq.opts, sq.t, sq.n, layer, raw, new)?;
            }
            let nb = next_buckets(sq.expected, self.disk.is_some(), budget, threads, sq.opts)?;
            let chunk = match &self.disk {
                // A few chunks a thread, so that small layers use every core.
                None => (states / (4 * threads)).clamp(1 << 12, CHUNK as u64),
                // On disk, as large as a quarter of the bound allows: the
                // more a chunk merges, the fewer successors go to disk.
                Some(_) => (budget / 4 / threads / STEP_BYTES_PER_STATE)
                    .clamp(1 << 10, 32 * CHUNK as u64)
                    .min(self.chunk_cap),
            };
            let sink = match &self.disk {
                None => Sink::Mem((0..nb).map(|_| Mutex::new(Gathered::new())).collect()),
                Some(d) => match raw_files(d, sq.t, (nb, budget), |j| pass.has(j)) {
                    Err(Stop::OverMemory(bytes)) => return Err(refused(sq, "writing", bytes)),
                    files => Sink::Disk(files?),
                },
            };
            // On disk each chunk's successors leave memory as it ends; in
            // memory the gathered next buckets stay beside the layer.
            let limit = match &self.disk {
                None => budget.saturating_sub(states * mb),
                Some(_) => u64::MAX,
            };
            let guard = StepGuard {
                pass: (pass.pass + 1, pass.passes),
                ..StepGuard::new(sq, &when, watch, limit, threads, states)
            };
            let chunks = chunks_of(&self.layer, chunk);
            match expand_layer(sq, &self.layer, &chunks, nb, *pass, &sink, &guard) {
                Ok(outs) => return Ok((nb, sink, outs)),
                Err(Stop::OverMemory(bytes)) if self.disk.is_none() => {
                    drop(sink);
                    let needed = states * mb + bytes;
                    self.disk = Some(spill(sq.opts, budget, sq.expected, &self.fp, needed)?);
                }
                // On disk only the allocator refuses: smaller chunks, down
                // to the least, then a clean stop (the raw files are
                // written again from the start).
                Err(Stop::OverMemory(_)) if chunk > MIN_CHUNK => {
                    drop(sink);
                    self.chunk_cap = chunk / 2;
                }
                Err(Stop::OverMemory(bytes)) => return Err(refused(sq, "expanding", bytes)),
                Err(e) => return Err(e),
            }
        }
    }

    /// Phase 2 of square `t + 1` on disk: merges next bucket `j` from its
    /// raw file of `raw` entries and writes it out.
    fn merge_bucket(
        &self,
        sq: &Square<'_>,
        j: usize,
        raw: u64,
    ) -> std::result::Result<Bucket<K, C>, Stop> {
        let Some(d) = &self.disk else {
            unreachable!("raw files are written on disk")
        };
        let t = sq.t;
        let path = d.dir.join(format!("raw-s{}-b{j}.bin", t + 1));
        let mut v: Vec<(K, C)> = match read_all(&path, raw) {
            Err(Stop::OverMemory(bytes)) => return Err(refused(sq, "merging", bytes)),
            read => read?,
        };
        let _ = fs::remove_file(&path);
        merge(&mut v)?;
        v.shrink_to_fit();
        // Sorted already when the merge sorted (a long bucket).
        v.sort_unstable_by_key(|e| e.0);
        let path = d.dir.join(state_file_name(t + 1, j));
        let f = File::create(&path).map_err(|e| io("write", &path, e))?;
        let mut w = Checksummed {
            inner: BufWriter::with_capacity(1 << 20, f),
            hasher: crc32fast::Hasher::new(),
        };
        let bytes = write_packed(&mut w, &v).map_err(|e| io("write", &path, e))?;
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
            bytes,
            crc32,
            packed: true,
        })
    }
}

impl<K: Key, C: Tally> Executor<K, C> for Local<K, C> {
    fn states(&self) -> u64 {
        self.layer.iter().map(Bucket::states).sum()
    }

    fn step(&mut self, sq: &Square<'_>) -> std::result::Result<Stepped<C>, Stop> {
        let (mut done, mut prefix) = (C::ZERO, C::ZERO);
        let mut generated = 0u64;
        let old_bytes = self.disk_bytes();
        let (mut new_bytes, mut raw_bytes) = (0u64, 0u64);
        let mut next: Vec<Option<Bucket<K, C>>> = Vec::new();
        let mut pass = Pass { pass: 0, passes: 1 };
        let watch = SquareWatch::new(sq);
        while pass.pass < pass.passes {
            let (nb, sink, outs) = self.expand(sq, &mut pass, &watch)?;
            next.resize_with(nb, || None);
            // Every pass expands every state: its tours count once.
            for c in outs.into_iter().filter(|_| pass.pass == 0) {
                done = done.add(c.done).ok_or(Stop::Overflow)?;
                prefix = prefix.add(c.prefix).ok_or(Stop::Overflow)?;
                generated += c.generated;
            }
            let raw = match sink {
                Sink::Disk(raw) => raw,
                // In memory the square is done in one pass: its next
                // buckets are gathered, and the old layer goes.
                Sink::Mem(gathered) => {
                    self.layer = gathered
                        .into_iter()
                        .map(|g| {
                            let g = g.into_inner().unwrap_or_else(|e| e.into_inner());
                            Bucket::Mem(g.into_entries())
                        })
                        .collect();
                    let states = self.states();
                    return Ok(Stepped {
                        done,
                        prefix,
                        generated,
                        states,
                    });
                }
            };
            if pass.pass + 1 == pass.passes {
                // The old layer's memory goes now, its files once the
                // checkpoint is written.
                self.old = std::mem::take(&mut self.layer)
                    .into_iter()
                    .filter_map(|b| match b {
                        Bucket::Disk { path, .. } => Some(path),
                        Bucket::Mem(_) => None,
                    })
                    .collect();
            }
            let mut raw_entries = vec![0u64; nb];
            let mut pass_raw = 0u64;
            for (j, (path, file)) in raw.into_iter().enumerate() {
                let Some(file) = file else { continue };
                let mut file = file.into_inner().unwrap_or_else(|e| e.into_inner());
                file.w.flush().map_err(|e| io("write", &path, e))?;
                raw_entries[j] = file.entries;
                pass_raw += file.bytes;
            }
            let this = &*self;
            let when = sq.when();
            let to_merge = (0..nb).filter(|&j| pass.has(j)).count() as u64;
            let merged_so_far = AtomicU64::new(0);
            let merged: Vec<(usize, Bucket<K, C>)> = raw_entries
                .into_par_iter()
                .enumerate()
                .filter(|(j, _)| pass.has(*j))
                .map(|(j, raw)| {
                    // A large square merges for minutes: a stop is seen
                    // between buckets too (the checkpoint stays the last
                    // one), and how far it is told.
                    sq.opts.check_stop(&when)?;
                    let bucket = this.merge_bucket(sq, j, raw)?;
                    let done = merged_so_far.fetch_add(1, Ordering::Relaxed) + 1;
                    let at = (pass.pass + 1, pass.passes);
                    watch.tell(SquarePhase::Merging, at, done, to_merge);
                    Ok((j, bucket))
                })
                .collect::<std::result::Result<_, Stop>>()?;
            // The old layer stays until the checkpoint, beside the new
            // layer so far and the pass's raw files, then its merged buckets.
            let merged_bytes: u64 = merged.iter().map(|(_, b)| b.bytes()).sum();
            let most = old_bytes + new_bytes + pass_raw.max(merged_bytes);
            self.peak_disk = self.peak_disk.max(most);
            new_bytes += merged_bytes;
            raw_bytes += pass_raw;
            for (j, b) in merged {
                next[j] = Some(b);
            }
            pass.pass += 1;
        }
        let next: Vec<Bucket<K, C>> = next
            .into_iter()
            .map(|b| b.expect("every bucket is in a pass"))
            .collect();
        let states: u64 = next.iter().map(Bucket::states).sum();
        if self.disk.is_some() {
            self.raw_bytes = Some(raw_bytes);
        }
        self.layer = next;
        Ok(Stepped {
            done,
            prefix,
            generated,
            states,
        })
    }

    fn on_disk(&self) -> bool {
        self.disk.is_some()
    }

    fn disk_bytes(&self) -> u64 {
        self.layer.iter().map(Bucket::bytes).sum()
    }

    fn peak_disk(&self) -> u64 {
        self.peak_disk
    }

    fn checkpoint(&mut self, sq: &Square<'_>, run: &Run) -> std::result::Result<(), Stop> {
        if let Some(d) = &self.disk {
            let finished = sq.t + 1 == sq.n;
            // A finished run that hands its states to no one keeps only its
            // manifest (with the count), unless asked to keep them.
            let clean = finished
                && sq.opts.final_layer.is_none()
                && !sq.opts.keep_final
                && !sq.opts.count.keep
                && !d.temporary;
            let files: Vec<(&Path, u64, u32)> = match clean {
                true => Vec::new(),
                false => self
                    .layer
                    .iter()
                    .map(|b| match b {
                        Bucket::Disk {
                            path,
                            states,
                            crc32,
                            ..
                        } => (path.as_path(), *states, *crc32),
                        Bucket::Mem(_) => unreachable!("disk runs write every bucket"),
                    })
                    .collect(),
            };
            let count = finished.then(|| run.count.to_string());
            write_manifest(d, &self.fp, sq.t + 1, &files, run, self.raw_bytes, count)?;
            if clean {
                for b in std::mem::take(&mut self.layer) {
                    if let Bucket::Disk { path, .. } = b {
                        let _ = fs::remove_file(path);
                    }
                }
            }
        }
        for path in std::mem::take(&mut self.old) {
            let _ = fs::remove_file(path);
        }
        Ok(())
    }

    fn hand_over(
        &self,
        consume: &FinalLayer<'_>,
        opts: &RunOptions<'_>,
    ) -> std::result::Result<(), Stop> {
        let states = self.states();
        // A few chunks a thread, so that a small layer uses every core.
        let chunk = (states / (4 * self.threads)).clamp(1 << 12, CHUNK as u64);
        let hand = |chunks: &[(usize, u64, usize)]| {
            chunks
                .par_iter()
                .try_for_each(|&(b, start, len)| -> std::result::Result<(), Stop> {
                    opts.check_stop(JOINING)?;
                    let wide = widen(&read_chunk(&self.layer[b], start, len)?)?;
                    consume(&wide).map_err(Stop::Err)
                })
        };
        let chunks = chunks_of(&self.layer, chunk);
        if !self.disk.as_ref().is_some_and(|d| d.temporary) {
            return hand(&chunks);
        }
        // In a temporary folder, nothing reads a bucket handed over again:
        // its file goes at once, so that the consumer's own files (a
        // meeting's held states) replace the layer's instead of joining
        // them on the disk.
        for (b, bucket) in self.layer.iter().enumerate() {
            let from = chunks.partition_point(|c| c.0 < b);
            let to = chunks.partition_point(|c| c.0 <= b);
            hand(&chunks[from..to])?;
            if let Bucket::Disk { path, .. } = bucket {
                let _ = std::fs::remove_file(path);
            }
        }
        Ok(())
    }
}

/// Expands every chunk of the layer `cur`, merges each chunk's successors
/// and splits them by next bucket, keeping those of the buckets of `pass`:
/// added into their gathered buckets in memory, appended to their raw
/// files on disk.
#[allow(clippy::too_many_arguments)]
fn expand_layer<K: Key, C: Tally>(
    sq: &Square<'_>,
    cur: &[Bucket<K, C>],
    chunks: &[(usize, u64, usize)],
    nb: usize,
    pass: Pass,
    sink: &Sink<K, C>,
    guard: &StepGuard<'_>,
) -> std::result::Result<Vec<ChunkOut<C>>, Stop> {
    chunks
        .par_iter()
        .map(|&(b, start, len)| -> std::result::Result<_, Stop> {
            let states = read_chunk(&cur[b], start, len)?;
            let (mut out, done, prefix) = expand_chunk(sq.engine, sq.step, &states, nb, guard)?;
            let generated: u64 = out.iter().map(|v| v.len() as u64).sum();
            for (j, v) in out.iter_mut().enumerate() {
                if !pass.has(j) {
                    *v = Vec::new();
                    continue;
                }
                merge(v)?;
            }
            let share_bytes = generated * memory_entry_bytes::<K, C>() as u64;
            match sink {
                Sink::Disk(files) => {
                    let mut buf = Vec::new();
                    for (j, v) in out.iter_mut().enumerate() {
                        if v.is_empty() {
                            continue;
                        }
                        v.sort_unstable_by_key(|e| e.0);
                        buf.clear();
                        if buf.try_reserve(packed_bound::<K, C>(v.len())).is_err() {
                            return Err(guard.over(share_bytes));
                        }
                        pack(v, &mut buf);
                        let (path, Some(file)) = &files[j] else {
                            unreachable!("a pass keeps the successors of its own buckets")
                        };
                        let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                        file.w.write_all(&buf).map_err(|e| io("write", path, e))?;
                        file.entries += v.len() as u64;
                        file.bytes += buf.len() as u64;
                        *v = Vec::new();
                    }
                }
                Sink::Mem(gathered) => {
                    for (v, g) in out.into_iter().zip(gathered) {
                        let mut g = g.lock().unwrap_or_else(|e| e.into_inner());
                        let before = g.bytes();
                        match g.add(&v) {
                            Err(Stop::OverMemory(_)) => return Err(guard.over(share_bytes)),
                            added => added?,
                        }
                        guard.hold(g.bytes() - before)?;
                    }
                }
            }
            Ok(ChunkOut {
                done,
                prefix,
                generated,
            })
        })
        .collect()
}

/// The stop of square `sq` where the allocator refused the `bytes` that
/// `doing` ("merging") its states needed at once: an error naming the limit
/// that binds (an address-space limit, `ulimit -v`, or a control group's).
fn refused(sq: &Square<'_>, doing: &str, bytes: u64) -> Stop {
    Stop::Err(crate::Error::OverBudget(format!(
        "the count stopped during square {} of {}: {doing} its states needed about {} of memory at once, which the system refused ({})",
        sq.t + 1,
        sq.n,
        crate::memory::human_bytes(bytes),
        crate::memory::available_phrase()
    ).into()))
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
        Bucket::Disk {
            path, packed: true, ..
        } => Cow::Owned(read_packed::<K, C>(path, start, len)?),
        Bucket::Disk { path, .. } => Cow::Owned(read_entries::<K, C>(path, start, len)?),
    })
}
