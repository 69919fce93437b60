//! The exact mode: any text, the `knights-cipher v1` format (see the module
//! documentation of [`crate::cipher`]).

use std::fmt::Write as _;

use super::header::{MAGIC, VERSION};
use super::key::Key;
use crate::{Board, Error, Result};

/// A body line is ended once it reaches this many characters.
const LINE: usize = 64;

/// Enciphers any text.
pub(super) fn encrypt(key: &Key, text: &str) -> Result<String> {
    let len = text.chars().count();
    if len == 0 {
        return Err(Error::Parse(
            "the text to encrypt is empty; there is nothing to encipher".into(),
        ));
    }
    let n = key.block_len();
    let mut out = String::with_capacity(text.len() + text.len() / LINE + 40);
    let _ = writeln!(out, "{MAGIC} {VERSION} {} {len}", key.board());
    let mut body = Body { out, line: 0 };
    let mut chars = text.chars();
    let mut block: Vec<char> = Vec::with_capacity(n.min(len));
    let mut mixed: Vec<char> = Vec::with_capacity(n.min(len));
    loop {
        block.clear();
        block.extend(chars.by_ref().take(n));
        if block.is_empty() {
            break;
        }
        mixed.clear();
        key.encipher_block(&block, &mut mixed);
        for &c in &mixed {
            body.push(c);
        }
    }
    Ok(body.finish())
}

/// Writes enciphered characters as escaped, wrapped body lines.
struct Body {
    out: String,
    /// Characters on the current line.
    line: usize,
}

impl Body {
    fn push(&mut self, c: char) {
        // The common case: a visible ASCII character other than the backslash.
        if c.is_ascii_graphic() && c != '\\' {
            self.out.push(c);
            self.line += 1;
            if self.line >= LINE {
                self.end_line();
            }
            return;
        }
        let before = self.out.len();
        match c {
            '\\' => self.out.push_str("\\\\"),
            '\n' => self.out.push_str("\\n"),
            '\r' => self.out.push_str("\\r"),
            '\t' => self.out.push_str("\\t"),
            ' ' if self.line == 0 => self.out.push_str("\\s"),
            ' ' => self.out.push(' '),
            c if must_escape(c) => {
                let _ = write!(self.out, "\\u{{{:x}}}", c as u32);
            }
            c => self.out.push(c),
        }
        // Escapes are ASCII; a raw character counts as one column.
        self.line += if !self.out[before..].starts_with('\\') {
            1
        } else {
            self.out.len() - before
        };
        if self.line >= LINE {
            self.end_line();
        }
    }

    fn end_line(&mut self) {
        if self.out.ends_with(' ') {
            self.out.pop();
            self.out.push_str("\\s");
        }
        self.out.push('\n');
        self.line = 0;
    }

    fn finish(mut self) -> String {
        if self.line > 0 {
            self.end_line();
        }
        self.out
    }
}

/// Whether a character is written as `\u{HEX}`: controls, blanks other than
/// the space, and invisible formatting characters that a copy could lose or
/// that would rearrange the display of the line around them.
fn must_escape(c: char) -> bool {
    if c == ' ' {
        return false;
    }
    c.is_control()
        || c.is_whitespace()
        || matches!(c as u32,
            0xAD | 0x34F | 0x61C | 0x115F | 0x1160 | 0x17B4 | 0x17B5
            | 0x180B..=0x180F | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
            | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB | 0xFFFE | 0xFFFF
            | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

/// Deciphers the `knights-cipher v1` format.
pub(super) fn decrypt(key: &Key, text: &str) -> Result<String> {
    let text = text.trim_start_matches('\u{feff}');
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(Error::Parse(
            "the ciphertext is empty; expected the header line 'knights-cipher v1 ROWSxCOLS LENGTH' and the enciphered text".into(),
        ));
    };
    let len = read_header(key, header, text)?;
    // Every character takes at least one byte: a length past the text's is
    // refused before any work.
    if len > text.len() {
        return Err(Error::Parse(format!(
            "the header says {len} characters, but the whole ciphertext is only {} bytes long; it was cut short or changed when copied",
            text.len()
        ).into()));
    }
    let n = key.block_len();
    let mut plain = String::with_capacity(text.len());
    let mut block: Vec<char> = Vec::with_capacity(n.min(len));
    let mut unmixed: Vec<char> = Vec::with_capacity(n.min(len));
    // Characters still to come, and the size of the current block.
    let mut remaining = len;
    let mut want = n.min(remaining);
    for (line_no, line) in lines {
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            let c = match c {
                '\\' => unescape(&mut chars, line_no)?,
                c if must_escape(c) => {
                    return Err(Error::Parse(format!(
                        "line {line_no} of the ciphertext holds the character U+{:04X}, which this cipher always writes as an escape; the ciphertext was changed after encryption",
                        c as u32
                    ).into()))
                }
                c => c,
            };
            if remaining == 0 {
                return Err(too_long(len));
            }
            block.push(c);
            remaining -= 1;
            if block.len() == want {
                unmixed.clear();
                key.decipher_block(&block, &mut unmixed);
                plain.extend(unmixed.iter());
                block.clear();
                want = n.min(remaining);
            }
        }
    }
    if remaining > 0 {
        return Err(Error::Parse(format!(
            "the ciphertext holds {} characters but its header says {len}; it was cut short or changed when copied",
            len - remaining
        ).into()));
    }
    Ok(plain)
}

fn too_long(len: usize) -> Error {
    Error::Parse(format!(
        "the ciphertext holds more than the {len} characters its header says; it was changed after encryption"
    ).into())
}

/// Checks the header against the key and returns the message length.
fn read_header(key: &Key, header: &str, text: &str) -> Result<usize> {
    let expected = "the ciphertext must start with the line 'knights-cipher v1 ROWSxCOLS LENGTH'";
    let words: Vec<&str> = header.split_whitespace().collect();
    if words.first() != Some(&MAGIC) {
        let classic_like = text
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c.is_whitespace());
        if classic_like {
            return Err(Error::Parse(
                format!("{expected}; this looks like a classic ciphertext (letters in groups)")
                    .into(),
            )
            .with_hint(crate::Hint::Classic(true)));
        }
        return Err(Error::Parse(expected.into()));
    }
    let [_, version, board, len] = words[..] else {
        return Err(Error::Parse(
            format!(
                "the header '{}' does not have four words; {expected}",
                crate::excerpt(header)
            )
            .into(),
        ));
    };
    if version != VERSION {
        return Err(Error::Parse(
            format!(
                "the ciphertext is in format '{}', but this program reads only {VERSION}",
                crate::excerpt(version)
            )
            .into(),
        ));
    }
    let board: Board = board.parse().map_err(|_| {
        Error::Parse(
            format!(
                "the header names the board '{}', which is not a board size; {expected}",
                crate::excerpt(board)
            )
            .into(),
        )
    })?;
    if board != key.board() {
        return Err(Error::Parse(format!(
            "the ciphertext was made with a key on {board}, but this key is on {}; it cannot come from this key",
            key.board()
        ).into()));
    }
    match len.parse::<usize>() {
        Ok(0) => Err(Error::Parse(
            "the header gives the length 0, but the cipher never enciphers an empty text".into(),
        )),
        Ok(n) => Ok(n),
        Err(_) => Err(Error::Parse(
            format!(
                "the header's length '{}' is not a whole number; {expected}",
                crate::excerpt(len)
            )
            .into(),
        )),
    }
}

/// Reads the rest of an escape after its backslash.
fn unescape(chars: &mut std::str::Chars<'_>, line_no: usize) -> Result<char> {
    let bad = |what: &str| {
        Error::Parse(format!(
            "line {line_no} of the ciphertext has {what}; the escapes are \\\\, \\n, \\r, \\t, \\s and \\u{{HEX}}"
        ).into())
    };
    match chars.next() {
        Some('\\') => Ok('\\'),
        Some('n') => Ok('\n'),
        Some('r') => Ok('\r'),
        Some('t') => Ok('\t'),
        Some('s') => Ok(' '),
        Some('u') => {
            if chars.next() != Some('{') {
                return Err(bad("'\\u' without '{'"));
            }
            let mut value: u32 = 0;
            let mut digits = 0;
            loop {
                match chars.next() {
                    Some('}') if digits > 0 => break,
                    Some(d) if d.is_ascii_hexdigit() && digits < 6 => {
                        value = value * 16 + d.to_digit(16).unwrap_or(0);
                        digits += 1;
                    }
                    _ => return Err(bad("a '\\u{' escape that is not 1 to 6 hex digits and '}'")),
                }
            }
            char::from_u32(value).ok_or_else(|| {
                bad(&format!(
                    "\\u{{{value:x}}}, which is not a Unicode scalar value"
                ))
            })
        }
        Some(c) => Err(bad(&format!("the unknown escape '\\{c}'"))),
        None => Err(bad("a backslash at the end of the line")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_3x4() -> Key {
        Key::from_text(" 0  3  6  9\n11  8  1  4\n 2  5 10  7\n").unwrap()
    }

    #[test]
    fn escapes_and_wrapping() {
        let key = key_3x4();
        let text = " a\\b\n\t\u{200B}\u{7f}é ".repeat(20);
        let c = encrypt(&key, &text).unwrap();
        for line in c.lines().skip(1) {
            assert_eq!(line, line.trim(), "no blank at a line's edge");
            assert!(line.chars().count() <= LINE + 10, "{line}");
            assert!(!line.chars().any(must_escape), "{line:?}");
        }
        assert_eq!(decrypt(&key, &c).unwrap(), text);
    }

    #[test]
    fn a_short_block_is_read_along_the_tour() {
        // Squares 0, 1, 2 are steps 0, 3, 6: read in the order 0, 1, 2.
        let c = encrypt(&key_3x4(), "abc").unwrap();
        assert_eq!(c, "knights-cipher v1 3x4 3\nabc\n");
        // Squares 0..5: steps 0 3 6 9 11 8, so the order is 0 1 2 5 3 4.
        let c = encrypt(&key_3x4(), "abcdef").unwrap();
        assert_eq!(c, "knights-cipher v1 3x4 6\nabcfde\n");
    }

    #[test]
    fn bad_ciphertexts_are_explained() {
        let key = key_3x4();
        let cases = [
            ("", "empty"),
            ("ABCDE FGHIJ", "classic ciphertext"),
            ("knights-cipher v2 3x4 3\nabc", "only v1"),
            ("knights-cipher v1 8x8 3\nabc", "key on 8x8"),
            ("knights-cipher v1 3x4 0\n", "length 0"),
            ("knights-cipher v1 3x4 x\nabc", "not a whole number"),
            ("knights-cipher v1 3x4\nabc", "four words"),
            ("knights-cipher v1 3x4 4\nabc", "cut short"),
            ("knights-cipher v1 3x4 2\nabc", "more than"),
            ("knights-cipher v1 3x4 3\na\\qc", "unknown escape"),
            ("knights-cipher v1 3x4 3\nab\\", "end of the line"),
            ("knights-cipher v1 3x4 3\nab\\u{d800}", "scalar"),
            ("knights-cipher v1 3x4 3\nab\\u{1234567}", "hex digits"),
            ("knights-cipher v1 3x4 3\na\tbc", "U+0009"),
        ];
        for (text, needle) in cases {
            let e = decrypt(&key, text).unwrap_err();
            assert!(matches!(e, Error::Parse(_)), "{text:?}: {e:?}");
            assert!(e.to_string().contains(needle), "{text:?}: {e}");
        }
    }
}
