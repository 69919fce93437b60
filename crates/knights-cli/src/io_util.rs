//! Reading input files (or stdin); writing is in `output`.

use std::fs::File;
use std::io;

use anyhow::Result;

/// The largest input read, to keep bad input from exhausting memory.
const MAX_INPUT: u64 = 4 << 30;

/// The most memory a reader takes per byte of its input (the JSON reader's;
/// the others take less).
const BYTES_PER_BYTE: u64 = 8;

/// Reads a whole file as text; `-` is standard input. Reading stops as soon
/// as the text passes what a reader could fit in memory (or 4 GiB), so an
/// endless input (`yes | knights check -`) is refused at once.
pub fn read_input(path: &str) -> Result<String> {
    let text = if path == "-" {
        let stdin = io::stdin().lock();
        knights::memory::read_text_within(stdin, "standard input", BYTES_PER_BYTE, MAX_INPUT)?
    } else {
        let file = File::open(path).map_err(|e| {
            knights::Error::Parse(format!("cannot open '{path}': {}", lower(&e)).into())
        })?;
        knights::memory::read_text_within(file, &format!("'{path}'"), BYTES_PER_BYTE, MAX_INPUT)?
    };
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
