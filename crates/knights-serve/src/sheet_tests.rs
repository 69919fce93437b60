//! `GET /api/sheet` against the router: the worksheet's boards and given
//! numbers, the solution's numbers as a tour by the checker, the PNG, and
//! the refusals with their statuses.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use knights::check;
use tower::ServiceExt;

use super::{router, Config};

/// The status, `Content-Type`, `Content-Disposition` and body of `GET uri`.
async fn get(uri: &str) -> (StatusCode, String, String, Vec<u8>) {
    let request = Request::builder()
        .uri(uri)
        .header("host", "127.0.0.1:8080")
        .body(Body::empty())
        .unwrap();
    let response = router(Config::default()).oneshot(request).await.unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let (kind, disposition) = (header("content-type"), header("content-disposition"));
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, kind, disposition, body.to_vec())
}

/// The (row, col, number) texts of each board of a page.
fn numbers(svg: &str) -> Vec<Vec<(i64, i64, u32)>> {
    svg.split(r#"<g class="sheet-board""#)
        .skip(1)
        .map(|b| {
            b.split("data-at=\"")
                .skip(1)
                .map(|t| {
                    let (at, rest) = t.split_once('"').unwrap();
                    let (r, c) = at.split_once(',').unwrap();
                    let n = rest.split_once('>').unwrap().1.split_once('<').unwrap().0;
                    (r.parse().unwrap(), c.parse().unwrap(), n.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn a_sheet_has_its_boards_and_its_solution_is_a_tour() {
    let (s, kind, disposition, body) = get("/api/sheet?board=6x6&copies=6&seed=1").await;
    assert_eq!(s, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(kind, "image/svg+xml");
    assert_eq!(disposition, "attachment; filename=\"sheet-6x6.svg\"");
    let svg = String::from_utf8(body).unwrap();
    assert!(svg.contains(r#"width="210mm" height="297mm""#));
    let boards = numbers(&svg);
    assert_eq!(boards.len(), 6);
    assert!(
        boards.iter().all(|b| b.len() == 1 && b[0].2 == 1),
        "{boards:?}"
    );

    let (s, _, disposition, body) =
        get("/api/sheet?board=6x6&copies=6&seed=1&solution=true&kind=closed").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        disposition.contains("sheet-6x6-solution.svg"),
        "{disposition}"
    );
    for mut board in numbers(&String::from_utf8(body).unwrap()) {
        board.sort_by_key(|t| t.2);
        let path: Vec<(i64, i64)> = board.iter().map(|&(r, c, _)| (r, c)).collect();
        assert_eq!(
            check::check_path(6, 6, &path, None),
            Ok(knights::Kind::Closed)
        );
    }
}

#[tokio::test]
async fn a_sheet_png_is_a_page_at_150_dots_an_inch() {
    let (s, kind, disposition, body) = get("/api/sheet?board=5x5&paper=letter&format=png").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(kind, "image/png");
    assert!(disposition.ends_with(".png\""), "{disposition}");
    assert_eq!(&body[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(body[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(body[20..24].try_into().unwrap());
    assert_eq!((width, height), (1275, 1650));
}

#[tokio::test]
async fn bad_sheets_are_refused_in_one_sentence() {
    for (uri, status, words) in [
        ("/api/sheet?board=6x6&format=gif", 400, "use svg or png"),
        ("/api/sheet?board=40x40", 400, "too big to solve by hand"),
        (
            "/api/sheet?board=6x6&copies=17",
            400,
            "copies must be from 1 to 16",
        ),
        ("/api/sheet?board=20x20&copies=6", 400, "ask for at most"),
        ("/api/sheet?board=6x6&colour=red", 400, "colour"),
        (
            "/api/sheet?board=1000x1000",
            400,
            "over this server's cap for /api/sheet",
        ),
        ("/api/sheet?board=4x4", 422, "4x4"),
    ] {
        let (s, _, _, body) = get(uri).await;
        let text = String::from_utf8_lossy(&body);
        assert_eq!(s.as_u16(), status, "{uri}: {text}");
        assert!(text.contains(words), "{uri}: {text}");
    }
}
