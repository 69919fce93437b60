//! API tests of the jobs (counts, sweeps, searches, the theatre) against
//! the router: they run, report, cancel, queue, and stop at their limits.

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};

use super::tests::{app, call, checked, get};
use super::{router, Config};

/// A finished count's status, polled for up to 30 s.
async fn finished_count(app: &Router, id: &str) -> Value {
    for _ in 0..600 {
        let (_, v) = get(app, &format!("/api/count/{id}")).await;
        if v["state"] != "running" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the count {id} is still running after 30 s");
}

/// Sweeps give every prefix's count as exact strings, beside the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sweeps_give_every_prefix() {
    let app = app();
    for (query, first, last) in [
        (
            "board=3x4&kind=open&of=all-cells",
            json!(["1", "1"]),
            json!(["12", "8"]),
        ),
        (
            "board=5x6&kind=closed&of=all-lengths",
            json!(["5x1", "0"]),
            json!(["5x6", "8"]),
        ),
    ] {
        let (s, v, _) = call(&app, "POST", &format!("/api/count?{query}"), "").await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        assert_eq!(
            v["known"],
            Value::Null,
            "a sweep has no one published count"
        );
        let done = finished_count(&app, v["id"].as_str().unwrap()).await;
        assert_eq!(done["state"], json!("done"), "{done}");
        let prefixes = done["prefixes"].as_array().unwrap();
        assert_eq!(prefixes.first(), Some(&first), "{query}");
        assert_eq!(prefixes.last(), Some(&last), "{query}");
    }
    // A plain count has none.
    let (_, v, _) = call(&app, "POST", "/api/count?board=3x4&kind=open", "").await;
    let done = finished_count(&app, v["id"].as_str().unwrap()).await;
    assert_eq!(done["count"], json!("8"));
    assert!(done.get("prefixes").is_none(), "{done}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_run_report_and_cancel() {
    let app = app();
    let (s, v, _) = call(&app, "POST", "/api/count?board=5x6&kind=closed", "").await;
    assert_eq!(s, StatusCode::ACCEPTED);
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["known"]["count"], json!("8"));
    let done = finished_count(&app, &id).await;
    assert_eq!(done["state"], json!("done"), "{done}");
    assert_eq!(done["count"], json!("8"));
    // A long count, cancelled.
    let (s, v, _) = call(&app, "POST", "/api/count?board=6x8&kind=open", "").await;
    assert_eq!(s, StatusCode::ACCEPTED);
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(cancel_and_wait(&app, &id).await, json!("cancelled"));
    let (s, v) = get(&app, "/api/count/999").await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, v, _) = call(&app, "POST", "/api/count?board=7x7", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("of at most 48 squares (such as 6x8)"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_busy_is_503_with_retry_after() {
    let app = router(Config {
        jobs: 1,
        max_waiting: 0,
        ..Config::default()
    });
    // One long count holds the only heavy slot.
    let (s, v, _) = call(&app, "POST", "/api/count?board=6x8&kind=open", "").await;
    assert_eq!(s, StatusCode::ACCEPTED);
    let (s, e, retry) = call(&app, "GET", "/api/tour?board=200x200", "").await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    assert!(retry.is_some());
    assert!(e["error"].as_str().unwrap().contains("busy"));
    // A small board has a lane of its own: it does not wait behind the count.
    let (s, t) = get(&app, "/api/tour?board=5x6&kind=open").await;
    assert_eq!(s, StatusCode::OK, "{t}");
    checked(&t);
    call(
        &app,
        "DELETE",
        &format!("/api/count/{}", v["id"].as_str().unwrap()),
        "",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_past_the_time_limit_is_stopped() {
    let app = router(Config {
        timeout: Duration::from_millis(300),
        ..Config::default()
    });
    let (s, v) = get(
        &app,
        "/api/tour?board=8x8&algorithm=backtrack&start=0,0&kind=closed&max-nodes=100000000000",
    )
    .await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("limit"));
}

/// A search on a small board with a huge budget is heavy work: with as
/// many of them running as there are slots, the construction of a small
/// board still answers at once (no request waits: `max_waiting` is 0).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_with_a_budget_on_a_small_board_does_not_take_a_light_slot() {
    let jobs = 2;
    let app = router(Config {
        timeout: Duration::from_secs(10),
        jobs,
        max_waiting: 0,
        ..Config::default()
    });
    let runaway = "/api/tour?board=12x12&algorithm=backtrack&kind=closed&max-nodes=100000000000";
    for _ in 0..jobs {
        let app = app.clone();
        tokio::spawn(async move { get(&app, runaway).await });
    }
    // Once one more of them is refused as busy, the others hold their slots.
    let mut full = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (s, v) = get(&app, runaway).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
        if v["error"].as_str().unwrap().contains("busy") {
            full = true;
            break;
        }
    }
    assert!(full, "the searches did not hold their slots");
    for board in ["5x6", "8x8", "10x10"] {
        let (s, v) = get(
            &app,
            &format!("/api/tour?board={board}&algorithm=construct"),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{board}: {v}");
        checked(&v);
    }
    let (s, v) = get(&app, "/api/tour?board=6x6").await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// The wait for a slot and the work share one deadline: a request that
/// waited most of its time for the only slot gets only what is left for
/// its work, so it is answered by the server's own JSON 503 with
/// `Retry-After`, not by the router's bare backstop at the limit + 5 s
/// (which came first when the wait and the work had the limit each).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_wait_and_the_work_share_one_deadline() {
    let app = router(Config {
        timeout: Duration::from_secs(6),
        jobs: 1,
        ..Config::default()
    });
    let runaway = "/api/tour?board=12x12&algorithm=backtrack&kind=closed&max-nodes=100000000000";
    let first = {
        let app = app.clone();
        tokio::spawn(async move { call(&app, "GET", runaway, "").await })
    };
    tokio::time::sleep(Duration::from_secs(1)).await;
    let second = call(&app, "GET", runaway, "").await;
    for (s, v, retry) in [first.await.unwrap(), second] {
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "a bare 503: {v}"
        );
        assert!(retry.is_some(), "no Retry-After: {v}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_theatre_replays_and_streams() {
    let app = app();
    let (s, w) = get(
        &app,
        "/api/theatre/warnsdorff?board=6x6&seed=1&tie=random&kind=open",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{w}");
    checked(&json!({"rows": 6, "cols": 6, "squares": w["squares"]}));
    assert_eq!(w["steps"].as_array().unwrap().len(), 35);
    let (s, n) = get(&app, "/api/theatre/neural?board=6x6&seed=1").await;
    assert_eq!(s, StatusCode::OK);
    assert!(!n["rounds"].as_array().unwrap().is_empty());
    let (s, text) = get(
        &app,
        "/api/theatre/search?board=5x5&algorithm=hybrid&rate=100000",
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let text = text.as_str().unwrap();
    assert!(
        text.contains("event: steps") && text.contains("event: done"),
        "{text}"
    );
    let done = text
        .split("event: done\ndata: ")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let done: Value = serde_json::from_str(done).unwrap();
    assert_eq!(done["found"], json!(true));
    checked(&json!({"rows": 5, "cols": 5, "squares": done["squares"]}));
}

/// Cancels a count and waits until it says it is over (it stops after the
/// square in progress, which frees its slot); fails after 30 s. The state
/// it ended in.
pub(super) async fn cancel_and_wait(app: &Router, id: &str) -> Value {
    let (s, _, _) = call(app, "DELETE", &format!("/api/count/{id}"), "").await;
    assert_eq!(s, StatusCode::OK);
    for _ in 0..1500 {
        let state = get(app, &format!("/api/count/{id}")).await.1["state"].clone();
        if state != "running" {
            return state;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the count {id} was still running 30 s after it was cancelled");
}

/// Polls until `jobs` counts start at once (each takes a heavy slot or is
/// refused at once); cancels them. Whether they did within `tries` tenths
/// of a second.
async fn a_full_set_starts(app: &Router, jobs: usize, tries: u32) -> bool {
    for _ in 0..tries {
        let mut ids = Vec::new();
        for _ in 0..jobs {
            let (s, v, _) = call(app, "POST", "/api/count?board=6x8&kind=open", "").await;
            if s == StatusCode::ACCEPTED {
                ids.push(v["id"].as_str().unwrap().to_string());
            }
        }
        let all = ids.len() == jobs;
        for id in &ids {
            cancel_and_wait(app, id).await;
        }
        if all {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn runaway_jobs_stop_at_the_limit_and_free_their_slots() {
    let jobs = 2;
    let app = router(Config {
        timeout: Duration::from_secs(1),
        jobs,
        max_waiting: 0,
        max_count_jobs: 64,
        ..Config::default()
    });
    let encrypt: &'static str = r#"{"key": "500x500,attempts=4294967295", "text": "x"}"#;
    let runaways = [
        ("POST", "/api/encrypt", encrypt),
        (
            "GET",
            "/api/tour?board=1000x1000&algorithm=warnsdorff&max-attempts=4294967295",
            "",
        ),
        (
            "GET",
            "/api/tour?board=200x200&algorithm=takefuji-lee&max-attempts=4294967295",
            "",
        ),
        (
            "GET",
            "/api/tour?board=180x180&algorithm=neural&kind=closed",
            "",
        ),
    ];
    for (method, uri, body) in runaways {
        let mut tasks = Vec::new();
        for _ in 0..jobs {
            let app = app.clone();
            tasks.push(tokio::spawn(
                async move { call(&app, method, uri, body).await },
            ));
        }
        for task in tasks {
            let (s, v, _) = task.await.unwrap();
            if s == StatusCode::OK {
                // Done within the limit: nothing ran away.
                continue;
            }
            assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{uri}: {v}");
            assert!(v["error"].as_str().unwrap().contains("limit"), "{uri}: {v}");
        }
        assert!(
            a_full_set_starts(&app, jobs, 20).await,
            "{uri}: the heavy slots were not freed after the time limit"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn theatre_streams_end_at_their_limit_and_free_their_slot() {
    let app = router(Config {
        jobs: 1,
        max_waiting: 0,
        stream_timeout: Duration::from_millis(500),
        ..Config::default()
    });
    // One step a second: the stream would run for hours.
    let stream = get(&app, "/api/theatre/search?board=6x6&kind=closed&rate=1");
    let (s, text) = tokio::time::timeout(Duration::from_secs(60), stream)
        .await
        .expect("the stream ended at its limit");
    assert_eq!(s, StatusCode::OK);
    let text = text.as_str().unwrap();
    let done = text.split("event: done\ndata: ").nth(1).expect(text);
    assert!(done.contains("limit"), "{done}");
    assert!(
        a_full_set_starts(&app, 1, 20).await,
        "the slot was not freed"
    );
}
