//! Cipher key descriptions: parse, print and parse back; generate the tour
//! of small boards.
#![no_main]
use libfuzzer_sys::fuzz_target;

use knights::cipher::{Key, KeySpec};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(spec) = text.parse::<KeySpec>() else { return };
    let again: KeySpec = spec.to_string().parse().expect("a printed key parses");
    assert_eq!(again, spec);
    // Generation is the tour generators' business; keep runs short.
    if spec.board.squares() <= 100 && spec.max_attempts.is_none_or(|n| n <= 100) {
        let _ = Key::from_spec(&spec);
    }
});
