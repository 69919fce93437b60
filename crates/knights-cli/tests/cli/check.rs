//! `knights check`: verdicts, faults and exit statuses.

use super::{data, run};

#[test]
fn published_grids() {
    let (code, out, _) = run(&["check", &data("cipher_article_grid.txt")], "");
    assert_eq!((code, out.as_str()), (0, "open tour on 8x8\n"));
    let (code, out, _) = run(&["check", &data("course_report_boxed_grid.txt")], "");
    assert_eq!((code, out.as_str()), (0, "closed tour on 8x8\n"));
}

#[test]
fn faults_are_exit_1_and_named() {
    let json = |squares: &str| format!(r#"{{"rows":3,"cols":4,"squares":{squares}}}"#);
    let good = "[[0,0],[1,2],[2,0],[0,1],[1,3],[2,1],[0,2],[2,3],[1,1],[0,3],[2,2],[1,0]]";
    let (code, out, _) = run(&["check", "-"], &json(good));
    assert_eq!((code, out.as_str()), (0, "open tour on 3x4\n"));
    for (squares, needle) in [
        (
            "[[0,0],[1,2],[2,0],[0,1],[1,3],[2,1],[0,2],[2,3],[1,1],[0,3],[2,2],[0,0]]",
            "visited twice",
        ),
        (
            "[[0,0],[1,2],[2,0],[0,1],[1,3],[2,1],[0,2],[2,3],[1,1],[0,3],[1,0],[2,2]]",
            "not a knight's move",
        ),
        (
            "[[0,0],[1,2],[2,0],[0,1],[1,3],[2,1],[0,2],[2,3],[1,1],[0,3],[2,2]]",
            "never visited",
        ),
        (
            "[[0,0],[1,2],[2,0],[0,1],[1,3],[2,1],[0,2],[2,3],[1,1],[0,3],[2,2],[1,0],[3,1]]",
            "off the 3x4 board",
        ),
    ] {
        let (code, out, err) = run(&["check", "-"], &json(squares));
        assert_eq!((code, out.as_str()), (1, ""), "{squares}");
        assert!(
            err.starts_with("knights: not a valid tour or tourney: ") && err.contains(needle),
            "{err}"
        );
    }
    let closed_claim = format!(r#"{{"rows":3,"cols":4,"closed":true,"squares":{good}}}"#);
    let (code, _, err) = run(&["check", "-"], &closed_claim);
    assert_eq!(code, 1);
    assert!(err.contains("marked closed"), "{err}");
}

#[test]
fn unreadable_input_is_exit_2() {
    for (stdin, needle) in [
        ("", "the input is empty"),
        (
            "{\"rows\": 3, \"cols\": 4, \"squares\": [[0, 0], [1]]}",
            "malformed at squares[1]",
        ),
        (
            "{\"rows\": 3, \"cols\": 4, \"squares\": [[0, 0]",
            "not valid JSON",
        ),
        ("1 2 3\n4 five 6\n", "line 2 of the grid"),
        ("tour 8x8\nfrom 0,0: 7 8\n", "line 2: '8' is not a move"),
    ] {
        let (code, _, err) = run(&["check", "-"], stdin);
        assert_eq!(code, 2, "{stdin}: {err}");
        assert!(err.contains(needle), "{stdin}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (code, _, err) = run(&["check", "/nonexistent/tour.json"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot open '/nonexistent/tour.json'"),
        "{err}"
    );
}

/// `yes | knights check -` stops reading as soon as the input passes what
/// fits in memory (here a few tens of MB, under an address-space limit of
/// 400 MB), rather than reading gigabytes before it looks at the size.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_input_is_refused_as_soon_as_it_is_too_long() {
    use std::io::Write;
    let bin = assert_cmd::cargo::cargo_bin("knights");
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 400000 && exec \"$0\" check -")
        .arg(&bin)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = b"y\n".repeat(1 << 15);
        let mut written = 0u64;
        while stdin.write_all(&chunk).is_ok() && written < 8 << 30 {
            written += chunk.len() as u64;
        }
        written
    });
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("standard input is longer than"), "{err}");
    assert!(written < 400 << 20, "{written} bytes were read");
}
