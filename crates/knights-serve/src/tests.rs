//! API tests against the router (tower's `oneshot`): every endpoint, its
//! errors and its limits; every tour returned goes through the checker.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use knights::{check, format, Kind};
use serde_json::{json, Value};
use tower::ServiceExt;

use super::{router, Config};

/// The `Host` of the requests of these tests: the default [`Config::addr`].
pub(super) const HOST: &str = "127.0.0.1:8080";

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

pub(super) async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    let (s, v, _) = call(app, "GET", uri, "").await;
    (s, v)
}

/// Checks a tour answer with the library's checker; returns its kind.
pub(super) fn checked(v: &Value) -> Kind {
    let doc = format::read(&v.to_string()).expect("tour JSON");
    match doc.into_checked().expect("a valid tour") {
        format::Checked::Tour(t) => check::check_tour(&t).unwrap(),
        format::Checked::Tourney(_) => panic!("a tourney, not a tour"),
    }
}

pub(super) fn app() -> Router {
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
        if let format::Checked::Tour(t) = doc.into_checked().unwrap() {
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
    assert_eq!(names.len(), knights::algorithms::TourneyMethod::ALL.len());
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
        match doc.into_checked().expect("a valid tourney") {
            format::Checked::Tourney(cover) => {
                let squares: usize = cover.cycles().iter().map(Vec::len).sum();
                assert_eq!(squares, 64, "{name} covers the board");
            }
            format::Checked::Tour(_) => {} // one cycle that visits every square
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
