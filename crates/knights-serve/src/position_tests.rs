//! `POST /api/position` against the router: an answer checked by the
//! library's checker, the refusals (each with its status and one sentence),
//! the cap and the guard.

use axum::http::StatusCode;
use knights::{check, Board, Tour};
use serde_json::{json, Value};

use super::tests::{call, call_with};
use super::{router, Config};

async fn position(body: &Value) -> (StatusCode, Value) {
    let (s, v, _) = call(
        &router(Config::default()),
        "POST",
        "/api/position",
        &body.to_string(),
    )
    .await;
    (s, v)
}

#[tokio::test]
async fn a_position_answers_its_moves_verdict_completion_and_hints() {
    let (s, v) = position(&json!({"board": "5x5", "path": ["0,0", "1,2"], "kind": "open"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["path"], json!([0, 7]));
    assert_eq!(v["verdict"], "finishable");
    assert_eq!(v["won"], false);
    let legal: Vec<u64> = serde_json::from_value(v["legal-moves"].clone()).unwrap();
    assert!(!legal.is_empty() && !legal.contains(&0), "{v}");
    // The path and its completion make an open tour, by the checker.
    let board = Board::new(5, 5).unwrap();
    let completion: Vec<u32> = serde_json::from_value(v["completion"].clone()).unwrap();
    let squares: Vec<u32> = [0, 7].into_iter().chain(completion).collect();
    let tour = Tour::new(board, squares).expect("a tour");
    check::check_tour(&tour).expect("a valid tour");
    // Every hint is a legal move; the first is safe.
    let hints = v["hints"].as_array().unwrap();
    assert_eq!(hints.len(), legal.len());
    assert_eq!(hints[0]["status"], "safe", "{v}");
    for h in hints {
        assert!(legal.contains(&h["square"].as_u64().unwrap()), "{h}");
        assert_eq!(
            h["square"],
            h["row"].as_u64().unwrap() * 5 + h["col"].as_u64().unwrap()
        );
    }
}

#[tokio::test]
async fn a_dead_end_says_why_and_a_finished_tour_is_won() {
    let (s, v) = position(&json!({"board": "3x3", "path": ["0,0", "1,2"]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "not-finishable");
    assert_eq!(v["reason-kind"], "unreachable");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("nothing can still enter"),
        "{v}"
    );
    // A whole 5x5 open tour, played: the one checker names it.
    let (_, v) =
        position(&json!({"board": "5x5", "path": ["0,0"], "kind": "open", "hints": false})).await;
    let rest: Vec<u32> = serde_json::from_value(v["completion"].clone()).unwrap();
    let path: Vec<String> = std::iter::once(0)
        .chain(rest)
        .map(|s| format!("{},{}", s / 5, s % 5))
        .collect();
    let (s, v) = position(&json!({"board": "5x5", "path": path, "kind": "open"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["finished"].clone(), v["won"].clone(), v["left"].clone()),
        (json!("open"), json!(true), json!(0))
    );
}

#[tokio::test]
async fn bad_positions_are_refused_with_a_status_and_one_sentence() {
    for (body, words) in [
        (
            "{\"board\": \"5x5\", ".to_string(),
            "not the request's JSON",
        ),
        (
            json!({"board": "5x5", "path": ["0,0", "0,1"]}).to_string(),
            "not one move from",
        ),
        (
            json!({"board": "5x5", "goal": "closed"}).to_string(),
            "goal",
        ),
        (
            json!({"board": "5x5", "path": ["9,9"]}).to_string(),
            "not a square",
        ),
        (
            json!({"board": "5x5", "kind": "round"}).to_string(),
            "round",
        ),
        (
            json!({"board": "600x600"}).to_string(),
            "over this server's cap for /api/position",
        ),
        // Refused before any move graph is built (3.6 x 10^9 squares).
        (
            json!({"board": "60000x60000", "path": ["0,0"]}).to_string(),
            "over this server's cap for /api/position",
        ),
    ] {
        let (s, v, _) = call(&router(Config::default()), "POST", "/api/position", &body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        let said = v["error"].as_str().unwrap();
        assert!(said.contains(words), "{body}: {said}");
        assert!(
            said.trim_end_matches('.').matches(". ").count() <= 1,
            "{said}"
        );
    }
    // 50x50 is within the cap.
    let (s, v) = position(&json!({"board": "50x50", "path": ["0,0"], "max-nodes": 1000})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["rows"], 50);
    // A query parameter is none of this endpoint's.
    let (s, v, _) = call(
        &router(Config::default()),
        "POST",
        "/api/position?x=1",
        "{\"board\": \"5x5\"}",
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn another_sites_page_cannot_ask_for_a_position() {
    let app = router(Config::default());
    let body = json!({"board": "5x5"}).to_string();
    for headers in [
        &[("origin", "http://evil.example")][..],
        &[("sec-fetch-site", "cross-site")],
    ] {
        let (s, v, _) = call_with(&app, "POST", "/api/position", &body, headers).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{headers:?}: {v}");
    }
    let own = [("origin", "http://127.0.0.1:8080")];
    let (s, v, _) = call_with(&app, "POST", "/api/position", &body, &own).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_past_the_time_limit_is_stopped_not_hung() {
    let app = router(Config {
        timeout: std::time::Duration::from_millis(100),
        ..Config::default()
    });
    // A position of random play on 8x8 whose hints take seconds at the
    // default budget, here with a budget of 2^40 nodes: the time limit
    // stops it.
    let shape = knights::shape::Shape::new(Board::new(8, 8).unwrap());
    let path = super::position_latency::random_path(&shape, 1115);
    let body = json!({"board": "8x8", "path": path, "max-nodes": 1u64 << 40});
    let (s, v, retry) = call(&app, "POST", "/api/position", &body.to_string()).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("stopped"), "{v}");
    assert!(retry.is_some(), "{v}");
}
