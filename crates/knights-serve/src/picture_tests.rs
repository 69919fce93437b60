//! Files and pictures over HTTP (`picture`): `/api/tour` and
//! `/api/tourney` as PNG, GIF, SVG and animated SVG, and `POST
//! /api/picture` for a played path: content types, signatures, names,
//! the library's own bytes, and refusals (an unknown format listing the
//! known ones, a GIF of a tourney, a board over the cap before any work).

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use knights::format::{self, GifOptions, SvgOptions};
use knights::{Board, Tour};
use tower::ServiceExt;

use super::picture::{Format, LIGHT_PNG_SQUARES};
use super::{router, Config};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The status, headers and body of a request (`Host` as the server's).
async fn fetch(
    app: &Router,
    method: &str,
    uri: &str,
    body: &str,
) -> (StatusCode, HeaderMap, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1:8080")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes().to_vec();
    (parts.status, parts.headers, bytes)
}

/// A download's content type and file name, asserting it is one.
fn file_of(headers: &HeaderMap) -> (String, String) {
    let kind = headers["content-type"].to_str().unwrap().to_string();
    let disposition = headers["content-disposition"].to_str().unwrap();
    let name = disposition
        .strip_prefix("attachment; filename=\"")
        .and_then(|n| n.strip_suffix('"'))
        .unwrap_or_else(|| panic!("not an attachment: {disposition}"));
    (kind, name.to_string())
}

/// The error sentence of a refusal.
fn error_of(body: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap();
    v["error"].as_str().unwrap().to_string()
}

/// A PNG's width and height (its IHDR).
pub(super) fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(PNG), "a PNG signature");
    let be = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// An SVG's `width` and `height` attributes, in pixels.
fn svg_size(svg: &str) -> (u32, u32) {
    let attribute = |name: &str| -> u32 {
        let at = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    };
    (attribute("width"), attribute("height"))
}

/// The frames of a GIF.
pub(super) fn gif_frames(bytes: &[u8]) -> usize {
    let mut decoder = gif::DecodeOptions::new().read_info(bytes).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    frames
}

#[tokio::test]
async fn a_tour_downloads_as_png_gif_and_animated_svg_made_by_the_library() {
    let app = router(Config::default());
    let query = "board=5x5&kind=open&seed=1";
    let (s, _, json) = fetch(&app, "GET", &format!("/api/tour?{query}"), "").await;
    assert_eq!(s, StatusCode::OK);
    let tour: Tour = match format::read(std::str::from_utf8(&json).unwrap())
        .unwrap()
        .into_checked()
        .unwrap()
    {
        format::Checked::Tour(t) => t,
        format::Checked::Tourney(_) => panic!("a tour"),
    };

    let (s, headers, png) = fetch(&app, "GET", &format!("/api/tour?{query}&format=png"), "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        file_of(&headers),
        ("image/png".into(), "tour-5x5.png".into())
    );
    let svg = format::tour_svg(&tour, SvgOptions::default()).to_string();
    assert_eq!(png_size(&png), svg_size(&svg), "the PNG has its SVG's size");
    assert_eq!(png, format::tour_png(&tour, SvgOptions::default()).unwrap());

    let (s, headers, gif) = fetch(&app, "GET", &format!("/api/tour?{query}&format=gif"), "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        file_of(&headers),
        ("image/gif".into(), "tour-5x5.gif".into())
    );
    assert!(gif.starts_with(b"GIF89a"));
    assert_eq!(
        gif_frames(&gif),
        25,
        "one frame per square of an open 5x5 tour"
    );
    assert_eq!(
        gif,
        format::tour_gif(&tour, &GifOptions::default()).unwrap()
    );

    let (s, headers, animated) = fetch(
        &app,
        "GET",
        &format!("/api/tour?{query}&format=animated-svg"),
        "",
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        file_of(&headers),
        ("image/svg+xml".into(), "tour-5x5-animated.svg".into())
    );
    let animated = String::from_utf8(animated).unwrap();
    assert!(animated.contains("<animate "), "{animated}");
    let (_, headers, plain) =
        fetch(&app, "GET", &format!("/api/tour?{query}&format=svg"), "").await;
    assert_eq!(
        file_of(&headers),
        ("image/svg+xml".into(), "tour-5x5.svg".into())
    );
    assert_eq!(String::from_utf8(plain).unwrap(), svg);
    assert!(!svg.contains("<animate"));
}

#[tokio::test]
async fn a_tourney_downloads_as_png_and_svg_but_not_as_gif() {
    let app = router(Config::default());
    let query = "board=6x6&algorithm=braid&seed=2";
    let (s, headers, png) =
        fetch(&app, "GET", &format!("/api/tourney?{query}&format=png"), "").await;
    assert_eq!(s, StatusCode::OK, "{}", String::from_utf8_lossy(&png));
    assert_eq!(
        file_of(&headers),
        ("image/png".into(), "tourney-6x6.png".into())
    );
    assert_eq!(png_size(&png), (6 * 48, 6 * 48));
    let (s, headers, svg) = fetch(
        &app,
        "GET",
        &format!("/api/tourney?{query}&format=animated-svg"),
        "",
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        file_of(&headers),
        ("image/svg+xml".into(), "tourney-6x6-animated.svg".into())
    );
    let svg = String::from_utf8(svg).unwrap();
    assert!(
        svg.contains("<animate ") && svg.contains("tourney of"),
        "{svg}"
    );
    // JSON stays the default, with its rails.
    let (s, headers, json) = fetch(&app, "GET", &format!("/api/tourney?{query}"), "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/json");
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert!(v["cycles"].is_array() && v["rails"].is_array(), "{v}");

    let (s, _, body) = fetch(&app, "GET", &format!("/api/tourney?{query}&format=gif"), "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let e = error_of(&body);
    assert!(
        e.contains("a tourney is several cycles") && e.contains("png"),
        "{e}"
    );
    let (s, _, body) = fetch(
        &app,
        "GET",
        &format!("/api/tourney?{query}&format=grid"),
        "",
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "'grid' is not a format of /api/tourney; use json, svg, animated-svg or png"
    );
}

#[tokio::test]
async fn an_unknown_format_is_refused_listing_the_known_ones() {
    let app = router(Config::default());
    let (s, _, body) = fetch(&app, "GET", "/api/tour?board=8x8&format=jpeg", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "'jpeg' is not a format of /api/tour; use json, svg, animated-svg, png, gif, grid or moves"
    );
    let (s, _, body) = fetch(
        &app,
        "POST",
        "/api/picture",
        r#"{"board": "5x5", "path": ["0,0"], "format": "gif"}"#,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "'gif' is not a format of /api/picture; use png or svg"
    );
}

#[tokio::test]
async fn boards_over_the_cap_are_refused_before_any_work() {
    // A backtracking search of 600x600 would not end: the answer is the
    // cap's refusal, so no work began.
    let app = router(Config::default());
    for format in ["png", "gif", "animated-svg"] {
        let uri = format!("/api/tour?board=600x600&algorithm=backtrack&format={format}");
        let (s, _, body) = fetch(&app, "GET", &uri, "").await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{format}");
        let e = error_of(&body);
        assert!(
            e.contains("cap for /api/tour files other than JSON of at most 250000 squares"),
            "{format}: {e}"
        );
    }
    let (s, _, body) = fetch(&app, "GET", "/api/tourney?board=600x600&format=png", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("cap for /api/tourney"));
    // The cap comes before the path is read (its square 9999,9999 is off
    // the board) and before the board's holes or moves are built.
    let small = router(Config {
        max_tourney_squares: 64,
        ..Config::default()
    });
    let (s, _, body) = fetch(
        &small,
        "POST",
        "/api/picture",
        r#"{"board": "9x9", "path": ["9999,9999"]}"#,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(
        error_of(&body).contains("over this server's cap for /api/picture of at most 64 squares"),
        "{}",
        error_of(&body)
    );
}

#[tokio::test]
async fn a_played_path_is_a_png_or_svg_to_download() {
    let app = router(Config::default());
    let body = r#"{"board": "5x5", "path": ["0,0", "1,2", "b2"], "format": "png"}"#;
    let (s, headers, png) = fetch(&app, "POST", "/api/picture", body).await;
    assert_eq!(s, StatusCode::OK, "{}", String::from_utf8_lossy(&png));
    assert_eq!(
        file_of(&headers),
        ("image/png".into(), "play-5x5.png".into())
    );
    let shape = knights::Shape::new(Board::new(5, 5).unwrap());
    let path = [0, 7, 16];
    assert_eq!(
        png,
        format::path_png(&shape, &path, SvgOptions::default()).unwrap()
    );
    assert_eq!(png_size(&png), (5 * 48, 5 * 48));
    // PNG is the default; SVG on asking; holes, wrapping and leapers as a
    // position has them.
    let body = r##"{"board": "4x4", "wrap": "both", "holes": "#.../..../..../....", "path": ["0,1", "2,2"], "format": "svg"}"##;
    let (s, headers, svg) = fetch(&app, "POST", "/api/picture", body).await;
    assert_eq!(s, StatusCode::OK, "{}", String::from_utf8_lossy(&svg));
    assert_eq!(
        file_of(&headers),
        ("image/svg+xml".into(), "play-4x4.svg".into())
    );
    let svg = String::from_utf8(svg).unwrap();
    assert!(
        svg.contains("path of 1 moves") && svg.contains("hole (0, 0)"),
        "{svg}"
    );
    let (s, headers, _) = fetch(&app, "POST", "/api/picture", r#"{"board": "3x4"}"#).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(file_of(&headers).0, "image/png");
}

#[tokio::test]
async fn a_bad_played_path_is_refused_with_the_positions_sentence() {
    let app = router(Config::default());
    for (body, says) in [
        (
            r#"{"board": "5x5", "path": ["0,0", "0,1"]}"#,
            "not one move from",
        ),
        (
            r#"{"board": "5x5", "path": ["0,0", "1,2", "0,0"]}"#,
            "already",
        ),
        (r#"{"board": "5x5", "path": ["7,7"]}"#, "not a square"),
        (
            r#"{"board": "5x5", "kind": "closed"}"#,
            "unknown field `kind`",
        ),
        (r#"{"path": ["0,0"]}"#, "missing field `board`"),
    ] {
        let (s, _, answer) = fetch(&app, "POST", "/api/picture", body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        let e = error_of(&answer);
        assert!(e.contains(says), "{body}: {e}");
    }
    let (s, _, _) = fetch(
        &app,
        "POST",
        "/api/picture?format=png",
        r#"{"board": "5x5"}"#,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "the format goes in the body");
}

#[test]
fn gifs_and_big_pngs_take_the_heavy_lane() {
    assert!(!Format::Gif.is_light(25), "a GIF is many pictures");
    assert!(Format::Png.is_light(LIGHT_PNG_SQUARES));
    assert!(!Format::Png.is_light(LIGHT_PNG_SQUARES + 1));
    for f in [Format::Json, Format::Svg, Format::AnimatedSvg, Format::Grid] {
        assert!(f.is_light(10_000), "{f:?}");
    }
}
