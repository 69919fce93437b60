//! The files of a count on disk: fixed-width little-endian `(key, count)`
//! entries, and the checkpoint manifest written atomically.
//!
//! A checkpoint is read back as untrusted input: the manifest names only
//! state files of the count's own naming (`s35-b0.bin`: the square and the
//! bucket), each with its number of states and the CRC-32 of its bytes,
//! and a resume checks every name, length and checksum before it reads a
//! state or removes a file. An edited name (`../../victim/precious.bin`)
//! or a damaged file is an error naming the file, never a wrong count.

use std::fs::{self, File};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use bnum::cast::As;
use bnum::types::{U1024, U2048, U256, U4096, U512};

use super::number::Big;
use crate::Error;

/// A fixed-width unsigned integer stored in the state files: a key or a count.
pub(super) trait Word: Copy + Ord + Send + Sync + 'static {
    const BYTES: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

/// A state's key: `u64` or `u128`.
pub(super) trait Key: Word {
    fn from_u128(x: u128) -> Self;
    fn to_u128(self) -> u128;
}

/// A state's count: `u64`, `u128` or a wider `bnum` integer (see the
/// `number` module notes).
pub(super) trait Tally: Word {
    const ZERO: Self;
    const ONE: Self;
    /// The sum, or `None` on overflow (the run then widens its counts).
    fn add(self, o: Self) -> Option<Self>;
    fn big(self) -> Big;
    fn to_u128(self) -> Option<u128>;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("word width"))
            }
        }
    )*};
}
word!(u64, u128, U256, U512, U1024, U2048, U4096);

macro_rules! primitive {
    ($t:ty) => {
        impl Key for $t {
            #[inline]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
        impl Tally for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn add(self, o: Self) -> Option<Self> {
                self.checked_add(o)
            }
            fn big(self) -> Big {
                self.as_::<Big>()
            }
            fn to_u128(self) -> Option<u128> {
                Some(self as u128)
            }
        }
    };
}
primitive!(u64);
primitive!(u128);

macro_rules! wide {
    ($($t:ty),*) => {$(
        impl Tally for $t {
            const ZERO: Self = <$t>::MIN;
            const ONE: Self = {
                let mut b = [0u8; <$t>::BITS as usize / 8];
                b[0] = 1;
                <$t>::from_le_bytes(b)
            };
            #[inline]
            fn add(self, o: Self) -> Option<Self> {
                self.checked_add(o)
            }
            fn big(self) -> Big {
                self.as_::<Big>()
            }
            fn to_u128(self) -> Option<u128> {
                u128::try_from(self).ok()
            }
        }
    )*};
}
wide!(U256, U512, U1024, U2048, U4096);

/// Why a typed run stopped early.
pub(super) enum Stop {
    /// A count overflowed its width: run again with wider counts.
    Overflow,
    /// A square's successors in memory passed the memory bound (about this
    /// many bytes): go on on disk, or stop.
    OverMemory(u64),
    Err(Error),
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Err(e)
    }
}

pub(super) fn io(what: &str, path: &Path, e: std::io::Error) -> Stop {
    Stop::Err(io_error(what, path, e))
}

/// The error for a file of the count it could not `what` ("write"),
/// naming the file and keeping the system's error as the source.
pub(super) fn io_error(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::io(format!("{what} {}", path.display()), e)
}

/// The checkpoint manifest.
#[derive(Serialize, Deserialize)]
pub(super) struct Manifest {
    pub version: u32,
    pub fingerprint: String,
    /// Vertices processed.
    pub step: usize,
    pub buckets: Vec<StateFile>,
    pub states_per_step: Vec<u64>,
    pub peak: u64,
    /// The count, once the run is complete.
    pub count: Option<String>,
    /// A sweep's counts of the prefixes done so far.
    #[serde(default)]
    pub prefix_counts: Vec<(usize, super::number::Count)>,
    /// The CRC-32 of the manifest's JSON with this field 0 (see [`crc_of`]).
    pub checksum: u32,
}

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
pub(super) fn crc_of<T: Serialize>(value: &T) -> u32 {
    crc32fast::hash(
        serde_json::to_string(value)
            .expect("a count's file serialises")
            .as_bytes(),
    )
}

/// The error for a count's small file at `path` whose checksum is not
/// that of its contents.
pub(super) fn edited(path: &Path) -> Error {
    Error::Parse(format!(
        "{} is damaged or edited (its checksum is not that of its contents)",
        path.display()
    ))
    .with_hint(crate::Hint::StartFresh)
}

pub(super) const MANIFEST: &str = "checkpoint.json";

/// The manifest's format: 2 gave every state file a checksum, 3 the
/// manifest itself (older ones are refused: they cannot be checked).
pub(super) const MANIFEST_VERSION: u32 = 3;

/// A state file of a layer, as its manifest names it.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct StateFile {
    /// The file's name in the run's folder: `s{square}-b{bucket}.bin`.
    pub name: String,
    pub states: u64,
    /// The CRC-32 of the file's bytes.
    pub crc32: u32,
}

/// The name of bucket `bucket`'s state file after square `square`.
pub(super) fn state_file_name(square: usize, bucket: usize) -> String {
    format!("s{square}-b{bucket}.bin")
}

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
/// this run's (`fingerprint`), and that it names only state files of its
/// own square with distinct buckets below `max_buckets`.
pub(super) fn read_manifest(
    path: &Path,
    fingerprint: &str,
    max_buckets: usize,
) -> std::result::Result<Manifest, Error> {
    let text = read_small(path)?;
    let not_a_checkpoint =
        |e: serde_json::Error| Error::Parse(format!("{} is not a checkpoint: {e}", path.display()));
    #[derive(Deserialize)]
    struct Version {
        version: u32,
    }
    let v: Version = serde_json::from_str(&text).map_err(not_a_checkpoint)?;
    if v.version != MANIFEST_VERSION {
        return Err(Error::Parse(format!(
            "{} is a checkpoint of format {} (this version of knights writes format {MANIFEST_VERSION}, whose files carry checksums)",
            path.display(),
            v.version
        ))
        .with_hint(crate::Hint::StartFresh));
    }
    let mut m: Manifest = serde_json::from_str(&text).map_err(not_a_checkpoint)?;
    let checksum = std::mem::take(&mut m.checksum);
    if crc_of(&m) != checksum {
        return Err(edited(path));
    }
    if m.fingerprint != fingerprint {
        return Err(Error::Parse(format!(
            "{} belongs to another count",
            path.display()
        )));
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
                ))
                .with_hint(crate::Hint::StartFresh))
            }
        }
    }
    Ok(m)
}

/// The most bytes of a manifest (a few kilobytes in practice).
const MAX_MANIFEST: u64 = 16 << 20;

/// Reads a small text file of a count, refusing one past [`MAX_MANIFEST`].
pub(super) fn read_small(path: &Path) -> std::result::Result<String, Error> {
    let f = File::open(path).map_err(|e| io_error("read", path, e))?;
    let mut text = String::new();
    f.take(MAX_MANIFEST + 1)
        .read_to_string(&mut text)
        .map_err(|e| io_error("read", path, e))?;
    if text.len() as u64 > MAX_MANIFEST {
        return Err(Error::Parse(format!(
            "{} is larger than any checkpoint (over {})",
            path.display(),
            crate::memory::human_bytes(MAX_MANIFEST)
        )));
    }
    Ok(text)
}

/// Checks that the state file `f` in `dir` holds `f.states` entries of
/// `entry_bytes` and the bytes its checksum was taken of.
pub(super) fn check_state_file(
    dir: &Path,
    f: &StateFile,
    entry_bytes: usize,
) -> std::result::Result<(), Error> {
    let path = dir.join(&f.name);
    let damaged = |what: &str| {
        Error::Parse(format!(
            "the state file {} is damaged ({what})",
            path.display()
        ))
        .with_hint(crate::Hint::StartFresh)
    };
    // The file itself, never what a link points to: a state file replaced
    // by a link to another file is not read (nor later removed) as states.
    let meta = fs::symlink_metadata(&path).map_err(|e| io_error("read", &path, e))?;
    if !meta.file_type().is_file() {
        return Err(damaged("it is not a regular file"));
    }
    let len = meta.len();
    if f.states.checked_mul(entry_bytes as u64) != Some(len) {
        return Err(damaged("its length is not the checkpoint's"));
    }
    let mut hasher = crc32fast::Hasher::new();
    let mut r = File::open(&path).map_err(|e| io_error("read", &path, e))?;
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
    Ok(())
}

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

pub(super) fn entry_bytes<K: Word, C: Word>() -> usize {
    K::BYTES + C::BYTES
}

pub(super) fn write_entries<K: Word, C: Word>(
    out: &mut impl Write,
    v: &[(K, C)],
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(v.len().min(1 << 16) * entry_bytes::<K, C>());
    for part in v.chunks(1 << 16) {
        buf.clear();
        for &(k, c) in part {
            k.put(&mut buf);
            c.put(&mut buf);
        }
        out.write_all(&buf)?;
    }
    Ok(())
}

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

pub(super) fn file_states<K: Word, C: Word>(path: &Path) -> std::result::Result<u64, Stop> {
    let len = fs::metadata(path).map_err(|e| io("read", path, e))?.len();
    Ok(len / entry_bytes::<K, C>() as u64)
}

/// Writes `text` to `dir/name` atomically (temporary file, then rename).
pub(super) fn write_atomic(dir: &Path, name: &str, text: &str) -> std::result::Result<(), Stop> {
    let tmp = dir.join(format!("{name}.tmp"));
    let path = dir.join(name);
    let mut f = File::create(&tmp).map_err(|e| io("write", &tmp, e))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| io("write", &tmp, e))?;
    fs::rename(&tmp, &path).map_err(|e| io("write", &path, e))
}

/// Where a run keeps its files, and whether it removes them at the end
/// (a directory of its own under the system's temporary directory).
pub(super) struct Disk {
    pub dir: PathBuf,
    pub temporary: bool,
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

impl Disk {
    /// A directory of its own under the system's temporary directory, for
    /// a run whose states outgrow memory without a work directory. First
    /// removes what runs killed before they could clean up left there
    /// (named for a process that no longer exists; on systems without
    /// `/proc` nothing is removed).
    pub fn temporary(fingerprint: &str) -> std::result::Result<Disk, Stop> {
        let base = std::env::temp_dir();
        if Path::new("/proc/self").exists() {
            for entry in fs::read_dir(&base).into_iter().flatten().flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                let pid = name
                    .strip_prefix(TEMPORARY_PREFIX)
                    .and_then(|rest| rest.split('-').next())
                    .and_then(|pid| pid.parse::<u32>().ok());
                if let Some(pid) = pid {
                    if !Path::new("/proc").join(pid.to_string()).exists() {
                        let _ = fs::remove_dir_all(entry.path());
                    }
                }
            }
        }
        let dir = base.join(format!(
            "{TEMPORARY_PREFIX}{}-{fingerprint}",
            std::process::id()
        ));
        fs::create_dir_all(&dir).map_err(|e| io("create", &dir, e))?;
        Ok(Disk {
            dir,
            temporary: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<C: Tally + std::fmt::Debug>(bits: usize) {
        assert_eq!(C::BYTES * 8, bits);
        let x = C::ONE.add(C::ONE).unwrap();
        let mut out = Vec::new();
        x.put(&mut out);
        assert_eq!(out.len(), C::BYTES);
        assert_eq!(C::get(&out), x);
    }

    #[test]
    fn every_count_width_stores_and_reads_back() {
        round_trip::<u64>(64);
        round_trip::<u128>(128);
        round_trip::<U256>(256);
        round_trip::<U512>(512);
        round_trip::<U1024>(1024);
        round_trip::<U2048>(2048);
        round_trip::<U4096>(4096);
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
