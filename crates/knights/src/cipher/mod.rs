//! The knight's tour cipher (The Knight's Tour, n.d.): a transposition with a tour as the key.
//!
//! The text is written into the board row by row, one character per square,
//! and read out in the knight's order, step 0 first. Decryption writes the
//! ciphertext back along the tour and reads the board row by row.
//!
//! **This is a classical puzzle, not security.** A transposition keeps every
//! character of the message, only in another order; letter frequencies, the
//! length and much of the structure show through, and such ciphers have been
//! broken by hand for a century. Use real cryptography for real secrets.
//!
//! # Keys
//! A [`Key`] is any knight's tour of any board, checked by the independent
//! checker: from a [`Tour`](crate::Tour) ([`Key::new`]), from a tour file in any format that
//! [`crate::format::read`] reads ([`Key::from_text`]), or from a [`KeySpec`],
//! a short description such as `8x8,seed=5` that regenerates the same tour on
//! any machine ([`Key::from_spec`]; the syntax is in [`KeySpec`]).
//!
//! # Two modes
//! - [`Mode::Classic`], the article's form: only the letters A-Z are kept
//!   (upper-cased; every other character, including letters outside A-Z, is
//!   left out), the letters go board by board (blocks of `rows * cols`) and
//!   the last block is padded with `X`. The ciphertext is the letters in
//!   groups of five; each block starts a new line and a line holds at most
//!   13 groups (77 columns), so an 8x8 block is exactly one line. Decryption
//!   ignores blanks and line breaks, accepts lower case, and returns the
//!   letters including the padding, which it cannot tell from a message
//!   that ends in `X` (see [`classic_form`]).
//! - [`Mode::Exact`]: any text round-trips exactly, character for character
//!   (Unicode scalar values, punctuation, line breaks). The ciphertext is
//!   text that survives copying: see below.
//!
//! # The exact format, `knights-cipher v1`
//! ```text
//! knights-cipher v1 8x8 25
//! letmo\nt  le.dM heame l it
//! ```
//! (`Meet me at the old mill.` and a line break, with the key `8x8,seed=5`.)
//! The first line is a header: a magic word, the format version, the key's
//! board and the length of the message in characters (Unicode scalar
//! values). The message goes block by block, `rows * cols` characters each.
//! The last block may be shorter, holding `m` characters: they fill the first
//! `m` squares row by row and are read out in the knight's order, skipping
//! the empty squares, so nothing is padded and the ciphertext has exactly as
//! many characters as the message. The header's length tells where the last
//! block ends, and lets decryption notice a ciphertext cut short in copying.
//!
//! The enciphered characters follow on lines of about 64 columns. Characters
//! that would not survive copying are written as escapes: `\\` for a
//! backslash, `\n`, `\r` and `\t`, `\s` for a space that would start or end a
//! line, and `\u{HEX}` for every other control, blank or invisible character.
//! So a body line never starts or ends with a blank, and decryption may
//! ignore line breaks, indentation and trailing blanks (an e-mail quote or a
//! CRLF conversion does no harm). Anything else is an error: a missing or
//! malformed header, a board other than the key's, a character the encoder
//! would have escaped, an unknown escape, or a length other than the header's.
//!
//! # Example
//! ```
//! use knights::cipher::{decrypt, encrypt, Key, KeySpec, Mode};
//! let key = Key::from_spec(&"8x8,seed=5".parse::<KeySpec>()?, &knights::Control::new())?;
//! let secret = encrypt(&key, "Meet me at the old mill.\n", Mode::Exact)?;
//! assert!(secret.starts_with("knights-cipher v1 8x8 25\n"));
//! assert_eq!(decrypt(&key, &secret, Mode::Exact)?, "Meet me at the old mill.\n");
//! # Ok::<(), knights::Error>(())
//! ```
//!
//! # Complexity
//! Both modes take O(length of the text + blocks * rows * cols) time and
//! O(rows * cols) memory besides the input and output: a short last block
//! still walks the whole tour.

mod classic;
mod exact;
mod header;
mod key;
mod spec;
#[cfg(test)]
mod tests;

pub use classic::{classic_form, normalise};
pub use key::Key;
pub use spec::KeySpec;

use crate::Result;

/// The two forms of the cipher.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Any text round-trips exactly; the ciphertext is the `knights-cipher v1` format.
    #[default]
    Exact,
    /// The article's form: letters A-Z only, padded with `X`, groups of five.
    Classic,
}

/// Enciphers `text` with `key`. The result ends with a line break.
///
/// Errors ([`Error::Parse`](crate::Error::Parse)): an empty text, or in classic mode a text
/// without a letter A-Z.
pub fn encrypt(key: &Key, text: &str, mode: Mode) -> Result<String> {
    match mode {
        Mode::Exact => exact::encrypt(key, text),
        Mode::Classic => classic::encrypt(key, text),
    }
}

/// Deciphers `text` made by [`encrypt`] with the same key and mode. Exact
/// mode returns the message as it was; classic mode returns its letters,
/// padding included, on no line (no final line break).
///
/// Errors ([`Error::Parse`](crate::Error::Parse)): a text that cannot come from this key in this
/// mode, with the reason (header, board, alphabet, length).
pub fn decrypt(key: &Key, text: &str, mode: Mode) -> Result<String> {
    match mode {
        Mode::Exact => exact::decrypt(key, text),
        Mode::Classic => classic::decrypt(key, text),
    }
}
