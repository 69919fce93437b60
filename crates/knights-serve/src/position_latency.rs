//! The hint latency over HTTP, on loopback only, against [`serve`] in this
//! process: positions reached by random legal play (a random number of
//! random legal moves from the empty path, goal either), each sent as a
//! `POST /api/position` with hints, one at a time; p50 and p99 of the time
//! to the whole answer, and the share of positions answered (every move
//! judged, the verdict known) within a second, are printed per board
//! (BENCHMARKS.md). Every answer must be a 200, or the time limit's 503
//! (counted).
//!
//! Run (release): `KNIGHTS_POSITIONS=1000 cargo test --release -p knights-serve -- --ignored position_latency --nocapture`.

use std::time::{Duration, Instant};

use axum::http::{header, Request};
use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use knights::play::Position;
use knights::shape::Shape;
use knights::Wanted;
use serde_json::{json, Value};

use super::{router, serve, Config};

/// The path of a position of `shape` after a random number of random legal
/// moves, as the request's squares.
pub(super) fn random_path(shape: &Shape, seed: u64) -> Vec<String> {
    let p = Position::random_play(shape.clone(), Wanted::Either, None, seed).expect("a position");
    let board = shape.board();
    p.path()
        .iter()
        .map(|&s| {
            let (r, c) = board.coords(s);
            format!("{r},{c}")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run it in release with --nocapture"]
async fn position_latency() {
    let count: u64 = std::env::var("KNIGHTS_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config {
        addr,
        ..Config::default()
    };
    let app = router(config.clone());
    tokio::spawn(async move { serve(listener, app, &config).await });
    let client: Client<_, String> = Client::builder(TokioExecutor::new()).build_http();
    for (side, n) in [(8u64, count), (16, count / 5), (50, count / 10)] {
        let shape = Shape::new(knights::Board::new(side, side).unwrap());
        let mut times = Vec::new();
        let mut whole = 0;
        let mut slowest = (Duration::ZERO, 0);
        let mut stopped = 0;
        for seed in 0..n.max(1) {
            let body = json!({"board": format!("{side}x{side}"), "path": random_path(&shape, 1000 + seed)});
            let request = Request::post(format!("http://{addr}/api/position"))
                .header(header::CONTENT_TYPE, "application/json")
                .body(body.to_string())
                .unwrap();
            let clock = Instant::now();
            let response = client.request(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let t = clock.elapsed();
            if t > slowest.0 {
                slowest = (t, seed);
            }
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            if status != 200 {
                // Only the time limit may stop a position.
                assert_eq!(status, 503, "{v}");
                stopped += 1;
                times.push(t);
                continue;
            }
            let known = v["verdict"] != "unknown"
                && v["hints"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|h| h["status"] != "unknown");
            whole += u64::from(known && t < Duration::from_secs(1));
            times.push(t);
        }
        times.sort();
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        eprintln!(
            "http position {side}x{side}: {} positions, p50 {:?}, p99 {:?}, max {:?}, answered in full within 1 s {whole}, stopped at the time limit {stopped}; slowest seed {}",
            times.len(),
            at(0.5),
            at(0.99),
            times[times.len() - 1],
            1000 + slowest.1
        );
    }
}
