//! The Play panel in headless Chromium (see `browser_tests` for how the
//! browser is driven): whole tours played by mouse and by keyboard alone,
//! each move the page's own hint read from its DOM (never computed here),
//! the win named by the server's checker; undo, redo and restart; a dead
//! end and its reason; the share contract; the board first on a phone's
//! screen.
//! `cargo test -p knights-serve -- --ignored browser_play`.

use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::Client;
use serde_json::Value;

use super::browser_tests::{choose, click, console_errors, js, set, shot, start, wait_for};

/// Polls `script` every 20 ms for up to 20 s (moves come quickly).
async fn until(client: &Client, script: &str, what: &str) {
    let t0 = Instant::now();
    while js(client, script).await != Value::Bool(true) {
        if t0.elapsed() > Duration::from_secs(20) {
            shot(client, "web-play-failure.png").await;
            let said = js(
                client,
                "return document.getElementById('play-message').textContent",
            )
            .await;
            panic!("timed out waiting for {what}; the page says: {said}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The answer for the path shown is in (no request in flight).
const SETTLED: &str = "const p = window.knightsPlay; return !!p.answer && !p.controller && p.answer.path.length === p.path.length";

/// Squares visited, as the board shows them.
fn visited_is(n: usize) -> String {
    format!("return document.querySelectorAll('#play-board rect.sq.visited').length === {n} && (() => {{ {SETTLED} }})()")
}

/// A new board of `rows` x `cols` with the goal `kind` and level `level`.
async fn new_board(client: &Client, rows: u32, cols: u32, kind: &str, level: &str) {
    set(client, "play-rows", &rows.to_string()).await;
    set(client, "play-cols", &cols.to_string()).await;
    choose(client, "play-kind", kind).await;
    choose(client, "play-level", level).await;
    click(client, "#play-new").await;
    let n = rows * cols;
    until(
        client,
        &format!("return document.querySelectorAll('#play-board rect.sq').length === {n} && (() => {{ {SETTLED} }})() && window.knightsPlay.path.length === 0"),
        "a new board",
    )
    .await;
}

/// Asks for a hint and reads the hinted square from the board: [r, c].
async fn hinted(client: &Client) -> (u64, u64) {
    until(
        client,
        "return !!document.querySelector('#play-board rect.sq.hinted')",
        "a hint",
    )
    .await;
    let at = js(client, "const r = document.querySelector('#play-board rect.sq.hinted'); return [+r.dataset.r, +r.dataset.c]").await;
    (at[0].as_u64().unwrap(), at[1].as_u64().unwrap())
}

/// Presses `keys` one after another on whatever has the focus.
async fn press(client: &Client, keys: &[char]) {
    let mut actions = KeyActions::new("keyboard".into());
    for &k in keys {
        actions = actions
            .then(KeyAction::Down { value: k })
            .then(KeyAction::Up { value: k });
    }
    client.perform_actions(actions).await.unwrap();
}

const UP: char = '\u{e013}';
const DOWN: char = '\u{e015}';
const LEFT: char = '\u{e012}';
const RIGHT: char = '\u{e014}';
const ENTER: char = '\u{e007}';
const TAB: char = '\u{e004}';

/// The page's message.
async fn message(client: &Client) -> String {
    let v = js(
        client,
        "return document.getElementById('play-message').textContent",
    )
    .await;
    v.as_str().unwrap().to_string()
}

/// Opens the page on the server at `addr` and waits until it is ready.
async fn open_page(client: &Client, addr: std::net::SocketAddr) {
    client.goto(&format!("http://{addr}/")).await.unwrap();
    until(
        client,
        "return document.body.dataset.ready === 'yes'",
        "the page",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_play_whole_tours_by_mouse_and_by_keyboard_following_hints() {
    let (client, addr, port, _driver, _profile) = start().await;
    open_page(&client, addr).await;
    // The Play panel is the first a visitor sees.
    let first = js(&client, "return document.querySelector('#tabs button').dataset.panel + ' ' + document.querySelector('.panel.on').id").await;
    assert_eq!(first, "play panel-play");

    // By mouse: each move the hint's square, clicked.
    for (rows, cols, kind, named) in [
        (5, 5, "open", "An open tour!"),
        (6, 6, "closed", "A closed tour!"),
        (8, 8, "closed", "A closed tour!"),
    ] {
        new_board(&client, rows, cols, kind, "medium").await;
        for step in 0..rows * cols {
            click(&client, "#play-hint").await;
            let (r, c) = hinted(&client).await;
            click(
                &client,
                &format!("#play-board rect.sq[data-r='{r}'][data-c='{c}']"),
            )
            .await;
            until(&client, &visited_is(step as usize + 1), "the move").await;
        }
        wait_for(
            &client,
            &format!("return document.getElementById('play-board').dataset.won === '{kind}'"),
            10,
            "the win",
        )
        .await;
        let said = message(&client).await;
        assert!(said.contains(named), "{rows}x{cols}: {said}");
        shot(&client, &format!("web-play-{rows}x{cols}.png")).await;
    }

    // By keyboard alone: Tab from the top of the page to the board, h for a hint, the arrows to it,
    // Enter to play it.
    new_board(&client, 5, 5, "open", "easy").await;
    js(&client, "document.activeElement.blur(); return true").await;
    for _ in 0..40 {
        let on_board = js(
            &client,
            "return document.activeElement.matches('#play-board rect.sq')",
        )
        .await;
        if on_board == Value::Bool(true) {
            break;
        }
        press(&client, &[TAB]).await;
    }
    let on_board = js(
        &client,
        "return document.activeElement.matches('#play-board rect.sq')",
    )
    .await;
    assert_eq!(on_board, Value::Bool(true), "Tab reaches the board");
    for step in 0..25 {
        press(&client, &['h']).await;
        let (r, c) = hinted(&client).await;
        let at = js(
            &client,
            "const e = document.activeElement; return [+e.dataset.r, +e.dataset.c]",
        )
        .await;
        let (mut cr, mut cc) = (at[0].as_u64().unwrap(), at[1].as_u64().unwrap());
        let mut keys = Vec::new();
        while (cr, cc) != (r, c) {
            match () {
                _ if cr < r => (keys.push(DOWN), cr += 1),
                _ if cr > r => (keys.push(UP), cr -= 1),
                _ if cc < c => (keys.push(RIGHT), cc += 1),
                _ => (keys.push(LEFT), cc -= 1),
            };
        }
        keys.push(ENTER);
        press(&client, &keys).await;
        until(&client, &visited_is(step + 1), "the move by keyboard").await;
    }
    wait_for(
        &client,
        "return document.getElementById('play-board').dataset.won === 'open'",
        10,
        "the win by keyboard",
    )
    .await;
    assert!(message(&client).await.contains("An open tour!"));
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_play_undo_redo_a_dead_end_and_a_phone() {
    let (client, addr, port, _driver, _profile) = start().await;
    open_page(&client, addr).await;

    // 3x3: no tour (nothing can enter the centre), so easy warns at the
    // first move;
    // round the ring the knight meets a dead end and the page says why.
    new_board(&client, 3, 3, "either", "easy").await;
    let names = js(&client, "return [...document.querySelectorAll('#play-board rect.sq')].map(r => r.getAttribute('aria-label'))").await;
    assert!(
        names[0]
            .as_str()
            .unwrap()
            .starts_with("a3, legal move, 2 onward moves"),
        "{names}"
    );
    assert!(
        names[8].as_str().unwrap().starts_with("c1, legal move"),
        "{names}"
    );
    click(&client, "#play-board rect.sq[data-r='0'][data-c='0']").await;
    until(&client, &visited_is(1), "the first move").await;
    let said = message(&client).await;
    assert!(
        said.contains("Warning: no finish from here: no open tour exists on 3x3"),
        "{said}"
    );
    let label = js(&client, "return document.querySelector(\"#play-board rect.sq[data-r='0'][data-c='0']\").getAttribute('aria-label')").await;
    assert_eq!(label, "a3, step 0, the knight");
    click(&client, "#play-hint").await;
    until(&client, "return document.getElementById('play-message').textContent.startsWith('No finish from here')", "the hint's refusal").await;
    for step in 2..=8 {
        click(&client, "#play-board rect.sq.legal").await;
        until(&client, &visited_is(step), "a move round the ring").await;
    }
    let said = message(&client).await;
    assert!(
        said.contains("Dead end: ") && said.len() > "Dead end: ".len() + 10,
        "{said}"
    );
    shot(&client, "web-play-dead-end.png").await;

    // Undo and redo, by button and by key; restart.
    click(&client, "#play-undo").await;
    until(&client, &visited_is(7), "undo").await;
    press(&client, &['u']).await;
    until(&client, &visited_is(6), "undo by u").await;
    click(&client, "#play-redo").await;
    until(&client, &visited_is(7), "redo").await;
    press(&client, &['y']).await;
    until(&client, &visited_is(8), "redo by y").await;
    assert!(message(&client).await.contains("Dead end"));
    // The link in the URL opens the same position in a fresh browser.
    let link = js(&client, "return location.hash").await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.starts_with("#v1/play?"), "{link}");
    let path = js(&client, "return JSON.stringify(window.knightsPlay.path)").await;
    {
        let (other, addr2, _port2, _driver2, _profile2) = start().await;
        other.goto(&format!("http://{addr2}/{link}")).await.unwrap();
        until(&other, &visited_is(8), "the link opened elsewhere").await;
        let again = js(&other, "return JSON.stringify(window.knightsPlay.path)").await;
        assert_eq!(again, path, "{link}");
        assert!(message(&other).await.contains("Dead end"));
        other.close().await.unwrap();
    }
    // The share contract: the state saved, restart (an event not fresh),
    // the state restored.
    js(&client, "window.seen = []; document.addEventListener('knights:state', e => window.seen.push(e.detail)); return import('/assets/play.js').then(m => { window.saved = m.share.save(); return true; })").await;
    press(&client, &['r']).await;
    until(&client, &visited_is(0), "restart").await;
    let seen = js(&client, "return window.seen").await;
    assert_eq!(seen, serde_json::json!([{"tab": "play", "fresh": false}]));
    js(&client, "return import('/assets/play.js').then(m => m.share.restore(window.saved)).then(() => true)").await;
    until(&client, &visited_is(8), "the state restored").await;
    assert!(message(&client).await.contains("Dead end"));

    // A phone: the board first, as wide as the screen.
    client.set_window_size(390, 844).await.unwrap();
    new_board(&client, 8, 8, "either", "medium").await;
    let fits = js(&client, "const b = document.getElementById('play-board').getBoundingClientRect(); const f = document.getElementById('play-form').getBoundingClientRect(); return [b.top, b.bottom, b.right, f.top, window.innerWidth, window.innerHeight]").await;
    let f: Vec<f64> = fits
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(f[1] <= f[5] && f[2] <= f[4] && f[0] < f[3], "board {fits}");
    shot(&client, "web-play-phone.png").await;
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
}
