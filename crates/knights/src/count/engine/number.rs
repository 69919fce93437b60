//! Exact counts of any size the counter reaches.
//!
//! The states carry their counts in the narrowest fixed-width integer that
//! holds them: `u64`, then `u128`, then the 256- to 4096-bit integers of the
//! `bnum` crate. A run starts at the width the board's expected count needs
//! and, when an addition overflows, starts again one width up, so a count is
//! never wrapped. Fixed widths were chosen over residues modulo several
//! word-size primes (joined by the Chinese remainder theorem) because they
//! detect overflow instead of needing a proven bound in advance, and
//! `bnum`'s additions were the fastest of the representations tried
//! (BENCHMARKS.md, "Exact counting").
//!
//! [`Count`] is the result: an exact non-negative integer of up to 4096 bits.

use std::fmt;
use std::str::FromStr;

use bnum::cast::As;

/// The widest count the counter carries.
pub(crate) type Big = bnum::types::U4096;

/// An exact count of tours: a non-negative integer below `2^4096`.
///
/// It prints in decimal, compares with `u128`, and converts to `u128` where
/// it fits.
///
/// # Example
/// ```
/// use knights::count::{Count, Counter};
/// let c: Count = Counter::new("3x1000".parse()?).tours()?.count;
/// assert!(c.to_u128().is_none()); // more than 2^128
/// assert!(c.to_string().len() > 39);
/// assert_eq!(Counter::new("6x6".parse()?).tours()?.count, 9862);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Count(Big);

impl Count {
    /// Zero.
    pub const ZERO: Count = Count(Big::MIN);

    /// The count as a `u128`, if it fits.
    pub fn to_u128(self) -> Option<u128> {
        u128::try_from(self.0).ok()
    }

    /// The number of bits the count needs (0 for zero).
    pub fn bits(self) -> u32 {
        self.0.bit_width()
    }

    /// The count times `k`, or `None` past `2^4096`.
    pub fn times(self, k: u32) -> Option<Count> {
        self.0.checked_mul(k.as_::<Big>()).map(Count)
    }

    /// The sum, or `None` past `2^4096`.
    pub fn checked_add(self, o: Count) -> Option<Count> {
        self.0.checked_add(o.0).map(Count)
    }

    /// The count divided by `k` (which must divide it), or `None` if it does not.
    pub fn exact_div(self, k: u32) -> Option<Count> {
        let k = k.as_::<Big>();
        if k == Big::MIN || self.0 % k != Big::MIN {
            return None;
        }
        Some(Count(self.0 / k))
    }

    pub(crate) fn from_big(b: Big) -> Count {
        Count(b)
    }

    #[cfg(test)]
    pub(crate) fn big(self) -> Big {
        self.0
    }
}

impl From<u128> for Count {
    fn from(x: u128) -> Count {
        Count(x.as_::<Big>())
    }
}

impl From<u64> for Count {
    fn from(x: u64) -> Count {
        Count(x.as_::<Big>())
    }
}

impl PartialEq<u128> for Count {
    fn eq(&self, o: &u128) -> bool {
        self.to_u128() == Some(*o)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for Count {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Count> {
        let t = s.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(crate::Error::Parse(
                format!(
                    "'{}' is not a count; write a non-negative whole number in decimal",
                    crate::excerpt(s)
                )
                .into(),
            ));
        }
        Big::from_str_radix(t, 10).map(Count).map_err(|_| {
            crate::Error::Parse(
                format!("'{}' is not a count below 2^4096", crate::excerpt(s)).into(),
            )
        })
    }
}

/// Counts serialise as JSON numbers where they fit in 64 bits, else as
/// decimal strings (JSON readers lose precision past 2^53 or 2^64).
impl serde::Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.to_u128().and_then(|x| u64::try_from(x).ok()) {
            Some(x) => s.serialize_u64(x),
            None => s.serialize_str(&self.to_string()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count: a non-negative integer, or one in a decimal string")
            }
            fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<Count, E> {
                Ok(Count::from(x))
            }
            fn visit_u128<E: serde::de::Error>(self, x: u128) -> Result<Count, E> {
                Ok(Count::from(x))
            }
            fn visit_str<E: serde::de::Error>(self, x: &str) -> Result<Count, E> {
                x.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A sum of products of two `u128` counts (meeting in the middle), fast
/// while it fits in `u128`.
#[derive(Default)]
pub(crate) struct ProductSum {
    low: u128,
    high: Big,
}

impl ProductSum {
    /// A sum that starts at `c` (a join resumed with the sum of its parts done).
    pub fn starting_at(c: Count) -> ProductSum {
        ProductSum { low: 0, high: c.0 }
    }

    #[inline]
    pub fn add_product(&mut self, a: u128, b: u128) {
        if let Some(p) = a.checked_mul(b) {
            if let Some(s) = self.low.checked_add(p) {
                self.low = s;
                return;
            }
        }
        // Two numbers below 2^128 multiply to less than 2^256, far below
        // 2^4096, and the sum of such products has room to spare.
        let p = a.as_::<Big>() * b.as_::<Big>();
        self.high += p;
    }

    pub fn add(&mut self, o: ProductSum) {
        self.high += o.high;
        if let Some(s) = self.low.checked_add(o.low) {
            self.low = s;
        } else {
            self.high += o.low.as_::<Big>();
        }
    }

    pub fn total(&self) -> Count {
        Count(self.high + self.low.as_::<Big>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_print_parse_and_compare() {
        let c: Count = "340282366920938463463374607431768211456".parse().unwrap(); // 2^128
        assert_eq!(c.to_u128(), None);
        assert_eq!(c.bits(), 129);
        assert_eq!(c.to_string(), "340282366920938463463374607431768211456");
        assert_eq!(Count::from(9862u128), 9862);
        assert_eq!(
            Count::from(u128::MAX).checked_add(Count::from(1u64)),
            Some(c)
        );
        assert_eq!(c.times(2).unwrap().exact_div(2), Some(c));
        assert_eq!(Count::from(7u64).exact_div(2), None);
        assert!("12a".parse::<Count>().is_err());
        assert!("-1".parse::<Count>().is_err());
        assert!("".parse::<Count>().is_err());
        let json = serde_json::to_string(&(Count::from(5u64), c)).unwrap();
        assert_eq!(json, r#"[5,"340282366920938463463374607431768211456"]"#);
        let back: (Count, Count) = serde_json::from_str(&json).unwrap();
        assert_eq!(back, (Count::from(5u64), c));
    }

    #[test]
    fn product_sums_spill_past_u128_exactly() {
        let mut s = ProductSum::default();
        s.add_product(u128::MAX, 3);
        s.add_product(2, 5);
        let mut t = ProductSum::default();
        t.add_product(u128::MAX, u128::MAX);
        s.add(t);
        let m = Count::from(u128::MAX).big();
        let want = m * 3u8.as_::<Big>() + 10u8.as_::<Big>() + m * m;
        assert_eq!(s.total().big(), want);
    }
}
