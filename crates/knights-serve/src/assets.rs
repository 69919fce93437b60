//! The page's files, embedded in the binary: plain HTML, CSS and JavaScript
//! modules, no build step. They call only the JSON API.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::AppState;

/// (name, content type, text).
const FILES: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
    (
        "shared.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/shared.js"),
    ),
    (
        "magic.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/magic.js"),
    ),
    (
        "play.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/play.js"),
    ),
    (
        "puzzle.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/puzzle.js"),
    ),
    (
        "tour.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/tour.js"),
    ),
    (
        "worksheet.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/worksheet.js"),
    ),
    (
        "theatre.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/theatre.js"),
    ),
    (
        "lab.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/lab.js"),
    ),
    (
        "cipher.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/cipher.js"),
    ),
    (
        "share.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/share.js"),
    ),
    (
        "count.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/count.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("assets/favicon.svg"),
    ),
];

/// The routes of the page's files.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { file("index.html") }))
        .route(
            "/assets/{name}",
            get(|Path(name): Path<String>| async move { file(&name) }),
        )
}

fn file(name: &str) -> Response {
    match FILES.iter().find(|f| f.0 == name) {
        Some(&(_, kind, text)) => (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "no-cache"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'",
                ),
            ],
            text,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
