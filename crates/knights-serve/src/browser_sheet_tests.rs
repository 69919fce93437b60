//! The Tour panel's "Print worksheet" in headless Chromium (the drivers of
//! `browser_tests`): the worksheet and its solution page arrive with the
//! boards asked for, ready to print (the print dialog stubbed). Ignored in
//! the plain `cargo test`; `scripts/test.sh` runs it with the other
//! `browser_` tests.

use fantoccini::Client;

use super::browser_tests::{click, console_errors, js, set, start, wait_for};

async fn ready(client: &Client) {
    wait_for(
        client,
        "return document.body.dataset.ready === 'yes'",
        20,
        "the page",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_sheet_prints_the_worksheet_and_its_solution() {
    let (client, addr, port, _driver, _profile) = start().await;
    client.goto(&format!("http://{addr}/")).await.unwrap();
    ready(&client).await;
    // No print dialog in a test: count the calls instead.
    js(
        &client,
        "window.printed = 0; window.print = () => { window.printed += 1; }; return null",
    )
    .await;
    click(&client, "#tabs button[data-panel='tour']").await;
    set(&client, "tour-rows", "6").await;
    set(&client, "tour-cols", "6").await;
    set(&client, "tour-seed", "3").await;
    set(&client, "sheet-copies", "4").await;
    click(&client, "#sheet-print").await;
    wait_for(
        &client,
        "return window.printed === 1",
        20,
        "the print dialog",
    )
    .await;
    let boards = js(
        &client,
        "return [...document.querySelectorAll('#print-sheet .print-page')].map(p => p.querySelectorAll('g.sheet-board[data-board=\"6x6\"]').length)",
    )
    .await;
    assert_eq!(boards, serde_json::json!([4, 4]));
    // The worksheet gives each board's start; the solution numbers all 36 squares.
    let numbers = js(
        &client,
        "return [...document.querySelectorAll('#print-sheet .print-page')].map(p => p.querySelectorAll('text[data-at]').length)",
    )
    .await;
    assert_eq!(numbers, serde_json::json!([4, 4 * 36]));
    assert_eq!(
        js(
            &client,
            "return document.body.classList.contains('print-sheet')"
        )
        .await,
        true
    );
    // Only the sheet prints: the panels are hidden by the print style.
    let hidden = js(
        &client,
        "return [...document.styleSheets].some(s => [...s.cssRules].some(r => r.media && r.media.mediaText === 'print' && r.cssText.includes('display: none') && r.cssText.includes('#print-sheet')))",
    )
    .await;
    assert_eq!(hidden, true);
    // The download links follow the fields.
    let href = js(&client, "return document.getElementById('sheet-png').href").await;
    let href = href.as_str().unwrap();
    assert!(
        href.contains("/api/sheet?") && href.contains("copies=4") && href.contains("format=png"),
        "{href}"
    );

    // A sheet too big to solve by hand says so on the panel and prints nothing.
    set(&client, "tour-rows", "40").await;
    set(&client, "tour-cols", "40").await;
    click(&client, "#sheet-print").await;
    wait_for(
        &client,
        "return document.getElementById('sheet-message').textContent.includes('too big to solve by hand')",
        20,
        "the refusal",
    )
    .await;
    assert_eq!(js(&client, "return window.printed").await, 1);
    let errors: Vec<String> = console_errors(&client, port)
        .await
        .into_iter()
        .filter(|e| !e.contains("/api/sheet"))
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    client.close().await.unwrap();
}
