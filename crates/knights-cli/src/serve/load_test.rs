//! A load test on loopback only, against [`serve`] in this process:
//!
//! - `KNIGHTS_LOAD_CLIENTS` clients (50) for `KNIGHTS_LOAD_SECONDS` seconds
//!   (3) ask for `KNIGHTS_LOAD_BOARD` tours (100x100, the light lane), half
//!   of them with `Accept-Encoding: gzip`, while as many runaway jobs as the server has
//!   heavy slots (a Warnsdorff tour of 1000x1000 with 4294967295 attempts, a
//!   cipher key of 500x500 with as many) run into the time limit (2 s) again
//!   and again. The tours get no error answer; every tour is checked after
//!   its time is taken (the uncompressed ones). One more client asks for
//!   the cheap answers (`/api/info`, `/api/exists`) meanwhile, which get no
//!   error either; p50 / p99 latency and requests a second are printed
//!   (BENCHMARKS.md).
//! - 300 connections that send half their headers are closed by the server
//!   after its header timeout (2 s here).
//! - Resident memory (VmRSS) is printed before, at its peak, and 10 s after
//!   the connections close; the peak must stay under 1 GiB, and the last
//!   within 64 MiB of the first.
//!
//! Run: `KNIGHTS_LOAD_SECONDS=3 cargo test -p knights-cli --bin knights -- --ignored load_test --nocapture`.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::http::{header, Request};
use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use knights::{check, format};

use super::{router, serve, Config};

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

type HttpClient = Client<hyper_util::client::legacy::connect::HttpConnector, String>;

/// Sends runaway requests until `deadline`; each must end with the time
/// limit's 503 (or busy's, while the slot's last job winds down).
async fn runaway(client: HttpClient, addr: SocketAddr, i: usize, deadline: Instant) -> u64 {
    let mut stopped = 0;
    while Instant::now() < deadline {
        let request = if i.is_multiple_of(2) {
            Request::get(format!(
                "http://{addr}/api/tour?board=1000x1000&algorithm=warnsdorff&max-attempts=4294967295&seed={i}"
            ))
            .body(String::new())
        } else {
            Request::post(format!("http://{addr}/api/encrypt"))
                .body(r#"{"key": "500x500,attempts=4294967295", "text": "x"}"#.to_string())
        };
        let response = client.request(request.unwrap()).await.unwrap();
        assert_eq!(response.status(), 503);
        response.into_body().collect().await.unwrap();
        stopped += 1;
    }
    stopped
}

/// Opens `n` connections that send half a request's headers; how many the
/// server closed (within a minute each). Blocking: run it on its own thread.
fn half_headers(addr: SocketAddr, n: usize) -> usize {
    let streams: Vec<std::net::TcpStream> = (0..n)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(addr).unwrap();
            write!(stream, "GET /api/info HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
            stream
        })
        .collect();
    let mut buf = [0u8; 256];
    streams
        .into_iter()
        .filter(|mut stream| {
            // Closed: the end of the stream, a reset, or a 408 before the end;
            // still open after a minute: a timeout error.
            !matches!(stream.read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut)
        })
        .count()
}

/// The `p` quantile of sorted latencies, in milliseconds.
fn quantile(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1000.0
}

/// One client asking for the cheap answers (no job slot) with gzip until
/// `deadline`: their latencies and the error answers.
async fn cheap_requests(
    client: HttpClient,
    addr: SocketAddr,
    deadline: Instant,
) -> (Vec<Duration>, u64) {
    let (mut latencies, mut errors) = (Vec::new(), 0);
    while Instant::now() < deadline {
        for path in ["/api/info", "/api/exists?board=8x8"] {
            let start = Instant::now();
            let request = Request::get(format!("http://{addr}{path}"))
                .header(header::ACCEPT_ENCODING, "gzip")
                .body(String::new())
                .unwrap();
            let response = client.request(request).await.unwrap();
            errors += u64::from(!response.status().is_success());
            response.into_body().collect().await.unwrap();
            latencies.push(start.elapsed());
        }
    }
    (latencies, errors)
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
    let config = Config {
        addr,
        timeout: Duration::from_secs(2),
        header_timeout: Duration::from_secs(2),
        ..Config::default()
    };
    let jobs = config.jobs;
    tokio::spawn(async move { serve(listener, router(config.clone()), &config).await });
    let rss_before = rss_kib();
    let client = Client::builder(TokioExecutor::new()).build_http::<String>();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let t0 = Instant::now();
    let runaways: Vec<_> = (0..jobs)
        .map(|i| tokio::spawn(runaway(client.clone(), addr, i, deadline)))
        .collect();
    let slow = tokio::task::spawn_blocking(move || half_headers(addr, 300));
    let probe = tokio::spawn(cheap_requests(client.clone(), addr, deadline));
    let mut tasks = Vec::new();
    for i in 0..clients {
        let client = client.clone();
        let uri = format!("http://{addr}/api/tour?board={board}&seed={i}");
        tasks.push(tokio::spawn(async move {
            let (mut latencies, mut errors, mut peak) = (Vec::new(), 0u64, 0u64);
            while Instant::now() < deadline {
                let start = Instant::now();
                // Half the clients accept gzip, as browsers do; the others'
                // tours are checked.
                let encoding = if i.is_multiple_of(2) {
                    "gzip"
                } else {
                    "identity"
                };
                let request = Request::get(&uri)
                    .header(header::ACCEPT_ENCODING, encoding)
                    .body(String::new())
                    .unwrap();
                let response = client.request(request).await.unwrap();
                let ok = response.status().is_success();
                let gzip = response.headers().contains_key(header::CONTENT_ENCODING);
                let body = response.into_body().collect().await.unwrap().to_bytes();
                latencies.push(start.elapsed());
                if !ok {
                    errors += 1;
                    continue;
                }
                if gzip {
                    // Compressed, as a browser asks: taken as it is.
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
    let mut stopped = 0;
    for r in runaways {
        stopped += r.await.unwrap();
    }
    let closed = slow.await.unwrap();
    let (mut cheap, cheap_errors) = probe.await.unwrap();
    drop(client);
    all.sort();
    cheap.sort();
    let q = |p: f64| quantile(&all, p);
    eprintln!(
        "load test: {clients} clients, {board} tours with gzip, {elapsed:.1} s: {} requests, {:.0} requests/s, p50 {:.1} ms, p99 {:.1} ms, errors {errors}; {stopped} runaway jobs stopped at the limit; {closed} of 300 half-header connections closed",
        all.len(),
        all.len() as f64 / elapsed,
        q(0.5),
        q(0.99),
    );
    eprintln!(
        "load test: cheap requests (info, exists 8x8) meanwhile: {} requests, p50 {:.1} ms, p99 {:.1} ms, errors {cheap_errors}",
        cheap.len(),
        quantile(&cheap, 0.5),
        quantile(&cheap, 0.99),
    );
    tokio::time::sleep(Duration::from_secs(10)).await;
    let rss_after = rss_kib();
    eprintln!(
        "load test: RSS {} MiB before, {} MiB peak, {} MiB 10 s after the connections closed",
        rss_before / 1024,
        peak / 1024,
        rss_after / 1024
    );
    assert_eq!(errors, 0);
    assert_eq!(cheap_errors, 0);
    assert!(!all.is_empty());
    assert!(stopped >= jobs as u64, "the runaway jobs did not come back");
    assert_eq!(closed, 300, "half-header connections were left open");
    assert!(peak < 1 << 20, "resident memory reached {peak} KiB");
    assert!(
        rss_after < rss_before + (64 << 10),
        "resident memory stayed at {rss_after} KiB, from {rss_before} KiB"
    );
}
