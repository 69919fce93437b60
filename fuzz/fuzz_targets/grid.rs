//! Numbered grids: read, check and build the tour; no panic, memory bounded by the input.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        common::read_document(text, knights::format::parse_grid);
    }
});
