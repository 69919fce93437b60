//! The parts' final states held until the join: in memory while they fit
//! their share of the memory bound, past it in files (one for each bucket
//! of patterns), so that the join reads each part of the table's states
//! alone and streams the bottom states part after part.
//!
//! A shelf is a set of buckets; each bucket is what is in memory and what
//! is in its file, in no order. Once one push would pass the memory share
//! every bucket goes to its file and so does every later push (a push
//! racing with that move may still land in memory: a bucket is read as
//! both). The files live in a directory of their own (in the work
//! directory, or in the system's temporary directory), removed when the
//! count ends (a killed count's, by the next count that holds states on
//! disk there), and stay within the disk budget.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::count::engine::executor::{io_error, remove_stale, Disk, RunOptions, Stop};
use crate::{Error, Result};

/// Bytes of a held state in memory: its packed boundary and its count.
const ENTRY_BYTES: u64 = 32;

/// What takes held states a block at a time.
type Consumer<'a> = dyn FnMut(&[(u128, u128)]) -> Result<()> + 'a;

/// Free space a shelf leaves on its disk besides what it writes.
const DISK_MARGIN: u64 = 1 << 30;

/// States held for the join, in buckets, in memory or in files.
pub(super) struct Shelf {
    name: &'static str,
    buckets: Vec<Mutex<Bucket>>,
}

#[derive(Default)]
struct Bucket {
    memory: Vec<(u128, u128)>,
    file: Option<(PathBuf, BufWriter<File>)>,
    /// States in the file.
    written: u64,
}

/// Where the shelves of one count put their files, how much they hold in
/// memory and on disk, and whether they have moved to disk.
pub(super) struct Room<'a> {
    opts: &'a RunOptions<'a>,
    /// Bytes the shelves may hold in memory.
    share: u64,
    /// Bytes held in memory now.
    pub(super) in_memory: AtomicU64,
    /// Bytes written to files.
    pub(super) on_disk: AtomicU64,
    spilled: AtomicBool,
    disk: OnceLock<std::result::Result<Disk, String>>,
    /// Whether what the shelves held in memory has moved to disk.
    moved: Mutex<bool>,
}

/// The prefix of a shelves' directory in a work directory; the process id
/// and a number follow.
const JOIN_PREFIX: &str = "join-";

/// Counts the shelves' directories made in this process, so that two
/// counts running side by side (tests, a server) never share one.
static DIRS: AtomicU64 = AtomicU64::new(0);

impl<'a> Room<'a> {
    /// The room of a count with `opts`: the held states take at most
    /// `share` bytes of memory.
    pub(super) fn new(opts: &'a RunOptions<'a>, share: u64) -> Room<'a> {
        Room {
            opts,
            share,
            in_memory: AtomicU64::new(0),
            on_disk: AtomicU64::new(0),
            spilled: AtomicBool::new(false),
            disk: OnceLock::new(),
            moved: Mutex::new(false),
        }
    }

    /// Whether the shelves have moved to disk.
    pub(super) fn spilled(&self) -> bool {
        self.spilled.load(Ordering::Acquire)
    }

    /// Once the shelves have started spilling, runs `move_all` (which
    /// moves what they hold in memory to disk) once.
    pub(super) fn once_spilled(&self, move_all: impl FnOnce() -> Result<()>) -> Result<()> {
        if !self.spilled() {
            return Ok(());
        }
        let mut moved = lock(&self.moved);
        if !*moved {
            move_all()?;
            *moved = true;
        }
        Ok(())
    }

    /// Marks the shelves as moved to disk: later pushes go to files. The
    /// gather moves what they hold in memory (see [`Shelf::spill`]).
    fn start_spilling(&self) {
        self.spilled.store(true, Ordering::Release);
    }

    /// The shelves' directory, made on first use.
    fn dir(&self) -> Result<PathBuf> {
        let disk = self.disk.get_or_init(|| {
            let n = DIRS.fetch_add(1, Ordering::Relaxed);
            let made = match self.opts.count.work_dir.as_deref() {
                Some(work) => {
                    remove_stale(work, JOIN_PREFIX);
                    let name = format!("{JOIN_PREFIX}{}-{n}", std::process::id());
                    Disk::claimed(work, JOIN_PREFIX, &name)
                }
                None => Disk::temporary(&format!("join{n}")).map_err(|stop| match stop {
                    Stop::Err(e) => e,
                    _ => Error::Internal("a directory for the join could not be made".into()),
                }),
            };
            made.map_err(|e| e.to_string())
        });
        match disk {
            Ok(d) => Ok(d.dir.clone()),
            Err(e) => Err(Error::Internal(e.clone().into())),
        }
    }

    /// Checks that `more` bytes may still be written: within the disk
    /// budget, and leaving [`DISK_MARGIN`] of free space.
    fn check_disk(&self, dir: &std::path::Path, more: u64) -> Result<()> {
        let written = self.on_disk.load(Ordering::Relaxed);
        let human = crate::memory::human_bytes;
        let over = match (
            self.opts.count.max_disk,
            crate::memory::free_disk_bytes(dir),
        ) {
            (Some(m), _) if written + more > m => Some(format!("the disk budget of {}", human(m))),
            (_, Some(f)) if more + DISK_MARGIN > f => {
                Some(format!("the {} free on its disk", human(f)))
            }
            _ => None,
        };
        match over {
            None => Ok(()),
            Some(limit) => Err(Error::OverBudget(format!(
                "the count stopped before the join: the parts' final states need more than {} on disk, more than {limit}",
                human(written + more)
            ).into())
            .with_hint(crate::Hint::MoreRoom)),
        }
    }
}

impl Shelf {
    /// An empty shelf of `buckets` buckets, its files named after `name`.
    pub(super) fn new(name: &'static str, buckets: usize) -> Shelf {
        Shelf {
            name,
            buckets: (0..buckets).map(|_| Mutex::default()).collect(),
        }
    }

    /// The number of buckets.
    pub(super) fn len(&self) -> usize {
        self.buckets.len()
    }

    /// Holds `states`, each in the bucket `bucket_of` gives it, in memory
    /// while the room's share allows, else in the buckets' files. With
    /// `memory_only` a count past its share stops instead.
    pub(super) fn push(
        &self,
        room: &Room<'_>,
        states: Vec<(u128, u128)>,
        bucket_of: impl Fn(u128) -> usize,
    ) -> Result<()> {
        if states.is_empty() {
            return Ok(());
        }
        let bytes = states.len() as u64 * ENTRY_BYTES;
        if !room.spilled() {
            let now = room.in_memory.fetch_add(bytes, Ordering::Relaxed) + bytes;
            if now <= room.share {
                self.put(states, bucket_of, |_, bucket, v| {
                    bucket.memory.extend(v);
                    Ok(())
                })?;
                return Ok(());
            }
            room.in_memory.fetch_sub(bytes, Ordering::Relaxed);
            if room.opts.memory_only.is_some() {
                return Err(Error::OverBudget(format!(
                    "the count stopped: the parts' final states need more than the memory bound of {}",
                    crate::memory::human_bytes(room.opts.budget()),
                ).into())
                .with_hint(crate::Hint::UseMethod(crate::count::Method::Forward)));
            }
            room.start_spilling();
        }
        let dir = room.dir()?;
        self.put(states, bucket_of, |i, bucket, v| {
            self.write(room, &dir, bucket, i, v)
        })
    }

    /// Moves every bucket in memory to its file (see the module notes);
    /// later pushes go to the files.
    pub(super) fn spill(&self, room: &Room<'_>) -> Result<()> {
        let dir = room.dir()?;
        for (i, bucket) in self.buckets.iter().enumerate() {
            let mut bucket = lock(bucket);
            let v = std::mem::take(&mut bucket.memory);
            let bytes = v.len() as u64 * ENTRY_BYTES;
            self.write(room, &dir, &mut bucket, i, v)?;
            room.in_memory.fetch_sub(bytes, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Deals `states` out by bucket (`bucket_of` once a state) and hands
    /// each bucket's share to `store` under the bucket's lock.
    fn put(
        &self,
        mut states: Vec<(u128, u128)>,
        bucket_of: impl Fn(u128) -> usize,
        mut store: impl FnMut(usize, &mut Bucket, std::vec::Drain<'_, (u128, u128)>) -> Result<()>,
    ) -> Result<()> {
        if self.buckets.len() == 1 {
            return store(0, &mut lock(&self.buckets[0]), states.drain(..));
        }
        let mut dealt = vec![Vec::new(); self.buckets.len()];
        for state in states {
            dealt[bucket_of(state.0)].push(state);
        }
        for (b, mut share) in dealt.into_iter().enumerate() {
            if !share.is_empty() {
                store(b, &mut lock(&self.buckets[b]), share.drain(..))?;
            }
        }
        Ok(())
    }

    /// Appends `v` to bucket `i`'s file, made on first use, in the
    /// file's encoding (see [`encode`]), within the room's disk budget.
    fn write(
        &self,
        room: &Room<'_>,
        dir: &std::path::Path,
        bucket: &mut Bucket,
        i: usize,
        v: impl IntoIterator<Item = (u128, u128)>,
    ) -> Result<()> {
        if bucket.file.is_none() {
            let path = dir.join(format!("{}-{i}.bin", self.name));
            let f = File::create(&path).map_err(|e| io_error("write", &path, e))?;
            bucket.file = Some((path, BufWriter::with_capacity(1 << 16, f)));
        }
        let Some((path, out)) = bucket.file.as_mut() else {
            return Err(Error::Internal("a shelf's file was not made".into()));
        };
        let mut buf = Vec::with_capacity(1 << 16);
        let mut flush = |buf: &mut Vec<u8>| -> Result<()> {
            room.check_disk(dir, buf.len() as u64)?;
            room.on_disk.fetch_add(buf.len() as u64, Ordering::Relaxed);
            out.write_all(buf).map_err(|e| io_error("write", path, e))?;
            buf.clear();
            Ok(())
        };
        for (k, c) in v {
            encode(k, c, &mut buf)?;
            bucket.written += 1;
            if buf.len() >= 1 << 16 {
                flush(&mut buf)?;
            }
        }
        flush(&mut buf)
    }

    /// States in each bucket.
    pub(super) fn sizes(&self) -> Vec<u64> {
        self.buckets
            .iter()
            .map(|b| {
                let b = lock(b);
                b.memory.len() as u64 + b.written
            })
            .collect()
    }

    /// States held in all.
    pub(super) fn total(&self) -> u64 {
        self.sizes().iter().sum()
    }

    /// The states of buckets `range`, read back.
    pub(super) fn read(&self, range: std::ops::Range<usize>) -> Result<Vec<(u128, u128)>> {
        let mut out = Vec::new();
        for i in range {
            self.each_block(i, usize::MAX, &mut |block| {
                out.extend_from_slice(block);
                Ok(())
            })?;
        }
        Ok(out)
    }

    /// Calls `f` with the states of bucket `i`, at most `block` at a time:
    /// its file's, then those in memory.
    fn each_block(&self, i: usize, block: usize, f: &mut Consumer<'_>) -> Result<()> {
        let mut bucket = lock(&self.buckets[i]);
        if let Some((path, out)) = bucket.file.as_mut() {
            out.flush().map_err(|e| io_error("write", path, e))?;
            let path = path.clone();
            let mut file = File::open(&path).map_err(|e| io_error("read", &path, e))?;
            let mut left = bucket.written;
            let mut states = Vec::with_capacity(left.min(block as u64) as usize);
            let (mut buf, mut at) = (Vec::with_capacity(2 << 20), 0);
            while left > 0 {
                states.clear();
                while left > 0 && states.len() < block {
                    if buf.len() - at < MAX_ENCODED {
                        buf.drain(..at);
                        at = 0;
                        let have = buf.len();
                        buf.resize(2 << 20, 0);
                        let n = read_some(&mut file, &mut buf[have..])
                            .map_err(|e| io_error("read", &path, e))?;
                        buf.truncate(have + n);
                    }
                    let (state, used) = decode(&buf[at..]).ok_or_else(|| damaged(&path))?;
                    states.push(state);
                    at += used;
                    left -= 1;
                }
                f(&states)?;
            }
        }
        for piece in bucket.memory.chunks(block.max(1)) {
            f(piece)?;
        }
        Ok(())
    }

    /// Calls `f` with every state held, at most `block` at a time.
    pub(super) fn each(&self, block: usize, f: &mut Consumer<'_>) -> Result<()> {
        (0..self.len()).try_for_each(|i| self.each_block(i, block, f))
    }
}

/// Bytes of a held state's key in a file: a packed boundary has 104
/// bits (see `Boundary::packed`).
const KEY_BYTES: usize = 13;

/// The most bytes a state takes in a file: its key and a count of up to
/// 128 bits, 7 bits a byte.
const MAX_ENCODED: usize = KEY_BYTES + 19;

/// Appends a held state to a file's bytes: the key's 13 low bytes, then
/// the count 7 bits a byte from the lowest, the high bit of each byte
/// saying that another follows (most counts take a byte or two, so a
/// state takes about 15 bytes instead of 32).
fn encode(key: u128, count: u128, out: &mut Vec<u8>) -> Result<()> {
    if key >> (8 * KEY_BYTES) != 0 {
        return Err(Error::Internal("a held state's key past 104 bits".into()));
    }
    out.extend_from_slice(&key.to_le_bytes()[..KEY_BYTES]);
    let mut c = count;
    while c >= 0x80 {
        out.push(c as u8 | 0x80);
        c >>= 7;
    }
    out.push(c as u8);
    Ok(())
}

/// The state at the start of `bytes` and the bytes it takes, if they hold
/// a whole one.
fn decode(bytes: &[u8]) -> Option<((u128, u128), usize)> {
    let mut key = [0u8; 16];
    key[..KEY_BYTES].copy_from_slice(bytes.get(..KEY_BYTES)?);
    let mut count = 0u128;
    for (i, &b) in bytes
        .get(KEY_BYTES..MAX_ENCODED.min(bytes.len()))?
        .iter()
        .enumerate()
    {
        count |= u128::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some(((u128::from_le_bytes(key), count), KEY_BYTES + i + 1));
        }
    }
    None
}

/// Reads into `buf` until it is full or the file ends; the bytes read.
fn read_some(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(m) => n += m,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The error for a shelf's file that ends inside a state (changed or cut
/// while the count ran).
fn damaged(path: &std::path::Path) -> Error {
    Error::Internal(
        format!(
            "{} ends inside a state: the file was changed while the count ran",
            path.display()
        )
        .into(),
    )
}

/// The value behind a lock, even if a thread panicked holding it.
pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every state pushed is read back once, from memory and from the
    /// files alike, in the bucket it was pushed to; files stay within the
    /// disk budget.
    #[test]
    fn a_shelf_gives_back_what_it_holds() {
        let work = std::env::temp_dir().join(format!("knights-shelf-unit-{}", std::process::id()));
        // What a killed count left: gone once the shelves make their own.
        let stale = work.join(format!("{JOIN_PREFIX}4294967295-0"));
        std::fs::create_dir_all(&stale).unwrap();
        let count = crate::count::CountOptions {
            work_dir: Some(work.clone()),
            ..crate::count::CountOptions::default()
        };
        let opts = RunOptions {
            count: &count,
            ..RunOptions::default()
        };
        // Room for 100 states in memory.
        let room = Room::new(&opts, 100 * ENTRY_BYTES);
        let shelf = Shelf::new("unit", 4);
        let states: Vec<(u128, u128)> = (0..1000u128).map(|k| (k << 70 | k, k * k + 1)).collect();
        for chunk in states.chunks(30) {
            shelf
                .push(&room, chunk.to_vec(), |k| (k % 4) as usize)
                .unwrap();
            room.once_spilled(|| shelf.spill(&room)).unwrap();
        }
        assert!(room.spilled());
        assert!(!stale.exists());
        assert!(room.on_disk.load(Ordering::Relaxed) >= 1000 * 14);
        assert_eq!(shelf.sizes(), vec![250; 4]);
        for b in 0..4 {
            let mut got = shelf.read(b..b + 1).unwrap();
            got.sort_unstable();
            let want: Vec<_> = states
                .iter()
                .copied()
                .filter(|&(k, _)| (k % 4) as usize == b)
                .collect();
            assert_eq!(got, want);
        }
        let mut blocks = 0;
        shelf
            .each(7, &mut |block| {
                assert!(block.len() <= 7);
                blocks += block.len();
                Ok(())
            })
            .unwrap();
        assert_eq!(blocks, 1000);
        // A budget of 1000 states is full: one more does not fit.
        let tight_count = crate::count::CountOptions {
            max_disk: Some(room.on_disk.load(Ordering::Relaxed)),
            ..count.clone()
        };
        let tight = RunOptions {
            count: &tight_count,
            ..opts
        };
        let room = Room::new(&tight, 0);
        let shelf = Shelf::new("tight", 1);
        shelf.push(&room, states.clone(), |_| 0).unwrap();
        let err = shelf.push(&room, vec![(1, 1)], |_| 0).unwrap_err();
        assert!(err.to_string().contains("disk budget"), "{err}");
        drop((shelf, room));
        std::fs::remove_dir_all(&work).unwrap();
    }

    proptest::proptest! {
        /// A state's encoding decodes to it, in the bytes it takes, and
        /// no shorter prefix of it decodes.
        #[test]
        fn encoding_round_trips(key in 0u128..(1 << 104), count: u128) {
            let mut bytes = Vec::new();
            encode(key, count, &mut bytes).unwrap();
            proptest::prop_assert!(bytes.len() <= MAX_ENCODED);
            bytes.extend_from_slice(&[0xff; 3]);
            let len = bytes.len() - 3;
            proptest::prop_assert_eq!(decode(&bytes), Some(((key, count), len)));
            proptest::prop_assert_eq!(decode(&bytes[..len - 1]), None);
        }
    }

    #[test]
    fn a_key_past_104_bits_is_refused() {
        assert!(encode(1 << 104, 1, &mut Vec::new()).is_err());
    }
}
