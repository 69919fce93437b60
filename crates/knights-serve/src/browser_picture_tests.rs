//! The page's pictures in headless Chromium (the drivers of
//! `browser_tests`): the explorer's PNG, GIF and animated SVG links, the
//! lab's tourney PNG and the Play panel's "Save picture", each fetched
//! from the page's own context and checked (signature, size, frames,
//! animation, file name). Ignored in the plain `cargo test`;
//! `scripts/test.sh` runs them with the other `browser_` tests.

use fantoccini::Client;
use serde_json::Value;

use super::browser_tests::{choose, click, console_errors, js, set, start, wait_for};
use super::picture_tests::{gif_frames, png_size};

/// What the page's `fetch` of `url` got: status, content type,
/// disposition and bytes.
async fn fetched(client: &Client, url: &str) -> (u64, String, String, Vec<u8>) {
    let v = client
        .execute_async(
            "const [url, done] = arguments;
             fetch(url).then(async r => done({ status: r.status,
               type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'),
               bytes: Array.from(new Uint8Array(await r.arrayBuffer())) }))
               .catch(e => done({ status: 0, type: String(e), disposition: '', bytes: [] }));",
            vec![Value::String(url.into())],
        )
        .await
        .unwrap();
    let text = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    (
        v["status"].as_u64().unwrap(),
        text("type"),
        text("disposition"),
        bytes(&v["bytes"]),
    )
}

fn bytes(v: &Value) -> Vec<u8> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect()
}

/// The link `id`: its target as the page fetches it, after checking that
/// the link is shown, has a name, and downloads under the server's name.
async fn link(client: &Client, id: &str, content_type: &str, name: &str) -> Vec<u8> {
    let a = js(client, &format!(
        "const a = document.getElementById('{id}');
         return {{ href: a.getAttribute('href'), download: a.download, text: a.textContent.trim(), shown: !a.hidden && a.offsetParent !== null }}"
    ))
    .await;
    assert_eq!(a["shown"], true, "{id} is shown: {a}");
    assert!(
        !a["text"].as_str().unwrap().is_empty(),
        "{id} has a name: {a}"
    );
    assert_eq!(a["download"], name, "{id}: {a}");
    let (status, kind, disposition, body) = fetched(client, a["href"].as_str().unwrap()).await;
    assert_eq!(status, 200, "{id}: {}", String::from_utf8_lossy(&body));
    assert_eq!(kind, content_type, "{id}");
    assert_eq!(
        disposition,
        format!("attachment; filename=\"{name}\""),
        "{id}"
    );
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Chromium; scripts/test.sh runs it"]
async fn browser_picture_downloads_of_a_tour_a_tourney_and_a_played_path() {
    let (client, addr, port, _driver, _profile) = start().await;
    client.goto(&format!("http://{addr}/")).await.unwrap();
    wait_for(
        &client,
        "return document.body.dataset.ready === 'yes'",
        20,
        "the page",
    )
    .await;

    // The explorer: an open 5x5 tour and its pictures.
    click(&client, "#tabs button[data-panel='tour']").await;
    set(&client, "tour-rows", "5").await;
    set(&client, "tour-cols", "5").await;
    choose(&client, "tour-kind", "open").await;
    click(&client, "#tour-generate").await;
    wait_for(&client, "return document.getElementById('tour-board').dataset.squares === '25' && !document.getElementById('tour-downloads').hidden", 20, "the 5x5 tour").await;
    let png = link(&client, "dl-png", "image/png", "tour-5x5.png").await;
    assert_eq!(png_size(&png), (5 * 48, 5 * 48), "48 px a square");
    let gif = link(&client, "dl-gif", "image/gif", "tour-5x5.gif").await;
    assert!(gif.starts_with(b"GIF89a"));
    assert_eq!(gif_frames(&gif), 25, "a frame per step of the 25 squares");
    let svg = link(
        &client,
        "dl-animated-svg",
        "image/svg+xml",
        "tour-5x5-animated.svg",
    )
    .await;
    let svg = String::from_utf8(svg).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("<animate "),
        "{svg}"
    );
    let plain = link(&client, "dl-svg", "image/svg+xml", "tour-5x5.svg").await;
    assert!(!String::from_utf8(plain).unwrap().contains("<animate"));
    // A new board forgets the links with the tour.
    set(&client, "tour-rows", "6").await;
    wait_for(&client, "return document.getElementById('tour-downloads').hidden && !document.getElementById('dl-png').hasAttribute('href')", 5, "the links to go").await;

    // The lab: the tourney as made, as a PNG.
    click(&client, "#tabs button[data-panel='lab']").await;
    set(&client, "lab-rows", "6").await;
    set(&client, "lab-cols", "6").await;
    click(&client, "#lab-make").await;
    wait_for(
        &client,
        "return !document.getElementById('lab-downloads').hidden",
        20,
        "the tourney's links",
    )
    .await;
    let png = link(&client, "lab-dl-png", "image/png", "tourney-6x6.png").await;
    assert_eq!(png_size(&png), (6 * 48, 6 * 48));

    // Play: two moves on 5x5, then "Save picture" (the download itself is
    // caught: the blob and the link the page clicks).
    click(&client, "#tabs button[data-panel='play']").await;
    set(&client, "play-rows", "5").await;
    set(&client, "play-cols", "5").await;
    click(&client, "#play-new").await;
    let settled = |n: usize| {
        format!("const p = window.knightsPlay; return document.querySelectorAll('#play-board rect.sq').length === 25 && !!p.answer && !p.controller && p.answer.path.length === {n}")
    };
    wait_for(&client, &settled(0), 20, "the 5x5 board").await;
    click(&client, "#play-board rect[data-r='0'][data-c='0']").await;
    wait_for(&client, &settled(1), 20, "the first move").await;
    click(&client, "#play-board rect[data-r='1'][data-c='2']").await;
    wait_for(&client, &settled(2), 20, "the second move").await;
    js(&client, "window.saved = null; window.blob = null;
        const create = URL.createObjectURL.bind(URL);
        URL.createObjectURL = b => { window.blob = b; return create(b); };
        HTMLAnchorElement.prototype.click = function () { window.saved = { href: this.href, download: this.download }; };
        return true").await;
    let name = js(
        &client,
        "return document.getElementById('play-save').textContent",
    )
    .await;
    assert_eq!(name, "Save picture");
    click(&client, "#play-save").await;
    wait_for(&client, "return window.saved !== null", 20, "the picture").await;
    let saved = js(&client, "return window.saved").await;
    assert_eq!(saved["download"], "play-5x5.png", "{saved}");
    assert!(
        saved["href"].as_str().unwrap().starts_with("blob:"),
        "{saved}"
    );
    let blob = client
        .execute_async(
            "const done = arguments[0];
             window.blob.arrayBuffer().then(b => done({ type: window.blob.type, bytes: Array.from(new Uint8Array(b)) }));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(blob["type"], "image/png");
    let png = bytes(&blob["bytes"]);
    assert_eq!(png_size(&png), (5 * 48, 5 * 48));
    let board = knights::Shape::new(knights::Board::new(5, 5).unwrap());
    assert_eq!(
        png,
        knights::format::path_png(&board, &[0, 7], knights::format::SvgOptions::default()).unwrap(),
        "the picture of the path played, as the library draws it"
    );
    assert_eq!(console_errors(&client, port).await, Vec::<String>::new());
    client.close().await.unwrap();
}
