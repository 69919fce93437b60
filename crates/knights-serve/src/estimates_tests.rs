//! The dry run and the estimate through the HTTP door, beyond the
//! conformance table: what this server refuses of their requests (a work
//! directory, more time or kept states than it gives), and that the dry
//! run answers what the command line's `--dry-run --json` prints.

use axum::http::StatusCode;

use super::tests::call;
use super::{router, Config};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_answers_the_projection_and_touches_no_file() {
    let app = router(Config::default());
    let (s, v, _) = call(
        &app,
        "GET",
        "/api/dry-run?board=5x5&kind=open&outside-in=true",
        "",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["dry_run"], true, "{v}");
    assert_eq!(v["order"], "outside-in", "{v}");
    assert_eq!(v["steps"], 25, "{v}");
    assert!(v["projected_peak_states"].as_u64().unwrap() > 0, "{v}");
    let (s, v, _) = call(&app, "GET", "/api/dry-run?board=5x5&work-dir=/tmp", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("work-dir"), "{v}");
    let (s, v, _) = call(&app, "GET", "/api/dry-run?board=6x6&of=classes", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v, _) = call(&app, "GET", "/api/dry-run?board=6x6&method=sideways", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let said = v["error"].as_str().unwrap();
    assert!(said.contains("the method is auto, forward or meet"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_estimate_keeps_to_the_servers_time_and_memory() {
    let app = router(Config::default());
    let uri = "/api/estimate?board=5x5&kind=open&method=sis&samples=200&seed=3";
    let (s, v, _) = call(&app, "GET", uri, "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["method"], "sis", "{v}");
    assert_eq!(v["samples"], 200, "{v}");
    let (s, v, _) = call(&app, "GET", "/api/estimate?board=8x8&seconds=3600", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("seconds"), "{v}");
    let (s, v, _) = call(&app, "GET", "/api/estimate?board=8x8&keep=67108864", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, v, _) = call(&app, "GET", "/api/estimate?board=8x8&method=guess", "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("not an estimate method"),
        "{v}"
    );
}
