//! The knight's tour cipher.

use serde::{Deserialize, Serialize};

use super::JobRequest;
use crate::cipher::{self, Key, KeySpec, Mode};
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

/// A text to encipher: a [`CipherRequest`], of the same JSON form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EncryptRequest(pub CipherRequest);

/// A text to decipher: a [`CipherRequest`], of the same JSON form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DecryptRequest(pub CipherRequest);

/// The enciphered or deciphered text, and the key's tour. It serialises as
/// `{"text"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CipherAnswer {
    /// The text.
    pub text: String,
    /// The key.
    #[serde(skip)]
    pub key: Key,
}

/// The key of a checked request: a description whose tour is made when the
/// plan runs, or the tour already read from a file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum KeyPlan {
    TourSpec(KeySpec),
    Made(Key),
}

/// A [`CipherRequest`] checked: the key read, the text and the form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CipherPlan {
    key: KeyPlan,
    /// The text.
    pub text: String,
    /// The form of the cipher.
    pub mode: Mode,
}

impl CipherPlan {
    /// The plan of enciphering or deciphering `text` under `key`, in the
    /// article's form if `classic`.
    pub fn of_key(key: Key, text: String, classic: bool) -> CipherPlan {
        CipherPlan {
            key: KeyPlan::Made(key),
            text,
            mode: mode(classic),
        }
    }

    /// The board of the key, without making its tour.
    pub fn board(&self) -> Board {
        match &self.key {
            KeyPlan::TourSpec(spec) => spec.board,
            KeyPlan::Made(key) => key.board(),
        }
    }

    /// The key's description, or `None` for a tour file's text.
    pub fn spec(&self) -> Option<&KeySpec> {
        match &self.key {
            KeyPlan::TourSpec(spec) => Some(spec),
            KeyPlan::Made(_) => None,
        }
    }

    /// The key: the tour read, or made from the description under
    /// `control` (once; a plan keeps the key it made).
    pub fn key(&mut self, control: &Control) -> Result<&Key> {
        if let KeyPlan::TourSpec(spec) = &self.key {
            self.key = KeyPlan::Made(Key::from_spec(spec, control)?);
        }
        match &self.key {
            KeyPlan::Made(key) => Ok(key),
            KeyPlan::TourSpec(_) => unreachable!("the key was made above"),
        }
    }

    /// Runs the cipher `how` over the text under the plan's key.
    fn run(
        mut self,
        control: &Control,
        how: fn(&Key, &str, Mode) -> Result<String>,
    ) -> Result<CipherAnswer> {
        let (text, mode) = (std::mem::take(&mut self.text), self.mode);
        let key = self.key(control)?;
        Ok(CipherAnswer {
            text: how(key, &text, mode)?,
            key: key.clone(),
        })
    }
}

impl CipherRequest {
    /// Every check of the request that needs no tour, into its plan: the
    /// key reads as a description or a tour file. Both jobs of the cipher
    /// plan a request so.
    pub fn plan(&self) -> Result<CipherPlan> {
        let key = self.key.trim();
        let key = if key.starts_with('{') || key.contains('\n') {
            KeyPlan::Made(Key::from_text(&self.key)?)
        } else {
            KeyPlan::TourSpec(self.key.parse()?)
        };
        Ok(CipherPlan {
            key,
            text: self.text.clone(),
            mode: mode(self.classic),
        })
    }
}

/// The article's form if `classic`, else the exact one.
fn mode(classic: bool) -> Mode {
    if classic {
        Mode::Classic
    } else {
        Mode::Exact
    }
}

impl JobRequest for EncryptRequest {
    type Plan = CipherPlan;
    type Answer = CipherAnswer;

    fn plan(&self) -> Result<CipherPlan> {
        self.0.plan()
    }

    /// The ciphertext.
    fn run_plan(plan: CipherPlan, control: &Control) -> Result<CipherAnswer> {
        plan.run(control, cipher::encrypt)
    }
}

impl JobRequest for DecryptRequest {
    type Plan = CipherPlan;
    type Answer = CipherAnswer;

    fn plan(&self) -> Result<CipherPlan> {
        self.0.plan()
    }

    /// The plain text.
    fn run_plan(plan: CipherPlan, control: &Control) -> Result<CipherAnswer> {
        plan.run(control, cipher::decrypt)
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
        let secret = round_trip(Request::Encrypt(EncryptRequest(plain.clone())));
        let back = CipherRequest {
            text: secret["encrypt"]["text"].as_str().unwrap().into(),
            ..plain.clone()
        };
        let a = round_trip(Request::Decrypt(DecryptRequest(back)));
        assert_eq!(a["decrypt"]["text"], "Meet me at the old mill.");
        let bad = CipherRequest {
            key: "8x8,colour=red".into(),
            ..plain
        };
        assert!(bad.plan().is_err());
    }
}
