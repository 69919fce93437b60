//! Amounts of bytes: read from what a person types ("1.5G", "512MiB")
//! and written back in binary units ("1.5 GiB"), one parser for every door.

use crate::{Error, Result};

/// A number of bytes in human units ("1.5 GiB").
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The forms an amount of bytes takes, for the errors that refuse one.
const AMOUNT_FORMS: &str = "write a number of bytes, whole or decimal, with an optional unit K, M, G, T or P (powers of 1024, optionally followed by B or iB), such as 1000, 512M, 1.5G or 20GiB";

/// Reads an amount of bytes, `what` naming it in the errors ("memory"):
/// a whole or decimal number with an optional binary unit, K, M, G, T or
/// P, optionally followed by "B" or "iB", in any case ("1000", "512M",
/// "1.5G", "0.5GiB", "4kb"); rounded down to whole bytes. Every door of a
/// size option reads it here (the command line's `--max-memory` and
/// `--max-disk`, the request's `max-memory` and `max-disk`).
///
/// # Errors
/// [`Error::Parse`] for text that is not such an amount, one that rounds
/// to no bytes, or one past 16 EiB.
///
/// # Example
/// ```
/// use knights::memory::parse_amount;
/// assert_eq!(parse_amount("1.5M", "memory")?, 3 << 19);
/// assert_eq!(parse_amount("20G", "memory")?, 20 << 30);
/// assert!(parse_amount("lots", "memory").is_err());
/// # Ok::<(), knights::Error>(())
/// ```
pub fn parse_amount(text: &str, what: &str) -> Result<u64> {
    let shown = crate::excerpt(text);
    let bad =
        || Error::Parse(format!("'{shown}' is not an amount of {what}; {AMOUNT_FORMS}").into());
    let t = text.trim();
    let end = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(end);
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits(fraction) {
        return Err(bad());
    }
    // Digits past the eighteenth are below a byte even in pebibytes.
    let fraction = &fraction[..fraction.len().min(18)];
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        "P" => 50,
        _ => return Err(bad()),
    };
    let too_much = || {
        Error::Parse(
            format!(
                "'{shown}' is more than 16 EiB, more {what} than any machine has; {AMOUNT_FORMS}"
            )
            .into(),
        )
    };
    let whole: u128 = match whole {
        "" => 0,
        w => w.parse().map_err(|_| too_much())?,
    };
    let scale = 10u128.pow(fraction.len() as u32);
    let fraction: u128 = fraction.parse().unwrap_or(0);
    let bytes = whole
        .checked_mul(1 << shift)
        .and_then(|b| b.checked_add((fraction << shift) / scale))
        .ok_or_else(too_much)?;
    let bytes = u64::try_from(bytes).map_err(|_| too_much())?;
    if bytes == 0 {
        return Err(Error::Parse(format!(
            "'{shown}' leaves the count no {what}; give an amount of at least a byte, such as 512M or 1.5G"
        ).into()));
    }
    Ok(bytes)
}

/// Reads an optional amount of bytes of a request (see [`parse_amount`]):
/// a number of bytes, or text such as "1.5G"; `what` names it.
pub(crate) fn deserialize_amount<'de, D: serde::Deserializer<'de>>(
    d: D,
    what: &'static str,
) -> std::result::Result<Option<u64>, D::Error> {
    struct Amount(&'static str);
    impl serde::de::Visitor<'_> for Amount {
        type Value = Option<u64>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "an amount of {}, such as 512M or 1.5G", self.0)
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> std::result::Result<Self::Value, E> {
            self.visit_str(&v.to_string())
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> std::result::Result<Self::Value, E> {
            self.visit_str(&v.to_string())
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> std::result::Result<Self::Value, E> {
            self.visit_str(&v.to_string())
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
            parse_amount(v, self.0).map(Some).map_err(E::custom)
        }
        fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E: serde::de::Error>(self) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(Amount(what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_whole_or_decimal_with_a_unit() {
        let read = |t| parse_amount(t, "memory");
        assert_eq!(read("20G").unwrap(), 20 << 30);
        assert_eq!(read("512MiB").unwrap(), 512 << 20);
        assert_eq!(read("1000").unwrap(), 1000);
        assert_eq!(read("4kb").unwrap(), 4096);
        assert_eq!(read("1.5M").unwrap(), 3 << 19);
        assert_eq!(read("0.5G").unwrap(), 1 << 29);
        assert_eq!(read(".5 GiB").unwrap(), 1 << 29);
        assert_eq!(read("2.").unwrap(), 2);
        assert_eq!(read("100T").unwrap(), 100 << 40);
        assert_eq!(read("1.5").unwrap(), 1);
        for bad in ["lots", "", ".", "1.2.3", "-1G", "12Q", "1e9", "G"] {
            let e = read(bad).unwrap_err().to_string();
            assert!(
                e.contains("is not an amount of memory") && e.contains("1.5G"),
                "{e}"
            );
        }
        for none in ["0", "0G", "0.5", "0.0001K"] {
            let e = read(none).unwrap_err().to_string();
            assert!(e.contains("leaves the count no memory"), "{e}");
        }
        for huge in [
            "99999999999T",
            "16384P",
            "99999999999999999999999999999999999999999",
        ] {
            let e = read(huge).unwrap_err().to_string();
            assert!(e.contains("more than 16 EiB"), "{e}");
        }
    }

    #[test]
    fn human_units() {
        assert_eq!(human_bytes(10), "10 B");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
        assert_eq!(human_bytes(3 << 50), "3.0 PiB");
        assert_eq!(human_bytes(u64::MAX), "16.0 EiB");
    }
}
