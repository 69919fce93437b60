//! A finished run's final layer, read again from its checkpoint in the
//! work directory: a meet streams its bottom states from these packed
//! state files into every part of its join (no copy of them on a shelf),
//! and records in the run's manifest how far the join has come, so that a
//! count stopped during the join resumes after its last finished part.

use super::checkpoint::{fingerprint, lock_run, read_manifest, resume_from, Opened};
use super::disk::{Disk, MANIFEST, MAX_BUCKETS};
use super::folder::{Folder, Kind};
use super::local::Local;
use super::options::{FinalLayer, Run, RunOptions};
use super::step::Executor;
pub(crate) use super::validate::JoinRecord;
use super::words::{io_error, Key, Stop, Tally, COUNT_BITS};
use crate::count::engine::frontier::{Engine, Problem};
use crate::{Error, Result};

use bnum::types::{U1024, U2048, U256, U4096, U512};

/// The layer of a run on this machine, whatever its key and count widths.
trait Layer {
    fn hand_over(&self, consume: &FinalLayer<'_>, opts: &RunOptions<'_>) -> Result<()>;
    fn states(&self) -> u64;
}

impl<K: Key, C: Tally> Layer for Local<K, C> {
    fn hand_over(&self, consume: &FinalLayer<'_>, opts: &RunOptions<'_>) -> Result<()> {
        Executor::hand_over(self, consume, opts).map_err(stop_error)
    }

    fn states(&self) -> u64 {
        Executor::states(self)
    }
}

/// A finished run's final layer in the work directory, its state files
/// checked once, locked against other processes while it is read.
pub(crate) struct FinishedLayer {
    layer: Box<dyn Layer>,
    folder: Folder,
    fp: String,
    n: usize,
}

impl FinishedLayer {
    /// The final layer of `p`'s finished run in the work directory of
    /// `opts`: an error if there is none (the run just finished there).
    pub fn open(p: &Problem, opts: &RunOptions<'_>) -> Result<FinishedLayer> {
        let engine = Engine::new(p)?;
        let found = if engine.key_bits <= 64 {
            by_count::<u64>(p, &engine, opts)
        } else {
            by_count::<u128>(p, &engine, opts)
        };
        found.map_err(stop_error)?.ok_or_else(|| {
            Error::Internal("a part's final layer is not in the work directory".into())
        })
    }

    /// Hands every state of the layer to `consume` (in chunks, in parallel).
    pub fn hand_over(&self, consume: &FinalLayer<'_>, opts: &RunOptions<'_>) -> Result<()> {
        self.layer.hand_over(consume, opts)
    }

    /// The states of the layer.
    pub fn states(&self) -> u64 {
        self.layer.states()
    }

    /// How far the join has come, as the manifest records it.
    pub fn join(&self) -> Result<Option<JoinRecord>> {
        let m = read_manifest(&self.folder.join(MANIFEST), &self.fp, MAX_BUCKETS, self.n)?;
        Ok(m.join)
    }

    /// Records `join` in the manifest (written whole: a temporary file,
    /// synced, renamed over it), in the current format.
    pub fn record(&self, join: JoinRecord) -> Result<()> {
        let path = self.folder.join(MANIFEST);
        let mut m = read_manifest(&path, &self.fp, MAX_BUCKETS, self.n)?;
        m.version = super::checkpoint::MANIFEST_VERSION;
        m.join = Some(join);
        m.binding = Some(super::validate::binding(&m));
        self.folder
            .write_atomic(MANIFEST, m.sealed().as_bytes())
            .map_err(|e| io_error("write", &path, e))
    }
}

/// [`FinishedLayer::open`] with keys `K`, whatever the width of the counts.
fn by_count<K: Key>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
) -> std::result::Result<Option<FinishedLayer>, Stop> {
    for bits in COUNT_BITS {
        let found = match bits {
            64 => finished::<K, u64>(p, engine, opts)?,
            128 => finished::<K, u128>(p, engine, opts)?,
            256 => finished::<K, U256>(p, engine, opts)?,
            512 => finished::<K, U512>(p, engine, opts)?,
            1024 => finished::<K, U1024>(p, engine, opts)?,
            2048 => finished::<K, U2048>(p, engine, opts)?,
            _ => finished::<K, U4096>(p, engine, opts)?,
        };
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The final layer of `p`'s run with keys `K` and counts `C`, if that run
/// is in the work directory and finished.
fn finished<K: Key, C: Tally>(
    p: &Problem,
    engine: &Engine,
    opts: &RunOptions<'_>,
) -> std::result::Result<Option<FinishedLayer>, Stop> {
    let Some(work_dir) = opts.count.work_dir.as_deref() else {
        return Ok(None);
    };
    let fp = fingerprint::<K, C>(p, engine);
    let work = Folder::open(work_dir).map_err(|e| super::words::io("open", work_dir, e))?;
    let name = format!("count-{fp}");
    let Some(folder) = work
        .sub(&name)?
        .filter(|d| d.kind(MANIFEST) != Kind::Missing)
    else {
        return Ok(None);
    };
    let lock = lock_run(work_dir, &fp)?;
    let n = engine.steps.len();
    let mut run = Run::default();
    let mut opened = Opened::default();
    resume_from::<K, C>(&folder, &fp, n, &mut run, &mut opened)?;
    if !opened.finished {
        return Ok(None);
    }
    let disk = Disk {
        dir: folder.path().to_path_buf(),
        temporary: false,
        _lock: Some(lock),
        folder: work.sub(&name)?,
    };
    let mut local = Local::<K, C>::new(K::from_u128(0), fp.clone(), Some(disk), opts);
    local.resume(opened.files, &opened.sizes, opened.packed, opened.raw_bytes);
    Ok(Some(FinishedLayer {
        layer: Box::new(local),
        folder,
        fp,
        n,
    }))
}

fn stop_error(stop: Stop) -> Error {
    match stop {
        Stop::Err(e) => e,
        Stop::Overflow => super::part_overflow(),
        Stop::OverMemory(_) => {
            Error::Internal("reading a final layer passed its memory bound".into())
        }
    }
}
