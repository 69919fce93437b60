//! `knights encrypt` and `knights decrypt`: the knight's tour cipher. The
//! key and text become the library's [`CipherRequest`], whose plan reads
//! the key, and its [`EncryptRequest`] or [`DecryptRequest`] does the work.

use std::path::Path;

use anyhow::{Context, Result};
use knights::request::{CipherRequest, DecryptRequest, EncryptRequest, JobRequest};
use knights::Control;

use crate::cli::CipherArgs;

/// Runs `encrypt` (`decrypt == false`) or `decrypt`.
pub fn run(args: CipherArgs, decrypt: bool) -> Result<u8> {
    // The key is read (and its tour made) before the text, so a bad key
    // is told at once.
    let request = CipherRequest {
        key: key_text(&args.key)?,
        text: String::new(),
        classic: args.classic,
    };
    let control = Control::new().stop(crate::output::stop_on_ctrl_c());
    let plan = request.plan().and_then(|mut plan| {
        plan.key(&control)?;
        Ok(plan)
    });
    let mut plan = if Path::new(&args.key).is_file() {
        plan.with_context(|| format!("the key file '{}'", args.key))?
    } else if !args
        .key
        .trim_start()
        .starts_with(|c: char| c.is_ascii_digit())
    {
        plan.with_context(|| format!("there is no key file '{}'", args.key))?
    } else {
        plan?
    };
    plan.text = crate::io_util::read_input(args.input.as_deref().unwrap_or("-"))?;
    let out = if decrypt {
        let mut plain = DecryptRequest::run_plan(plan, &control)?.text;
        if args.classic {
            plain.push('\n');
        }
        plain
    } else {
        if args.classic {
            note_dropped_letters(&plan.text);
        }
        EncryptRequest::run_plan(plan, &control)?.text
    };
    crate::output::emit(args.output.as_deref(), &out)?;
    Ok(crate::exit::EXIT_SUCCESS)
}

/// The request's key: a tour file's text if a file exists at that path,
/// else the description as given.
fn key_text(arg: &str) -> Result<String> {
    if Path::new(arg).is_file() {
        return crate::io_util::read_input(arg);
    }
    Ok(arg.to_string())
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
