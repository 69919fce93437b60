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
//! - After the last runaway job's limit, the runaway threads have returned:
//!   the process's CPU time in the second that starts a second later is
//!   under half a second (the test's clients are idle by then), and a full
//!   set of `--jobs` counts starts at once in the heavy slots.
//! - 300 connections that send half their headers are closed by the server
//!   after its header timeout (2 s here); they are read with one deadline,
//!   so that a regression fails within seconds.
//! - Resident memory (VmRSS) is printed before, at its peak, and 10 s after
//!   the connections close; the peak must stay under 1 GiB, and the last
//!   within 64 MiB of the first.
//!
//! Run: `KNIGHTS_LOAD_SECONDS=3 cargo test -p knights-serve -- --ignored load_test --nocapture`.

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

/// The CPU time this process has used (user and system), from
/// `/proc/self/stat` (in clock ticks of 1/100 s, as on every Linux).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // The fields after the command name, which is in parentheses: the state
    // is the 3rd field of the line, utime the 14th and stime the 15th.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

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
/// server closed within `within` (all reads share that deadline). Blocking:
/// run it on its own thread.
fn half_headers(addr: SocketAddr, n: usize, within: Duration) -> usize {
    let deadline = std::time::Instant::now() + within;
    let streams: Vec<std::net::TcpStream> = (0..n)
        .map(|_| {
            let mut stream = std::net::TcpStream::connect(addr).unwrap();
            write!(stream, "GET /api/info HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").unwrap();
            stream
        })
        .collect();
    let mut buf = [0u8; 256];
    streams
        .into_iter()
        .filter(|mut stream| {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            stream
                .set_read_timeout(Some(left.max(Duration::from_millis(1))))
                .unwrap();
            // Closed: the end of the stream, a reset, or a 408 before the end;
            // still open at the deadline: a timeout error.
            !matches!(stream.read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut)
        })
        .count()
}

/// Whether `jobs` counts start at once (each takes a heavy slot, or is
/// refused at once when none is free), within `tries` tenths of a second;
/// cancels them.
async fn a_full_set_starts(client: &HttpClient, addr: SocketAddr, jobs: usize, tries: u32) -> bool {
    for _ in 0..tries {
        let mut ids = Vec::new();
        for _ in 0..jobs {
            let request = Request::post(format!("http://{addr}/api/count?board=6x8&kind=open"))
                .body(String::new())
                .unwrap();
            let response = client.request(request).await.unwrap();
            let started = response.status() == 202;
            let body = response.into_body().collect().await.unwrap().to_bytes();
            if started {
                let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
                ids.push(v["id"].as_str().unwrap().to_string());
            }
        }
        for id in &ids {
            let request = Request::delete(format!("http://{addr}/api/count/{id}"))
                .body(String::new())
                .unwrap();
            let response = client.request(request).await.unwrap();
            assert_eq!(response.status(), 200);
            response.into_body().collect().await.unwrap();
        }
        if ids.len() == jobs {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
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

/// One client of the load: tours of `uri` until the deadline; half the
/// clients accept gzip, as browsers do, and the others' tours are checked.
/// (latencies, errors, peak resident KiB).
async fn tour_client(
    client: HttpClient,
    uri: String,
    i: usize,
    deadline: Instant,
) -> (Vec<Duration>, u64, u64) {
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
        match format::read(text).unwrap().into_checked().unwrap() {
            format::Checked::Tour(t) => {
                check::check_tour(&t).unwrap();
            }
            format::Checked::Tourney(_) => panic!("a tourney"),
        }
        peak = peak.max(rss_kib());
    }
    (latencies, errors, peak)
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
    let header_timeout = config.header_timeout;
    tokio::spawn(async move { serve(listener, router(config.clone()), &config).await });
    let rss_before = rss_kib();
    let client = Client::builder(TokioExecutor::new()).build_http::<String>();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let t0 = Instant::now();
    let runaways: Vec<_> = (0..jobs)
        .map(|i| tokio::spawn(runaway(client.clone(), addr, i, deadline)))
        .collect();
    let slow = tokio::task::spawn_blocking(move || {
        half_headers(addr, 300, header_timeout + Duration::from_secs(10))
    });
    let probe = tokio::spawn(cheap_requests(client.clone(), addr, deadline));
    let mut tasks = Vec::new();
    for i in 0..clients {
        let client = client.clone();
        let uri = format!("http://{addr}/api/tour?board={board}&seed={i}");
        tasks.push(tokio::spawn(tour_client(client, uri, i, deadline)));
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
    let (mut cheap, cheap_errors) = probe.await.unwrap();
    // Every runaway request has had its answer: the last limit has passed.
    // The clients are idle now; the threads of the jobs must be too.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let cpu_start = cpu_seconds();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let cpu_after = cpu_seconds() - cpu_start;
    let slots_freed = a_full_set_starts(&client, addr, jobs, 20).await;
    let closed = slow.await.unwrap();
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
        "load test: CPU {cpu_after:.2} s in the second starting 1 s after the last limit; a full set of {jobs} heavy jobs started after it: {slots_freed}"
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
    assert!(stopped > 0, "no runaway job reached its limit");
    assert!(
        cpu_after < 0.5,
        "{cpu_after} s of CPU in a second after the last limit: the runaway jobs kept running"
    );
    assert!(
        slots_freed,
        "the heavy slots were not freed after the limit"
    );
    assert_eq!(closed, 300, "half-header connections were left open");
    assert!(peak < 1 << 20, "resident memory reached {peak} KiB");
    assert!(
        rss_after < rss_before + (64 << 10),
        "resident memory stayed at {rss_after} KiB, from {rss_before} KiB"
    );
}
