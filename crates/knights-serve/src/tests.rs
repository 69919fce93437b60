//! API tests against the router (tower's `oneshot`): every endpoint, its
//! errors and its limits; every tour returned goes through the checker.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use knights::{check, format, Kind};
use serde_json::{json, Value};
use tower::ServiceExt;

use super::{router, Config};

/// The `Host` of the requests of these tests: the default [`Config::addr`].
const HOST: &str = "127.0.0.1:8080";

/// A request with `Host: HOST`: the status, the body (JSON, else its
/// text) and any `Retry-After`.
pub(super) async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    body: &str,
) -> (StatusCode, Value, Option<String>) {
    call_with(app, method, uri, body, &[]).await
}

/// A request with `Host: HOST` and these other headers.
pub(super) async fn call_with(
    app: &Router,
    method: &str,
    uri: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, Value, Option<String>) {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", HOST);
    for &(name, value) in headers {
        request = request.header(name, value);
    }
    let request = request.body(Body::from(body.to_string())).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value, retry)
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    let (s, v, _) = call(app, "GET", uri, "").await;
    (s, v)
}

/// Checks a tour answer with the library's checker; returns its kind.
fn checked(v: &Value) -> Kind {
    let doc = format::read(&v.to_string()).expect("tour JSON");
    match doc.into_valid().expect("a valid tour") {
        format::Valid::Tour(t) => check::check_tour(&t).unwrap(),
        format::Valid::Tourney(_) => panic!("a tourney, not a tour"),
    }
}

fn app() -> Router {
    router(Config::default())
}

#[tokio::test]
async fn tours_are_valid_for_every_algorithm_and_kind() {
    let app = app();
    let (s, v) = get(&app, "/api/tour?board=8x8&kind=closed&seed=1").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(checked(&v), Kind::Closed);
    assert_eq!(v["squares"].as_array().unwrap().len(), 64);
    for a in knights::algorithms::Algorithm::ALL {
        let board = if a.name() == "backtrack" {
            "6x6"
        } else {
            "8x8"
        };
        let (s, v) = get(
            &app,
            &format!(
                "/api/tour?board={board}&algorithm={}&kind=closed&seed=2",
                a.name()
            ),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{}: {v}", a.name());
        assert_eq!(checked(&v), Kind::Closed, "{}", a.name());
    }
    let (s, v) = get(
        &app,
        "/api/tour?board=5x5&kind=open&start=0,0&algorithm=warnsdorff&tie=pohl&max-attempts=50",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(checked(&v), Kind::Open);
    assert_eq!(v["squares"][0], json!([0, 0]));
    let (s, v) = get(&app, "/api/tour?board=12x12&kind=closed&obfuscate=4&seed=3").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(checked(&v), Kind::Closed);
}

#[tokio::test]
async fn the_compact_encoding_and_the_files() {
    let app = app();
    let (s, v) = get(&app, "/api/tour?board=1000x1000&encoding=moves").await;
    assert_eq!(s, StatusCode::OK);
    let moves = v["moves"].as_str().unwrap();
    assert_eq!(
        moves.len(),
        1_000_000,
        "a closed tour's moves include the one back"
    );
    // Rebuild the squares and check them.
    let (mut r, mut c) = (
        v["start"][0].as_i64().unwrap(),
        v["start"][1].as_i64().unwrap(),
    );
    let mut squares = vec![json!([r, c])];
    for k in moves.bytes().take(999_999) {
        let (dx, dy) = knights::board::MOVES[(k - b'0') as usize];
        r += i64::from(dy);
        c += i64::from(dx);
        squares.push(json!([r, c]));
    }
    let tour = json!({"rows": 1000, "cols": 1000, "closed": v["closed"], "squares": squares});
    assert_eq!(checked(&tour), Kind::Closed);
    for (format, start) in [("svg", "<svg"), ("grid", ""), ("moves", "")] {
        let (s, v) = get(&app, &format!("/api/tour?board=6x6&format={format}")).await;
        assert_eq!(s, StatusCode::OK);
        let text = v.as_str().unwrap();
        assert!(text.contains(start));
        let Ok(doc) = format::read(text) else {
            continue;
        };
        if let format::Valid::Tour(t) = doc.into_valid().unwrap() {
            check::check_tour(&t).unwrap();
        }
    }
}

#[tokio::test]
async fn bad_input_is_400_no_answer_422_over_the_cap_400() {
    let app = app();
    for (uri, words) in [
        ("/api/tour?board=0x8", "at least one row"),
        ("/api/tour?board=banana", "banana"),
        ("/api/tour", "missing field `board`"),
        ("/api/tour?board=8x8&kind=round", "unknown variant `round`"),
        ("/api/tour?board=8x8&algorithm=magic", "not an algorithm"),
        (
            "/api/tour?board=8x8&algorithm=warnsdorff&max-nodes=5",
            "does not apply",
        ),
        ("/api/tour?board=8x8&start=9,9", "not a square"),
        ("/api/tour?board=8x8&seed=-1", "seed"),
        ("/api/tour?board=8x8&format=pdf", "not a format"),
        ("/api/tour?board=8x8&board=6x6", "duplicate field `board`"),
        ("/api/tour?board=8x8&colour=red", "unknown field `colour`"),
        (
            "/api/tour?board=1001x1000",
            "of at most 1000000 squares (such as 1000x1000)",
        ),
        (
            "/api/tour?board=600x600&format=svg",
            "of at most 250000 squares (such as 500x500)",
        ),
        ("/api/exists?board=x", "x"),
        (
            "/api/tourney?board=8x8&algorithm=nope",
            "not a tourney generator",
        ),
        ("/api/tourney?board=600x600", "cap"),
        ("/api/theatre/warnsdorff?board=30x30", "cap"),
        (
            "/api/theatre/search?board=6x6&algorithm=neural",
            "backtrack or hybrid",
        ),
    ] {
        let (s, v) = get(&app, uri).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(words), "{uri}: {e}");
    }
    // The same sentence as the command line.
    let cli = "0x8".parse::<knights::Board>().unwrap_err().to_string();
    assert_eq!(
        get(&app, "/api/tour?board=0x8").await.1["error"],
        json!(cli)
    );
    for uri in [
        "/api/tour?board=4x4&kind=closed",
        "/api/tour?board=3x3",
        "/api/tour?board=5x5&kind=closed",
    ] {
        let (s, v) = get(&app, uri).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{uri}");
        assert!(v["error"].as_str().unwrap().contains("no "), "{v}");
    }
    let (s, _) = get(&app, "/api/nothing").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = get(&app, "/").await;
    assert_eq!(s, StatusCode::OK);
    assert!(v.as_str().unwrap().contains("Tour explorer"));
}

#[tokio::test]
async fn existence_and_info() {
    let app = app();
    let (s, v) = get(&app, "/api/exists?board=4x7&kind=closed").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        (v["answer"].as_str(), v["kind"].as_str()),
        (Some("no"), Some("closed"))
    );
    assert!(v["reason"].as_str().unwrap().contains("side of 4"), "{v}");
    assert!(v["theorem"].is_string(), "{v}");
    // Either kind: the open tour, and why there is no closed one.
    let (_, v) = get(&app, "/api/exists?board=4x7").await;
    assert_eq!(
        (v["answer"].as_str(), v["kind"].as_str()),
        (Some("yes"), Some("open"))
    );
    assert!(
        v["reason"].as_str().unwrap().contains("no closed tour"),
        "{v}"
    );
    let (_, v) = get(&app, "/api/info").await;
    assert_eq!(
        v["algorithms"].as_array().unwrap().len(),
        knights::algorithms::Algorithm::ALL.len()
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 8);
}

/// The page offers the generators `/api/info` lists: each must make a
/// tourney (the default, warnsdorff, was once refused by its own name).
#[tokio::test]
async fn every_generator_the_info_lists_makes_a_tourney() {
    let app = app();
    let (_, info) = get(&app, "/api/info").await;
    let names: Vec<&str> = info["generators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names.len(),
        knights::algorithms::tourney::Generator::ALL.len()
    );
    for name in names {
        let (s, t) = get(
            &app,
            &format!("/api/tourney?board=8x8&algorithm={name}&seed=1"),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{name}: {t}");
        assert_eq!(t["algorithm"], json!(name));
        let body = json!({"rows": 8, "cols": 8, "cycles": t["cycles"]}).to_string();
        let doc = format::read(&body).expect("tourney JSON");
        match doc.into_valid().expect("a valid tourney") {
            format::Valid::Tourney(cover) => {
                let squares: usize = cover.cycles().iter().map(Vec::len).sum();
                assert_eq!(squares, 64, "{name} covers the board");
            }
            format::Valid::Tour(_) => {} // one cycle that visits every square
        }
    }
}

#[tokio::test]
async fn tourneys_join_shatter_obfuscate_stats_check() {
    let app = app();
    let (s, t) = get(&app, "/api/tourney?board=8x8&algorithm=four-cover").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(t["cycles"].as_array().unwrap().len(), 16);
    assert!(!t["rails"].as_array().unwrap().is_empty());
    let cover = json!({"rows": 8, "cols": 8, "cycles": t["cycles"]}).to_string();
    let body = json!({"cover": cover, "seed": 1}).to_string();
    let (s, j, _) = call(&app, "POST", "/api/join?steps=true", &body).await;
    assert_eq!(s, StatusCode::OK, "{j}");
    assert_eq!(checked(&j["tour"]), Kind::Closed);
    let steps = j["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["cycles"].as_array().unwrap().len(), 15 - i);
    }
    let tour = j["tour"].to_string();
    let body = json!({"cover": tour, "seed": 2}).to_string();
    let (s, sh, _) = call(&app, "POST", "/api/shatter", &body).await;
    assert_eq!(s, StatusCode::OK, "{sh}");
    assert!(sh["cycles"].as_array().unwrap().len() > 1);
    assert!(sh["rails_switched"].as_u64().unwrap() > 0, "{sh}");
    let body = json!({"cover": tour, "seed": 2, "shatters": 3}).to_string();
    let (s, o, _) = call(&app, "POST", "/api/obfuscate", &body).await;
    assert_eq!(s, StatusCode::OK, "{o}");
    assert_eq!(checked(&o), Kind::Closed);
    assert_eq!(
        o["squares"][0], j["tour"]["squares"][0],
        "the start is kept"
    );
    let (s, st, _) = call(&app, "POST", "/api/stats", &tour).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        st["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum::<u64>(),
        64
    );
    let body = json!({ "text": tour }).to_string();
    let (s, c, _) = call(&app, "POST", "/api/check", &body).await;
    assert_eq!(
        (s, c["valid"].clone(), c["verdict"].clone()),
        (StatusCode::OK, json!(true), json!("closed tour on 8x8"))
    );
    let broken = json!({"text": r#"{"rows":3,"cols":3,"squares":[[0,0],[0,1]]}"#}).to_string();
    let (s, c, _) = call(&app, "POST", "/api/check", &broken).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{c}");
    for body in ["not a tour", r#"{"cover": "not a tour"}"#] {
        let (s, v, _) = call(&app, "POST", "/api/join", body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    }
    // The library's rule: an obfuscation shatters at least once.
    let body = json!({"cover": tour, "shatters": 0}).to_string();
    let (s, v, _) = call(&app, "POST", "/api/obfuscate", &body).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("shatters"), "{v}");
}

#[tokio::test]
async fn the_cipher_round_trips_and_bodies_have_a_limit() {
    let app = app();
    let message = "Meet me at the old mill.\nÀ bientôt!";
    let (s, e, _) = call(
        &app,
        "POST",
        "/api/encrypt",
        &json!({"key": "8x8,seed=5", "text": message}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{e}");
    assert_eq!(
        checked(&json!({"rows": 8, "cols": 8, "squares": e["key"]["squares"]})),
        Kind::Open
    );
    let (s, d, _) = call(
        &app,
        "POST",
        "/api/decrypt",
        &json!({"key": "8x8,seed=5", "text": e["text"]}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(d["text"], json!(message));
    // A pasted tour as the key.
    let (_, tour) = get(&app, "/api/tour?board=5x6&kind=open").await;
    checked(&tour);
    let (s, e, _) = call(
        &app,
        "POST",
        "/api/encrypt",
        &json!({"key": tour.to_string(), "text": "ATTACK AT DAWN", "classic": true}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let (s, v, _) = call(&app, "POST", "/api/encrypt", r#"{"key": "8x8,seed=5"}"#).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let big = "x".repeat(2 << 20);
    let (s, v, _) = call(&app, "POST", "/api/encrypt", &big).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(v["error"].as_str().unwrap().contains("limit"));
}

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
    let (s, _, _) = call(&app, "DELETE", &format!("/api/count/{id}"), "").await;
    assert_eq!(s, StatusCode::OK);
    let mut state = Value::Null;
    for _ in 0..600 {
        state = get(&app, &format!("/api/count/{id}")).await.1["state"].clone();
        if state != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(state, json!("cancelled"));
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

#[tokio::test]
async fn boards_beyond_the_rectangle() {
    let app = app();
    // The 4x4 torus, as squares even when the compact encoding is asked.
    let (s, v) = get(
        &app,
        "/api/tour?board=4x4&kind=closed&wrap=both&encoding=moves",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["wrap"], "both");
    assert_eq!(checked(&v), Kind::Closed);
    // Start and end on 8x8.
    let (s, v) = get(&app, "/api/tour?board=8x8&start=0,0&end=7,0").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["squares"][63], json!([7, 0]));
    checked(&v);
    let (s, v) = get(&app, "/api/tour?board=8x8&start=0,0&end=7,7").await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    // Holes as board text, rows separated by '/'.
    let (s, v) = get(
        &app,
        "/api/tour?board=6x6&holes=....../.%23..../....../....../.%23..../......",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["holes"], json!([[1, 1], [4, 1]]));
    checked(&v);
    let (s, v) = get(&app, "/api/tour?board=6x5&holes=....../......").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Existence: yes, no and the leaper's reason.
    let (s, v) = get(&app, "/api/exists?board=10x10&leaper=2,3&kind=open").await;
    assert_eq!(
        (s, v["answer"].as_str()),
        (StatusCode::OK, Some("yes")),
        "{v}"
    );
    let (s, v) = get(&app, "/api/exists?board=8x8&leaper=1,3").await;
    assert_eq!(
        (s, v["answer"].as_str()),
        (StatusCode::OK, Some("no")),
        "{v}"
    );
    assert!(v["reason"].as_str().unwrap().contains("colour"));
    let (s, v) = get(&app, "/api/exists?board=8x8&start=0,0&end=7,7").await;
    assert_eq!(
        (s, v["answer"].as_str()),
        (StatusCode::OK, Some("no")),
        "{v}"
    );
}

/// The status of `uri` with these headers (and `Host: HOST` unless given).
async fn status_with(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
) -> StatusCode {
    let mut request = Request::builder().method(method).uri(uri);
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        request = request.header("host", HOST);
    }
    for &(name, value) in headers {
        request = request.header(name, value);
    }
    let response = app
        .clone()
        .oneshot(request.body(Body::from("{}")).unwrap())
        .await
        .unwrap();
    response.status()
}

#[tokio::test]
async fn other_hosts_are_refused_dns_rebinding() {
    let app = app();
    for uri in ["/", "/api/info", "/api/tour?board=5x6"] {
        let s = status_with(&app, "GET", uri, &[("host", "evil.example")]).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{uri}");
        let s = status_with(&app, "GET", uri, &[("host", "evil.example:8080")]).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{uri}");
    }
    let request = Request::builder()
        .uri("/api/info")
        .header("host", "evil.example")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(v["error"].as_str().unwrap().contains("evil.example"), "{v}");
    for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080"] {
        let s = status_with(&app, "GET", "/api/info", &[("host", host)]).await;
        assert_eq!(s, StatusCode::OK, "{host}");
    }
    // A name allowed on purpose.
    let app = router(Config {
        allow_hosts: vec!["knights.example".into()],
        ..Config::default()
    });
    let s = status_with(&app, "GET", "/api/info", &[("host", "knights.example")]).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_origins_and_cross_site_requests_are_refused() {
    let app = router(Config {
        jobs: 1,
        max_waiting: 0,
        ..Config::default()
    });
    let cipher = json!({"key": "8x8,seed=5", "text": "hello"}).to_string();
    for (method, uri, body) in [
        ("POST", "/api/encrypt", cipher.as_str()),
        ("POST", "/api/count?board=6x8&kind=open", ""),
        ("GET", "/api/tour?board=5x6", ""),
        ("GET", "/api/count/0/events", ""),
    ] {
        for headers in [
            &[("origin", "http://evil.example")][..],
            &[("origin", "http://127.0.0.1:9999")],
            &[("origin", "http://127.0.0.2:8080")],
            &[("origin", "https://127.0.0.1:8080")],
            &[("origin", "http://localhost:8080")],
            &[("origin", "null")],
            &[("sec-fetch-site", "cross-site")],
            &[("sec-fetch-site", "same-site")],
        ] {
            let (s, v, _) = call_with(&app, method, uri, body, headers).await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{method} {uri} {headers:?}: {v}");
            assert!(v["error"].as_str().unwrap().contains("own page"), "{v}");
        }
    }
    // The refused count took no job slot: the only one is free.
    let (s, v, _) = call_with(
        &app,
        "POST",
        "/api/count?board=6x8&kind=open",
        "",
        &[
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin"),
        ],
    )
    .await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    cancel_and_wait(&app, v["id"].as_str().unwrap()).await;
    // Its own page, a typed address and other clients are answered.
    for headers in [
        &[("origin", "http://127.0.0.1:8080")][..],
        &[("sec-fetch-site", "same-origin")],
        &[("sec-fetch-site", "none")],
        &[],
    ] {
        let (s, v, _) = call_with(&app, "POST", "/api/encrypt", &cipher, headers).await;
        assert_eq!(s, StatusCode::OK, "{headers:?}: {v}");
    }
    // The page itself may be linked from anywhere.
    let s = status_with(&app, "GET", "/", &[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_events_does_not_cancel_and_ids_cannot_be_guessed() {
    let app = app();
    let (s, v, _) = call(&app, "POST", "/api/count?board=6x8&kind=open", "").await;
    assert_eq!(s, StatusCode::ACCEPTED);
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32, "{id}");
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    // Open the events, read the first one, close them.
    let request = Request::builder()
        .uri(format!("/api/count/{id}/events"))
        .header("host", HOST)
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("event: progress"));
    drop(body);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, v) = get(&app, &format!("/api/count/{id}")).await;
    assert_eq!(v["state"], json!("running"), "{v}");
    // A second job has another id, neither is a small number.
    let (s, w, _) = call(&app, "POST", "/api/count?board=5x6&kind=closed", "").await;
    assert_eq!(s, StatusCode::ACCEPTED);
    let other = w["id"].as_str().unwrap();
    assert_ne!(other, id);
    for guess in ["1", "2", "3"] {
        let (s, _) = get(&app, &format!("/api/count/{guess}")).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
    }
    // Only DELETE cancels.
    let (s, _, _) = call(&app, "DELETE", &format!("/api/count/{id}"), "").await;
    assert_eq!(s, StatusCode::OK);
    let mut state = Value::Null;
    for _ in 0..600 {
        state = get(&app, &format!("/api/count/{id}")).await.1["state"].clone();
        if state != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(state, json!("cancelled"));
}

/// Cancels a count and waits until it has stopped (and freed its slot).
/// Cancels a count and waits until it says it is over (it stops after the
/// square in progress); fails after 30 s.
async fn cancel_and_wait(app: &Router, id: &str) {
    let (s, _, _) = call(app, "DELETE", &format!("/api/count/{id}"), "").await;
    assert_eq!(s, StatusCode::OK);
    for _ in 0..1500 {
        if get(app, &format!("/api/count/{id}")).await.1["state"] != "running" {
            return;
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

#[tokio::test]
async fn large_answers_are_not_compressed() {
    let app = app();
    for (uri, compressed) in [
        ("/api/info", true),
        ("/api/tour?board=1000x1000&encoding=moves", false),
    ] {
        let request = Request::builder()
            .uri(uri)
            .header("host", HOST)
            .header("accept-encoding", "gzip")
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let encoding = response.headers().get("content-encoding");
        assert_eq!(encoding.is_some(), compressed, "{uri}");
    }
}

/// A request's work runs at the least scheduling priority (nice 19), so
/// the server's own threads, which answer the cheap requests, come first
/// on a busy machine. The nice value is the 19th field of the thread's
/// `stat`, after the command name in parentheses.
#[test]
fn work_runs_at_the_least_priority() {
    fn nice() -> i64 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        after_name.split(' ').nth(16).unwrap().parse().unwrap()
    }
    let (before, after) = std::thread::spawn(|| {
        let before = nice();
        super::work_priority();
        (before, nice())
    })
    .join()
    .unwrap();
    assert_eq!(after, 19, "the nice value was {before} before");
}
