//! The conformance table (`crates/knights/tests/data/conformance.toml`)
//! through the web API, on the router in process: each case's request, in
//! the library's request model, becomes the query parameters or body a
//! page sends (the translation table below), and the answer and HTTP
//! status must show the facts or the error category the table expects
//! (statuses as docs/formats.md lists them).

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use knights_conformance::{
    cases, file_facts, position_facts, puzzle_facts, solve_facts, text, Case,
};
use serde_json::{json, Map, Value};
use tower::ServiceExt;

use super::{router, Config};

/// The method and path of each job's endpoint.
fn endpoint(job: &str) -> (&'static str, &'static str) {
    match job {
        "tour" => ("GET", "/api/tour"),
        "tourney" => ("GET", "/api/tourney"),
        "exists" => ("GET", "/api/exists"),
        "count" => ("POST", "/api/count"),
        "dry-run" => ("GET", "/api/dry-run"),
        "estimate" => ("GET", "/api/estimate"),
        "join" => ("POST", "/api/join"),
        "shatter" => ("POST", "/api/shatter"),
        "obfuscate" => ("POST", "/api/obfuscate"),
        "check" => ("POST", "/api/check"),
        "encrypt" => ("POST", "/api/encrypt"),
        "decrypt" => ("POST", "/api/decrypt"),
        "position" => ("POST", "/api/position"),
        "puzzle" => ("GET", "/api/puzzle"),
        "solve" => ("POST", "/api/solve"),
        other => panic!("the server has no {other}"),
    }
}

/// The HTTP status of an error category.
fn http_status(category: &str) -> StatusCode {
    match category {
        "bad-input" => StatusCode::BAD_REQUEST,
        "no-answer" => StatusCode::UNPROCESSABLE_ENTITY,
        "over-limit" => StatusCode::PAYLOAD_TOO_LARGE,
        "interrupted" => StatusCode::SERVICE_UNAVAILABLE,
        "io" => StatusCode::INTERNAL_SERVER_ERROR,
        other => panic!("no category {other}"),
    }
}

/// The URI (path and query) and body of `case`: the request's fields by
/// their own names, as a `GET`'s (or a count's) query parameters or as a
/// `POST`'s JSON body.
fn http_request(case: &Case) -> (&'static str, String, String) {
    let (method, path) = endpoint(&case.job);
    if method == "POST" && case.job != "count" {
        let body = serde_json::to_string(&case.request).expect("a request is JSON");
        return (method, path.to_string(), body);
    }
    let query: Vec<String> = case
        .request
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(&text(v))))
        .collect();
    (method, format!("{path}?{}", query.join("&")), String::new())
}

/// `text` percent-encoded for a query.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One call of the router: the status and the JSON answer.
async fn call(app: &Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1:8080")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A count's job followed to its end: its last status.
async fn finished(app: &Router, started: Value) -> (StatusCode, Value) {
    let id = started["id"].as_str().expect("a job id").to_string();
    for _ in 0..600 {
        let (status, v) = call(app, "GET", &format!("/api/count/{id}"), "").await;
        if v["state"] != "running" {
            return (status, v);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the count {id} did not finish");
}

/// The facts of an accepted case's answer.
fn facts(case: &Case, status: StatusCode, v: &Value) -> Map<String, Value> {
    let mut facts = Map::new();
    match case.job.as_str() {
        "tour" | "obfuscate" => facts = file_facts(&v.to_string()),
        // The tourney file's fields, without the rails drawn on the page.
        "tourney" | "shatter" => {
            let file = json!({"rows": v["rows"], "cols": v["cols"], "cycles": v["cycles"]});
            facts = file_facts(&file.to_string());
        }
        "join" => facts = file_facts(&v["tour"].to_string()),
        "exists" => {
            // Off the plain board an answer word; on it, both kinds' theorems.
            let answer = match &v["answer"] {
                Value::String(word) => word.clone(),
                _ => {
                    let kind = case.request.get("kind").map_or("closed".into(), text);
                    let yes = v[kind.as_str()]["exists"].as_bool().expect("exists");
                    if yes { "yes" } else { "no" }.to_string()
                }
            };
            facts.insert("answer".into(), json!(answer));
        }
        "count" => {
            assert_eq!(v["state"], json!("done"), "{v}");
            facts.insert(
                "count".into(),
                json!(v["count"].to_string().trim_matches('"')),
            );
        }
        "dry-run" => {
            for key in ["method", "order", "steps"] {
                facts.insert(key.into(), v[key].clone());
            }
        }
        "estimate" => {
            facts.insert("method".into(), v["method"].clone());
        }
        "encrypt" | "decrypt" => {
            facts.insert("text".into(), v["text"].clone());
        }
        "position" => facts = position_facts(v),
        "solve" => facts = solve_facts(v),
        "check" => {
            facts.insert("valid".into(), json!(status == StatusCode::OK));
            if status == StatusCode::OK {
                facts.insert("verdict".into(), v["verdict"].clone());
            }
            if let Some(word) = v["magic"].get("magic") {
                facts.insert("magic".into(), word.clone());
            }
        }
        other => panic!("the server has no {other}"),
    }
    if case.job != "check" {
        assert_eq!(status, StatusCode::OK, "{}: {v}", case.name);
    }
    facts
}

/// The facts of a generated puzzle's answer, with whether the server's own
/// solve of the puzzle's text proves its solution unique.
async fn generated_facts(app: &Router, status: StatusCode, v: &Value) -> Map<String, Value> {
    assert_eq!(status, StatusCode::OK, "{v}");
    let body = json!({ "puzzle": v["puzzle"]["text"] }).to_string();
    let (solved_status, solved) = call(app, "POST", "/api/solve", &body).await;
    assert_eq!(solved_status, StatusCode::OK, "{solved}");
    puzzle_facts(v, solved["unique"] == json!(true))
}

#[tokio::test]
async fn the_conformance_table_through_the_api() {
    let app = router(Config::default());
    for case in cases().iter().filter(|c| c.is_for("http")) {
        let name = &case.name;
        let (method, uri, body) = http_request(case);
        let (mut status, mut v) = call(&app, method, &uri, &body).await;
        if case.job == "count" && status == StatusCode::ACCEPTED {
            (status, v) = finished(&app, v).await;
        }
        if let Some(category) = &case.refused {
            assert_eq!(status, http_status(category), "{name}: {uri}: {v}");
            let said = v["error"].as_str().unwrap_or_default();
            case.assert_refusal_says(said, |field| format!("{field}="));
            continue;
        }
        let facts = match case.job.as_str() {
            "puzzle" => generated_facts(&app, status, &v).await,
            _ => facts(case, status, &v),
        };
        case.assert_facts(&facts, &format!("{uri} {v}"));
    }
}
