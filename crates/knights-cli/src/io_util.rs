//! Reading input files (or stdin); writing is in `output`.

use std::fs::File;
use std::io::{self, Read};

use anyhow::Result;

/// The largest input read, to keep bad input from exhausting memory.
const MAX_INPUT: u64 = 4 << 30;

/// Reads a whole file as text; `-` is standard input.
pub fn read_input(path: &str) -> Result<String> {
    let mut text = String::new();
    let reader: Box<dyn Read> =
        if path == "-" {
            Box::new(io::stdin().lock())
        } else {
            Box::new(File::open(path).map_err(|e| {
                knights::Error::Parse(format!("cannot open '{path}': {}", lower(&e)))
            })?)
        };
    reader
        .take(MAX_INPUT)
        .read_to_string(&mut text)
        .map_err(|e| {
            knights::Error::Parse(format!("cannot read '{path}' as text: {}", lower(&e)))
        })?;
    Ok(text)
}

/// An I/O error as a phrase: lower case, without the OS error number.
pub fn lower(e: &io::Error) -> String {
    let s = e.to_string();
    let s = s.split(" (os error").next().unwrap_or(&s).to_string();
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => s,
    }
}
