//! A count job's progress names its phase: after a meeting's last square
//! the status moves on to the join, with the states joined, rather than
//! standing at "square 30 of 30".

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::Value;

use super::tests::call;
use super::{router, Config};

/// 6x6 closed meets in the middle: its last progress is the join's, with
/// the bottom part's final states to join.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meetings_status_moves_on_to_its_join() {
    let app = router(Config::default());
    let (s, v, _) = call(&app, "POST", "/api/count?board=6x6&kind=closed", "").await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let mut done = Value::Null;
    for _ in 0..600 {
        done = call(&app, "GET", &format!("/api/count/{id}"), "").await.1;
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
