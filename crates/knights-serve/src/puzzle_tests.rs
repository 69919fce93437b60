//! `GET /api/puzzle` and `POST /api/solve` against the router: a generated
//! puzzle solved back to its one solution (checked by the library), one
//! step with its square and reason, a filled grid solved or contradicted,
//! and the refusals with their statuses and sentences.

use axum::http::StatusCode;
use knights::format::read_puzzle;
use knights::{Board, Tour};
use serde_json::{json, Value};

use super::tests::call;
use super::{router, Config};

/// `POST /api/solve` with `body`: the status and the answer.
async fn solve(body: Value) -> (StatusCode, Value) {
    let (s, v, _) = call(
        &router(Config::default()),
        "POST",
        "/api/solve",
        &body.to_string(),
    )
    .await;
    (s, v)
}

/// `GET uri`: the status and the answer.
async fn get(uri: &str) -> (StatusCode, Value) {
    let (s, v, _) = call(&router(Config::default()), "GET", uri, "").await;
    (s, v)
}

/// The text form of `puzzle` with every square of `solution` numbered
/// (the puzzle's base is 1): a player's finished grid.
fn filled(puzzle: &str, rows: usize, cols: usize, solution: &[Square]) -> String {
    let mut grid = vec![0usize; rows * cols];
    for (i, &s) in solution.iter().enumerate() {
        grid[s as usize] = i + 1;
    }
    let header = puzzle.lines().next().unwrap();
    let mut out = format!("{header}\n");
    for row in grid.chunks(cols) {
        let line: Vec<String> = row.iter().map(|n| n.to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

type Square = u32;

fn squares(v: &Value) -> Vec<Square> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as Square)
        .collect()
}

#[tokio::test]
async fn a_generated_puzzle_solves_back_to_its_one_solution() {
    let (s, v) = get("/api/puzzle?board=5x5&difficulty=easy&seed=3&kind=open").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["seed"], 3);
    assert_eq!(v["difficulty"], "easy");
    let text = v["puzzle"]["text"].as_str().unwrap().to_string();
    assert!(text.starts_with("puzzle 5x5 open"), "{text}");
    assert_eq!(v["puzzle"]["json"]["rows"], 5);
    // The solution is a tour of the board and solves the puzzle, by the library.
    let solution = squares(&v["solution"]);
    let tour = Tour::new(Board::new(5, 5).unwrap(), solution.clone()).unwrap();
    assert!(read_puzzle(&text).unwrap().is_solved_by(&tour));
    // Solved back: one solution, proved unique, the generated one.
    let (s, a) = solve(json!({"puzzle": text})).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["count"], 1, "{a}");
    assert_eq!(a["unique"], true);
    assert_eq!(a["complete"], true);
    assert_eq!(squares(&a["solutions"][0]), solution);
    // The JSON form solves the same.
    let (s, b) = solve(json!({"puzzle": v["puzzle"]["json"].to_string(), "limit": 1})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["solutions"], a["solutions"]);

    // One step: a blank square, its number (as written, from 1) the solution's.
    let (s, step) = solve(json!({"puzzle": text, "step": true})).await;
    assert_eq!(s, StatusCode::OK, "{step}");
    assert_eq!(step["outcome"], "deduction", "{step}");
    let at = &step["at"];
    let (r, c, n) = (
        at[0].as_u64().unwrap(),
        at[1].as_u64().unwrap(),
        at[2].as_u64().unwrap(),
    );
    assert_eq!(solution[n as usize - 1] as u64, r * 5 + c, "{step}");
    assert!(step["reason"].as_str().unwrap().len() > 10, "{step}");
    // The whole grid filled by the solution is solved; two numbers swapped
    // is a contradiction with its reason.
    let done = filled(&text, 5, 5, &solution);
    let (s, end) = solve(json!({"puzzle": text, "progress": done, "step": true})).await;
    assert_eq!(
        (s, end["outcome"].clone()),
        (StatusCode::OK, json!("solved")),
        "{end}"
    );
    let mut wrong = solution.clone();
    let blanks: Vec<usize> = (0..25)
        .filter(|&i| {
            v["puzzle"]["json"]["clues"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c[2] != i + 1)
        })
        .collect();
    wrong.swap(blanks[0], blanks[1]);
    let bad = filled(&text, 5, 5, &wrong);
    let (s, end) = solve(json!({"puzzle": text, "progress": bad, "step": true})).await;
    assert_eq!(s, StatusCode::OK, "{end}");
    assert_eq!(end["outcome"], "contradiction", "{end}");
    assert!(end["reason"].as_str().unwrap().len() > 10, "{end}");
}

#[tokio::test]
async fn the_example_of_the_api_document_solves() {
    // docs/http-api.md, POST /api/solve: 3x4 from one corner to the other.
    let (s, v) = solve(json!({"puzzle": "puzzle 3x4 open\n1 . . .\n. . . .\n. . . 12\n"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["count"].as_u64().unwrap() >= 1, "{v}");
    assert_eq!(v["complete"], true);
    for tour in v["solutions"].as_array().unwrap() {
        let squares = squares(tour);
        assert_eq!((squares[0], squares[11]), (0, 11), "{v}");
        Tour::new(Board::new(3, 4).unwrap(), squares).unwrap();
    }
}

#[tokio::test]
async fn bad_puzzles_are_400_with_the_sentence_and_no_solution_is_422() {
    // A row too short: the reader's sentence.
    let (s, v) = solve(json!({"puzzle": "puzzle 3x4 open\n1 . .\n. . . .\n. . . .\n"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let said = v["error"].as_str().unwrap();
    assert!(said.contains("row") && !said.contains('\n'), "{said}");
    // A number twice.
    let (s, v) = solve(json!({"puzzle": "puzzle 3x4 open\n1 . . .\n. . . .\n. . . 1\n"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // No header; a field the request does not have; a limit of 0.
    let (s, v) = solve(json!({"puzzle": "1 . .\n"})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = solve(json!({"puzzle": "puzzle 1x1 open\n1\n", "steps": true})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("steps"), "{v}");
    let (s, v) = solve(json!({"puzzle": "puzzle 1x1 open\n1\n", "limit": 0})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("limit"), "{v}");
    // A progress on another board.
    let (s, v) = solve(json!({"puzzle": "puzzle 1x1 open\n1\n", "progress": "puzzle 2x2 open\n. .\n. .\n", "step": true})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("another board"),
        "{v}"
    );
    // A puzzle too big, to make or to solve.
    let (s, v) = get("/api/puzzle?board=40x40").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 32"), "{v}");
    let (s, v) = get("/api/puzzle?board=6x6&difficulty=impossible").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v) = get("/api/puzzle?board=600x600").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("cap"), "{v}");

    // 4x4 has no open tour: a valid puzzle with no solution is 422 with the reason.
    let blank = "puzzle 4x4 open\n1 . . .\n. . . .\n. . . .\n. . . .\n";
    let (s, v) = solve(json!({"puzzle": blank})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no solution"), "{v}");
    // A step in it is an answer, not an error: a deduction that holds if
    // the clues can be finished (a one-level trial here), or the
    // contradiction once propagation meets it.
    let (s, v) = solve(json!({"puzzle": blank, "step": true})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(
        ["deduction", "contradiction"].contains(&v["outcome"].as_str().unwrap()),
        "{v}"
    );
    // A puzzle whose search runs out of its budget before any solution: 422 with the hint.
    let (s, v) = solve(json!({"puzzle": "puzzle 8x8 open\n1 . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n", "max-nodes": 3})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("max-nodes"), "{v}");
}

#[tokio::test]
async fn a_puzzle_request_from_another_site_is_refused() {
    let (s, v, _) = super::tests::call_with(
        &router(Config::default()),
        "POST",
        "/api/solve",
        r#"{"puzzle": "puzzle 1x1 open\n1\n"}"#,
        &[("origin", "http://evil.example")],
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
}
