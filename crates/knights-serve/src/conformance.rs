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
use knights::format::{self, Valid};
use serde_json::{json, Map, Value};
use tower::ServiceExt;

use super::{router, Config};

/// One row of the table (the fields this runner reads).
#[derive(serde::Deserialize)]
struct Case {
    name: String,
    job: String,
    request: toml::Table,
    doors: Vec<String>,
    #[serde(default)]
    expect: Option<toml::Table>,
    #[serde(default)]
    refused: Option<String>,
    /// Part of the library's sentence, which the door must show unchanged.
    #[serde(default)]
    says: Option<String>,
    /// The request's field that the refusal's advice names.
    #[serde(default)]
    hint: Option<String>,
}

#[derive(serde::Deserialize)]
struct Table {
    case: Vec<Case>,
}

/// The method and path of each job's endpoint.
fn endpoint(job: &str) -> (&'static str, &'static str) {
    match job {
        "tour" => ("GET", "/api/tour"),
        "tourney" => ("GET", "/api/tourney"),
        "exists" => ("GET", "/api/exists"),
        "count" => ("POST", "/api/count"),
        "join" => ("POST", "/api/join"),
        "shatter" => ("POST", "/api/shatter"),
        "obfuscate" => ("POST", "/api/obfuscate"),
        "check" => ("POST", "/api/check"),
        "encrypt" => ("POST", "/api/encrypt"),
        "decrypt" => ("POST", "/api/decrypt"),
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

/// A field's value as a query parameter.
fn text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
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

/// A tour or tourney answer's facts, after the checker has read it.
fn file_facts(v: &Value, facts: &mut Map<String, Value>) {
    let valid = format::read(&v.to_string())
        .and_then(|d| d.into_valid())
        .unwrap_or_else(|e| panic!("not a valid tour or tourney ({e}): {v}"));
    match valid {
        Valid::Tour(t) => {
            let at = |s: u32| json!([s / t.board().cols(), s % t.board().cols()]);
            facts.insert("closed".into(), json!(t.is_closed()));
            facts.insert("squares".into(), json!(t.squares().len()));
            facts.insert("start".into(), at(t.squares()[0]));
            facts.insert("end".into(), at(*t.squares().last().unwrap()));
            facts.insert("order".into(), json!(t.squares()));
        }
        Valid::Tourney(t) => {
            let squares: usize = t.cycles().iter().map(|c| c.len()).sum();
            facts.insert("squares".into(), json!(squares));
            facts.insert("cycles".into(), json!(t.cycles().len()));
        }
    }
}

/// The facts of an accepted case's answer.
fn facts(case: &Case, status: StatusCode, v: &Value) -> Map<String, Value> {
    let mut facts = Map::new();
    match case.job.as_str() {
        "tour" | "obfuscate" => file_facts(v, &mut facts),
        // The tourney file's fields, without the rails drawn on the page.
        "tourney" | "shatter" => file_facts(
            &json!({"rows": v["rows"], "cols": v["cols"], "cycles": v["cycles"]}),
            &mut facts,
        ),
        "join" => file_facts(&v["tour"], &mut facts),
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
        "encrypt" | "decrypt" => {
            facts.insert("text".into(), v["text"].clone());
        }
        "check" => {
            facts.insert("valid".into(), json!(status == StatusCode::OK));
            if status == StatusCode::OK {
                facts.insert("verdict".into(), v["verdict"].clone());
            }
        }
        other => panic!("the server has no {other}"),
    }
    if case.job != "check" {
        assert_eq!(status, StatusCode::OK, "{}: {v}", case.name);
    }
    facts
}

#[tokio::test]
async fn the_conformance_table_through_the_api() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../knights/tests/data/conformance.toml"
    );
    let table: Table = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let app = router(Config::default());
    for case in table
        .case
        .iter()
        .filter(|c| c.doors.iter().any(|d| d == "http"))
    {
        let name = &case.name;
        let (method, uri, body) = http_request(case);
        let (mut status, mut v) = call(&app, method, &uri, &body).await;
        if case.job == "count" && status == StatusCode::ACCEPTED {
            (status, v) = finished(&app, v).await;
        }
        if let Some(category) = &case.refused {
            assert_eq!(status, http_status(category), "{name}: {uri}: {v}");
            let said = v["error"].as_str().unwrap_or_default();
            let says = case.says.as_deref().unwrap_or_default();
            assert!(said.contains(says), "{name}: says {says:?}: {said}");
            if let Some(field) = &case.hint {
                assert!(said.contains(&format!("{field}=")), "{name}: hint: {said}");
            }
            continue;
        }
        let facts = facts(case, status, &v);
        for (key, want) in case.expect.as_ref().unwrap() {
            let want = serde_json::to_value(want).unwrap();
            assert_eq!(facts.get(key), Some(&want), "{name}: {key}: {uri} {v}");
        }
    }
}
