//! API tests of the server's guard against the router: other hosts and
//! origins are refused, and job ids cannot be guessed.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use super::job_tests::cancel_and_wait;
use super::tests::{app, call, call_with, get, HOST};
use super::{router, Config};

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
    assert_eq!(cancel_and_wait(&app, &id).await, json!("cancelled"));
}
