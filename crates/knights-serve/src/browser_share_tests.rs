//! Share links, history, accessibility (axe-core) and the phone layout of
//! the page, in headless Chromium (the drivers of `browser_tests`).
//! Ignored in the plain `cargo test`; `scripts/test.sh` runs them with the
//! other `browser_` tests.

use std::net::SocketAddr;
use std::path::PathBuf;

use fantoccini::Client;
use serde_json::Value;

use super::browser_tests::{click, console_errors, js, set, shot, start, text_of, wait_for};

/// The link of the share-link docs (docs/formats.md), opened as it is.
const PINNED: &str = "#v1/tour?rows=5&cols=6&seed=2&start=0,0&go=1&step=7";

async fn ready(client: &Client) {
    wait_for(
        client,
        "return document.body.dataset.ready === 'yes'",
        20,
        "the page",
    )
    .await;
}

/// Opens `hash` on the server at `addr` as a new page load.
async fn open(client: &Client, addr: SocketAddr, hash: &str) {
    client.goto("about:blank").await.unwrap();
    client.goto(&format!("http://{addr}/{hash}")).await.unwrap();
    ready(client).await;
}

async fn hash(client: &Client) -> String {
    js(client, "return location.hash")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

async fn tab_on(client: &Client) -> Value {
    js(
        client,
        "return document.querySelector('#tabs button.on').dataset.panel",
    )
    .await
}

async fn value(client: &Client, id: &str) -> Value {
    js(
        client,
        &format!("return document.getElementById('{id}').value"),
    )
    .await
}

async fn html(client: &Client, id: &str) -> Value {
    js(
        client,
        &format!("return document.getElementById('{id}').innerHTML"),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_share_links_reopen_what_the_sender_saw() {
    let (client, addr, port, _driver, _profile) = start().await;
    client.goto(&format!("http://{addr}/")).await.unwrap();
    ready(&client).await;

    tour_link(&client).await;
    theatre_link(&client, addr).await;
    lab_link(&client, addr).await;
    cipher_link(&client, addr).await;
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_share_history_pinned_and_bad_links() {
    let docs = include_str!("../../../docs/formats.md");
    assert!(docs.contains(PINNED), "docs/formats.md shows {PINNED}");
    let (client, addr, port, _driver, _profile) = start().await;

    // The pinned v1 link opens the explorer as its docs say.
    open(&client, addr, PINNED).await;
    assert_eq!(tab_on(&client).await, "tour");
    assert_eq!(
        js(&client, "return window.knightsTour.path.length").await,
        30
    );
    assert_eq!(
        js(&client, "return window.knightsTour.path[0]").await,
        serde_json::json!([0, 0])
    );
    assert_eq!(js(&client, "return window.knightsTour.upto").await, 7);

    // Back and forward: a new entry per new board or panel.
    client.goto(&format!("http://{addr}/")).await.unwrap();
    ready(&client).await;
    click(&client, "#tabs button[data-panel='tour']").await;
    let length = js(&client, "return history.length").await.as_u64().unwrap();
    set(&client, "tour-rows", "5").await;
    set(&client, "tour-cols", "5").await;
    click(&client, "#tour-generate").await;
    wait_for(&client, "return document.getElementById('tour-board').dataset.squares === '25' && location.hash.includes('go=1')", 20, "the 5x5 tour").await;
    let tour_link = hash(&client).await;
    click(&client, "#tabs button[data-panel='theatre']").await;
    click(&client, "#tabs button[data-panel='lab']").await;
    click(&client, "#lab-make").await;
    wait_for(
        &client,
        "return location.hash.includes('v1/lab') && location.hash.includes('go=1')",
        10,
        "the tourney's link",
    )
    .await;
    assert_eq!(
        js(&client, "return history.length").await.as_u64().unwrap(),
        length + 4,
        "the field changes replaced the first entry; the tour, two tabs and the tourney each added one"
    );
    client.back().await.unwrap();
    wait_for(&client, "return document.querySelector('#tabs button.on').dataset.panel === 'lab' && document.getElementById('lab-board').innerHTML === ''", 10, "the lab before its tourney").await;
    client.back().await.unwrap();
    wait_for(
        &client,
        "return document.querySelector('#tabs button.on').dataset.panel === 'theatre'",
        10,
        "the theatre",
    )
    .await;
    client.back().await.unwrap();
    wait_for(&client, "return document.querySelector('#tabs button.on').dataset.panel === 'tour' && document.getElementById('tour-board').dataset.squares === '25'", 20, "the tour again").await;
    assert_eq!(hash(&client).await, tour_link);
    client.back().await.unwrap();
    wait_for(&client, "return document.getElementById('tour-board').dataset.squares === undefined && document.getElementById('tour-rows').value === '5'", 10, "the 5x5 board before its tour").await;
    for _ in 0..4 {
        client.forward().await.unwrap();
    }
    wait_for(&client, "return document.querySelector('#tabs button.on').dataset.panel === 'lab' && document.getElementById('lab-before-title').textContent.includes('Tourney')", 10, "the tourney again").await;

    // A count's link counts again.
    open(&client, addr, "#v1/count?rows=3&cols=4&go=1").await;
    assert_eq!(tab_on(&client).await, "count");
    wait_for(&client, "return document.getElementById('count-status').dataset.state === 'done' && document.getElementById('count-rows').value === '3'", 10, "the count of 3x4").await;

    // "Copy link" copies the current link, or shows it where the clipboard is refused.
    click(&client, "#share-copy").await;
    wait_for(&client, "const m = document.getElementById('share-message').textContent; return m === 'Link copied.' || m === 'Copy this link: ' + location.href", 5, "the link copied").await;

    // Links that cannot be opened: one sentence, the default page.
    for (bad, why) in [
        ("#v9/tour?rows=5", "v9"),
        ("#v1/nosuch?rows=5", "nosuch"),
        ("#hello", "version"),
        ("#v1/tour?rows=%ZZ", "cannot be opened"),
        ("#v1/tour?rows", "key=value"),
    ] {
        open(&client, addr, bad).await;
        let said = text_of(&client, "share-message").await;
        assert!(
            said.contains("cannot be opened") && said.contains(why),
            "{bad}: {said}"
        );
        assert_eq!(tab_on(&client).await, "play", "{bad}");
        assert_eq!(value(&client, "tour-rows").await, "8", "{bad}");
        assert_eq!(hash(&client).await, "", "{bad}");
        assert_eq!(
            js(
                &client,
                "return document.querySelectorAll('#tour-board rect.sq').length"
            )
            .await,
            64
        );
    }
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
    client.close().await.unwrap();
}

/// axe-core as `scripts/test.sh` installs it (`npm ci` in target/js-lint,
/// or the folder `KNIGHTS_JS_LINT` names).
pub(super) fn axe_source() -> String {
    let folder = std::env::var_os("KNIGHTS_JS_LINT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/js-lint"));
    let file = folder.join("node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; install it as scripts/test.sh's js section does (npm ci in target/js-lint)",
            file.display()
        )
    })
}

/// Shows panel `tab` and makes something in it, so its board or tables are there.
async fn fill(client: &Client, tab: &str) {
    click(client, &format!("#tabs button[data-panel='{tab}']")).await;
    let (button, done) = match tab {
        "play" => (
            "#play-new",
            "document.querySelectorAll('#play-board rect.sq').length === 64",
        ),
        "tour" => (
            "#tour-generate",
            "document.getElementById('tour-board').dataset.squares === '64'",
        ),
        "theatre" => (
            "#theatre-run",
            "document.querySelectorAll('#theatre-board text.num').length > 0",
        ),
        "lab" => (
            "#lab-make",
            "document.getElementById('lab-before-title').textContent.includes('Tourney')",
        ),
        "cipher" => (
            "#cipher-encrypt",
            "document.getElementById('cipher-secret').value !== ''",
        ),
        _ => (
            "#count-start",
            "document.getElementById('count-status').dataset.state === 'done'",
        ),
    };
    if tab == "count" {
        set(client, "count-rows", "3").await;
        set(client, "count-cols", "4").await;
    }
    click(client, button).await;
    wait_for(client, &format!("return {done}"), 20, tab).await;
    if tab == "theatre" {
        click(client, "#theatre-pause").await;
    }
}

/// axe's serious and critical violations on the page as it is now (axe
/// injected), each as "WHERE: rule (impact): help: elements".
pub(super) async fn serious(client: &Client, at: &str) -> Vec<String> {
    let violations = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations
               .filter(v => v.impact === 'serious' || v.impact === 'critical')
               .map(v => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)));",
            vec![],
        )
        .await
        .unwrap();
    let found = violations.as_array().unwrap().iter();
    found
        .map(|v| format!("{at}: {}", v.as_str().unwrap()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_every_panel_passes_axe_and_fits_a_phone() {
    let axe = axe_source();
    let (client, addr, port, _driver, _profile) = start().await;
    client.goto(&format!("http://{addr}/")).await.unwrap();
    ready(&client).await;
    assert_eq!(
        js(&client, &format!("{axe}\n;return typeof window.axe")).await,
        "object"
    );
    let mut found = Vec::new();
    for tab in ["play", "tour", "theatre", "lab", "cipher", "count"] {
        fill(&client, tab).await;
        found.extend(serious(&client, tab).await);
    }
    assert!(found.is_empty(), "axe finds:\n{}", found.join("\n"));

    // A phone: the board on the first screen, no sideways scroll, every tab in reach.
    client.set_window_size(390, 844).await.unwrap();
    let width = js(&client, "return window.innerWidth")
        .await
        .as_u64()
        .unwrap();
    assert!(width <= 390, "the window is {width} wide");
    for (tab, board) in [
        ("play", "play-board"),
        ("tour", "tour-board"),
        ("theatre", "theatre-board"),
        ("lab", "lab-board"),
        ("cipher", "cipher-board"),
    ] {
        click(&client, &format!("#tabs button[data-panel='{tab}']")).await;
        let fits = js(&client, &format!(
            "window.scrollTo(0, 0);
             const b = document.querySelector('#{board} svg').getBoundingClientRect();
             const form = document.querySelector('#panel-{tab} form').getBoundingClientRect();
             const tabs = [...document.querySelectorAll('#tabs button')].map(t => t.getBoundingClientRect());
             return {{ board: [b.left, b.top, b.right, b.bottom], form: form.top,
               wide: document.documentElement.scrollWidth, high: window.innerHeight, wideWindow: window.innerWidth,
               tabs: tabs.every(t => t.left >= 0 && t.right <= window.innerWidth && t.bottom <= b.top) }}"
        )).await;
        let f = |k: &str| fits[k].as_f64().unwrap();
        let b: Vec<f64> = fits["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(b[2] - b[0] > 200.0, "{tab}: the board is drawn: {fits}");
        assert!(
            b[0] >= 0.0 && b[1] >= 0.0 && b[2] <= f("wideWindow") && b[3] <= f("high"),
            "{tab}: the board is on the first screen: {fits}"
        );
        assert!(
            b[3] <= f("form"),
            "{tab}: the board comes before the controls: {fits}"
        );
        assert!(
            f("wide") <= f("wideWindow"),
            "{tab}: no sideways scroll: {fits}"
        );
        if tab == "tour" {
            shot(&client, "web-phone.png").await;
        }
        found.extend(serious(&client, &format!("{tab} on a phone")).await);
        assert_eq!(
            fits["tabs"], true,
            "{tab}: every tab in reach above the board: {fits}"
        );
    }
    assert!(
        found.is_empty(),
        "axe finds on a phone:\n{}",
        found.join("\n")
    );
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
    client.close().await.unwrap();
}

/// The explorer's link, opened in a fresh browser.
async fn tour_link(client: &Client) {
    // The explorer: 6x6, seed 3, a start, the animation at step 3.
    click(client, "#tabs button[data-panel='tour']").await;
    set(client, "tour-rows", "6").await;
    set(client, "tour-cols", "6").await;
    set(client, "tour-seed", "3").await;
    wait_for(
        client,
        "return document.querySelectorAll('#tour-board rect.sq').length === 36",
        5,
        "a 6x6 board",
    )
    .await;
    click(client, "#tour-board rect[data-r='1'][data-c='2']").await;
    click(client, "#tour-generate").await;
    wait_for(
        client,
        "return document.getElementById('tour-board').dataset.squares === '36' && location.hash.includes('go=1')",
        20,
        "the tour",
    )
    .await;
    for _ in 0..4 {
        click(client, "#tour-step").await; // the whole tour, then 0, 1, 2, 3
    }
    let link = hash(client).await;
    for part in [
        "#v1/tour?",
        "rows=6",
        "seed=3",
        "start=1,2",
        "go=1",
        "step=3",
    ] {
        assert!(link.contains(part), "{link} has {part}");
    }
    let path = js(client, "return JSON.stringify(window.knightsTour.path)").await;

    // In a fresh browser (another server, as a person elsewhere would).
    {
        let (other, addr2, port2, _driver2, _profile2) = start().await;
        open(&other, addr2, &link).await;
        assert_eq!(tab_on(&other).await, "tour");
        assert_eq!(
            js(&other, "return JSON.stringify(window.knightsTour.path)").await,
            path,
            "the same tour"
        );
        assert_eq!(js(&other, "return window.knightsTour.upto").await, 3);
        assert_eq!(text_of(&other, "tour-at").await, "4 / 36");
        assert_eq!(text_of(&other, "tour-start").await, "1,2");
        assert_eq!(value(&other, "tour-seed").await, "3");
        assert_eq!(hash(&other).await, link, "opening a link keeps it");
        assert_eq!(console_errors(&other, port2).await, Vec::<String>::new());
        other.close().await.unwrap();
    }
}

/// The theatre's link, opened as a new page load.
async fn theatre_link(client: &Client, addr: SocketAddr) {
    // The theatre: Warnsdorff's replay stopped at a step.
    click(client, "#tabs button[data-panel='theatre']").await;
    set(client, "theatre-rows", "5").await;
    set(client, "theatre-cols", "5").await;
    click(client, "#theatre-run").await;
    wait_for(
        client,
        "return document.querySelectorAll('#theatre-board text.num').length > 0",
        10,
        "the replay",
    )
    .await;
    click(client, "#theatre-next").await;
    wait_for(
        client,
        "return location.hash.includes('step=')",
        5,
        "the step in the link",
    )
    .await;
    let link = hash(client).await;
    let (board, log) = (
        html(client, "theatre-board").await,
        text_of(client, "theatre-log").await,
    );
    open(client, addr, &link).await;
    assert_eq!(tab_on(client).await, "theatre");
    assert_eq!(html(client, "theatre-board").await, board, "{link}");
    assert_eq!(text_of(client, "theatre-log").await, log);
}

/// The lab's link, opened as a new page load.
async fn lab_link(client: &Client, addr: SocketAddr) {
    // The lab: a tourney made and shattered.
    click(client, "#tabs button[data-panel='lab']").await;
    set(client, "lab-rows", "6").await;
    set(client, "lab-cols", "6").await;
    click(client, "#lab-make").await;
    wait_for(
        client,
        "return document.getElementById('lab-before-title').textContent.includes('Tourney')",
        10,
        "the tourney",
    )
    .await;
    click(client, "#lab-shatter").await;
    wait_for(
        client,
        "return location.hash.includes('ops=shatter:1')",
        10,
        "the shatter in the link",
    )
    .await;
    let link = hash(client).await;
    let drawn = [
        html(client, "lab-board").await,
        html(client, "lab-after").await,
        html(client, "lab-after-title").await,
    ];
    open(client, addr, &link).await;
    assert_eq!(tab_on(client).await, "lab");
    let again = [
        html(client, "lab-board").await,
        html(client, "lab-after").await,
        html(client, "lab-after-title").await,
    ];
    assert_eq!(again, drawn, "{link}");
}

/// The cipher's links, without and with the text.
async fn cipher_link(client: &Client, addr: SocketAddr) {
    // The cipher: the key travels, the text only when asked.
    click(client, "#tabs button[data-panel='cipher']").await;
    set(client, "cipher-key", "6x6,seed=4").await;
    set(client, "cipher-plain", "Attack at dawn").await;
    click(client, "#cipher-encrypt").await;
    wait_for(client, "return document.getElementById('cipher-secret').value !== '' && location.hash.includes('did=encrypt')", 10, "the cipher text").await;
    let secret = value(client, "cipher-secret").await;
    let link = hash(client).await;
    assert!(
        !link.contains("Attack") && !link.contains("plain") && !link.contains("secret"),
        "{link}"
    );
    open(client, addr, &link).await;
    assert_eq!(tab_on(client).await, "cipher");
    assert_eq!(value(client, "cipher-key").await, "6x6,seed=4");
    assert_eq!(value(client, "cipher-plain").await, "");
    assert_eq!(value(client, "cipher-secret").await, "");
    set(client, "cipher-plain", "Attack at dawn").await;
    click(client, "#cipher-text-in-link").await;
    click(client, "#cipher-encrypt").await;
    wait_for(
        client,
        "return location.hash.includes('Attack') && location.hash.includes('did=encrypt')",
        10,
        "the text in the link",
    )
    .await;
    let link = hash(client).await;
    open(client, addr, &link).await;
    wait_for(
        client,
        "return document.getElementById('cipher-secret').value !== ''",
        10,
        "the cipher text again",
    )
    .await;
    assert_eq!(value(client, "cipher-plain").await, "Attack at dawn");
    assert_eq!(value(client, "cipher-secret").await, secret);
}
