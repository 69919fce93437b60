//! `knights magic` and the sums `knights check` shows: refusals with their
//! statuses and sentences, the tours found and their JSON.

use super::{run, scratch};

/// Dudeney's semimagic tour (Amusements in Mathematics, 1917, problem 412),
/// numbered from 1: the repository's example.
const DUDENEY: &str = include_str!("../../../../examples/data/dudeney_semimagic.txt");

/// Dudeney's tour as a numbered grid up to step `steps`, `.` after.
fn dudeney(steps: u32) -> String {
    let mut text = String::new();
    for line in DUDENEY.lines() {
        let cells: Vec<String> = line
            .split_whitespace()
            .map(|n| match n.parse::<u32>().unwrap() <= steps {
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

/// Runs `knights magic 8x8 ARGS` with Dudeney's first `steps` steps as the
/// path to extend.
fn from_dudeney(steps: u32, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["magic", "8x8", "--from", "-"];
    all.extend_from_slice(args);
    run(&all, &dudeney(steps))
}

#[test]
fn forty_steps_of_dudeneys_tour_are_completed_into_a_semimagic_tour() {
    let (code, out, err) = from_dudeney(40, &[]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 11, "grid, sums, blank, summary: {out}");
    assert!(
        lines[8].starts_with("semimagic: rows sum to 260, columns sum to 260"),
        "{out}"
    );
    assert_eq!(lines[9], "");
    assert!(lines[10].starts_with("1 semimagic tour found, "), "{out}");
    // The one checker agrees, and the first 40 steps are Dudeney's.
    let grid = lines[..8].join("\n");
    let (code, checked, _) = run(&["check", "-"], &grid);
    assert_eq!(code, 0);
    assert_eq!(checked.lines().nth(1), Some(lines[8]));
    for (row, given) in lines[..8].iter().zip(dudeney(40).lines()) {
        for (n, g) in row.split_whitespace().zip(given.split_whitespace()) {
            assert!(g == "." || g == n, "step {g} moved: {row}");
        }
    }
}

#[test]
fn a_search_that_finds_all_there_are_is_complete() {
    let (code, out, err) = from_dudeney(40, &["--limit", "5"]);
    assert_eq!(code, 0, "{err}");
    let summary = out.lines().last().unwrap();
    assert!(summary.starts_with("1 semimagic tour found, "), "{out}");
    assert!(summary.ends_with(" nodes searched; complete"), "{out}");
}

#[test]
fn the_json_answer_lists_the_tours_with_their_sums() {
    let (code, out, err) = from_dudeney(40, &["-f", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let tours = v["tours"].as_array().unwrap();
    assert_eq!(tours.len(), 1);
    let tour = &tours[0];
    assert_eq!(
        (tour["rows"].as_u64(), tour["cols"].as_u64()),
        (Some(8), Some(8))
    );
    assert_eq!(tour["squares"].as_array().unwrap().len(), 64);
    assert_eq!(tour["squares"][0], 58, "step 1 is c1 (row 7, column 2)");
    assert!(tour["closed"].is_boolean());
    assert_eq!(tour["sums"]["magic"], "semimagic");
    assert_eq!(tour["sums"]["rows"], serde_json::json!(vec![260; 8]));
    assert_eq!(tour["sums"]["cols"], serde_json::json!(vec![260; 8]));
    assert_eq!(tour["sums"]["diagonals"].as_array().unwrap().len(), 2);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["complete"].is_boolean());
    assert!(v.get("enumeration").is_none(), "{v}");
}

#[test]
fn no_tour_and_a_spent_budget_are_status_1() {
    let (code, out, err) = from_dudeney(40, &["--open"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert_eq!(
        err,
        "knights: no semimagic tour of 8x8 extends the given path\n"
    );
    let (code, out, err) = run(&["magic", "8x8", "--max-nodes", "1"], "");
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.ends_with("; allow more with --max-nodes N\n"), "{err}");
}

#[test]
fn an_output_file_is_written_whole_and_standard_output_stays_empty() {
    let dir = scratch("magic-output");
    let file = dir.join("m.txt");
    let path = file.display().to_string();
    let (code, out, err) = from_dudeney(40, &["-o", &path]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.lines().count(), 11, "{written}");
    let json = dir.join("m.json");
    let (code, _, err) = from_dudeney(40, &["-o", &json.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["tours"].as_array().unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

/// Ctrl-C (SIGINT) stops an enumeration: status 130, the summary says so,
/// the checkpoint is written and a run with it resumes from it.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_an_enumeration_with_its_checkpoint_written() {
    let dir = scratch("magic-ctrl-c");
    let (checkpoint, log) = (dir.join("magic.ckpt"), dir.join("magic.log"));
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("knights"))
        .args(["magic", "8x8", "--all", "--checkpoint"])
        .arg(&checkpoint)
        .arg("--progress")
        .arg(&log)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The progress file is made once the handler is in place and the
    // request checked, just before the enumeration starts.
    let started = std::time::Instant::now();
    while !log.exists() {
        assert!(started.elapsed().as_secs() < 60, "no progress file");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    let summary = stdout.lines().last().unwrap_or_default().to_string();
    assert!(summary.contains(" of 320 ranges done, "), "{summary}");
    let written = format!(
        "; not complete, stopped by Ctrl-C; checkpoint written to {}",
        checkpoint.display()
    );
    assert!(summary.ends_with(&written), "{summary}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        logged.lines().last(),
        Some(format!("knights: magic: {summary}").as_str())
    );
    let nodes = |line: &str| -> u64 {
        let before = line.split(" nodes").next().unwrap();
        before.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let ckpt = checkpoint.display().to_string();
    let resumed = [
        "magic",
        "8x8",
        "--all",
        "--checkpoint",
        &ckpt,
        "--max-nodes",
        "1000",
    ];
    let (code, again, err) = run(&resumed, "");
    assert_eq!(code, 0, "{err}");
    let again = again.lines().last().unwrap();
    assert!(nodes(again) > nodes(&summary), "{summary} then {again}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The numbered grid of the first tour of a text answer.
fn first_grid(out: &str) -> Vec<u32> {
    out.lines()
        .take(8)
        .flat_map(|l| l.split_whitespace().map(|n| n.parse::<u32>().unwrap()))
        .collect()
}

#[test]
fn a_bare_seed_finds_a_tour_symmetric_under_the_half_turn() {
    let (code, out, err) = run(&["magic", "8x8", "--seed", "1"], "");
    assert_eq!(code, 0, "{err}");
    let grid = first_grid(&out);
    assert_eq!(grid.len(), 64, "{out}");
    // Number k + 32 stands opposite k (square 63 - s).
    for (s, &k) in grid.iter().enumerate() {
        let opposite = grid[63 - s];
        assert_eq!(k.abs_diff(opposite), 32, "{out}");
    }
    assert!(out.contains("\nsemimagic: rows sum to 260, columns sum to 260"));
    assert!(out.ends_with("; not complete\n"), "{out}");
}

#[test]
fn the_symmetric_enumeration_of_6x6_is_complete_and_finds_none() {
    let (code, out, err) = run(&["magic", "6x6", "--all", "--symmetric"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("6 of 6 ranges done, 0 tours and 0 classes so far, "),
        "{out}"
    );
    assert!(out.ends_with(" nodes; complete\n"), "{out}");
    refused(
        &["8x8", "--symmetric", "--open"],
        "",
        2,
        "a tour symmetric under the half turn is closed, so there is no open one",
    );
}
