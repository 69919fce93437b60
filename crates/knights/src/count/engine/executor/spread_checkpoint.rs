//! The checkpoint of a count spread over workers: after every square each
//! worker writes its share of the layer to the run's folder in the work
//! directory (`count-{fingerprint}-of{N}`, one folder that the workers may
//! share or each have on a disk of its own), as `w{worker}-s{square}.bin`
//! (the share on the wire's coding, see `spread.rs`) and its manifest
//! `w{worker}-s{square}.json` (the run's figures so far, the file's
//! entries and CRC-32, and the manifest's own checksum), each written
//! whole or not at all (a temporary file, synced, then renamed). Once
//! every worker has written a square, each removes its files of the square
//! before. A resume takes the last square that every worker holds whole;
//! a worker killed while writing leaves its previous square, which the
//! others still hold. A share's files are read only by its own worker, and
//! only if its manifest names this count, this number of workers and this
//! worker. Each worker locks its share of the run (`count-{fingerprint}-of{N}-w{worker}.lock`
//! beside the folder), so a second run of the count in the folder is
//! refused. A resume that finds no square held by every worker says which
//! share is damaged, or with how many workers the checkpoint was written.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::checkpoint::{crc_of, edited, lock_run, no_checkpoint, read_small, write_atomic};
use super::folder::{Folder, Kind};
use super::options::{Run, RunOptions};
use super::words::{io_error, Stop};
use crate::count::exchange::{gather_words, Exchange};
use crate::{Error, Result};

/// The manifests' format.
const SHARE_VERSION: u32 = 1;

/// A worker's share of the layer after `step` squares.
#[derive(Clone, Serialize, Deserialize)]
struct ShareManifest {
    version: u32,
    fingerprint: String,
    workers: usize,
    worker: usize,
    step: usize,
    /// The run's figures after the square (the same on every worker).
    run: Run,
    /// The share's file: its entries, bytes and CRC-32.
    states: u64,
    bytes: u64,
    crc32: u32,
    /// The CRC-32 of the manifest's JSON with this field 0.
    checksum: u32,
}

/// Where a spread count's shares go, and which worker writes them.
pub(super) struct ShareFiles {
    /// The run's folder, open: every file is reached through it, never
    /// through a link.
    dir: Folder,
    /// The work directory, open.
    work: Folder,
    fingerprint: String,
    workers: usize,
    worker: usize,
    /// This worker's lock of its share of the run, held while it runs.
    _lock: File,
}

/// A share read back: the square, the run's figures, the share's bytes.
pub(super) struct Resumed {
    pub step: usize,
    pub run: Run,
    pub bytes: Vec<u8>,
}

fn name(worker: usize, step: usize, ext: &str) -> String {
    format!("w{worker}-s{step}.{ext}")
}

impl ShareFiles {
    /// The shares of the run `fingerprint` in the work directory of
    /// `opts`, if it has one, locked for this worker; makes the run's
    /// folder. Each worker locks its own share: the workers of one run on
    /// one machine would refuse each other one lock.
    pub fn new(
        opts: &RunOptions<'_>,
        fingerprint: &str,
        ex: &dyn Exchange,
    ) -> Result<Option<ShareFiles>> {
        let Some(work) = opts.count.work_dir.as_deref() else {
            return Ok(None);
        };
        let parent = Folder::open(work).map_err(|e| io_error("open", work, e))?;
        let (workers, worker) = (ex.workers(), ex.rank());
        let run = format!("{fingerprint}-of{workers}");
        let lock = lock_run(work, &format!("{run}-w{worker}"))?;
        let name = format!("count-{run}");
        // Workers sharing the folder may make it at once: one makes it,
        // the others open it.
        let dir = match parent.sub(&name)? {
            Some(dir) => dir,
            None => match parent.make_sub(&name) {
                Ok(dir) => dir,
                Err(e) => parent.sub(&name)?.ok_or(e)?,
            },
        };
        Ok(Some(ShareFiles {
            dir,
            work: parent,
            fingerprint: fingerprint.into(),
            workers,
            worker,
            _lock: lock,
        }))
    }

    /// The squares of this worker's manifests in the folder.
    fn steps(&self) -> Vec<usize> {
        let prefix = format!("w{}-s", self.worker);
        let Ok(names) = self.dir.names() else {
            return Vec::new();
        };
        let mut steps: Vec<usize> = names
            .iter()
            .filter_map(|n| n.strip_prefix(&prefix)?.strip_suffix(".json")?.parse().ok())
            .collect();
        steps.sort_unstable();
        steps
    }

    /// Writes this worker's share of the layer after `step` squares.
    pub fn write(
        &self,
        step: usize,
        run: &Run,
        bytes: &[u8],
        states: u64,
    ) -> std::result::Result<(), Stop> {
        let data = name(self.worker, step, "bin");
        write_atomic(&self.dir, &data, bytes)?;
        let m = ShareManifest {
            version: SHARE_VERSION,
            fingerprint: self.fingerprint.clone(),
            workers: self.workers,
            worker: self.worker,
            step,
            run: run.clone(),
            states,
            bytes: bytes.len() as u64,
            crc32: crc32fast::hash(bytes),
            checksum: 0,
        };
        let sealed = ShareManifest {
            checksum: crc_of(&m),
            ..m
        };
        let text = serde_json::to_string(&sealed)
            .map_err(|e| Stop::Err(Error::Internal(e.to_string().into())))?;
        write_atomic(&self.dir, &name(self.worker, step, "json"), text.as_bytes())
    }

    /// Removes this worker's files of every square before `step`.
    pub fn remove_before(&self, step: usize) -> std::result::Result<(), Stop> {
        for s in self.steps().into_iter().filter(|&s| s < step) {
            for ext in ["json", "bin"] {
                let file = name(self.worker, s, ext);
                self.dir
                    .remove(&file)
                    .map_err(|e| Stop::Err(io_error("remove", &self.dir.join(&file), e)))?;
            }
        }
        Ok(())
    }

    /// Reads and checks this worker's share after `step` squares.
    fn read(&self, step: usize) -> Result<Resumed> {
        let path = self.dir.join(&name(self.worker, step, "json"));
        let text = read_small(&path)?;
        let m: ShareManifest = serde_json::from_str(&text).map_err(|_| edited(&path))?;
        if crc_of(&ShareManifest {
            checksum: 0,
            ..m.clone()
        }) != m.checksum
        {
            return Err(edited(&path));
        }
        if m.version != SHARE_VERSION
            || m.fingerprint != self.fingerprint
            || (m.workers, m.worker, m.step) != (self.workers, self.worker, step)
        {
            return Err(Error::Parse(
                format!(
                    "{} is not this worker's share of this count",
                    path.display()
                )
                .into(),
            )
            .with_hint(crate::Hint::StartFresh));
        }
        let data_name = name(self.worker, step, "bin");
        let data = self.dir.join(&data_name);
        let damaged = || {
            Error::Parse(format!("the share {} is damaged", data.display()).into())
                .with_hint(crate::Hint::StartFresh)
        };
        // The file itself, never through a link; a missing one is damage.
        let Ok(file) = self.dir.read(&data_name) else {
            return Err(damaged());
        };
        let meta = file.metadata().map_err(|e| io_error("read", &data, e))?;
        if meta.len() != m.bytes {
            return Err(damaged());
        }
        let mut bytes = Vec::with_capacity(m.bytes as usize);
        file.take(m.bytes)
            .read_to_end(&mut bytes)
            .map_err(|e| io_error("read", &data, e))?;
        if crc32fast::hash(&bytes) != m.crc32 {
            return Err(damaged());
        }
        Ok(Resumed {
            step,
            run: m.run,
            bytes,
        })
    }

    /// The last square every worker holds whole, read: `None` if some
    /// worker holds none. With none, a share that some worker holds but
    /// cannot read is the error of every worker, naming its file (else a
    /// checkpoint that cannot be resumed would be refused as unfinished
    /// when started again, and as missing when resumed).
    pub fn resume(&self, ex: &dyn Exchange) -> Result<Option<Resumed>> {
        let mut unread: Option<Error> = None;
        let mine: Vec<u64> = self
            .steps()
            .into_iter()
            .rev()
            .filter(|&s| match self.read(s) {
                Ok(_) => true,
                Err(e) => {
                    unread.get_or_insert(e);
                    false
                }
            })
            .map(|s| s as u64)
            .collect();
        let all = gather_words(ex, &mine)?;
        let common = mine.iter().find(|s| all.iter().all(|w| w.contains(s)));
        if let Some(&s) = common {
            return self.read(s as usize).map(Some);
        }
        let why = unread.map(|e| e.unhinted().to_string()).unwrap_or_default();
        let whys = ex.all_gather(why.into_bytes())?;
        match whys.iter().find(|w| !w.is_empty()) {
            Some(why) => Err(
                Error::Parse(String::from_utf8_lossy(why).into_owned().into())
                    .with_hint(crate::Hint::StartFresh),
            ),
            None => Ok(None),
        }
    }

    /// The error of a resume that finds no share of this run: the
    /// checkpoint written by another number of workers if the work
    /// directory holds one, else none at all. This run's folder, made
    /// empty when the shares were opened, is removed again if it is still
    /// empty, so a resume with the wrong number of workers leaves nothing.
    pub fn no_checkpoint(&self) -> Error {
        let work = self.work.path();
        let _ = std::fs::remove_dir(self.dir.path());
        let stem = format!("count-{}-of", self.fingerprint);
        for name in self.work.names().unwrap_or_default() {
            let Some(workers) = name
                .strip_prefix(&stem)
                .and_then(|n| n.parse::<usize>().ok())
            else {
                continue;
            };
            let holds_shares = matches!(self.work.sub(&name), Ok(Some(run))
                if run.names().is_ok_and(|files| files.iter().any(|f| f.ends_with(".json"))));
            if workers != self.workers && holds_shares {
                return Error::Parse(format!(
                    "the checkpoint of this count in {} was written by {workers} workers (in {}), not {}: resume it with {workers} workers",
                    work.display(),
                    self.work.join(&name).display(),
                    self.workers
                ).into());
            }
        }
        no_checkpoint(work)
    }

    /// Whether this worker holds a share of an unfinished run of `n`
    /// squares (a count that does not resume refuses to overwrite one
    /// unless it starts afresh; a finished run is counted again).
    pub fn unfinished(&self, n: usize) -> bool {
        self.steps().iter().any(|&s| s < n)
    }

    /// Removes every file of this worker's shares.
    pub fn clear(&self) -> Result<()> {
        for s in self.steps() {
            for ext in ["json", "bin"] {
                let file = name(self.worker, s, ext);
                if self.dir.kind(&file) != Kind::Missing {
                    self.dir
                        .remove(&file)
                        .map_err(|e| io_error("remove", &self.dir.join(&file), e))?;
                }
            }
        }
        Ok(())
    }

    /// The run's folder.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}
