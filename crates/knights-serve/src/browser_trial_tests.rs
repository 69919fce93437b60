//! The page in headless Chromium against the real server (see
//! `browser_tests`): what new users met on the page stays fixed.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use super::browser_tests::{
    choose, click, console_errors, js, set, start, start_with, text_of, wait_for,
};
use super::Config;

/// What a new user meets first: the Tourney lab's default generator is
/// accepted, the join reads "1 cycle before", the counting cap is described
/// rightly with defaults slow enough to cancel, a cancel leaves one total
/// and no "Cancelling…", "An open tour" reads right, and an error clears
/// the old tour from the page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_the_first_hour_defects_stay_fixed() {
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

    first_tour(&client).await;
    first_replay(&client).await;
    first_tourneys(&client).await;
    first_cipher(&client).await;
    first_count(&client).await;

    // The browser logs the 400s the bad board and key were answered with.
    let errors: Vec<String> = console_errors(&client, port)
        .await
        .into_iter()
        .filter(|e| !e.contains("status of 400"))
        .collect();
    client.close().await.unwrap();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// The tour explorer: the article, then an error clears the old tour.
async fn first_tour(client: &Client) {
    // Tour explorer: the article, then an error clears the old tour.
    set(client, "tour-rows", "6").await;
    set(client, "tour-cols", "6").await;
    choose(client, "tour-kind", "open").await;
    click(client, "#tour-generate").await;
    wait_for(
        client,
        "return document.getElementById('tour-board').dataset.squares === '36'",
        20,
        "the tour",
    )
    .await;
    let message = text_of(client, "tour-message").await;
    assert!(message.starts_with("An open tour of 6x6"), "{message}");
    assert!(
        js(client, "return !document.getElementById('tour-downloads').hidden && !!document.getElementById('dl-json').href").await == Value::Bool(true),
        "the download links are offered"
    );
    set(client, "tour-rows", "2000").await;
    set(client, "tour-cols", "2000").await;
    click(client, "#tour-generate").await;
    wait_for(
        client,
        "return document.getElementById('tour-message').textContent.includes('2000x2000')",
        20,
        "the error",
    )
    .await;
    let left = js(
        client,
        "return { numbers: document.querySelectorAll('#tour-board text.num').length,
                  squares: document.getElementById('tour-board').dataset.squares || null,
                  at: document.getElementById('tour-at').textContent,
                  hidden: document.getElementById('tour-downloads').hidden,
                  href: document.getElementById('dl-json').getAttribute('href') }",
    )
    .await;
    assert_eq!(
        left,
        json!({"numbers": 0, "squares": null, "at": "", "hidden": true, "href": null}),
        "after an error nothing of the old tour is left"
    );
}

/// The theatre: Warnsdorff's replay ends on "an open tour".
async fn first_replay(client: &Client) {
    // Theatre: Warnsdorff's replay ends on "an open tour".
    click(client, "#tabs button[data-panel='theatre']").await;
    set(client, "theatre-rows", "5").await;
    set(client, "theatre-cols", "5").await;
    js(
        client,
        "document.getElementById('theatre-speed').value = 500; return true",
    )
    .await;
    click(client, "#theatre-run").await;
    wait_for(
        client,
        "return document.getElementById('theatre-log').textContent.startsWith('Done')",
        20,
        "the replay's end",
    )
    .await;
    let log = text_of(client, "theatre-log").await;
    assert_eq!(log, "Done: an open tour of 5x5.");
}

/// The tourney lab: every generator the page offers makes a tourney of
/// 8x8, the default (offered first) included; the join's caption counts
/// the cycles sent.
async fn first_tourneys(client: &Client) {
    // Tourney lab: every generator the page offers makes a tourney of 8x8,
    // the default (offered first) included.
    click(client, "#tabs button[data-panel='lab']").await;
    let offered = js(
        client,
        "return [...document.querySelectorAll('#lab-generator option')].map(o => o.value)",
    )
    .await;
    let offered: Vec<String> = offered
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(offered.first().map(String::as_str), Some("warnsdorff"));
    for name in offered.iter().rev() {
        choose(client, "lab-generator", name).await;
        click(client, "#lab-make").await;
        wait_for(
            client,
            &format!("return document.getElementById('lab-before-title').textContent.startsWith('Tourney by {name}:') || (document.getElementById('lab-message').textContent !== '' && !document.getElementById('lab-message').classList.contains('ok'))"),
            30,
            "the tourney",
        )
        .await;
        let title = text_of(client, "lab-before-title").await;
        assert!(
            title.starts_with(&format!("Tourney by {name}:")),
            "{name}: {title} / {}",
            text_of(client, "lab-message").await
        );
    }
    // The last one made is the default's: joined, the caption counts the
    // cycles sent, in the right number.
    let cycles = js(
        client,
        "return document.querySelectorAll('#lab-board polygon.cycle').length",
    )
    .await
    .as_u64()
    .unwrap();
    assert!(
        cycles > 1,
        "Warnsdorff's tourney of 8x8 has {cycles} cycles"
    );
    click(client, "#lab-join").await;
    wait_for(
        client,
        "return document.getElementById('lab-after-title').textContent.startsWith('Joined')",
        60,
        "the join",
    )
    .await;
    let caption = text_of(client, "lab-after-title").await;
    assert!(
        caption.contains(&format!("({cycles} cycles before;")),
        "{caption}"
    );
}

/// The cipher: a key refused takes the last key's drawing with it.
async fn first_cipher(client: &Client) {
    // Cipher: a key refused takes the last key's drawing with it.
    click(client, "#tabs button[data-panel='cipher']").await;
    click(client, "#cipher-encrypt").await;
    wait_for(
        client,
        "return !!document.querySelector('#cipher-board svg')",
        20,
        "the cipher's board",
    )
    .await;
    set(client, "cipher-key", "not a key").await;
    click(client, "#cipher-encrypt").await;
    wait_for(
        client,
        "return document.getElementById('cipher-message').textContent !== ''",
        20,
        "the key's error",
    )
    .await;
    let left = js(client, "return [document.querySelectorAll('#cipher-board svg').length, document.getElementById('cipher-result').textContent]").await;
    assert_eq!(left, json!([0, ""]));
}

/// Counting: the cap said truly, a default count long enough to cancel,
/// one total, and the "Cancelling…" note gone when the job says so.
async fn first_count(client: &Client) {
    // Counting: the cap said truly, a default count long enough to cancel,
    // one total, and the "Cancelling…" note gone when the job says so.
    click(client, "#tabs button[data-panel='count']").await;
    let cap = text_of(client, "count-cap").await;
    assert!(
        cap.starts_with("Boards of up to 48 squares: 6x8 and 6x6 fit, 7x7 (49 squares) does not;"),
        "{cap}"
    );
    let described = js(
        client,
        "return import('/assets/count.js').then(m => m.describeCountCap(63, 120))",
    )
    .await;
    assert!(
        described
            .as_str()
            .unwrap()
            .starts_with("Boards of up to 63 squares: 7x9 and 7x7 fit, 8x8 (64 squares) does not;"),
        "{described}"
    );
    let over = js(client, "return [...document.querySelectorAll('#count-known tr.over')].map(r => r.cells[0].textContent)").await;
    assert!(over.as_array().unwrap().contains(&json!("8x8")), "{over}");
    assert!(!over.as_array().unwrap().contains(&json!("6x8")), "{over}");
    let defaults = js(client, "return ['count-rows', 'count-cols', 'count-kind'].map(id => document.getElementById(id).value)").await;
    assert_eq!(defaults, json!(["6", "8", "open"]));
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
    let status = text_of(client, "count-status").await;
    let total = js(
        client,
        "return document.getElementById('count-progress').max",
    )
    .await
    .as_u64()
    .unwrap();
    assert!(
        status.starts_with("Open tours of 6x8: cancelled at square ")
            && status.contains(&format!(" of {total}, after ")),
        "{status}"
    );
    assert_eq!(text_of(client, "count-message").await, "");
    // The engine's stop message may count one part's squares ("28 of 30"
    // while the progress said "58 of 60"): the line keeps to the progress.
    let line = js(
        client,
        "return import('/assets/count.js').then(m => m.countStatus({board: '6x8', kind: 'closed', state: 'cancelled', step: 58, steps: 60, states: 1, elapsed: 0.6, error: 'the count was stopped after square 28 of 30'}, true, 120))",
    )
    .await;
    assert_eq!(
        line,
        "Closed tours of 6x8: cancelled at square 58 of 60, after 0.6 s."
    );
}

/// `GET path` from a client other than a browser (no Origin), with the
/// server's own `Host`: the answer's body as JSON.
fn api_get(addr: SocketAddr, path: &str) -> Value {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or(Value::Null)
}

/// Leaving the page cancels its running count (only `DELETE` cancels, so
/// before, a closed or reloaded page left the count running to its limit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_leaving_the_page_cancels_its_count() {
    let (client, addr, _port, _driver, _profile, answers) = start_with(Config::default()).await;
    client.goto(&format!("http://{addr}/")).await.unwrap();
    click(&client, "#tabs button[data-panel='count']").await;
    set(&client, "count-rows", "6").await;
    set(&client, "count-cols", "8").await;
    choose(&client, "count-kind", "open").await;
    click(&client, "#count-start").await;
    wait_for(&client, "return document.getElementById('count-status').dataset.state === 'running' && document.getElementById('count-progress').value > 0", 20, "the count's progress").await;
    let events = answers
        .lock()
        .unwrap()
        .iter()
        .find_map(|(_, path, _)| path.strip_suffix("/events").map(str::to_string))
        .expect("the page opened the count's events");
    client.goto("about:blank").await.unwrap();
    let mut state = Value::Null;
    for _ in 0..300 {
        let path = events.clone();
        let status = tokio::task::spawn_blocking(move || api_get(addr, &path));
        state = status.await.unwrap()["state"].clone();
        if state != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let deletes: Vec<_> = answers
        .lock()
        .unwrap()
        .iter()
        .filter(|(m, _, _)| m == "DELETE")
        .cloned()
        .collect();
    assert_eq!(state, "cancelled", "the DELETE answers: {deletes:?}");
    assert_eq!(deletes, [("DELETE".to_string(), events, 200)]);
    client.close().await.unwrap();
}

/// What a new user met on the page (issue 55): steps numbered from 1 with
/// no way to match the command line's default 0; an old tour's message
/// left over the empty board after a click; "Found: a open tour" in the
/// theatre; the count's cap said as "48 squares (6x6)".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_the_second_trial_defects_stay_fixed() {
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

    // Steps from 0 by default, as `knights tour --base`; from 1 when chosen,
    // in the page's state.
    let numbers = "return [...document.querySelectorAll('#tour-board text.num')].map(t => +t.textContent).sort((a, b) => a - b)";
    set(&client, "tour-rows", "5").await;
    set(&client, "tour-cols", "6").await;
    click(&client, "#tour-generate").await;
    wait_for(
        &client,
        "return document.getElementById('tour-board').dataset.squares === '30'",
        20,
        "the tour",
    )
    .await;
    let chosen = js(&client, "return document.getElementById('page-base').value").await;
    assert_eq!(chosen, json!("0"));
    let from_zero: Vec<u64> = (0..30).collect();
    assert_eq!(js(&client, numbers).await, json!(from_zero));
    choose(&client, "page-base", "1").await;
    let from_one: Vec<u64> = (1..=30).collect();
    assert_eq!(js(&client, numbers).await, json!(from_one));
    let base = js(
        &client,
        "return import('/assets/shared.js').then(m => m.state.base)",
    )
    .await;
    assert_eq!(base, json!(1));

    // A click on the board starts afresh: no message of the old tour.
    assert!(text_of(&client, "tour-message")
        .await
        .contains("tour of 5x6"));
    // The number drawn over the square takes the click.
    click(&client, "#tour-board text.num[data-r='1'][data-c='2']").await;
    let left = js(&client, "return [document.getElementById('tour-message').textContent, document.querySelectorAll('#tour-board text.num').length]").await;
    assert_eq!(left, json!(["", 0]));

    // Theatre: a search's tour is "an open tour".
    click(&client, "#tabs button[data-panel='theatre']").await;
    set(&client, "theatre-rows", "5").await;
    set(&client, "theatre-cols", "5").await;
    choose(&client, "theatre-algorithm", "hybrid").await;
    choose(&client, "theatre-kind", "open").await;
    js(
        &client,
        "document.getElementById('theatre-speed').value = 500; return true",
    )
    .await;
    click(&client, "#theatre-run").await;
    wait_for(
        &client,
        "return document.getElementById('theatre-log').textContent.startsWith('Found')",
        30,
        "the search's end",
    )
    .await;
    let log = text_of(&client, "theatre-log").await;
    assert!(log.starts_with("Found: an open tour after "), "{log}");

    // Counting: a board over the cap is told the cap plainly.
    click(&client, "#tabs button[data-panel='count']").await;
    set(&client, "count-rows", "7").await;
    set(&client, "count-cols", "7").await;
    click(&client, "#count-start").await;
    wait_for(
        &client,
        "return document.getElementById('count-message').textContent !== ''",
        20,
        "the cap's message",
    )
    .await;
    let message = text_of(&client, "count-message").await;
    assert!(
        message.contains("at most 48 squares (such as 6x8)") && !message.contains("6x6"),
        "{message}"
    );

    let errors: Vec<String> = console_errors(&client, port)
        .await
        .into_iter()
        .filter(|e| !e.contains("status of 400"))
        .collect();
    client.close().await.unwrap();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}
