//! The page in headless Chromium, driven over WebDriver (chromedriver and
//! fantoccini) against the real router on an ephemeral loopback port.
//!
//! Ignored in the plain `cargo test` (they need Chromium); `scripts/test.sh`
//! runs them explicitly, and there a missing browser fails them:
//! `cargo test -p knights-serve -- --ignored browser_`.
//! Screenshots go to `$KNIGHTS_SCREENSHOTS`, else to a temporary folder
//! (`scripts/screenshots.sh` points it at docs/img).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use knights::{check, Board, Kind, Tour};
use serde_json::{json, Value};

use super::{router, serve, Config};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Kills chromedriver and the browser it started (its own process group)
/// when the test ends, however it ends.
pub(super) struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A raw WebDriver call (for the browser's log, which fantoccini does not read).
fn raw_post(port: u16, path: &str, body: &Value) -> Value {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // chromedriver answers with a content length (and may keep the
    // connection open): read the head, then exactly the body.
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    let body_at = loop {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "chromedriver closed the connection");
        data.extend_from_slice(&buf[..n]);
        if let Some(i) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..body_at]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while data.len() < body_at + length {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "chromedriver closed the connection");
        data.extend_from_slice(&buf[..n]);
    }
    serde_json::from_slice(&data[body_at..body_at + length]).unwrap_or(Value::Null)
}

fn screenshots_dir() -> PathBuf {
    let dir = std::env::var_os("KNIGHTS_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("knights-screenshots"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every request the server answered: method, path and status.
pub(super) type Answers = Arc<Mutex<Vec<(String, String, u16)>>>;

/// The server with `config` on an ephemeral loopback port, recording what
/// it answers.
async fn start_server(config: Config) -> (SocketAddr, Answers) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config { addr, ..config };
    let answers = Answers::default();
    let log = answers.clone();
    let app = router(config.clone()).layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            let log = log.clone();
            async move {
                let method = request.method().to_string();
                let path = request.uri().path().to_string();
                let response = next.run(request).await;
                let status = response.status().as_u16();
                log.lock().unwrap().push((method, path, status));
                response
            }
        },
    ));
    tokio::spawn(async move { serve(listener, app, &config).await });
    (addr, answers)
}

/// The server on an ephemeral loopback port, chromedriver, and a session.
pub(super) async fn start() -> (Client, SocketAddr, u16, Driver, tempfile::TempDir) {
    let (client, addr, port, driver, profile, _) = start_with(Config::default()).await;
    (client, addr, port, driver, profile)
}

/// [`start`] with this configuration, and what the server answered.
pub(super) async fn start_with(
    config: Config,
) -> (Client, SocketAddr, u16, Driver, tempfile::TempDir, Answers) {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            std::path::Path::new(tool).exists(),
            "{tool} is missing: apt-get install -y chromium chromium-driver"
        );
    }
    let (addr, answers) = start_server(config).await;
    let port = free_port();
    let driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let t0 = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = tempfile::tempdir().unwrap();
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,860",
                format!("--user-data-dir={}", profile.path().display()),
            ],
        },
        "goog:loggingPrefs": {"browser": "ALL"},
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    let client = ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session");
    (client, addr, port, driver, profile, answers)
}

/// Console errors so far (and clears the log).
pub(super) async fn console_errors(client: &Client, port: u16) -> Vec<String> {
    let id = client.session_id().await.unwrap().unwrap();
    let log = raw_post(
        port,
        &format!("/session/{id}/se/log"),
        &json!({"type": "browser"}),
    );
    log["value"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["level"] == "SEVERE")
        .map(|e| e["message"].to_string())
        .collect()
}

pub(super) async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap()
}

/// Polls `script` (which returns true when done) for up to `secs` seconds.
pub(super) async fn wait_for(client: &Client, script: &str, secs: u64, what: &str) {
    let t0 = Instant::now();
    loop {
        if js(client, script).await == Value::Bool(true) {
            return;
        }
        if t0.elapsed() > Duration::from_secs(secs) {
            shot(client, "web-failure.png").await;
            let messages = js(client, "return [...document.querySelectorAll('.message')].map(m => m.textContent).join(' | ')").await;
            panic!("timed out waiting for {what}; the page says: {messages}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(super) async fn shot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshots_dir().join(name), png).unwrap();
}

pub(super) async fn set(client: &Client, id: &str, value: &str) {
    let e = client.find(Locator::Id(id)).await.unwrap();
    e.clear().await.unwrap();
    e.send_keys(&format!("{value}\t")).await.unwrap();
}

/// Chooses the option `value` of the select `id`.
pub(super) async fn choose(client: &Client, id: &str, value: &str) {
    let e = client.find(Locator::Id(id)).await.unwrap();
    e.select_by_value(value).await.unwrap();
}

pub(super) async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_every_panel_works_against_the_real_server() {
    let (client, addr, port, _driver, _profile) = start().await;
    client.goto(&format!("http://{addr}/")).await.unwrap();
    wait_for(
        &client,
        "return document.body.dataset.ready === 'yes'",
        20,
        "the page",
    )
    .await;
    // The Play panel comes first; the explorer is the next tab.
    click(&client, "#tabs button[data-panel='tour']").await;

    tour_explorer(&client).await;
    theatre(&client).await;
    tourney_lab(&client).await;
    cipher(&client).await;
    counting(&client).await;

    let errors = console_errors(&client, port).await;
    client.close().await.unwrap();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    eprintln!("screenshots in {}", screenshots_dir().display());
    let _ = Kind::Closed;
}

/// The tour explorer: a tour from a clicked start, its animation, the theorem
/// on a board without a closed tour, a torus, another leaper, a large board.
async fn tour_explorer(client: &Client) {
    // Tour explorer: 6x6, a start square by clicking, generate.
    set(client, "tour-rows", "6").await;
    set(client, "tour-cols", "6").await;
    wait_for(
        client,
        "return document.querySelectorAll('#tour-board rect.sq').length === 36",
        5,
        "a 6x6 board",
    )
    .await;
    click(client, "#tour-board rect[data-r='2'][data-c='3']").await;
    assert_eq!(
        js(
            client,
            "return document.getElementById('tour-start').textContent"
        )
        .await,
        "2,3"
    );
    click(client, "#tour-generate").await;
    wait_for(
        client,
        "return document.getElementById('tour-board').dataset.squares === '36'",
        20,
        "the tour",
    )
    .await;
    let numbers = js(client, "return [...document.querySelectorAll('#tour-board text.num')].map(t => [+t.textContent, +t.dataset.r, +t.dataset.c])").await;
    let numbers = numbers.as_array().unwrap();
    assert_eq!(numbers.len(), 36, "36 numbered squares are shown");
    let board = Board::new(6, 6).unwrap();
    let mut squares = vec![u32::MAX; 36];
    for n in numbers {
        let (k, r, c) = (
            n[0].as_u64().unwrap(),
            n[1].as_u64().unwrap(),
            n[2].as_u64().unwrap(),
        );
        // Numbered from 0, as the command line does by default.
        squares[k as usize] = board.square(r as u32, c as u32);
    }
    let tour = Tour::new(board, squares).expect("the numbers make a tour");
    check::check_tour(&tour).expect("the tour shown is valid");
    assert_eq!(
        board.coords(tour.start()),
        (2, 3),
        "it starts where clicked"
    );
    shot(client, "web-tour.png").await;

    // The animation plays to the end.
    set(client, "tour-speed", "").await;
    js(
        client,
        "document.getElementById('tour-speed').value = 60; return true",
    )
    .await;
    click(client, "#tour-animate").await;
    wait_for(client, "return document.getElementById('tour-animate').textContent === 'Pause' && document.querySelectorAll('#tour-board text.num').length < 36", 5, "the animation to start").await;
    shot(client, "web-tour-animation.png").await;
    wait_for(client, "return document.getElementById('tour-animate').textContent === 'Animate' && document.querySelectorAll('#tour-board text.num').length === 36", 20, "the animation to end").await;

    // A board with no closed tour gets the theorem.
    set(client, "tour-rows", "4").await;
    set(client, "tour-cols", "4").await;
    choose(client, "tour-kind", "closed").await;
    click(client, "#tour-generate").await;
    wait_for(
        client,
        "return document.getElementById('tour-message').textContent.includes('side of 4')",
        10,
        "the theorem",
    )
    .await;
    // The same board wrapped into a torus has a closed tour.
    js(
        client,
        "document.getElementById('tour-beyond').open = true; return true",
    )
    .await;
    choose(client, "tour-wrap", "both").await;
    click(client, "#tour-generate").await;
    wait_for(
        client,
        "return document.getElementById('tour-board').dataset.squares === '16' && document.getElementById('tour-message').textContent.includes('closed')",
        20,
        "a closed tour of the 4x4 torus",
    )
    .await;
    let exists = js(
        client,
        "return document.getElementById('tour-exists').textContent",
    )
    .await;
    assert!(
        exists.as_str().unwrap().contains("wrap both: yes"),
        "{exists}"
    );
    // A camel on the 4x4 torus has no tour (it keeps its colour), with the reason; then back to the knight.
    set(client, "tour-leaper", "1,3").await;
    click(client, "#tour-generate").await;
    wait_for(
        client,
        "return document.getElementById('tour-message').textContent.startsWith('No such tour')",
        20,
        "the camel's answer",
    )
    .await;
    set(client, "tour-leaper", "").await;
    choose(client, "tour-wrap", "none").await;
    // A large board is drawn on a canvas.
    set(client, "tour-rows", "100").await;
    set(client, "tour-cols", "100").await;
    choose(client, "tour-kind", "any").await;
    click(client, "#tour-generate").await;
    wait_for(client, "return document.getElementById('tour-board').dataset.squares === '10000' && !!document.querySelector('#tour-board canvas')", 20, "a 100x100 tour").await;
    let ms = js(client, "return window.knightsTour.ms").await;
    eprintln!("100x100 tour drawn {ms} ms after the click");
    shot(client, "web-tour-100x100.png").await;
}

/// The algorithm theatre: Warnsdorff's steps, then a backtracking stream
/// left running while the page moves on.
async fn theatre(client: &Client) {
    // Algorithm theatre: Warnsdorff's steps, then a backtracking stream.
    click(client, "#tabs button[data-panel='theatre']").await;
    set(client, "theatre-rows", "5").await;
    set(client, "theatre-cols", "5").await;
    click(client, "#theatre-run").await;
    wait_for(
        client,
        "return document.getElementById('theatre-log').textContent.startsWith('Step')",
        10,
        "Warnsdorff's steps",
    )
    .await;
    click(client, "#theatre-pause").await;
    shot(client, "web-theatre-warnsdorff.png").await;
    choose(client, "theatre-algorithm", "backtrack").await;
    js(
        client,
        "document.getElementById('theatre-speed').value = 400; return true",
    )
    .await;
    click(client, "#theatre-run").await;
    wait_for(
        client,
        "return +(document.getElementById('theatre-board').dataset.nodes || 0) > 50",
        20,
        "backtracking nodes",
    )
    .await;
    shot(client, "web-theatre-backtrack.png").await;
    click(client, "#tabs button[data-panel='tour']").await; // leaves the stream running, then:
    js(client, "document.querySelector('#theatre-form').dispatchEvent(new Event('submit', {cancelable: true})); return true").await;
}

/// The tourney lab: a tourney, joined step by step, then obfuscated.
async fn tourney_lab(client: &Client) {
    // Tourney lab: a tourney, joined step by step, then obfuscated.
    click(client, "#tabs button[data-panel='lab']").await;
    choose(client, "lab-generator", "four-cover").await;
    click(client, "#lab-make").await;
    wait_for(
        client,
        "return document.querySelectorAll('#lab-board polygon.cycle').length === 16",
        10,
        "16 cycles",
    )
    .await;
    click(client, "#lab-join").await;
    wait_for(
        client,
        "return document.getElementById('lab-after-title').textContent.startsWith('Joined')",
        30,
        "the join",
    )
    .await;
    click(client, "#lab-obfuscate").await;
    wait_for(client, "return document.getElementById('lab-after-title').textContent.startsWith('Obfuscated') && !!document.querySelector('#lab-chart svg')", 10, "the obfuscation").await;
    shot(client, "web-lab.png").await;
}

/// The cipher: a round trip.
async fn cipher(client: &Client) {
    // Cipher: a round trip.
    click(client, "#tabs button[data-panel='cipher']").await;
    let message = "Meet me at the old mill at nine.";
    set(client, "cipher-plain", message).await;
    click(client, "#cipher-encrypt").await;
    wait_for(
        client,
        "return document.getElementById('cipher-secret').value.startsWith('knights-cipher v1 8x8')",
        10,
        "the cipher text",
    )
    .await;
    let secret = js(
        client,
        "return document.getElementById('cipher-secret').value",
    )
    .await;
    assert!(!secret.as_str().unwrap().contains(message));
    shot(client, "web-cipher.png").await;
    client
        .find(Locator::Id("cipher-plain"))
        .await
        .unwrap()
        .clear()
        .await
        .unwrap();
    click(client, "#cipher-decrypt").await;
    wait_for(
        client,
        &format!(
            "return document.getElementById('cipher-plain').value === {}",
            json!(message)
        ),
        10,
        "the round trip",
    )
    .await;
}

/// Counting: a long count cancelled, a short one to the end, a sweep over
/// cells.
async fn counting(client: &Client) {
    // Counting: start a long count and cancel it, then a short one to the end.
    click(client, "#tabs button[data-panel='count']").await;
    set(client, "count-rows", "6").await;
    set(client, "count-cols", "8").await;
    choose(client, "count-kind", "open").await;
    click(client, "#count-start").await;
    wait_for(client, "return document.getElementById('count-status').dataset.state === 'running' && document.getElementById('count-progress').value > 0", 20, "the count's progress").await;
    click(client, "#count-cancel").await;
    wait_for(
        client,
        "return document.getElementById('count-status').dataset.state === 'cancelled'",
        30,
        "the cancellation",
    )
    .await;
    set(client, "count-rows", "5").await;
    set(client, "count-cols", "6").await;
    choose(client, "count-kind", "closed").await;
    click(client, "#count-start").await;
    wait_for(
        client,
        "return document.getElementById('count-status').dataset.state === 'done'",
        30,
        "the count",
    )
    .await;
    let status = js(
        client,
        "return document.getElementById('count-status').textContent",
    )
    .await;
    assert!(
        status.as_str().unwrap().contains(": 8 (") && status.as_str().unwrap().contains("agrees"),
        "{status}"
    );
    shot(client, "web-count.png").await;
    // A sweep over cells: 3x4 taken as columns of 3 cells, every prefix's
    // open tours (Knuth's A389759: 2 at 10 and 11 cells, 8 at 12).
    set(client, "count-rows", "3").await;
    set(client, "count-cols", "4").await;
    choose(client, "count-kind", "open").await;
    choose(client, "count-of", "all-cells").await;
    click(client, "#count-start").await;
    wait_for(
        client,
        "return document.getElementById('count-status').dataset.state === 'done'",
        30,
        "the sweep",
    )
    .await;
    let rows = js(
        client,
        "return [...document.querySelectorAll('#count-prefixes tr')].map(r => [...r.cells].map(c => c.textContent).join(' '))",
    )
    .await;
    let rows: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(rows.len(), 13, "{rows:?}");
    assert_eq!(rows[0], "first cells count");
    assert_eq!(&rows[9..], ["9 0", "10 2", "11 2", "12 8"]);
    let status = text_of(client, "count-status").await;
    assert!(status.contains("8 on the whole board"), "{status}");
}

/// The text of the element `id`.
pub(super) async fn text_of(client: &Client, id: &str) -> String {
    let v = js(
        client,
        &format!("return document.getElementById('{id}').textContent"),
    )
    .await;
    v.as_str().unwrap_or_default().to_string()
}

/// A page of another site, served from another loopback port by a plain
/// thread: `page` for every request.
fn other_site(page: String) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut head = Vec::new();
            let mut buf = [0u8; 4096];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => head.extend_from_slice(&buf[..n]),
                }
            }
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_another_site_cannot_drive_the_server() {
    // One heavy slot, no queue: any work started would hold it.
    let config = Config {
        jobs: 1,
        max_waiting: 0,
        ..Config::default()
    };
    let (client, addr, _port, _driver, _profile, answers) = start_with(config).await;
    let target = format!("http://{addr}");
    let page = format!(
        r#"<!doctype html><title>another site</title>
<form id="form" method="POST" action="{target}/api/count?board=6x8&kind=open" target="sink" enctype="text/plain"><input name="a" value="b"></form>
<iframe name="sink" id="sink"></iframe>"#
    );
    let evil = other_site(page);
    assert_ne!(evil.port(), addr.port());
    client.goto(&format!("http://{evil}/")).await.unwrap();
    js(
        &client,
        &format!(
            r#"window.results = {{}};
const target = '{target}';
fetch(target + '/api/encrypt', {{method: 'POST', headers: {{'Content-Type': 'text/plain'}},
    body: JSON.stringify({{key: '500x500,attempts=4294967295', text: 'x'}})}})
  .then(r => results.encrypt = 'answered ' + r.status, () => results.encrypt = 'refused');
fetch(target + '/api/count?board=6x8&kind=open', {{method: 'POST', mode: 'no-cors'}})
  .then(() => results.count = 'sent', () => results.count = 'refused');
const events = new EventSource(target + '/api/theatre/search?board=6x6&kind=closed&rate=1');
events.onerror = () => {{ results.events = 'refused'; events.close(); }};
events.onmessage = () => {{ results.events = 'answered'; }};
document.getElementById('sink').onload = () => results.form = 'loaded';
document.getElementById('form').submit();
return true;"#
        ),
    )
    .await;
    wait_for(
        &client,
        "return ['encrypt', 'count', 'events', 'form'].every(k => k in window.results)",
        20,
        "the other site's requests",
    )
    .await;
    let results = js(&client, "return window.results").await;
    assert_eq!(results["encrypt"], "refused", "{results}");
    assert_eq!(results["events"], "refused", "{results}");
    // Each request reached the server and was refused there.
    let answered = answers.lock().unwrap().clone();
    for (method, path, least) in [
        ("POST", "/api/encrypt", 1),
        ("POST", "/api/count", 2),
        ("GET", "/api/theatre/search", 1),
    ] {
        let seen: Vec<u16> = answered
            .iter()
            .filter(|(m, p, _)| m == method && p == path)
            .map(|a| a.2)
            .collect();
        assert!(seen.len() >= least, "{method} {path}: {answered:?}");
        assert!(
            seen.iter().all(|&s| s == 403),
            "{method} {path}: {answered:?}"
        );
    }
    // No work started: the only heavy slot is free for the server's own page.
    client.goto(&format!("{target}/")).await.unwrap();
    // Once the Play panel's first answer is in (its job took the slot a moment).
    wait_for(
        &client,
        "return document.body.dataset.ready === 'yes' && !!window.knightsPlay.answer && !window.knightsPlay.controller",
        20,
        "the Play panel's board",
    )
    .await;
    let started = js(
        &client,
        "return fetch('/api/count?board=6x8&kind=open', {method: 'POST'}).then(r => r.json()).then(v => fetch('/api/count/' + v.id, {method: 'DELETE'}).then(() => v.state))",
    )
    .await;
    assert_eq!(started, "running", "{answered:?}");
}
