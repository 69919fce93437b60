//! Hostile input: files that contradict the size they declare or declare
//! more than memory holds, long lines, and the fuzz corpus replayed.

use knights::cipher::{decrypt, Key, KeySpec, Mode};
use knights::format::{self, Checked};
use knights::Board;

/// Small files that declare huge boards: each is answered without any
/// per-square allocation (a 16 GiB table would make this test crawl or abort).
#[test]
fn declared_sizes_are_checked_against_the_content() {
    let hostile = [
        r#"{"rows": 4294967295, "cols": 1, "squares": [[0, 0]], "closed": false}"#,
        r#"{"rows": 2000000000, "cols": 2, "squares": [[0, 0], [1, 2]]}"#,
        r#"{"rows": 65535, "cols": 65535, "cycles": [[[0,0],[1,2],[2,0],[0,1]]]}"#,
        "tour 65535x65535\nfrom 0,0: 7 6 5 4\n",
        "tourney 60000x60000\nfrom 0,0: 7 6 4 1\n",
    ];
    for text in hostile {
        assert!(text.len() < 1024);
        let Ok(doc) = format::read(text) else {
            continue; // refused while reading
        };
        let fault = doc.check().unwrap_err().to_string();
        assert!(fault.len() < 200, "{text}: {fault}");
        assert!(doc.into_checked().is_err());
        assert!(Key::from_text(text).is_err());
    }
}

#[test]
fn a_short_path_reports_its_first_missing_square() {
    // The sparse table gives the same answer as the board-sized one.
    let text = r#"{"rows": 100000, "cols": 100, "squares": [[0,0],[1,2],[0,4]]}"#;
    let fault = format::read(text).unwrap().check().unwrap_err().to_string();
    assert_eq!(
        fault,
        "9999997 squares of the 100000x100 board are never visited, the first being (0, 1)"
    );
    let text = r#"{"rows": 100000, "cols": 100, "squares": [[0,0],[1,2],[1,2]]}"#;
    let fault = format::read(text).unwrap().check().unwrap_err().to_string();
    assert!(
        fault.contains("twice") || fault.contains("again"),
        "{fault}"
    );
}

#[test]
fn a_ciphertext_longer_than_its_text_is_refused_at_once() {
    let key = Key::from_spec(&"8x8".parse::<KeySpec>().unwrap(), &knights::Control::new()).unwrap();
    let e = decrypt(
        &key,
        "knights-cipher v1 8x8 99999999999999\nabc\n",
        Mode::Exact,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("only"), "{e}");
}

/// Errors quote at most 60 characters of the input.
#[test]
fn errors_quote_a_short_excerpt() {
    let long = "9".repeat(100_000);
    let cases = [
        format!("1 2 {long}x\n"),
        format!("tour{long}\nfrom 0,0: 1\n"),
        format!("tour 8x8\nfrom {long}: 1\n"),
        format!(r#"{{"rows": "{long}", "cols": 1, "squares": []}}"#),
        format!(r#"{{"rows": 8, "cols": 8, "squares": [["{long}", 1]]}}"#),
        format!("[{long}"),
    ];
    for text in &cases {
        let e = format::read(text).unwrap_err().to_string();
        assert!(e.len() < 400, "{} bytes: {}", e.len(), &e[..400]);
    }
    for text in [format!("{long}x{long}"), format!("8{long}")] {
        let e = text.parse::<Board>().unwrap_err().to_string();
        assert!(e.len() < 400, "{}", e.len());
    }
    let e = format!("8x8,seed={long}")
        .parse::<KeySpec>()
        .unwrap_err()
        .to_string();
    assert!(e.len() < 400, "{}", e.len());
    let b = Board::new(8, 8).unwrap();
    let e = b
        .parse_square(&format!("{long},1"))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 400 && e.contains("..."), "{e}");
    let key = Key::from_spec(&"8x8".parse::<KeySpec>().unwrap(), &knights::Control::new()).unwrap();
    let e = decrypt(
        &key,
        &format!("knights-cipher v{long} 8x8 3\nabc"),
        Mode::Exact,
    )
    .unwrap_err()
    .to_string();
    assert!(e.len() < 400, "{e}");
}

/// The fuzz targets' readers, by corpus folder.
fn replay(target: &str, text: &str) {
    match target {
        "tour_json" | "tourney_json" | "grid" | "move_list" => {
            let parse = match target {
                "grid" => format::parse_grid,
                "move_list" => format::parse_move_list,
                _ => format::parse_json,
            };
            if let Ok(doc) = parse(text) {
                let verdict = doc.check();
                let _ = Key::from_text(text);
                match doc.into_checked() {
                    Ok(Checked::Tour(t)) => {
                        assert!(verdict.is_ok());
                        let back = format::read(&format::tour_json(&t).to_string()).unwrap();
                        assert!(back.check().is_ok());
                    }
                    Ok(Checked::Tourney(t)) => {
                        assert!(verdict.is_ok());
                        let back = format::read(&format::tourney_json(&t).to_string()).unwrap();
                        assert!(back.check().is_ok());
                    }
                    Err(_) => assert!(verdict.is_err()),
                }
            }
        }
        "key_spec" => {
            if let Ok(spec) = text.parse::<KeySpec>() {
                assert_eq!(spec.to_string().parse::<KeySpec>().unwrap(), spec);
                if spec.board.squares() <= 100 && spec.max_attempts.is_none_or(|n| n <= 100) {
                    let _ = Key::from_spec(&spec, &knights::Control::new());
                }
            }
        }
        "ciphertext" => {
            let key = Key::from_spec(
                &"3x4,seed=1".parse::<KeySpec>().unwrap(),
                &knights::Control::new(),
            )
            .unwrap();
            let _ = decrypt(&key, text, Mode::Exact);
            let _ = decrypt(&key, text, Mode::Classic);
        }
        "board_square" => {
            let (board, square) = text.split_once('\n').unwrap_or((text, "0,0"));
            if let Ok(b) = board.parse::<Board>() {
                assert_eq!(b.to_string().parse::<Board>().unwrap(), b);
                if let Ok(s) = b.parse_square(square) {
                    assert!((s as usize) < b.squares());
                }
            }
        }
        other => panic!("no reader for the corpus folder {other}"),
    }
}

/// Every file of the fuzz corpus (`fuzz/corpus/TARGET/`) through its reader:
/// no panic.
#[test]
fn the_fuzz_corpus_reads_without_panic() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let Ok(targets) = std::fs::read_dir(&root) else {
        panic!("no fuzz corpus at {}", root.display());
    };
    let mut files = 0;
    for target in targets {
        let target = target.unwrap();
        let name = target.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(target.path()).unwrap() {
            let path = file.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            if let Ok(text) = std::str::from_utf8(&bytes) {
                replay(&name, text);
            }
            files += 1;
        }
    }
    assert!(files > 0);
}
