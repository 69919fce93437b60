//! The knight's tour cipher.

use serde::{Deserialize, Serialize};

use crate::cipher::{self, Key, KeySpec, Mode};
use crate::format;
use crate::{Board, Control, Result};

/// A text to encipher or decipher (`knights encrypt` and `decrypt`,
/// `POST /api/encrypt` and `/api/decrypt`, `knights.encrypt` and `decrypt`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CipherRequest {
    /// The key: a description that regenerates a tour (such as `8x8` or
    /// `8x8,seed=5,start=0,0`), or a tour file's text (JSON, a grid or a
    /// move list: text over more than one line, or a JSON object).
    pub key: String,
    /// The text.
    pub text: String,
    /// The article's form: letters A-Z only, padded with X, in groups of five.
    #[serde(default)]
    pub classic: bool,
}

/// The enciphered or deciphered text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CipherAnswer {
    /// The text.
    pub text: String,
}

impl CipherRequest {
    /// Every check of the request that needs no tour: the key reads as a
    /// description or a tour file.
    pub fn validate(&self) -> Result<()> {
        if self.is_tour_text() {
            Key::from_text(&self.key).map(drop)
        } else {
            self.key.parse::<KeySpec>().map(drop)
        }
    }

    /// Whether the key is a tour file's text rather than a description.
    fn is_tour_text(&self) -> bool {
        let key = self.key.trim();
        key.starts_with('{') || key.contains('\n')
    }

    /// The board of the key, without making its tour.
    pub fn key_board(&self) -> Result<Board> {
        match self.key_spec()? {
            Some(spec) => Ok(spec.board),
            None => Ok(format::read(&self.key)?.board()),
        }
    }

    /// The key's description, or `None` for a tour file's text.
    pub fn key_spec(&self) -> Result<Option<KeySpec>> {
        if self.is_tour_text() {
            return Ok(None);
        }
        Ok(Some(self.key.parse()?))
    }

    /// The key: the tour read, or made from the description under
    /// `control`'s stop flag.
    pub fn key(&self, control: &Control) -> Result<Key> {
        if self.is_tour_text() {
            return Key::from_text(&self.key);
        }
        Key::from_spec(&self.key.parse()?, control)
    }

    fn mode(&self) -> Mode {
        if self.classic {
            Mode::Classic
        } else {
            Mode::Exact
        }
    }

    /// The ciphertext.
    pub fn encrypt(&self, control: &Control) -> Result<CipherAnswer> {
        self.encrypt_with(&self.key(control)?)
    }

    /// The plain text.
    pub fn decrypt(&self, control: &Control) -> Result<CipherAnswer> {
        self.decrypt_with(&self.key(control)?)
    }

    /// The ciphertext under `key` (made by [`CipherRequest::key`]).
    pub fn encrypt_with(&self, key: &Key) -> Result<CipherAnswer> {
        let text = cipher::encrypt(key, &self.text, self.mode())?;
        Ok(CipherAnswer { text })
    }

    /// The plain text under `key` (made by [`CipherRequest::key`]).
    pub fn decrypt_with(&self, key: &Key) -> Result<CipherAnswer> {
        let text = cipher::decrypt(key, &self.text, self.mode())?;
        Ok(CipherAnswer { text })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;

    #[test]
    fn a_text_goes_there_and_back_and_a_bad_key_is_refused() {
        let plain = CipherRequest {
            key: "8x8,seed=5".into(),
            text: "Meet me at the old mill.".into(),
            classic: false,
        };
        let secret = round_trip(Request::Encrypt(plain.clone()));
        let back = CipherRequest {
            text: secret["encrypt"]["text"].as_str().unwrap().into(),
            ..plain.clone()
        };
        let a = round_trip(Request::Decrypt(back));
        assert_eq!(a["decrypt"]["text"], "Meet me at the old mill.");
        let bad = CipherRequest {
            key: "8x8,colour=red".into(),
            ..plain
        };
        assert!(bad.validate().is_err());
    }
}
