//! Tests of the event streams and the connections: a finished job's stream
//! ends after its last event; streams over the bounds (per job, in total)
//! are refused with a sentence and their connections closed, so that other
//! clients are still answered; hyper's own answers (a URI too long) carry a
//! sentence too. Some run against [`serve`] on loopback, as a client does.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

use super::{router, serve, Config};

/// The most time a step of these tests may take before it counts as no
/// answer (a hang is a failure, not a wait).
const PATIENCE: Duration = Duration::from_secs(20);

/// A request with the `Host` of [`Config::default`], answered by `app`.
async fn oneshot(app: &Router, method: &str, uri: &str) -> axum::response::Response {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1:8080")
        .body(Body::empty())
        .unwrap();
    app.clone().oneshot(request).await.unwrap()
}

/// The JSON of an answer of `app`.
async fn json(app: &Router, method: &str, uri: &str) -> (StatusCode, Value) {
    let response = oneshot(app, method, uri).await;
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Starts a count of `board` (open); its id.
async fn start_count(app: &Router, board: &str) -> String {
    let (s, v) = json(app, "POST", &format!("/api/count?board={board}&kind=open")).await;
    assert_eq!(s, StatusCode::ACCEPTED, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// Cancels a count and waits until it is over.
async fn cancel(app: &Router, id: &str) {
    json(app, "DELETE", &format!("/api/count/{id}")).await;
    for _ in 0..1500 {
        if json(app, "GET", &format!("/api/count/{id}")).await.1["state"] != "running" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the count {id} did not stop");
}

/// The whole body of a job's event stream, or `None` when it has not
/// ended within [`PATIENCE`].
async fn whole_stream(app: &Router, id: &str) -> Option<String> {
    let response = oneshot(app, "GET", &format!("/api/count/{id}/events")).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body = tokio::time::timeout(PATIENCE, response.into_body().collect()).await;
    body.ok()
        .map(|b| String::from_utf8_lossy(&b.unwrap().to_bytes()).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jobs_stream_ends_after_its_last_event() {
    let app = router(Config::default());
    // A job over before its stream opens: one `done`, then the end.
    let id = start_count(&app, "3x4").await;
    for _ in 0..1500 {
        if json(&app, "GET", &format!("/api/count/{id}")).await.1["state"] != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let text = whole_stream(&app, &id)
        .await
        .expect("a finished job's stream ends");
    assert_eq!(text.matches("event: done").count(), 1, "{text}");
    assert!(!text.contains("event: progress"), "{text}");
    // A job over while its stream is open: progress, one `done`, the end.
    let id = start_count(&app, "5x5").await;
    let text = whole_stream(&app, &id)
        .await
        .expect("the stream ends when the job does");
    assert_eq!(text.matches("event: done").count(), 1, "{text}");
    let done = text.split("event: done\ndata: ").nth(1).unwrap();
    let done: Value = serde_json::from_str(done.trim()).unwrap();
    assert_eq!(done["state"], "done", "{done}");
    // A cancelled job's stream ends too.
    let config = Config {
        max_count_squares: 56,
        ..Config::default()
    };
    let app = router(config);
    let id = start_count(&app, "7x8").await;
    let stream = tokio::spawn({
        let (app, id) = (app.clone(), id.clone());
        async move { whole_stream(&app, &id).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    cancel(&app, &id).await;
    let text = stream
        .await
        .unwrap()
        .expect("a cancelled job's stream ends");
    assert!(text.contains("\"state\":\"cancelled\""), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_jobs_streams_over_its_bound_are_429() {
    let app = router(Config {
        max_job_streams: 2,
        max_count_squares: 56,
        ..Config::default()
    });
    let id = start_count(&app, "7x8").await;
    let path = format!("/api/count/{id}/events");
    let first = oneshot(&app, "GET", &path).await;
    let second = oneshot(&app, "GET", &path).await;
    assert_eq!(
        (first.status(), second.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    let third = oneshot(&app, "GET", &path).await;
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(third.headers()[header::CONNECTION], "close");
    let bytes = third.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("2 event streams open"),
        "{v}"
    );
    // A closed stream frees its place.
    drop(first);
    assert_eq!(oneshot(&app, "GET", &path).await.status(), StatusCode::OK);
    drop(second);
    cancel(&app, &id).await;
}

/// Sends `request` (the request line and headers, `Host` added) on a new
/// connection to `addr`; the connection and what it answered up to the end
/// of the answer's head, or `None` when no head came within [`PATIENCE`].
async fn send(addr: SocketAddr, request: &str) -> Option<(TcpStream, String)> {
    let connect = async {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let text = format!("{request}\r\nHost: {addr}\r\n\r\n");
        stream.write_all(text.as_bytes()).await.unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while !got.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        (stream, String::from_utf8_lossy(&got).into_owned())
    };
    tokio::time::timeout(PATIENCE, connect).await.ok()
}

/// The rest of an answer, read until the server closes the connection, or
/// `None` when it does not within [`PATIENCE`].
async fn rest(mut stream: TcpStream) -> Option<String> {
    let mut got = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut got))
        .await
        .ok()?
        .ok()?;
    Some(String::from_utf8_lossy(&got).into_owned())
}

/// Serves `config` on a free loopback port; its address.
async fn serving(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config { addr, ..config };
    tokio::spawn(async move {
        let app = router(config.clone());
        serve(listener, app, &config).await
    });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_over_the_bound_leave_connections_for_other_clients() {
    let addr = serving(Config {
        max_connections: 8,
        max_streams: 64,
        max_job_streams: 100,
        max_count_squares: 56,
        ..Config::default()
    })
    .await;
    let (started, head) = send(
        addr,
        "POST /api/count?board=7x8&kind=open HTTP/1.1\r\nContent-Length: 0\r\nConnection: close",
    )
    .await
    .unwrap();
    let answer = head + &rest(started).await.unwrap();
    let id = answer.split("\"id\":\"").nth(1).unwrap()[..32].to_string();
    // One client opens more streams than half the connections: four are
    // served, the rest refused at once with a sentence and closed.
    let mut open = Vec::new();
    let mut refused = 0;
    for _ in 0..12 {
        let request = format!("GET /api/count/{id}/events HTTP/1.1");
        let Some((stream, head)) = send(addr, &request).await else {
            panic!("a stream request got no answer: the connections are all taken");
        };
        if head.starts_with("HTTP/1.1 200") {
            open.push(stream);
            continue;
        }
        assert!(head.starts_with("HTTP/1.1 503"), "{head}");
        let body = rest(stream)
            .await
            .expect("a refused stream's connection is closed");
        let answer = format!("{head}{body}");
        assert!(answer.contains("4 event streams open"), "{answer}");
        refused += 1;
    }
    assert_eq!((open.len(), refused), (4, 8));
    // Another client's ordinary request is answered meanwhile.
    let (info, head) = send(addr, "GET /api/info HTTP/1.1\r\nConnection: close")
        .await
        .expect("another client is answered");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    rest(info).await.unwrap();
    let (gone, _) = send(
        addr,
        &format!("DELETE /api/count/{id} HTTP/1.1\r\nConnection: close"),
    )
    .await
    .unwrap();
    rest(gone).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_uri_too_long_is_414_with_a_sentence() {
    let addr = serving(Config::default()).await;
    let long = format!(
        "GET /api/tour?board=8x8&holes={} HTTP/1.1",
        ".".repeat(70_000)
    );
    let (stream, head) = send(addr, &long).await.expect("an answer");
    assert!(head.starts_with("HTTP/1.1 414"), "{head}");
    let answer = head + &rest(stream).await.expect("the connection is closed");
    let body = answer.split("\r\n\r\n").nth(1).unwrap();
    let v: Value = serde_json::from_str(body.trim()).expect(&answer);
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("URI is longer"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_theatre_says_an_open_tour() {
    let app = router(Config::default());
    let response = oneshot(
        &app,
        "GET",
        "/api/theatre/search?board=5x5&kind=open&rate=100000",
    )
    .await;
    let body = tokio::time::timeout(PATIENCE, response.into_body().collect())
        .await
        .expect("the stream ends")
        .unwrap()
        .to_bytes();
    let text = String::from_utf8_lossy(&body);
    let done = text.split("event: done\ndata: ").nth(1).expect(&text);
    let done: Value = serde_json::from_str(done.trim()).unwrap();
    let message = done["message"].as_str().unwrap();
    assert!(message.starts_with("an open tour after "), "{message}");
}
