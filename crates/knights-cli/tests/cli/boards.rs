//! Boards beyond the rectangle end to end: start and end squares, board
//! files with holes, wrapping, other leapers (the commands of
//! docs/boards.md), and exit status 3 for "unknown".

use knights::format::{read, Checked};

use super::{run, scratch};

/// The tour in `text`, after the checker.
fn checked(text: &str) -> knights::Tour {
    match read(text).and_then(|d| d.into_checked()) {
        Ok(Checked::Tour(t)) => t,
        Ok(Checked::Tourney(_)) => panic!("a tourney, not a tour:\n{text}"),
        Err(e) => panic!("{e}\n{text}"),
    }
}

#[test]
fn start_and_end_on_8x8() {
    let (code, out, err) = run(
        &[
            "tour", "8x8", "--start", "0,0", "--end", "7,0", "-f", "json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let t = checked(&out);
    assert_eq!((t.start(), t.end()), (0, 56));
    assert!(!t.is_closed());
    let (code, _, err) = run(&["tour", "8x8", "--start", "0,0", "--end", "7,7"], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("same colour"), "{err}");
    let (code, out, _) = run(&["exists", "8x8", "--start", "0,0", "--end", "7,7"], "");
    assert_eq!(code, 1);
    assert!(out.starts_with("no - "), "{out}");
    let (code, out, _) = run(&["exists", "8x8", "--start", "0,0", "--end", "7,0"], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("yes - "), "{out}");
}

#[test]
fn end_needs_a_start_and_a_square_of_the_board() {
    let (code, _, _) = run(&["tour", "8x8", "--end", "7,0"], "");
    assert_eq!(code, 2);
    let (code, _, err) = run(&["tour", "8x8", "--start", "0,0", "--end", "8,0"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_board_file_with_holes_gets_a_checked_tour() {
    let dir = scratch("holes");
    let file = dir.join("board.txt");
    std::fs::write(&file, "......\n.#....\n......\n......\n.#....\n......\n").unwrap();
    let f = file.to_str().unwrap();
    for algorithm in ["auto", "warnsdorff", "backtrack", "hybrid"] {
        let (code, out, err) = run(&["tour", f, "-a", algorithm, "-f", "json"], "");
        assert_eq!(code, 0, "{algorithm}: {err}");
        assert!(out.contains(r#""holes":[[1,1],[4,1]]"#), "{out}");
        let t = checked(&out);
        assert_eq!(t.squares().len(), 34);
        // check and render know the holes from the JSON.
        let (code, verdict, _) = run(&["check", "-"], &out);
        assert_eq!(code, 0);
        assert!(verdict.contains("6x6, 2 holes"), "{verdict}");
        for format in ["grid", "moves", "svg"] {
            let (code, text, err) = run(&["render", "-", "-f", format], &out);
            assert_eq!(code, 0, "{err}");
            if format == "svg" {
                assert!(text.contains("hole (1, 1)"));
            } else {
                assert_eq!(checked(&text).squares(), t.squares());
            }
        }
    }
    let (code, out, _) = run(&["exists", f, "--closed"], "");
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run(&["count", f], "");
    assert_eq!((code, out.trim()), (0, "512"));
    let (code, out, _) = run(&["graph", f, "--degrees"], "");
    assert_eq!(code, 0);
    assert!(
        out.contains("34 squares") && out.contains("3 # 6 6 4 3"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_board_that_is_neither_size_nor_file_names_both_forms() {
    let (code, _, err) = run(&["tour", "no-such-board.txt"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("board size") && err.contains("board file"),
        "{err}"
    );
    let dir = scratch("badboard");
    let file = dir.join("b.txt");
    std::fs::write(&file, "..x\n...\n").unwrap();
    let (code, _, err) = run(&["tour", file.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("neither '.'"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_4x4_torus_has_a_closed_tour() {
    let (code, _, _) = run(&["tour", "4x4", "--closed"], "");
    assert_eq!(code, 1);
    let (code, out, err) = run(
        &["tour", "4x4", "--wrap", "both", "--closed", "-f", "json"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""wrap":"both""#));
    assert!(checked(&out).is_closed());
    let (code, verdict, _) = run(&["check", "-"], &out);
    assert_eq!((code, verdict.trim()), (0, "closed tour on 4x4, wrap both"));
    // Without the wrap key the same squares are no tour.
    let plain = out.replace(r#""wrap":"both","#, "");
    let (code, _, err) = run(&["check", "-"], &plain);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn leapers() {
    let (code, out, _) = run(&["exists", "8x8", "--leaper", "1,3"], "");
    assert_eq!(code, 1);
    assert!(out.starts_with("no - ") && out.contains("colour"), "{out}");
    let (code, _, err) = run(&["tour", "8x8", "--leaper", "1,3"], "");
    assert_eq!(code, 1);
    assert!(err.contains("colour"), "{err}");
    let (code, out, err) = run(&["tour", "10x10", "--leaper", "2,3", "-f", "json"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""leaper":[2,3]"#));
    let t = checked(&out);
    assert_eq!(t.squares().len(), 100);
    let (code, _, err) = run(&["tour", "8x8", "--leaper", "0,0"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn unknown_is_exit_status_3() {
    let (code, out, _) = run(
        &[
            "exists",
            "8x8",
            "--wrap",
            "cols",
            "--closed",
            "--max-nodes",
            "5",
        ],
        "",
    );
    assert_eq!(code, 3, "{out}");
    assert!(out.starts_with("unknown - "), "{out}");
}

#[test]
fn counts_on_a_cylinder_and_a_torus() {
    let (code, out, _) = run(&["count", "3x4", "--open", "--wrap", "cols"], "");
    assert_eq!((code, out.trim()), (0, "48"));
    let (code, out, _) = run(&["count", "4x4", "--wrap", "both"], "");
    assert_eq!((code, out.trim()), (0, "1344"));
    let (code, _, err) = run(&["count", "4x4", "--wrap", "both", "--classes"], "");
    assert_eq!(code, 2, "{err}");
}
