//! The state files of a checkpoint, read by a decoder of their documented
//! format written here apart from the library's: packed blocks (format 4),
//! and the fixed-width entries of format 3, which a resume still reads.

use std::path::{Path, PathBuf};

use knights::count::{Counter, Method};
use knights::Board;

use super::resume::{scratch, stopping_after};

/// A LEB128 varint at `b[*at..]`, moving `at` past it.
fn varint(b: &[u8], at: &mut usize) -> u128 {
    let mut x = 0u128;
    for shift in (0..).step_by(7) {
        let byte = b[*at];
        *at += 1;
        x |= u128::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return x;
        }
    }
    unreachable!()
}

/// The entries of a packed state file: blocks of a header (entries and
/// body bytes, little-endian `u32`s) and a body of key differences and
/// counts.
fn unpack(bytes: &[u8]) -> Vec<(u128, u128)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let entries = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let body = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        assert!((1..=4096).contains(&entries));
        at += 8;
        let end = at + body;
        let mut key = 0u128;
        for i in 0..entries {
            let d = varint(bytes, &mut at);
            assert!(i == 0 || d > 0, "keys ascend within a block");
            key += d;
            out.push((key, varint(bytes, &mut at)));
        }
        assert_eq!(at, end, "a block's body is its header's length");
    }
    out
}

/// The state files a manifest names, and the manifest's text.
fn named_files(run: &Path) -> (String, Vec<PathBuf>) {
    let text = std::fs::read_to_string(run.join("checkpoint.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    let files = manifest["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| run.join(f["name"].as_str().unwrap()))
        .collect();
    (text, files)
}

/// A manifest's text with its checksum taken again over the text with the
/// checksum 0, as the count seals it.
fn resealed(text: &str) -> String {
    let (head, rest) = text.split_once("\"checksum\":").expect("a checksum");
    let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let crc = crc32fast::hash(format!("{head}\"checksum\":0{tail}").as_bytes());
    format!("{head}\"checksum\":{crc}{tail}")
}

/// A count of 6x6 stopped after square 27 (16,809 states) has packed state files whose
/// entries are sorted, as many as the manifest says, and under half the size of
/// fixed width; rewritten as a checkpoint of format 3 (fixed-width
/// entries, `u64` keys and counts), it resumes to the same count.
#[test]
fn packed_files_decode_and_format_3_checkpoints_still_resume() {
    let dir = scratch("format3");
    let board: Board = "6x6".parse().unwrap();
    let counter = |resume: bool| {
        Counter::new(board)
            .method(Method::Forward)
            .work_dir(&dir)
            .resume(resume)
    };
    let control = stopping_after(27);
    assert!(counter(false).control(&control).tours().is_err());
    let run = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("checkpoint.json").is_file())
        .expect("a checkpoint");
    let (mut text, files) = named_files(&run);
    assert!(text.contains("\"version\":6"), "{text}");
    let (mut states, mut packed) = (0usize, 0usize);
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let entries = unpack(&bytes);
        let named = format!("\"states\":{}", entries.len());
        assert!(text.contains(&named), "{}: {named}", file.display());
        states += entries.len();
        packed += bytes.len();
        let mut fixed = Vec::new();
        for (key, count) in entries {
            fixed.extend_from_slice(&u64::try_from(key).unwrap().to_le_bytes());
            fixed.extend_from_slice(&u64::try_from(count).unwrap().to_le_bytes());
        }
        let (old, new) = (crc32fast::hash(&bytes), crc32fast::hash(&fixed));
        let (old, new) = (format!("\"crc32\":{old}}}"), format!("\"crc32\":{new}}}"));
        assert!(text.contains(&old), "{text}");
        text = text.replacen(&old, &new, 1);
        std::fs::write(file, fixed).unwrap();
    }
    assert!(states > 15_000, "{states} states");
    assert!(
        packed * 2 < states * 16,
        "{packed} bytes for {states} states"
    );
    // Format 3 has no binding (an unfinished one resumes without).
    let (head, rest) = text.split_once(",\"binding\":").expect("a binding");
    let unbound = format!(
        "{head}{}",
        rest.trim_start_matches(|c: char| c.is_ascii_digit())
    );
    let old = resealed(&unbound.replacen("\"version\":6", "\"version\":3", 1));
    std::fs::write(run.join("checkpoint.json"), old).unwrap();
    assert_eq!(counter(true).tours().unwrap().count, 9862);
    std::fs::remove_dir_all(&dir).unwrap();
}
