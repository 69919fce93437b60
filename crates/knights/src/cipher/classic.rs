//! The classic mode of the cipher article (The Knight's Tour, n.d.): letters A-Z only, padded with `X`, groups of five.

use super::header::MAGIC;
use super::key::Key;
use crate::{Error, Result};

/// Letters per group.
const GROUP: usize = 5;
/// Groups per line: 13 groups and their blanks make 77 columns, one 8x8 block.
const GROUPS_PER_LINE: usize = 13;

/// The letters of a text as the classic mode enciphers them: the ASCII
/// letters, upper-cased, in order; everything else is left out.
///
/// # Example
/// ```
/// assert_eq!(knights::cipher::normalise("Über 9 Äpfel, bitte!"), "BERPFELBITTE");
/// ```
pub fn normalise(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// What classic decryption returns for a text: its [`normalise`]d letters,
/// padded with `X` to a whole number of blocks of `block_len` letters.
///
/// # Example
/// ```
/// assert_eq!(knights::cipher::classic_form("Hi, Bob", 5), "HIBOB");
/// assert_eq!(knights::cipher::classic_form("Hi, Bob!", 4), "HIBOBXXX");
/// ```
pub fn classic_form(text: &str, block_len: usize) -> String {
    pad(normalise(text), block_len)
}

/// Letters padded with `X` to a whole number of blocks.
fn pad(mut letters: String, block_len: usize) -> String {
    let block_len = block_len.max(1);
    let short = (block_len - letters.len() % block_len) % block_len;
    letters.extend(std::iter::repeat_n('X', short));
    letters
}

/// Enciphers the letters of `text`, block by block, in groups of five.
pub(super) fn encrypt(key: &Key, text: &str) -> Result<String> {
    let letters = normalise(text);
    if letters.is_empty() {
        return Err(Error::Parse(
            "the text has no letters A-Z, and classic mode enciphers only those".into(),
        )
        .with_hint(crate::Hint::Classic(false)));
    }
    let n = key.block_len();
    let padded = pad(letters, n).into_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(padded.len() * 6 / 5 + padded.len() / n + 1);
    let mut mixed = Vec::with_capacity(n);
    for block in padded.chunks(n) {
        mixed.clear();
        key.encipher_block(block, &mut mixed);
        for (g, group) in mixed.chunks(GROUP).enumerate() {
            if g > 0 {
                out.push(if g % GROUPS_PER_LINE == 0 {
                    b'\n'
                } else {
                    b' '
                });
            }
            out.extend_from_slice(group);
        }
        out.push(b'\n');
    }
    Ok(String::from_utf8(out).expect("letters, blanks and line breaks are ASCII"))
}

/// Deciphers letters in groups (blanks and line breaks are ignored).
pub(super) fn decrypt(key: &Key, text: &str) -> Result<String> {
    let text = text.trim_start_matches('\u{feff}');
    if text.trim_start().starts_with(MAGIC) {
        return Err(Error::Parse(
            "this is an exact-mode ciphertext (it starts with the knights-cipher header)".into(),
        )
        .with_hint(crate::Hint::Classic(false)));
    }
    let mut letters = Vec::with_capacity(text.len());
    for (i, c) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
        if !c.is_ascii_alphabetic() {
            return Err(Error::Parse(format!(
                "letter {} of the ciphertext is '{}' (U+{:04X}), but a classic ciphertext holds only the letters A-Z (blanks and line breaks are ignored)",
                i + 1,
                c.escape_debug(),
                c as u32
            ).into()));
        }
        letters.push(c.to_ascii_uppercase() as u8);
    }
    let n = key.block_len();
    if letters.is_empty() {
        return Err(Error::Parse(
            "the ciphertext is empty; expected letters A-Z in groups".into(),
        ));
    }
    if letters.len() % n != 0 {
        return Err(Error::Parse(format!(
            "the ciphertext has {} letters, but a key on {} enciphers whole blocks of {n}; it cannot come from this key",
            letters.len(),
            key.board()
        ).into()));
    }
    let mut plain = Vec::with_capacity(letters.len());
    for block in letters.chunks(n) {
        key.decipher_block(block, &mut plain);
    }
    Ok(String::from_utf8(plain).expect("the letters A-Z are ASCII"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_3x4() -> Key {
        Key::from_text(" 0  3  6  9\n11  8  1  4\n 2  5 10  7\n").unwrap()
    }

    #[test]
    fn blocks_are_padded_grouped_and_start_new_lines() {
        let key = key_3x4();
        // 14 letters: one full block and one of 2 letters plus 10 X.
        let c = encrypt(&key, "abcdefghijkl, mn!").unwrap();
        assert_eq!(c, "AGIBH JCLFD KE\nMXXNX XXXXX XX\n");
        assert_eq!(decrypt(&key, &c).unwrap(), "ABCDEFGHIJKLMNXXXXXXXXXX");
        assert_eq!(
            decrypt(&key, &c.to_lowercase()).unwrap(),
            "ABCDEFGHIJKLMNXXXXXXXXXX"
        );
        // A byte-order mark in front, as some editors write, is ignored.
        assert_eq!(
            decrypt(&key, &format!("\u{feff}{c}")).unwrap(),
            "ABCDEFGHIJKLMNXXXXXXXXXX"
        );
    }

    #[test]
    fn long_blocks_wrap_at_thirteen_groups() {
        let key = Key::from_spec(&"10x10,seed=1".parse().unwrap(), &crate::Control::new()).unwrap();
        let c = encrypt(&key, &"A".repeat(100)).unwrap();
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), 77);
        assert_eq!(lines[1], ["AAAAA"; 7].join(" "));
    }

    #[test]
    fn bad_ciphertexts_are_explained() {
        let key = key_3x4();
        let cases = [
            ("", "empty"),
            ("  \n ", "empty"),
            ("ABCDE FGHIJ K", "11 letters"),
            ("ABCDE FGHIJ K1", "'1'"),
            ("knights-cipher v1 3x4 3\nabc\n", "exact-mode ciphertext"),
            ("\u{feff}ABCDE FGHIJ KL\u{feff}", "U+FEFF"),
        ];
        for (text, needle) in cases {
            let e = decrypt(&key, text).unwrap_err();
            assert!(matches!(e, Error::Parse(_)), "{text:?}: {e:?}");
            assert!(e.to_string().contains(needle), "{text:?}: {e}");
        }
        let e = encrypt(&key, "1234 ÄÖÜ").unwrap_err();
        assert!(e.to_string().contains("no letters A-Z"), "{e}");
    }
}
