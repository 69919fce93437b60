//! Magic tours on the page in headless Chromium (see `browser_tests` for
//! how the browser is driven): Dudeney's semimagic tour opened by a Play
//! share link, and as a puzzle given whole and checked, says its line sums
//! under the board; an ordinary tour, and a tour the explorer makes, say
//! none.
//! `cargo test -p knights-serve --lib -- --ignored browser_magic`.

use fantoccini::Client;

use super::browser_tests::{click, console_errors, js, shot, start, text_of, wait_for};
use super::magic_tests::{dudeney, dudeney_path, ordinary_path};

/// The caption Dudeney's tour shows (the page numbers steps from 0 by
/// default, so the caption says the sums are of the numbering from 1).
const DUDENEY_SAYS: &str = "Semimagic: every row and column sums to 260; diagonals 264 and 256";

/// Opens, in a fresh page, the Play panel's link with `path` played on
/// 8x8 and waits until the page names the win.
async fn play_link(client: &Client, addr: std::net::SocketAddr, path: &[(u32, u32)]) {
    let path: Vec<String> = path.iter().map(|(r, c)| format!("{r},{c}")).collect();
    let link = format!(
        "http://{addr}/#v1/play?board=8x8&kind=either&level=medium&path={}",
        path.join(".")
    );
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    wait_for(
        client,
        "const p = window.knightsPlay; return !!p && p.path.length === 64 && !!p.answer && !p.controller && !!document.getElementById('play-board').dataset.won",
        20,
        "the played tour",
    )
    .await;
}

/// Whether the caption `id` is shown.
async fn shown(client: &Client, id: &str) -> bool {
    let v = js(
        client,
        &format!("return !document.getElementById('{id}').hidden"),
    )
    .await;
    v.as_bool().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_magic_dudeneys_tour_says_its_sums_and_an_ordinary_tour_none() {
    let (client, addr, port, _driver, _profile) = start().await;

    // Dudeney's tour, played through a share link: the win, then its sums.
    play_link(&client, addr, &dudeney_path()).await;
    assert!(shown(&client, "play-magic").await);
    let said = text_of(&client, "play-magic").await;
    assert!(said.starts_with(DUDENEY_SAYS), "{said}");
    assert!(said.contains("numbered from 1"), "{said}");
    shot(&client, "web-magic-play.png").await;
    // With the page's steps numbered from 1 the caption has nothing to add.
    js(&client, "const b = document.getElementById('page-base'); b.value = '1'; b.dispatchEvent(new Event('change')); return true").await;
    assert_eq!(
        text_of(&client, "play-magic").await,
        format!("{DUDENEY_SAYS}.")
    );

    // An ordinary tour wins without a caption.
    play_link(&client, addr, &ordinary_path().0).await;
    assert!(!shown(&client, "play-magic").await);
    assert_eq!(text_of(&client, "play-magic").await, "");

    // Dudeney's tour as a puzzle with every number given: checked, it is
    // solved and says its sums.
    click(&client, "#tabs button[data-panel='puzzle']").await;
    click(&client, "#puzzle-open-box summary").await;
    let grid: Vec<String> = dudeney()
        .iter()
        .map(|row| row.map(|n| n.to_string()).join(" "))
        .collect();
    let text = format!("puzzle 8x8 closed\n{}\n", grid.join("\n"));
    js(
        &client,
        &format!(
            "document.getElementById('puzzle-text').value = {}; return true",
            serde_json::to_string(&text).unwrap()
        ),
    )
    .await;
    click(&client, "#puzzle-open").await;
    wait_for(
        &client,
        "const q = window.knightsPuzzle; return !!q.pz && q.pz.rows === 8 && q.pz.given.size === 64",
        10,
        "the pasted puzzle",
    )
    .await;
    assert!(!shown(&client, "puzzle-magic").await, "not yet checked");
    click(&client, "#puzzle-check").await;
    wait_for(
        &client,
        "return document.getElementById('puzzle-board').dataset.solved === 'yes'",
        10,
        "the puzzle solved",
    )
    .await;
    assert_eq!(
        text_of(&client, "puzzle-magic").await,
        format!("{DUDENEY_SAYS}.")
    );

    // The explorer's tour of 8x8 is an ordinary one: no caption.
    click(&client, "#tabs button[data-panel='tour']").await;
    click(&client, "#tour-generate").await;
    wait_for(
        &client,
        "return document.getElementById('tour-board').dataset.squares === '64'",
        20,
        "the explorer's tour",
    )
    .await;
    assert!(!shown(&client, "tour-magic").await);
    // Its line sums are there for a teacher, as text: eight rows and eight
    // columns adding up to the 2080 of 1 + 2 + ... + 64.
    assert!(shown(&client, "tour-sums").await);
    let sums = js(&client, "const t = document.querySelector('#tour-sums p').textContent; const m = /Rows, top to bottom: ([\\d, ]+)\\. Columns, left to right: ([\\d, ]+)\\./.exec(t); return m ? [m[1].split(', ').map(Number), m[2].split(', ').map(Number)] : t").await;
    for line in sums.as_array().expect("the sums' text") {
        let v: Vec<u64> = serde_json::from_value(line.clone()).unwrap();
        assert_eq!((v.len(), v.iter().sum::<u64>()), (8, 2080), "{sums}");
    }
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
}
