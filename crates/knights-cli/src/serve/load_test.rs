//! A load test on loopback only: `KNIGHTS_LOAD_CLIENTS` clients (50) for
//! `KNIGHTS_LOAD_SECONDS` seconds (3) asking for `KNIGHTS_LOAD_BOARD` tours
//! (100x100) from the router on 127.0.0.1. Fails on any error answer or a
//! resident memory past 1 GiB; prints p50 / p99 latency and requests a
//! second (BENCHMARKS.md). Every tour is checked after its time is taken.
//! Run: `cargo test --release -p knights-cli --bin knights -- --ignored load_test --nocapture`.

use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use knights::{check, format};

use super::{router, Config};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a load test; scripts/test.sh runs a short one"]
async fn load_test() {
    let clients = env("KNIGHTS_LOAD_CLIENTS", 50) as usize;
    let seconds = env("KNIGHTS_LOAD_SECONDS", 3);
    let board = std::env::var("KNIGHTS_LOAD_BOARD").unwrap_or_else(|_| "100x100".into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    assert!(addr.ip().is_loopback());
    tokio::spawn(async move { axum::serve(listener, router(Config::default())).await });
    let client = Client::builder(TokioExecutor::new()).build_http::<String>();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let rss_before = rss_kib();
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..clients {
        let client = client.clone();
        let uri: axum::http::Uri = format!("http://{addr}/api/tour?board={board}&seed={i}")
            .parse()
            .unwrap();
        tasks.push(tokio::spawn(async move {
            let (mut latencies, mut errors, mut peak) = (Vec::new(), 0u64, 0u64);
            while Instant::now() < deadline {
                let start = Instant::now();
                let response = client.get(uri.clone()).await.unwrap();
                let ok = response.status().is_success();
                let body = response.into_body().collect().await.unwrap().to_bytes();
                latencies.push(start.elapsed());
                if !ok {
                    errors += 1;
                    continue;
                }
                let text = std::str::from_utf8(&body).unwrap();
                match format::read(text).unwrap().into_valid().unwrap() {
                    format::Valid::Tour(t) => {
                        check::check_tour(&t).unwrap();
                    }
                    format::Valid::Tourney(_) => panic!("a tourney"),
                }
                peak = peak.max(rss_kib());
            }
            (latencies, errors, peak)
        }));
    }
    let (mut all, mut errors, mut peak) = (Vec::new(), 0, 0);
    for t in tasks {
        let (l, e, p) = t.await.unwrap();
        all.extend(l);
        errors += e;
        peak = peak.max(p);
    }
    let elapsed = t0.elapsed().as_secs_f64();
    all.sort();
    let q = |p: f64| all[((all.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1000.0;
    eprintln!(
        "load test: {clients} clients, {board} tours, {elapsed:.1} s: {} requests, {:.0} requests/s, p50 {:.1} ms, p99 {:.1} ms, errors {errors}, RSS {} MiB before, {} MiB peak",
        all.len(),
        all.len() as f64 / elapsed,
        q(0.5),
        q(0.99),
        rss_before / 1024,
        peak / 1024
    );
    assert_eq!(errors, 0);
    assert!(!all.is_empty());
    assert!(peak < 1 << 20, "resident memory reached {peak} KiB");
}
