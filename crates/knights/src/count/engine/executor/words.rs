//! The words of the states: a key (`u64` or `u128`) and a count (`u64`
//! up to a 4096-bit `bnum` integer), their codecs (LEB128 varints for the
//! packed state files, fixed-width little-endian for the files of format
//! 3), and why a typed run stops early ([`Stop`]).

use std::path::Path;

use bnum::cast::As;
use bnum::types::{U1024, U2048, U256, U4096, U512};

use crate::count::engine::number::Big;
use crate::Error;

/// A fixed-width unsigned integer stored in the state files: a key or a count.
pub(crate) trait Word: Copy + Ord + Send + Sync + 'static {
    const BYTES: usize;
    fn get(b: &[u8]) -> Self;
    /// Appends the word as a LEB128 varint: 7 bits a byte, low bits first,
    /// the high bit of every byte but the last set.
    fn put_var(self, out: &mut Vec<u8>);
    /// The word at the start of `b` as a LEB128 varint, and its bytes; or
    /// `None` when `b` ends first or the value is too wide for the word.
    fn get_var(b: &[u8]) -> Option<(Self, usize)>;
}

/// A state's key: `u64` or `u128`.
pub(crate) trait Key: Word {
    fn from_u128(x: u128) -> Self;
    fn to_u128(self) -> u128;
}

/// A state's count: `u64`, `u128` or a wider `bnum` integer (see the
/// `number` module notes).
pub(crate) trait Tally: Word {
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
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("word width"))
            }
            #[inline]
            fn put_var(self, out: &mut Vec<u8>) {
                let mut x = self;
                while x >= 0x80 {
                    out.push(x as u8 | 0x80);
                    x >>= 7;
                }
                out.push(x as u8);
            }
            #[inline]
            fn get_var(b: &[u8]) -> Option<(Self, usize)> {
                let mut x: $t = 0;
                for (i, &byte) in b.iter().enumerate() {
                    let shift = 7 * i as u32;
                    let bits = <$t>::from(byte & 0x7f);
                    if shift >= <$t>::BITS || (shift + 7 > <$t>::BITS && bits >> (<$t>::BITS - shift) != 0) {
                        return None;
                    }
                    x |= bits << shift;
                    if byte & 0x80 == 0 {
                        return Some((x, i + 1));
                    }
                }
                None
            }
        }
    )*};
}
word!(u64, u128);

macro_rules! wide_word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BYTES: usize = <$t>::BITS as usize / 8;
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("word width"))
            }
            fn put_var(self, out: &mut Vec<u8>) {
                put_var_bytes(&self.to_le_bytes(), out);
            }
            fn get_var(b: &[u8]) -> Option<(Self, usize)> {
                let mut le = [0u8; <$t>::BITS as usize / 8];
                let n = get_var_bytes(b, &mut le)?;
                Some((<$t>::from_le_bytes(le), n))
            }
        }
    )*};
}
wide_word!(U256, U512, U1024, U2048, U4096);

/// [`Word::put_var`] of the little-endian bytes `le` of a wide word.
fn put_var_bytes(le: &[u8], out: &mut Vec<u8>) {
    let Some(top) = le.iter().rposition(|&b| b != 0) else {
        out.push(0);
        return;
    };
    let bits = top * 8 + (8 - le[top].leading_zeros() as usize);
    let groups = bits.div_ceil(7);
    for g in 0..groups {
        let (i, s) = (g * 7 / 8, g * 7 % 8);
        let mut x = u16::from(le[i]) >> s;
        if i + 1 < le.len() {
            x |= u16::from(le[i + 1]) << (8 - s);
        }
        let more = if g + 1 < groups { 0x80 } else { 0 };
        out.push((x & 0x7f) as u8 | more);
    }
}

/// [`Word::get_var`] into the little-endian bytes `le` of a wide word.
fn get_var_bytes(b: &[u8], le: &mut [u8]) -> Option<usize> {
    for (g, &byte) in b.iter().enumerate() {
        let (i, s) = (g * 7 / 8, g * 7 % 8);
        if i >= le.len() {
            return None;
        }
        let x = u16::from(byte & 0x7f) << s;
        le[i] |= x as u8;
        let high = (x >> 8) as u8;
        if high != 0 {
            *le.get_mut(i + 1)? |= high;
        }
        if byte & 0x80 == 0 {
            return Some(g + 1);
        }
    }
    None
}

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
pub(crate) enum Stop {
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

pub(crate) fn io(what: &str, path: &Path, e: std::io::Error) -> Stop {
    Stop::Err(io_error(what, path, e))
}

/// The error for a file of the count it could not `what` ("write"),
/// naming the file and keeping the system's error as the source.
pub(crate) fn io_error(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::io(format!("{what} {}", path.display()), e)
}

/// The count widths a run may use, narrowest first.
pub(crate) const COUNT_BITS: [u32; 7] = [64, 128, 256, 512, 1024, 2048, 4096];

/// Bytes of one stored `(key, count)` entry.
pub(crate) fn entry_bytes<K: Word, C: Word>() -> usize {
    K::BYTES + C::BYTES
}

/// Bytes a `(key, count)` pair takes in memory, with its alignment's
/// padding (a `u128` key and a `u64` count: 32, where the file's width is
/// 24); what the memory bound is charged.
pub(crate) fn memory_entry_bytes<K: Word, C: Word>() -> usize {
    std::mem::size_of::<(K, C)>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_charged_the_padded_pair() {
        // A u128 key aligns its pair to 16 bytes: 24 on file, 32 in memory.
        assert_eq!(entry_bytes::<u128, u64>(), 24);
        assert_eq!(memory_entry_bytes::<u128, u64>(), 32);
        assert_eq!(memory_entry_bytes::<u64, u64>(), 16);
    }

    fn round_trip<C: Tally + std::fmt::Debug>(bits: usize) {
        assert_eq!(C::BYTES * 8, bits);
        // Two, in the fixed-width little-endian bytes of format 3's files.
        let mut bytes = vec![0u8; C::BYTES];
        bytes[0] = 2;
        assert_eq!(C::get(&bytes), C::ONE.add(C::ONE).unwrap());
    }

    fn varint_round_trip<C: Tally + std::fmt::Debug>(values: &[C]) {
        for &x in values {
            let mut out = Vec::new();
            x.put_var(&mut out);
            out.push(0xff);
            assert_eq!(C::get_var(&out), Some((x, out.len() - 1)), "{x:?}");
            // A varint cut short is refused.
            assert_eq!(C::get_var(&out[..out.len() - 2]).map(|v| v.0), None);
        }
    }

    #[test]
    fn every_width_writes_varints_and_reads_them_back() {
        let small = [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX - 1, u64::MAX];
        varint_round_trip(&small);
        varint_round_trip(&small.map(u128::from));
        varint_round_trip(&[u128::MAX, u128::MAX >> 1, 1 << 127]);
        let wide = small
            .map(|x| x.as_::<U256>())
            .into_iter()
            .chain([U256::MAX, U256::MAX >> 3]);
        varint_round_trip(&wide.collect::<Vec<_>>());
        varint_round_trip(&[U4096::MAX, U4096::ONE << 4000, U4096::ZERO]);
        // A value one bit too wide for its word is refused.
        let mut out = Vec::new();
        u128::from(u64::MAX).put_var(&mut out);
        (u128::from(u64::MAX) + 1).put_var(&mut out);
        assert!(u64::get_var(&out).is_some());
        let second = &out[10..];
        assert_eq!(u64::get_var(second), None);
        let mut out = Vec::new();
        U256::MAX.put_var(&mut out);
        out[36] = 0x1f;
        assert!(U256::get_var(&out).is_none());
    }

    #[test]
    fn every_count_width_reads_its_fixed_width_bytes() {
        round_trip::<u64>(64);
        round_trip::<u128>(128);
        round_trip::<U256>(256);
        round_trip::<U512>(512);
        round_trip::<U1024>(1024);
        round_trip::<U2048>(2048);
        round_trip::<U4096>(4096);
    }
}
