//! Board sizes and squares as the command line reads them: `ROWSxCOLS`, then
//! `ROW,COL` on that board (the input split at its first newline).
#![no_main]
use libfuzzer_sys::fuzz_target;

use knights::Board;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (board, square) = text.split_once('\n').unwrap_or((text, "0,0"));
    let Ok(b) = board.parse::<Board>() else { return };
    assert_eq!(b.to_string().parse::<Board>().expect("a printed board parses"), b);
    if let Ok(s) = b.parse_square(square) {
        assert!((s as usize) < b.squares());
    }
});
