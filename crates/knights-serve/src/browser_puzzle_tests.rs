//! The Puzzle panel in headless Chromium (see `browser_tests` for how the
//! browser is driven): an easy 5x5 puzzle made by the server and numbered
//! by clicks and by the arrow keys with digits (the numbers from the
//! puzzle's one solution, as the API answered it), a deduction asked for
//! and placed, a conflict said in words, undo, the check by the server, the
//! shared link opened in a fresh browser with the same progress; axe and a
//! phone's screen with its number field.
//! `cargo test -p knights-serve -- --ignored browser_puzzle`.

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::Client;
use serde_json::Value;

use super::browser_share_tests::{axe_source, serious};
use super::browser_tests::{choose, click, console_errors, js, set, shot, start, wait_for};

const UP: char = '\u{e013}';
const DOWN: char = '\u{e015}';
const LEFT: char = '\u{e012}';
const RIGHT: char = '\u{e014}';
const ENTER: char = '\u{e007}';
const ESCAPE: char = '\u{e00c}';

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

/// The panel's message.
async fn message(client: &Client) -> String {
    let v = js(
        client,
        "return document.getElementById('puzzle-message').textContent",
    )
    .await;
    v.as_str().unwrap().to_string()
}

/// Opens the page at `url` and waits until it is ready.
async fn open_page(client: &Client, url: &str) {
    client.goto(url).await.unwrap();
    wait_for(
        client,
        "return document.body.dataset.ready === 'yes'",
        20,
        "the page",
    )
    .await;
}

/// A new puzzle of `rows` x `cols` from the form: its solution (row-major
/// squares in order) and its given squares.
async fn new_puzzle(client: &Client, rows: u32, cols: u32, seed: u32) -> (Vec<u64>, Vec<u64>) {
    click(client, "#tabs button[data-panel='puzzle']").await;
    set(client, "puzzle-rows", &rows.to_string()).await;
    set(client, "puzzle-cols", &cols.to_string()).await;
    choose(client, "puzzle-difficulty", "easy").await;
    set(client, "puzzle-seed", &seed.to_string()).await;
    click(client, "#puzzle-new").await;
    wait_for(
        client,
        &format!("const q = window.knightsPuzzle; return !!q.solution && q.pz.rows === {rows} && document.querySelectorAll('#puzzle-board rect.sq').length === {}", rows * cols),
        60,
        "a new puzzle",
    )
    .await;
    let v = js(
        client,
        "const q = window.knightsPuzzle; return [q.solution, [...q.pz.given.keys()], q.pz.base]",
    )
    .await;
    let list = |v: &Value| -> Vec<u64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    assert_eq!(v[2], 1, "a puzzle numbers from 1 by default");
    (list(&v[0]), list(&v[1]))
}

/// The number the player has on square `s` (null when blank).
async fn placed(client: &Client, s: u64) -> Value {
    js(
        client,
        &format!("return window.knightsPuzzle.placed.get({s}) ?? null"),
    )
    .await
}

/// The keys of a number: its digits, then Enter.
fn digits(n: usize) -> Vec<char> {
    let mut keys: Vec<char> = n.to_string().chars().collect();
    keys.push(ENTER);
    keys
}

/// A given number (`twice`) typed again on the blank square `blank`: the
/// conflict said in words and in the square's label, the check refusing;
/// undone by its key; then a number typed and taken back by Escape.
async fn conflict_and_undo(client: &Client, blank: u64, twice: usize) {
    click(client, &format!("#puzzle-board rect.sq[data-s='{blank}']")).await;
    let mut keys: Vec<char> = twice.to_string().chars().collect();
    keys.push(ENTER);
    press(client, &keys).await;
    wait_for(client, &format!("return document.getElementById('puzzle-conflicts').textContent.includes('{twice} is on 2 squares')"), 5, "the conflict").await;
    let wrong = js(client, &format!("return document.querySelector(\"#puzzle-board rect.sq[data-s='{blank}']\").getAttribute('aria-label')")).await;
    assert!(wrong.as_str().unwrap().contains("conflict"), "{wrong}");
    click(client, "#puzzle-check").await;
    wait_for(
        client,
        "return document.getElementById('puzzle-message').textContent.startsWith('Not solved: ')",
        5,
        "the check's refusal",
    )
    .await;
    shot(client, "web-puzzle-conflict.png").await;
    // Undo by its key takes it back (the number typed was one step).
    press(client, &['u']).await;
    assert_eq!(placed(client, blank).await, Value::Null);
    assert_eq!(
        js(
            client,
            "return document.getElementById('puzzle-conflicts').children.length"
        )
        .await,
        0
    );
    // Escape takes back a number being typed.
    click(client, &format!("#puzzle-board rect.sq[data-s='{blank}']")).await;
    press(client, &['7', ESCAPE]).await;
    assert_eq!(placed(client, blank).await, Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_puzzle_solved_by_clicks_and_keys_with_a_deduction_and_a_shared_link() {
    let (client, addr, port, _driver, _profile) = start().await;
    open_page(&client, &format!("http://{addr}/")).await;
    let (solution, given) = new_puzzle(&client, 5, 5, 1).await;
    assert_eq!(solution.len(), 25);
    let number_of = |s: u64| solution.iter().position(|&x| x == s).unwrap() + 1;
    let label = js(&client, &format!("return document.querySelector(\"#puzzle-board rect.sq[data-s='{}']\").getAttribute('aria-label')", given[0])).await;
    assert!(
        label
            .as_str()
            .unwrap()
            .ends_with(&format!("given {}", number_of(given[0]))),
        "{label}"
    );

    // A deduction: its square highlighted, its reason said, placed by its button.
    click(&client, "#puzzle-deduce").await;
    wait_for(
        &client,
        "return !!document.querySelector('#puzzle-board rect.sq.deduced')",
        20,
        "a deduction",
    )
    .await;
    let said = message(&client).await;
    assert!(said.starts_with("Deduction: ") && said.len() > 30, "{said}");
    let d = js(
        &client,
        "const d = window.knightsPuzzle.deduction; return [d.s, d.n]",
    )
    .await;
    let (ds, dn) = (d[0].as_u64().unwrap(), d[1].as_u64().unwrap() as usize);
    assert_eq!(dn, number_of(ds), "the deduction is the solution's number");
    click(&client, "#puzzle-place").await;
    assert_eq!(placed(&client, ds).await, dn);

    // A conflict: a given number typed again elsewhere, said in words; Escape takes it back.
    let blanks: Vec<u64> = solution
        .iter()
        .copied()
        .filter(|s| !given.contains(s) && *s != ds)
        .collect();
    conflict_and_undo(&client, blanks[0], number_of(given[0])).await;

    // The rest: the first half by clicks and digits, the second by the arrow keys.
    let half = blanks.len() / 2;
    for &s in &blanks[..half] {
        click(&client, &format!("#puzzle-board rect.sq[data-s='{s}']")).await;
        press(&client, &digits(number_of(s))).await;
        assert_eq!(placed(&client, s).await, number_of(s));
    }
    // The link now carries the puzzle and this progress: a fresh browser shows the same.
    let link = js(&client, "return location.hash").await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.starts_with("#v1/puzzle?"), "{link}");
    let state = "const q = window.knightsPuzzle; return q.pz && JSON.stringify([[...q.pz.given].sort((a, b) => a[0] - b[0]), [...q.placed].sort((a, b) => a[0] - b[0])])";
    let here = js(&client, state).await;
    {
        let (other, addr2, port2, _driver2, _profile2) = start().await;
        open_page(&other, &format!("http://{addr2}/{link}")).await;
        wait_for(
            &other,
            &format!("return window.knightsPuzzle.placed.size === {}", half + 1),
            20,
            "the shared progress",
        )
        .await;
        assert_eq!(js(&other, state).await, here, "{link}");
        let on = js(&other, "return document.querySelector('.panel.on').id").await;
        assert_eq!(on, "panel-puzzle");
        assert_eq!(console_errors(&other, port2).await, Vec::<String>::new());
        other.close().await.unwrap();
    }
    for &s in &blanks[half..] {
        let at = js(&client, "return window.knightsPuzzle.cursor").await;
        let (mut r, mut c) = (at.as_u64().unwrap() / 5, at.as_u64().unwrap() % 5);
        let (tr, tc) = (s / 5, s % 5);
        let mut keys = Vec::new();
        while (r, c) != (tr, tc) {
            match () {
                _ if r < tr => (keys.push(DOWN), r += 1),
                _ if r > tr => (keys.push(UP), r -= 1),
                _ if c < tc => (keys.push(RIGHT), c += 1),
                _ => (keys.push(LEFT), c -= 1),
            };
        }
        keys.extend(digits(number_of(s)));
        press(&client, &keys).await;
        assert_eq!(placed(&client, s).await, number_of(s), "by keys at {s}");
    }
    // Checked by the server: solved.
    press(&client, &['c']).await;
    wait_for(
        &client,
        "return document.getElementById('puzzle-board').dataset.solved === 'yes'",
        20,
        "the check",
    )
    .await;
    assert!(message(&client).await.starts_with("Solved!"));
    shot(&client, "web-puzzle-solved.png").await;
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_puzzle_passes_axe_and_plays_on_a_phone() {
    let axe = axe_source();
    let (client, addr, port, _driver, _profile) = start().await;
    open_page(&client, &format!("http://{addr}/")).await;
    new_puzzle(&client, 5, 5, 2).await;
    js(&client, &format!("{axe}\n;return typeof window.axe")).await;
    let found = serious(&client, "puzzle").await;
    assert!(found.is_empty(), "axe finds:\n{}", found.join("\n"));

    // A pasted puzzle: refused with the reader's sentence when malformed,
    // opened with its clues when not.
    click(&client, "#puzzle-open-box summary").await;
    let paste = |text: &str| {
        format!(
            "document.getElementById('puzzle-text').value = {}; return true",
            serde_json::to_string(text).unwrap()
        )
    };
    js(
        &client,
        &paste("puzzle 3x4 open\n1 . .\n. . . .\n. . . 12\n"),
    )
    .await;
    click(&client, "#puzzle-open").await;
    wait_for(&client, "return document.getElementById('puzzle-message').textContent.startsWith('This puzzle cannot be opened: line 2 has 3 entries')", 10, "the refusal").await;
    assert_eq!(
        js(&client, "return window.knightsPuzzle.pz.rows").await,
        5,
        "the puzzle shown stays"
    );
    // The browser logs the refusal's status, and nothing else.
    let logged = console_errors(&client, port).await;
    assert!(
        logged.len() == 1 && logged[0].contains("/api/solve") && logged[0].contains("400"),
        "{logged:?}"
    );
    js(
        &client,
        &paste("puzzle 3x4 open\n1 . . .\n. . . .\n. . . 12\n"),
    )
    .await;
    click(&client, "#puzzle-open").await;
    wait_for(
        &client,
        "const q = window.knightsPuzzle; return q.pz.rows === 3 && q.pz.cols === 4 && q.pz.given.get(11) === 12 && document.querySelectorAll('#puzzle-board rect.sq').length === 12",
        10,
        "the pasted puzzle",
    )
    .await;
    let (solution, given) = new_puzzle(&client, 5, 5, 2).await;

    // A phone: the board on the first screen before the controls, no
    // sideways scroll; the number field below it, and a number by it.
    client.set_window_size(390, 844).await.unwrap();
    let fits = js(&client, "window.scrollTo(0, 0); const b = document.querySelector('#puzzle-board svg').getBoundingClientRect(); const f = document.getElementById('puzzle-form').getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom, f.top, window.innerWidth, window.innerHeight, document.documentElement.scrollWidth, document.getElementById('puzzle-number').getBoundingClientRect().bottom]").await;
    let f: Vec<f64> = fits
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(f[2] - f[0] > 200.0, "the board is drawn: {fits}");
    assert!(
        f[0] >= 0.0 && f[2] <= f[5] && f[3] <= f[6] && f[3] <= f[4] && f[7] <= f[5],
        "the board first, on the screen: {fits}"
    );
    assert!(
        f[8] <= f[6],
        "the number field on the first screen too: {fits}"
    );
    let s = *solution.iter().find(|s| !given.contains(s)).unwrap();
    let n = solution.iter().position(|&x| x == s).unwrap() + 1;
    click(&client, &format!("#puzzle-board rect.sq[data-s='{s}']")).await;
    set(&client, "puzzle-number", &n.to_string()).await;
    assert_eq!(placed(&client, s).await, n);
    let found = serious(&client, "puzzle on a phone").await;
    assert!(found.is_empty(), "axe finds:\n{}", found.join("\n"));
    shot(&client, "web-puzzle-phone.png").await;
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
    client.close().await.unwrap();
}
