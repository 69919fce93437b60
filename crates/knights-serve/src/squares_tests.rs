//! Algebraic square names through the HTTP door: `start` and `end` take
//! `c3` as well as `ROW,COL`, read by the library, and a bad name is a 400
//! with the library's sentence.

use axum::http::StatusCode;
use serde_json::json;

use super::tests::call;
use super::{router, Config};

#[tokio::test]
async fn start_and_end_take_algebraic_names() {
    let app = router(Config::default());
    let (s, v, _) = call(&app, "GET", "/api/tour?board=8x8&start=c3", "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["squares"][0], json!([5, 2]));
    let (s, v, _) = call(&app, "GET", "/api/tour?board=8x8&start=a8&end=a1", "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["squares"][0], &v["squares"][63]),
        (&json!([0, 0]), &json!([7, 0]))
    );
    let (s, v, _) = call(&app, "GET", "/api/exists?board=8x8&start=a8&end=h1", "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v, _) = call(
        &app,
        "GET",
        "/api/theatre/warnsdorff?board=6x6&start=b2&kind=open",
        "",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["squares"][0], json!([4, 1]));
}

#[tokio::test]
async fn a_bad_name_is_refused_with_the_librarys_sentence() {
    let app = router(Config::default());
    for (uri, says) in [
        (
            "/api/tour?board=8x8&start=c9",
            "ranks run from 1 (the bottom row) to 8",
        ),
        ("/api/tour?board=4x30&start=a1", "write ROW,COL"),
    ] {
        let (s, v, _) = call(&app, "GET", uri, "").await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {v}");
        assert!(v.to_string().contains(says), "{uri}: {v}");
    }
}
