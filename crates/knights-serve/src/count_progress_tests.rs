//! A count job's progress names its phase: after a meeting's last square
//! the status moves on to the join, with the states joined, rather than
//! standing at "square 30 of 30".

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use super::{router, Config};

async fn call(app: &axum::Router, method: &str, uri: &str) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1:8080")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

/// 6x6 closed meets in the middle: its last progress is the join's, with
/// the bottom part's final states to join.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meetings_status_moves_on_to_its_join() {
    let app = router(Config::default());
    let (s, v) = call(&app, "POST", "/api/count?board=6x6&kind=closed").await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let mut done = Value::Null;
    for _ in 0..600 {
        done = call(&app, "GET", &format!("/api/count/{id}")).await.1;
        if done["state"] != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["count"], "9862");
    assert_eq!(done["phase"], "join", "{done}");
    let to_join = done["to_join"].as_u64().unwrap();
    assert!(
        to_join > 0 && done["joined"].as_u64().unwrap() <= to_join,
        "{done}"
    );
}
