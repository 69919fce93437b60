//! `knights hint`: a partial path in each tour format judged (verdict,
//! reason, safe moves), finished tours named, bad files refused.

use super::{knights, run};

/// A 5x5 grid with the path (0,0), (1,2) and `.` for the rest.
const TWO_STEPS: &str = " 0 . . . .\n . . 1 . .\n . . . . .\n . . . . .\n . . . . .\n";

#[test]
fn a_finishable_path_is_said_with_its_safe_moves() {
    let (code, out, err) = run(&["hint", "-"], TWO_STEPS);
    assert_eq!(code, 0, "{err}");
    let mut lines = out.lines();
    assert!(lines.next().unwrap().starts_with("finishable - "), "{out}");
    assert_eq!(
        lines.next(),
        Some("path: 2 of 25 squares, the knight on (1, 2)")
    );
    assert!(out.contains("\ncompletion: "), "{out}");
    // The legal moves of (1, 2), each judged on its own line.
    assert!(
        out.contains("\nlegal moves: (0, 4) (2, 0) (2, 4) (3, 1) (3, 3)\n"),
        "{out}"
    );
    let judged: Vec<&str> = out.lines().filter(|l| l.starts_with("  (")).collect();
    assert_eq!(judged.len(), 5, "{out}");
    assert!(
        judged[0].contains(" safe, ") && judged[0].contains("onward move"),
        "{out}"
    );
    // The same answer as JSON: the position's answer.
    let (code, json, _) = run(&["hint", "-", "-f", "json"], TWO_STEPS);
    assert_eq!(code, 0);
    let a: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(a["verdict"], "finishable");
    assert_eq!(a["path"], serde_json::json!([0, 7]));
    assert_eq!(a["completion"].as_array().unwrap().len(), 23);
    assert_eq!(a["hints"].as_array().unwrap().len(), 5);
}

#[test]
fn a_dead_end_is_said_with_its_reason_as_an_answer() {
    // The path visits both squares that lead into the corner (0, 4).
    let json = r#"{"rows":5,"cols":5,"squares":[[0,0],[1,2],[2,4],[0,3],[1,1],[2,3],[0,2]]}"#;
    let (code, out, err) = run(&["hint", "-"], json);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("not finishable - "), "{out}");
    assert!(first.contains("(0, 4)"), "{out}");
    assert!(!out.contains("completion:"), "{out}");
    assert!(
        out.lines()
            .filter(|l| l.starts_with("  ("))
            .all(|l| l.contains(" losing, ")),
        "{out}"
    );
}

#[test]
fn a_finished_tour_is_named_by_the_checker() {
    let tour = knights()
        .args(["tour", "5x5", "-f", "moves"])
        .output()
        .unwrap();
    let (code, out, _) = run(&["hint", "-"], &String::from_utf8(tour.stdout).unwrap());
    assert_eq!(code, 0);
    assert!(
        out.starts_with("finishable - the path is a tour of either kind, finished\n"),
        "{out}"
    );
    assert!(
        out.contains("\nfinished: an open tour on 5x5, by the checker\n"),
        "{out}"
    );
    assert!(out.contains("\nlegal moves: none\n"), "{out}");
    // Asked for a closed one, the open tour is no win.
    let tour = knights()
        .args(["tour", "5x5", "-f", "json"])
        .output()
        .unwrap();
    let (code, out, _) = run(
        &["hint", "-", "--kind", "closed"],
        &String::from_utf8(tour.stdout).unwrap(),
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("not finishable - "), "{out}");
    assert!(out.contains("not the tour asked for"), "{out}");
}

#[test]
fn a_file_and_an_end_square_are_read() {
    let dir = super::scratch("hint-file");
    let file = dir.join("path.txt");
    std::fs::write(&file, "tour 5x5\nfrom 0,0: 6\n").unwrap();
    let path = file.display().to_string();
    let (code, out, _) = run(&["hint", &path, "--end", "4,4", "-f", "json"], "");
    assert_eq!(code, 0);
    let a: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(a["path"], serde_json::json!([0, 11]));
    if let Some(rest) = a["completion"].as_array() {
        assert_eq!(rest.last(), Some(&serde_json::json!(24)), "{out}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn holes_wrapped_boards_and_leapers_come_from_the_file() {
    // A hole in a grid: the path steps around it.
    let (code, out, err) = run(
        &["hint", "-", "-f", "json"],
        " 0 . . . .\n . # 1 . .\n . . . . .\n . . . . .\n . . . . .\n",
    );
    assert_eq!(code, 0, "{err}");
    let a: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(a["left"], 22);
    assert!(!a["legal-moves"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!(6)));
    // The torus: (0, 0) reaches (4, 3) across the edges.
    let torus = r#"{"rows":5,"cols":5,"wrap":"both","squares":[[0,0]]}"#;
    let (code, out, _) = run(&["hint", "-", "-f", "json"], torus);
    assert_eq!(code, 0);
    let a: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(a["legal-moves"].as_array().unwrap().len(), 8, "{out}");
    assert!(a["legal-moves"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!(23)));
    // The camel (1, 3) never leaves its colour: no tour, said with a reason.
    let camel = "tour 6x6 leaper=1,3\nfrom 0,0:\n";
    let (code, out, _) = run(&["hint", "-"], camel);
    assert_eq!(code, 0);
    assert!(out.starts_with("not finishable - "), "{out}");
}

#[test]
fn bad_files_are_refused_with_status_2_in_one_sentence() {
    for (text, words) in [
        ("", "the input is empty"),
        ("hello", "a move list starts with"),
        (
            " 0 1 . . .\n . . . . .\n . . . . .\n . . . . .\n . . . . .\n",
            "not one move from",
        ),
        (
            r#"{"rows":5,"cols":5,"squares":[[0,0],[7,1]]}"#,
            "not a square of 5x5",
        ),
        (
            " 0 . .\n . . 3\n . . .\n",
            "not a step of a path of 2 squares",
        ),
        (
            " 0 . . . .\n . # . . .\n . . . . .\n . . . . .\n . . . . .\n",
            "",
        ),
    ] {
        let (code, out, err) = run(&["hint", "-"], text);
        if words.is_empty() {
            // A grid whose path is only a start is fine.
            assert_eq!(code, 0, "{err}");
            continue;
        }
        assert_eq!((code, out.as_str()), (2, ""), "{text}: {err}");
        assert!(
            err.starts_with("knights: ") && err.contains(words),
            "{text}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let (code, _, err) = run(&["hint", "-", "--end", "9,9"], TWO_STEPS);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a square of 5x5"), "{err}");
    let (code, _, err) = run(&["hint", "-", "--max-nodes", "0"], TWO_STEPS);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("max-nodes must be from 1"), "{err}");
}
