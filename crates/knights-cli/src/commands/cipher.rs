//! `knights encrypt` and `knights decrypt`: the knight's tour cipher.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use knights::cipher::{self, Key, KeySpec, Mode};

use crate::cli::CipherArgs;

/// Runs `encrypt` (`decrypt == false`) or `decrypt`.
pub fn run(args: CipherArgs, decrypt: bool) -> Result<ExitCode> {
    let key = load_key(&args.key)?;
    let text = crate::io_util::read_input(args.input.as_deref().unwrap_or("-"))?;
    let mode = if args.classic {
        Mode::Classic
    } else {
        Mode::Exact
    };
    let out = if decrypt {
        let mut plain = cipher::decrypt(&key, &text, mode)?;
        if mode == Mode::Classic {
            plain.push('\n');
        }
        plain
    } else {
        if mode == Mode::Classic {
            note_dropped_letters(&text);
        }
        cipher::encrypt(&key, &text, mode)?
    };
    crate::output::emit(args.output.as_deref(), &out)?;
    Ok(ExitCode::SUCCESS)
}

/// The key: a tour file if one exists at that path, else a key description.
fn load_key(arg: &str) -> Result<Key> {
    if Path::new(arg).is_file() {
        let text = crate::io_util::read_input(arg)?;
        return Key::from_text(&text).with_context(|| format!("the key file '{arg}'"));
    }
    match arg.parse::<KeySpec>() {
        Ok(spec) => Ok(Key::from_spec(&spec)?),
        Err(e) if arg.trim_start().starts_with(|c: char| c.is_ascii_digit()) => Err(e.into()),
        Err(_) => Err(knights::Error::Parse(format!(
            "the key '{arg}' is neither a tour file nor a key description such as 8x8 or 8x8,seed=5,start=0,0"
        ))
        .into()),
    }
}

/// Tells on stderr about letters outside A-Z that classic mode leaves out.
fn note_dropped_letters(text: &str) {
    let mut others = text
        .chars()
        .filter(|c| c.is_alphabetic() && !c.is_ascii_alphabetic());
    if let Some(first) = others.next() {
        let count = 1 + others.count();
        let (s, were) = if count == 1 {
            ("", "was")
        } else {
            ("s", "were")
        };
        crate::warn!(
            "knights: note: classic mode keeps only the letters A-Z, so {count} other letter{s} such as '{first}' {were} left out"
        );
    }
}
