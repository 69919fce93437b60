//! The count's amounts through the HTTP door: `max-memory` is read as the
//! command line reads `--max-memory` (whole or decimal, with a unit), then
//! held to this server's cap.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::Value;

use super::tests::call;
use super::{router, Config};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_memory_takes_what_the_command_line_takes() {
    let app = router(Config::default());
    for amount in ["100T", "1.5M", "0.5G", "2000000"] {
        let uri = format!("/api/count?board=5x6&kind=closed&max-memory={amount}");
        let (s, v, _) = call(&app, "POST", &uri, "").await;
        assert_eq!(s, StatusCode::ACCEPTED, "{amount}: {v}");
        let id = v["id"].as_str().unwrap().to_string();
        let mut done = Value::Null;
        for _ in 0..600 {
            let (_, v, _) = call(&app, "GET", &format!("/api/count/{id}"), "").await;
            if v["state"] != "running" {
                done = v;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(done["state"], "done", "{amount}: {done}");
        assert_eq!(done["count"], "8", "{amount}: {done}");
    }
    for bad in ["lots", "1.5Q", "-1G"] {
        let uri = format!("/api/count?board=5x6&max-memory={bad}");
        let (s, v, _) = call(&app, "POST", &uri, "").await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
        let text = v.to_string();
        assert!(
            text.contains("is not an amount of memory") && text.contains("1.5G"),
            "{bad}: {text}"
        );
    }
}
