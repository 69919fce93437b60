//! `knights tourney`, `join`, `shatter`, `obfuscate` and the tourney
//! algorithms of `knights tour`: every output goes back through the checker.

use knights::check::Verdict;
use knights::format::read;
use knights::Kind;

use super::{data, knights, run};

/// Checks `text` with the library's checker; its verdict.
fn verdict(text: &str) -> Verdict {
    read(text)
        .expect("the output parses")
        .check()
        .expect("the output passes the checker")
}

/// Asserts that `text` is a tourney on `rows`x`cols`; its number of cycles.
fn assert_tourney(text: &str, rows: u32, cols: u32) -> usize {
    match verdict(text) {
        Verdict::Tourney {
            rows: r,
            cols: c,
            cycles,
        } => {
            assert_eq!((r, c), (rows, cols), "{text}");
            assert!(cycles >= 1);
            cycles
        }
        v => panic!("expected a tourney, got {v:?}"),
    }
}

/// Asserts that `text` is a closed tour on `rows`x`cols`.
fn assert_closed_tour(text: &str, rows: u32, cols: u32) {
    match verdict(text) {
        Verdict::Tour {
            rows: r,
            cols: c,
            kind,
        } => {
            assert_eq!((r, c), (rows, cols));
            assert_eq!(kind, Kind::Closed, "{text}");
        }
        v => panic!("expected a closed tour, got {v:?}"),
    }
}

/// `knights ARGS`, which must succeed; its standard output.
fn ok(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "knights {args:?}: {err}");
    out
}

/// A temporary file holding `text`.
fn temp(text: &str) -> tempfile_like::Temp {
    tempfile_like::Temp::new(text)
}

mod tempfile_like {
    //! A file under the target directory, removed when dropped.
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicU32, Ordering};

    static NEXT: AtomicU32 = AtomicU32::new(0);

    pub struct Temp(pub PathBuf);

    impl Temp {
        pub fn new(text: &str) -> Temp {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!(
                "knights-cli-tourney-{}-{n}.txt",
                std::process::id()
            ));
            std::fs::write(&path, text).expect("temp file written");
            Temp(path)
        }

        pub fn path(&self) -> &str {
            self.0.to_str().expect("utf-8 temp path")
        }
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

#[test]
fn every_generator_writes_a_checked_tourney() {
    for (board, algorithm, rows, cols) in [
        ("8x8", "warnsdorff", 8, 8),
        ("7x10", "warnsdorff", 7, 10),
        ("6x10", "braid", 6, 10),
        ("12", "braid", 12, 12),
        ("8x12", "four-cover", 8, 12),
        ("8", "neural", 8, 8),
        ("6x7", "neural", 6, 7),
        ("10x13", "divide", 10, 13),
    ] {
        let out = ok(
            &["tourney", board, "-a", algorithm, "-s", "3", "-f", "json"],
            "",
        );
        let cycles = assert_tourney(&out, rows, cols);
        if algorithm == "four-cover" {
            assert_eq!(cycles, (rows * cols / 4) as usize);
        }
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["rows"], rows);
        assert_eq!(json["cols"], cols);
        assert_eq!(json["cycles"].as_array().unwrap().len(), cycles);
    }
}

#[test]
fn same_seed_same_output() {
    for args in [
        &["tourney", "10x10", "-s", "9", "-f", "json"][..],
        &["tourney", "8x8", "-a", "neural", "-s", "9", "-f", "json"],
        &["tour", "8x10", "-a", "tourney", "-s", "9", "--obfuscate"],
    ] {
        let a = ok(args, "");
        assert_eq!(a, ok(args, ""), "{args:?}");
    }
    let a = ok(&["tourney", "10x10", "-s", "1", "-f", "json"], "");
    let b = ok(&["tourney", "10x10", "-s", "2", "-f", "json"], "");
    assert_ne!(a, b, "two seeds, one tourney");
}

#[test]
fn join_turns_a_tourney_into_a_closed_tour() {
    let t = ok(&["tourney", "10x12", "-s", "5", "-f", "json"], "");
    assert!(assert_tourney(&t, 10, 12) > 1);
    let file = temp(&t);
    let out = ok(&["join", file.path(), "-f", "json"], "");
    assert_closed_tour(&out, 10, 12);
    // Standard input gives the same tour.
    assert_eq!(out, ok(&["join", "-", "-f", "json"], &t));
    // A closed tour in: a closed tour out.
    let closed = ok(&["tour", "8x8", "-a", "construct", "--closed"], "");
    let out = ok(&["join", "-", "-f", "json"], &closed);
    assert_closed_tour(&out, 8, 8);
}

#[test]
fn shatter_gives_a_tourney_and_obfuscate_a_closed_tour() {
    let tour = ok(
        &["tour", "12x12", "-a", "construct", "--closed", "-f", "json"],
        "",
    );
    assert_closed_tour(&tour, 12, 12);
    let shattered = ok(&["shatter", "-", "-s", "4", "-f", "json"], &tour);
    assert_tourney(&shattered, 12, 12);
    let json: serde_json::Value = serde_json::from_str(&shattered).unwrap();
    assert!(json["rails_switched"].as_u64().unwrap() >= 1, "{json}");
    let back = ok(&["join", "-", "-f", "json"], &shattered);
    assert_closed_tour(&back, 12, 12);
    for k in ["1", "2", "16"] {
        let out = ok(&["obfuscate", "-", "-k", k, "-s", "4", "-f", "json"], &tour);
        assert_closed_tour(&out, 12, 12);
    }
    let t = ok(&["tourney", "8x8", "-a", "four-cover", "-f", "json"], "");
    assert_closed_tour(&ok(&["obfuscate", "-", "-f", "json"], &t), 8, 8);
}

#[test]
fn tour_algorithms_of_the_tourney_method() {
    for (algorithm, boards) in [
        ("tourney", &["8x8", "5x6", "7x12"][..]),
        ("braid", &["6x8", "10x10"]),
        ("four-cover", &["8x8", "12x8"]),
        ("neural", &["6x6", "8x10"]),
        ("divide", &["9x10", "16x16"]),
        ("takefuji-lee", &["6x6"]),
    ] {
        for board in boards {
            let (rows, cols) = board.split_once('x').unwrap();
            let (rows, cols) = (rows.parse().unwrap(), cols.parse().unwrap());
            let out = ok(
                &["tour", board, "-a", algorithm, "-s", "2", "-f", "json"],
                "",
            );
            assert_closed_tour(&out, rows, cols);
            if algorithm != "takefuji-lee" {
                let out = ok(
                    &[
                        "tour",
                        board,
                        "-a",
                        algorithm,
                        "-s",
                        "2",
                        "--obfuscate",
                        "-f",
                        "json",
                    ],
                    "",
                );
                assert_closed_tour(&out, rows, cols);
            }
        }
    }
}

#[test]
fn open_tours_are_refused_with_a_sentence() {
    let open = ok(&["tour", "5x5", "--open", "-f", "json"], "");
    for cmd in ["join", "shatter", "obfuscate"] {
        let (code, out, err) = run(&[cmd, "-"], &open);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("need a closed tour or a tourney"), "{err}");
        assert!(err.contains("open tour of 5x5"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // The cipher article's grid is an open tour.
    let (code, _, err) = run(&["join", &data("cipher_article_grid.txt")], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("open tour of 8x8"), "{err}");
}

#[test]
fn boards_without_a_closed_tour_give_the_theorem() {
    for (board, algorithm) in [
        ("5x5", "braid"),
        ("5x5", "warnsdorff"),
        ("3x3", "neural"),
        ("7x9", "divide"),
        ("2x8", "warnsdorff"),
        ("1x6", "neural"),
    ] {
        let (code, out, err) = run(&["tourney", board, "-a", algorithm], "");
        assert_eq!(code, 1, "{board} {algorithm}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("no tourney exists"), "{err}");
    }
    // 4x8 has tourneys but no closed tour: join says why.
    let t = ok(&["tourney", "4x8", "-f", "json"], "");
    assert_tourney(&t, 4, 8);
    for cmd in ["join", "obfuscate"] {
        let (code, _, err) = run(&[cmd, "-"], &t);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("no closed tour exists on 4x8"), "{err}");
        assert!(err.contains("Schwenk"), "{err}");
    }
    let (code, _, err) = run(&["tour", "4x12", "-a", "four-cover"], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("side of 4"), "{err}");
}

#[test]
fn generators_refuse_shapes_they_do_not_support() {
    for (board, algorithm, needs) in [
        ("6x6", "four-cover", "divisible by 4"),
        ("6x9", "braid", "both sides even"),
        ("8x10", "four-cover", "divisible by 4"),
    ] {
        let (code, out, err) = run(&["tourney", board, "-a", algorithm], "");
        assert_eq!(code, 2, "{board} {algorithm}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(needs), "{err}");
        assert!(err.contains("--algorithm warnsdorff"), "{err}");
    }
    let (code, _, err) = run(&["tourney", "8x8", "-a", "magic"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["tourney", "0x8"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn malformed_and_invalid_files() {
    for cmd in ["join", "shatter", "obfuscate"] {
        // Unreadable: exit 2.
        for text in [
            "",
            "garbage 1 2",
            "{\"rows\": 8, \"cols\": 8, \"cycles\": [[[0,0]",
        ] {
            let (code, out, err) = run(&[cmd, "-"], text);
            assert_eq!(code, 2, "{cmd} {text:?}: {err}");
            assert!(out.is_empty());
            assert_eq!(err.lines().count(), 1, "{err}");
        }
        let (code, _, err) = run(&[cmd, "/no/such/file.json"], "");
        assert_eq!(code, 2, "{err}");
        // Read but not a tourney: exit 1, the fault named once.
        for text in [
            "{\"rows\": 4, \"cols\": 8, \"cycles\": []}",
            "{\"rows\": 4, \"cols\": 4, \"cycles\": [[[0,0],[2,1],[3,3],[1,2]]]}",
        ] {
            let (code, out, err) = run(&[cmd, "-"], text);
            assert_eq!(code, 1, "{cmd} {text}: {err}");
            assert!(out.is_empty());
            assert_eq!(err.lines().count(), 1, "{err}");
        }
    }
    let (code, _, err) = run(&["join", "-"], "{\"rows\": 4, \"cols\": 8, \"cycles\": []}");
    assert_eq!(code, 1);
    assert_eq!(err.matches("lists no squares").count(), 1, "{err}");
}

#[test]
fn output_file_is_written() {
    let dir = std::env::temp_dir().join(format!("knights-cli-tourney-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.json");
    let mut cmd = knights();
    cmd.args(["tourney", "6x6", "-o", path.to_str().unwrap()]);
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_tourney(&text, 6, 6);
    let _ = std::fs::remove_dir_all(&dir);
}
