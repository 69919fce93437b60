//! Reading input files (or stdin) and writing output (to stdout or a file).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use anyhow::{Context, Result};

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

fn lower(e: &io::Error) -> String {
    let s = e.to_string();
    let s = s.split(" (os error").next().unwrap_or(&s).to_string();
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => s,
    }
}

/// A buffered writer to the file, or to stdout when `path` is `None` or `-`.
pub fn writer(path: Option<&Path>) -> Result<Box<dyn Write>> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let f = File::create(p).map_err(|e| {
                knights::Error::Parse(format!("cannot create '{}': {}", p.display(), lower(&e)))
            })?;
            Ok(Box::new(BufWriter::with_capacity(1 << 20, f)))
        }
        _ => Ok(Box::new(BufWriter::with_capacity(
            1 << 16,
            io::stdout().lock(),
        ))),
    }
}

/// Writes a displayable value and flushes.
pub fn emit(path: Option<&Path>, value: &dyn std::fmt::Display) -> Result<()> {
    let mut w = writer(path)?;
    write!(w, "{value}").context("writing the output")?;
    w.flush().context("writing the output")?;
    Ok(())
}
