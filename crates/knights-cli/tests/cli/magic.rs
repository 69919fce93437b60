//! `knights magic` and the sums `knights check` shows: refusals with their
//! statuses and sentences, the tours found and their JSON.

use super::{run, scratch};

/// Dudeney's semimagic tour (Amusements in Mathematics, 1917, no. 344),
/// numbered from 1.
const DUDENEY: [[u32; 8]; 8] = [
    [46, 55, 44, 19, 58, 9, 22, 7],
    [43, 18, 47, 56, 21, 6, 59, 10],
    [54, 45, 20, 41, 12, 57, 8, 23],
    [17, 42, 53, 48, 5, 24, 11, 60],
    [52, 3, 32, 13, 40, 61, 34, 25],
    [31, 16, 49, 4, 33, 28, 37, 62],
    [2, 51, 14, 29, 64, 39, 26, 35],
    [15, 30, 1, 50, 27, 36, 63, 38],
];

/// Dudeney's tour as a numbered grid up to step `steps`, `.` after.
fn dudeney(steps: u32) -> String {
    let mut text = String::new();
    for row in DUDENEY {
        let cells: Vec<String> = row
            .iter()
            .map(|&n| match n <= steps {
                true => format!("{n:>2}"),
                false => " .".into(),
            })
            .collect();
        text += &cells.join(" ");
        text += "\n";
    }
    text
}

#[test]
fn check_shows_the_sums_of_a_semimagic_tour() {
    let (code, out, err) = run(&["check", "-"], &dudeney(64));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "closed tour on 8x8\nsemimagic: rows sum to 260, columns sum to 260; diagonals 264 and 256\n"
    );
}

#[test]
fn check_of_an_ordinary_tour_says_nothing_of_sums() {
    let (code, tour, _) = run(&["tour", "8x8", "--base", "1"], "");
    assert_eq!(code, 0);
    let (code, out, _) = run(&["check", "-"], &tour);
    assert_eq!((code, out.as_str()), (0, "closed tour on 8x8\n"));
}

/// Runs `knights magic ARGS` expecting a refusal: its status, nothing on
/// standard output, and the sentence on standard error.
fn refused(args: &[&str], stdin: &str, status: i32, says: &str) {
    let mut all = vec!["magic"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all, stdin);
    assert_eq!(code, status, "{args:?}: {err}");
    assert_eq!(out, "", "{args:?}: a refusal prints nothing");
    assert!(err.starts_with("knights: "), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {says:?} not in {err}");
    assert_eq!(err.lines().count(), 1, "one sentence: {err}");
}

#[test]
fn boards_the_search_does_not_take_are_status_2() {
    let takes = "the magic search takes a square board of even side from 6 to 16 (6x6, 8x8, ..., 16x16), and ";
    refused(&["8x10"], "", 2, &format!("{takes}8x10 is not square"));
    refused(
        &["7x7"],
        "",
        2,
        &format!(
            "{takes}7x7 has an odd side (there the rows hold 4 and 3 odd step numbers in turn"
        ),
    );
    refused(
        &["4x4"],
        "",
        2,
        &format!("{takes}4x4 is outside that range"),
    );
    refused(
        &["20"],
        "",
        2,
        &format!("{takes}20x20 is outside that range"),
    );
    refused(&["0x8"], "", 2, "");
}

#[test]
fn options_that_do_not_go_together_are_status_2() {
    let all =
        "an enumeration of every tour (all) starts everywhere and finds them all, so it takes no";
    refused(
        &["8x8", "--all", "--start", "a1"],
        "",
        2,
        &format!("{all} start; leave it out"),
    );
    refused(
        &["8x8", "--all", "--from", "-"],
        &dudeney(3),
        2,
        &format!("{all} from;"),
    );
    refused(
        &["8x8", "--all", "--start", "a1", "--limit", "2"],
        "",
        2,
        &format!("{all} start, limit; leave them out"),
    );
    refused(
        &["8x8", "--checkpoint", "c.ckpt"],
        "",
        2,
        "a checkpoint is kept by an enumeration of every tour (all); a search for some tours keeps none",
    );
    refused(&["8x8", "--limit", "0"], "", 2, "limit must be from 1 to");
    refused(
        &["8x8", "--max-nodes", "0"],
        "",
        2,
        "max-nodes must be from 1 to",
    );
    refused(&["8x8", "--start", "i9"], "", 2, "i9");
    refused(
        &["8x8", "-f", "text", "-o", "m.json"],
        "",
        2,
        "ends in .json",
    );
}

#[test]
fn a_path_to_extend_must_be_a_knights_path_on_the_plain_board() {
    let not = "the path to extend is not a knight's path: ";
    let json = |squares: &str| format!(r#"{{"rows": 8, "cols": 8, "squares": {squares}}}"#);
    for (stdin, says) in [
        (
            json("[[0, 0], [1, 1]]"),
            format!("{not}the step from (0, 0) to (1, 1) at step 1 is not a knight's move"),
        ),
        (
            json("[[0, 0], [2, 1], [0, 0]]"),
            format!("{not}square (0, 0) is visited twice, at steps 0 and 2"),
        ),
        (
            r#"{"rows": 6, "cols": 6, "squares": [[0, 0]]}"#.into(),
            "the path to extend is on a 6x6 board, but the board is 8x8".into(),
        ),
        (
            dudeney(5).replacen(" .", " #", 1),
            "the magic search is for the plain board of the knight".into(),
        ),
        ("banana".into(), "line 1 is 'banana'".into()),
    ] {
        refused(&["8x8", "--from", "-"], &stdin, 2, &says);
    }
    refused(
        &["8x8", "--from", "-", "--start", "a8"],
        &dudeney(10),
        2,
        "the start square is (0, 0), but the path to extend starts at (7, 2)",
    );
    refused(
        &["8x8", "--open", "--from", "-"],
        &dudeney(64),
        2,
        "the path to extend is a whole tour, closed, and an open tour is wanted",
    );
    refused(
        &["8x8", "--from", "no-such-file"],
        "",
        2,
        "cannot open 'no-such-file'",
    );
}

#[test]
fn a_refused_search_leaves_the_output_file_untouched() {
    let dir = scratch("magic-untouched");
    let file = dir.join("m.txt");
    std::fs::write(&file, "before\n").unwrap();
    let path = file.display().to_string();
    refused(&["7x7", "-o", &path], "", 2, "7x7 has an odd side");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "before\n");
    let _ = std::fs::remove_dir_all(dir);
}
