//! `knights puzzle`, `knights solve` and `knights check` of puzzles: the
//! round trip puzzle -> solve -> check, a step that agrees with the
//! solution, the pictures and the sheet, and the refusals (a malformed
//! puzzle is one sentence and status 2; a puzzle without a solution is
//! status 1 with the reason). Small boards, so that each test is cheap.

use super::{run, scratch};

/// A 5x5 open puzzle of `seed` and `difficulty`, and its solution's grid.
fn puzzle(seed: &str, difficulty: &str) -> (String, String) {
    let args = [
        "puzzle", "5x5", "--kind", "open", "--seed", seed, "-d", difficulty,
    ];
    let (code, text, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let (code, grid, err) = run(&[&args[..], &["--solution"]].concat(), "");
    assert_eq!(code, 0, "{err}");
    (text, grid)
}

/// The numbers of a numbered grid (or a puzzle's rows), row by row.
fn cells(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.starts_with("puzzle") && !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

#[test]
fn a_puzzle_is_solved_uniquely_and_its_solution_checks() {
    let (text, grid) = puzzle("1", "medium");
    assert!(text.starts_with("puzzle 5x5 open\n"), "{text}");
    // Every given number is the solution's on that square.
    let (given, solution) = (cells(&text), cells(&grid));
    assert_eq!(given.len(), 5);
    for (r, row) in given.iter().enumerate() {
        for (c, entry) in row.iter().enumerate() {
            assert!(entry == "." || *entry == solution[r][c], "({r}, {c})");
        }
    }
    let (code, out, err) = run(&["solve", "-"], &text);
    assert_eq!(code, 0, "{err}");
    let (verdict, solved) = out.split_once('\n').unwrap();
    assert_eq!(verdict, "unique solution");
    assert_eq!(cells(solved), solution);
    let (code, out, err) = run(&["check", "-"], &text);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("a valid puzzle of 5x5 (open), ") && out.contains("; exactly one solution"),
        "{out}"
    );
    // The solution, as a grid, checked by the checker and against the clues.
    let dir = scratch("puzzle-round-trip");
    let file = dir.join("p.txt");
    std::fs::write(&file, &text).unwrap();
    let p = file.display().to_string();
    let (code, out, err) = run(&["check", "-", "--puzzle", &p], &grid);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim_end(), "open tour on 5x5, solving the puzzle");
    // The JSON form solves the same, and the answer's JSON is the library's.
    let (code, json, _) = run(
        &[
            "puzzle", "5x5", "--kind", "open", "--seed", "1", "-f", "json",
        ],
        "",
    );
    assert_eq!(code, 0);
    let (code, out, err) = run(&["solve", "-", "-f", "json"], &json);
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["unique"], true, "{answer}");
    assert_eq!(answer["count"], 1);
    // One solution looked for proves nothing about a second.
    let (code, out, _) = run(&["solve", "-", "--limit", "1", "-f", "json"], &json);
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (answer["count"].as_u64(), answer["unique"].as_bool()),
        (Some(1), Some(false))
    );
    let (_, out, _) = run(&["solve", "-", "--limit", "1"], &json);
    assert!(out.starts_with("1 solution found (limit 1)\n"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_filled_grid_that_breaks_a_clue_is_named_and_status_1() {
    let (text, grid) = puzzle("1", "medium");
    // The same tour numbered from its other end: a tour, but not the clues'.
    let other: String = cells(&grid)
        .iter()
        .map(|row| {
            let row: Vec<String> = row
                .iter()
                .map(|n| (26 - n.parse::<u32>().unwrap()).to_string())
                .collect();
            row.join(" ") + "\n"
        })
        .collect();
    let dir = scratch("puzzle-wrong-solution");
    let file = dir.join("p.txt");
    std::fs::write(&file, &text).unwrap();
    let p = file.display().to_string();
    let (code, out, err) = run(&["check", "-", "--puzzle", &p], &other);
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty());
    assert!(
        err.starts_with("knights: not a solution of the puzzle: (")
            && err.contains("in the solution, but the puzzle gives"),
        "{err}"
    );
    // A grid that is no tour is the checker's fault.
    let (code, _, err) = run(&["check", "-", "--puzzle", &p], "0 1\n2 3\n");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the solution is on 2x2, and the puzzle is on 5x5"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_step_on_a_fresh_easy_puzzle_agrees_with_the_solution() {
    let (text, grid) = puzzle("3", "easy");
    let (code, out, err) = run(&["solve", "-", "--step"], &text);
    assert_eq!(code, 0, "{err}");
    // (r, c) = N: reason
    let line = out.trim_end();
    assert_eq!(out.lines().count(), 1, "{out}");
    let (at, rest) = line.split_once(" = ").expect(line);
    let (n, reason) = rest.split_once(": ").expect(line);
    assert!(!reason.is_empty());
    let (r, c) = at
        .trim_matches(|ch| ch == '(' || ch == ')')
        .split_once(", ")
        .unwrap();
    let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
    assert_eq!(cells(&grid)[r][c], n, "{line}");
    assert_eq!(cells(&text)[r][c], ".", "a deduction fills a blank: {line}");
    // The filled grid, as progress, is solved.
    let filled = format!("puzzle 5x5 open\n{grid}");
    let dir = scratch("puzzle-step");
    let progress = dir.join("filled.txt");
    std::fs::write(&progress, filled).unwrap();
    let args = [
        "solve",
        "-",
        "--step",
        "--progress",
        &progress.display().to_string(),
    ];
    let (code, out, err) = run(&args, &text);
    assert_eq!((code, out.trim_end()), (0, "solved"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn several_solutions_and_none_are_told_apart() {
    // A lone 1 in the corner: many numberings follow it.
    let loose = "puzzle 5x5 open\n1 . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    let (code, out, err) = run(&["solve", "-"], loose);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("2 solutions found (limit 2)\n"), "{out}");
    let (code, _, err) = run(&["check", "-"], loose);
    assert_eq!(code, 1);
    assert!(err.contains("but it has several solutions"), "{err}");
    // 2 is not a knight's move from 1: no solution, status 1 with the reason.
    let none = "puzzle 5x5 open\n1 2 . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n";
    let (code, out, err) = run(&["solve", "-"], none);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.starts_with("no solution - ") && out.lines().count() == 1,
        "{out}"
    );
    let (code, out, err) = run(&["solve", "-", "-f", "json"], none);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.starts_with("knights: this puzzle has no solution: "),
        "{err}"
    );
    let (code, _, err) = run(&["check", "-"], none);
    assert_eq!(code, 1);
    assert!(err.contains("but this puzzle has no solution"), "{err}");
    // Out of budget: unknown, status 1, with the flag that allows more.
    let (code, out, _) = run(&["solve", "-", "--max-nodes", "1"], loose);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("unknown - ") && out.contains("--max-nodes N"),
        "{out}"
    );
}

#[test]
fn malformed_puzzles_are_refused_in_one_sentence_with_status_2() {
    let bad = [
        (
            "puzzle 3x4 open\n1 . .\n. . . .\n. . . 12\n",
            "line 2 has 3 entries",
        ),
        (
            "puzzle 3x4 open\n1 . . .\n. . . .\n. . . 12\n. . . .\n",
            "past the grid",
        ),
        (
            "puzzle 3x4 open\n1 . . .\n. . . 12\n",
            "the grid has 2 rows",
        ),
        (
            "puzzle 3x4 open\n1 . . .\n. . . .\n. . . 1\n",
            "the number 1 is given twice",
        ),
        (
            "puzzle 3x4 open\n1 . . .\n. . . .\n. . . 13\n",
            "the number 13 on (2, 3) is outside 1..=12",
        ),
        (
            "puzzle 3x4 open base=0\n0 . . .\n. . . .\n. . . 12\n",
            "outside 0..=11",
        ),
        ("puzzle 3x4 open\n1 #5 . .\n. . . .\n. . . 12\n", "'#5'"),
        (
            r#"{"rows":3,"cols":4,"closed":false,"holes":[[0,1]],"clues":[[0,1,2]]}"#,
            "(0, 1) is a hole and cannot hold a number",
        ),
        // (check reads what is no puzzle as a tour file, and refuses it as one)
        (
            "1 . . .\n. . . .\n. . . 12\n",
            "a puzzle starts with 'puzzle ROWSxCOLS'",
        ),
        (
            "puzzle 100000x100000 open\n1\n",
            "a puzzle of 100000x100000 is too big",
        ),
        (
            "puzzle 3x4 opne\n1 . . .\n. . . .\n. . . 12\n",
            "'opne' on line 1 is not a puzzle option",
        ),
        ("", "the input is empty"),
    ];
    for (text, says) in bad {
        for args in [&["solve", "-"][..], &["check", "-"][..]] {
            let (code, out, err) = run(args, text);
            assert_eq!(code, 2, "{args:?} {text:?}: {err}");
            assert!(out.is_empty(), "{text:?}: {out}");
            assert!(
                err.contains(says) || args[0] == "check" && !text.starts_with(['p', '{']),
                "{text:?}: {err}"
            );
            assert!(
                err.starts_with("knights: ") && err.lines().count() == 1,
                "{err}"
            );
        }
    }
    // A byte-order mark, blank lines and Windows line ends are no fault.
    let fine = "\u{feff}\r\npuzzle 3x4 open\r\n\r\n 1 . . .\r\n. . . .\r\n\r\n. . . 12\r\n\r\n";
    let (code, out, err) = run(&["solve", "-", "--max-nodes", "100000"], fine);
    assert_ne!(code, 2, "{err}");
    assert!(!out.is_empty());
}

#[test]
fn puzzle_pictures_and_sheets_come_from_the_sheet_renderer() {
    let dir = scratch("puzzle-pictures");
    let png = dir.join("p.png");
    let (code, _, err) = run(
        &[
            "puzzle",
            "5x5",
            "--kind",
            "open",
            "-o",
            &png.display().to_string(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let (code, svg, err) = run(
        &[
            "puzzle", "5x5", "--kind", "open", "--seed", "1", "-f", "svg",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(svg.matches(r#"data-board="5x5""#).count(), 1);
    assert!(svg.contains("1. Medium puzzle, open"), "{svg}");
    // The given numbers are the text form's.
    let (text, _) = puzzle("1", "medium");
    let given = cells(&text).concat().iter().filter(|e| *e != ".").count();
    assert_eq!(svg.matches(r#"class="given""#).count(), given);
    let (code, page, err) = run(
        &[
            "sheet", "5x5", "--kind", "open", "--puzzle", "easy", "--copies", "2", "--seed", "4",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(page.matches(r#"data-board="5x5""#).count(), 2);
    assert!(page.contains("2. Easy puzzle, open"));
    assert!(page.contains(
        "Number the squares 1 to 25 so that each number is a knight's move from the next."
    ));
    let (code, solved, err) = run(
        &[
            "sheet",
            "5x5",
            "--kind",
            "open",
            "--puzzle",
            "easy",
            "--copies",
            "2",
            "--seed",
            "4",
            "--solution",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        solved.matches(r#"class="step""#).count() + solved.matches(r#"class="given""#).count(),
        50
    );
    let (code, _, err) = run(&["sheet", "5x5", "--symmetric"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["puzzle", "5x5", "--copies", "2"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--copies makes a page of puzzles"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
