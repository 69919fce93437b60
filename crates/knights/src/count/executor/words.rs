//! The words of the states: a key (`u64` or `u128`) and a count (`u64`
//! up to a 4096-bit `bnum` integer), their fixed-width little-endian
//! codec, and why a typed run stops early ([`Stop`]).

use std::path::Path;

use bnum::cast::As;
use bnum::types::{U1024, U2048, U256, U4096, U512};

use crate::count::number::Big;
use crate::Error;

/// A fixed-width unsigned integer stored in the state files: a key or a count.
pub(crate) trait Word: Copy + Ord + Send + Sync + 'static {
    const BYTES: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
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
}
