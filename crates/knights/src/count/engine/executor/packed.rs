//! Packed state files: `(key, count)` entries sorted by key, in blocks of
//! at most [`BLOCK`] entries. A block is a header (its entries and the
//! bytes of its body, two little-endian `u32`) and a body holding, for
//! each entry, the key's difference from the block's previous key (the
//! first key's from 0) and then the count, both as LEB128 varints.
//!
//! Ranked keys are dense (see the `frontier` notes), so the keys of a
//! bucket of a large layer lie a few thousand apart: their differences take
//! two to four bytes where a fixed-width key takes eight or sixteen, and
//! most counts one or two where a fixed-width count takes eight. The
//! unmerged successors of a square,
//! which bound how large a count fits on a disk, shrink as much: each
//! chunk's share is sorted and written as blocks of its own.
//!
//! A file is read back as untrusted input: a short file, a header past
//! the bounds, a varint too long for its word or keys out of order are an
//! error naming the file, never a panic or a wrong count.

use std::fs::File;
use std::io::{BufReader, ErrorKind, Read, Write};
use std::path::Path;

use super::words::{memory_entry_bytes, Key, Stop, Tally, Word};
use crate::Error;

/// The most entries of a block.
pub(super) const BLOCK: usize = 1 << 12;
/// Bytes of a block's header.
const HEADER: usize = 8;

/// The most body bytes a block of `entries` can take.
fn max_body<K: Word, C: Word>(entries: usize) -> usize {
    entries * (varint_bytes(K::BYTES) + varint_bytes(C::BYTES))
}

/// The most bytes of the LEB128 varint of a word of `bytes` bytes.
const fn varint_bytes(bytes: usize) -> usize {
    (bytes * 8).div_ceil(7)
}

/// The most bytes [`pack`] appends for `entries` entries.
pub(super) fn packed_bound<K: Word, C: Word>(entries: usize) -> usize {
    max_body::<K, C>(entries) + entries.div_ceil(BLOCK) * HEADER
}

/// Appends the packed blocks of `v`, which is sorted by key with each key
/// once, to `out`.
pub(super) fn pack<K: Key, C: Tally>(v: &[(K, C)], out: &mut Vec<u8>) {
    debug_assert!(
        v.windows(2).all(|w| w[0].0 < w[1].0),
        "sorted, distinct keys"
    );
    for block in v.chunks(BLOCK) {
        let at = out.len();
        out.extend_from_slice(&[0; HEADER]);
        let mut prev = 0u128;
        for &(k, c) in block {
            let k = k.to_u128();
            (k - prev).put_var(out);
            prev = k;
            c.put_var(out);
        }
        let body = (out.len() - at - HEADER) as u32;
        out[at..at + 4].copy_from_slice(&(block.len() as u32).to_le_bytes());
        out[at + 4..at + HEADER].copy_from_slice(&body.to_le_bytes());
    }
}

/// Writes the packed blocks of `v` (sorted by key, each key once) to
/// `out`; returns the bytes written.
pub(super) fn write_packed<K: Key, C: Tally>(
    out: &mut impl Write,
    v: &[(K, C)],
) -> std::io::Result<u64> {
    let mut buf = Vec::new();
    let mut bytes = 0u64;
    for part in v.chunks(64 * BLOCK) {
        buf.clear();
        pack(part, &mut buf);
        out.write_all(&buf)?;
        bytes += buf.len() as u64;
    }
    Ok(bytes)
}

/// Reads packed blocks from a file, one at a time.
pub(super) struct Blocks<'a> {
    path: &'a Path,
    r: BufReader<File>,
    body: Vec<u8>,
}

impl<'a> Blocks<'a> {
    pub fn open(path: &'a Path) -> std::result::Result<Self, Stop> {
        let f = File::open(path).map_err(|e| super::words::io("read", path, e))?;
        Ok(Blocks {
            path,
            r: BufReader::with_capacity(1 << 20, f),
            body: Vec::new(),
        })
    }

    fn damaged(&self, what: &str) -> Stop {
        Stop::Err(
            Error::Parse(
                format!("the state file {} is damaged ({what})", self.path.display()).into(),
            )
            .with_hint(crate::Hint::StartFresh),
        )
    }

    /// The next block's header (entries, body bytes), or `None` at the end
    /// of the file.
    fn header<K: Word, C: Word>(&mut self) -> std::result::Result<Option<(usize, usize)>, Stop> {
        let mut h = [0u8; HEADER];
        let mut got = 0;
        while got < HEADER {
            match self.r.read(&mut h[got..]) {
                Ok(0) if got == 0 => return Ok(None),
                Ok(0) => return Err(self.damaged("it ends inside a block")),
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(super::words::io("read", self.path, e)),
            }
        }
        let entries = u32::from_le_bytes(h[..4].try_into().expect("4 bytes")) as usize;
        let body = u32::from_le_bytes(h[4..].try_into().expect("4 bytes")) as usize;
        if entries == 0 || entries > BLOCK || body < entries || body > max_body::<K, C>(entries) {
            return Err(self.damaged("a block's header is out of bounds"));
        }
        Ok(Some((entries, body)))
    }

    /// Passes over a block's body of `bytes` bytes.
    fn skip(&mut self, bytes: usize) -> std::result::Result<(), Stop> {
        let taken = std::io::copy(&mut (&mut self.r).take(bytes as u64), &mut std::io::sink())
            .map_err(|e| super::words::io("read", self.path, e))?;
        match taken == bytes as u64 {
            true => Ok(()),
            false => Err(self.damaged("it ends inside a block")),
        }
    }

    /// Decodes the next block, `entries` entries in `bytes` bytes, onto
    /// `out`, skipping its first `from` entries.
    fn decode<K: Key, C: Tally>(
        &mut self,
        entries: usize,
        bytes: usize,
        from: usize,
        out: &mut Vec<(K, C)>,
    ) -> std::result::Result<(), Stop> {
        self.body.resize(bytes, 0);
        if let Err(e) = self.r.read_exact(&mut self.body) {
            return Err(match e.kind() {
                ErrorKind::UnexpectedEof => self.damaged("it ends inside a block"),
                _ => super::words::io("read", self.path, e),
            });
        }
        let (b, mut at, mut prev) = (&self.body, 0usize, 0u128);
        for i in 0..entries {
            let entry = u128::get_var(&b[at..]).and_then(|(d, n)| {
                let key = prev.checked_add(d).filter(|_| i == 0 || d > 0)?;
                let (count, m) = C::get_var(&b[at + n..])?;
                Some((key, count, n + m))
            });
            let Some((key, count, n)) = entry else {
                return Err(self.damaged("an entry cannot be read"));
            };
            let k = K::from_u128(key);
            if k.to_u128() != key {
                return Err(self.damaged("a key is too wide"));
            }
            if i >= from {
                out.push((k, count));
            }
            prev = key;
            at += n;
        }
        match at == bytes {
            true => Ok(()),
            false => Err(self.damaged("a block's body is not its header's length")),
        }
    }
}

/// The `count` entries of the packed file at `path` from entry `skip`.
pub(super) fn read_packed<K: Key, C: Tally>(
    path: &Path,
    skip: u64,
    count: usize,
) -> std::result::Result<Vec<(K, C)>, Stop> {
    let mut blocks = Blocks::open(path)?;
    let mut out = Vec::new();
    let mut seen = 0u64;
    while out.len() < count {
        let Some((entries, bytes)) = blocks.header::<K, C>()? else {
            return Err(blocks.damaged("it holds fewer states than its checkpoint"));
        };
        let end = seen + entries as u64;
        if end <= skip {
            blocks.skip(bytes)?;
        } else {
            let from = skip.saturating_sub(seen) as usize;
            // Room for the states asked and the rest of this block, asked
            // of the allocator first: its refusal is the bound passed.
            let more = (out.len() + entries - from).max(count) - out.len();
            if out.capacity() - out.len() < more && out.try_reserve_exact(more).is_err() {
                return Err(Stop::OverMemory(
                    (count * memory_entry_bytes::<K, C>()) as u64,
                ));
            }
            blocks.decode(entries, bytes, from, &mut out)?;
            out.truncate(count);
        }
        seen = end;
    }
    Ok(out)
}

/// Every entry of the packed file at `path`, which holds `count` of them.
pub(super) fn read_all<K: Key, C: Tally>(
    path: &Path,
    count: u64,
) -> std::result::Result<Vec<(K, C)>, Stop> {
    let mut blocks = Blocks::open(path)?;
    let mut out = Vec::new();
    if out.try_reserve_exact(count as usize).is_err() {
        let bytes = count.saturating_mul(memory_entry_bytes::<K, C>() as u64);
        return Err(Stop::OverMemory(bytes));
    }
    while let Some((entries, bytes)) = blocks.header::<K, C>()? {
        if out.len() + entries > count as usize {
            return Err(blocks.damaged("it holds more states than were written"));
        }
        blocks.decode(entries, bytes, 0, &mut out)?;
    }
    match out.len() as u64 == count {
        true => Ok(out),
        false => Err(blocks.damaged("it holds fewer states than were written")),
    }
}

/// The entries of the packed file at `path`, counted from its headers;
/// a file that is not whole blocks is an error.
pub(super) fn count_entries<K: Word, C: Word>(path: &Path) -> std::result::Result<u64, Stop> {
    let mut blocks = Blocks::open(path)?;
    let mut n = 0u64;
    while let Some((entries, bytes)) = blocks.header::<K, C>()? {
        blocks.skip(bytes)?;
        n += entries as u64;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bnum::types::U256;
    use proptest::prelude::*;

    fn file_of(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s1-b0.bin");
        std::fs::write(&path, bytes).unwrap();
        (dir, path)
    }

    fn sorted(mut v: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
        v.sort_unstable();
        v.dedup_by_key(|e| e.0);
        v
    }

    proptest! {
        #[test]
        fn packed_entries_read_back_whole_and_from_any_entry(
            v in proptest::collection::vec((any::<u64>(), any::<u64>()), 0..10_000),
            skip in 0usize..10_000,
        ) {
            let v = sorted(v);
            let mut bytes = Vec::new();
            let written = write_packed(&mut bytes, &v).unwrap();
            prop_assert_eq!(written, bytes.len() as u64);
            let (_dir, path) = file_of(&bytes);
            prop_assert_eq!(count_entries::<u64, u64>(&path).ok(), Some(v.len() as u64));
            prop_assert!(read_all::<u64, u64>(&path, v.len() as u64).ok() == Some(v.clone()));
            let skip = skip.min(v.len());
            let len = (v.len() - skip).min(5_000);
            let part = read_packed::<u64, u64>(&path, skip as u64, len).ok();
            prop_assert!(part.as_deref() == Some(&v[skip..skip + len]));
        }

        #[test]
        fn a_damaged_packed_file_is_an_error_never_a_panic(
            v in proptest::collection::vec((any::<u64>(), any::<u64>()), 1..3_000),
            at in any::<prop::sample::Index>(),
            byte in any::<u8>(),
            cut in any::<prop::sample::Index>(),
        ) {
            let v = sorted(v);
            let mut bytes = Vec::new();
            write_packed(&mut bytes, &v).unwrap();
            let mut edited = bytes.clone();
            edited[at.index(bytes.len())] = byte;
            let (_d1, path) = file_of(&edited);
            if let Ok(back) = read_all::<u64, u64>(&path, v.len() as u64) {
                prop_assert_eq!(back.len(), v.len());
            }
            let (_d2, path) = file_of(&bytes[..cut.index(bytes.len())]);
            prop_assert!(read_all::<u64, u64>(&path, v.len() as u64).is_err());
        }
    }

    #[test]
    fn dense_keys_and_small_counts_take_a_few_bytes_an_entry() {
        // Keys about 1,000 apart and counts below 128: two bytes of key
        // difference and one of count, where fixed width took sixteen.
        let v: Vec<(u64, u64)> = (0..100_000u64)
            .map(|i| (i * 1_000 + i % 7, i % 100))
            .collect();
        let mut bytes = Vec::new();
        write_packed(&mut bytes, &v).unwrap();
        let per_entry = bytes.len() as f64 / v.len() as f64;
        assert!(
            (3.0..3.1).contains(&per_entry),
            "{per_entry} bytes an entry"
        );
    }

    #[test]
    fn wide_keys_and_counts_read_back() {
        let big = U256::MAX;
        let v: Vec<(u128, U256)> = vec![
            (0, U256::ONE),
            (1, big),
            (u128::MAX - 1, U256::ZERO),
            (u128::MAX, big),
        ];
        let mut bytes = Vec::new();
        write_packed(&mut bytes, &v).unwrap();
        let (_dir, path) = file_of(&bytes);
        assert!(read_all::<u128, U256>(&path, 4).ok() == Some(v.clone()));
        // The same bytes read with narrower keys or counts are refused.
        assert!(read_all::<u64, U256>(&path, 4).is_err());
        assert!(read_all::<u128, u64>(&path, 4).is_err());
    }

    #[test]
    fn keys_out_of_order_are_refused() {
        // Two entries with a zero difference: one key twice.
        let mut bytes = vec![2, 0, 0, 0, 4, 0, 0, 0];
        bytes.extend_from_slice(&[5, 1, 0, 1]);
        let (_dir, path) = file_of(&bytes);
        let e = read_all::<u64, u64>(&path, 2).expect_err("refused");
        let Stop::Err(e) = e else { panic!("an error") };
        assert!(e.to_string().contains("damaged"), "{e}");
    }
}
