//! Magic tours through the API: `POST /api/check` answers a tour's line
//! sums (`magic`) and whether it is semimagic, as the library's
//! `magic::sums` gives them; the page (magic.js) works out the same numbers
//! from the squares it already has.

use axum::http::StatusCode;
use knights::Tour;
use serde_json::{json, Value};

use super::tests::call;
use super::{router, Config};

/// The semimagic tour Dudeney printed (Amusements in Mathematics, 1917,
/// problem 412), rows top to bottom: each number its step, from 1 (the
/// repository's example).
pub(super) fn dudeney() -> [[u32; 8]; 8] {
    let text = include_str!("../../../examples/data/dudeney_semimagic.txt");
    let mut grid = [[0; 8]; 8];
    for (r, line) in text.lines().enumerate() {
        for (c, n) in line.split_whitespace().enumerate() {
            grid[r][c] = n.parse().unwrap();
        }
    }
    grid
}

/// Dudeney's tour as (row, column) squares in its order.
pub(super) fn dudeney_path() -> Vec<(u32, u32)> {
    let mut path = vec![(0, 0); 64];
    for (r, row) in dudeney().iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            path[n as usize - 1] = (r as u32, c as u32);
        }
    }
    path
}

/// An ordinary 8x8 tour (the library's default builder), not semimagic,
/// and whether it is closed.
pub(super) fn ordinary_path() -> (Vec<(u32, u32)>, bool) {
    let tour = Tour::builder("8x8".parse().unwrap()).build().unwrap();
    let board = tour.board();
    let path = tour.squares().iter().map(|&s| board.coords(s)).collect();
    (path, tour.is_closed())
}

/// The tour file (JSON, squares as `[row, col]`) of an 8x8 path.
fn tour_file(path: &[(u32, u32)], closed: bool) -> String {
    let squares: Vec<[u32; 2]> = path.iter().map(|&(r, c)| [r, c]).collect();
    json!({"rows": 8, "cols": 8, "closed": closed, "squares": squares}).to_string()
}

/// `POST /api/check` of `text`: the status and the answer.
async fn check(text: &str) -> (StatusCode, Value) {
    let app = router(Config::default());
    let body = json!({ "text": text }).to_string();
    let (s, v, _) = call(&app, "POST", "/api/check", &body).await;
    (s, v)
}

#[tokio::test]
async fn dudeneys_tour_checks_as_semimagic_with_its_sums() {
    let (s, v) = check(&tour_file(&dudeney_path(), true)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["valid"], json!(true), "{v}");
    assert_eq!(
        v["magic"],
        json!({"magic": "semimagic", "rows": vec![260; 8], "cols": vec![260; 8], "diagonals": [264, 256]}),
        "{v}"
    );
}

#[tokio::test]
async fn an_ordinary_tour_checks_with_its_sums_and_not_semimagic() {
    let (path, closed) = ordinary_path();
    let (s, v) = check(&tour_file(&path, closed)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let m = &v["magic"];
    assert_eq!(m["magic"], json!("no"), "{v}");
    let rows: Vec<u64> = serde_json::from_value(m["rows"].clone()).unwrap();
    let cols: Vec<u64> = serde_json::from_value(m["cols"].clone()).unwrap();
    assert_eq!((rows.len(), cols.len()), (8, 8), "{v}");
    assert_eq!(rows.iter().sum::<u64>(), 64 * 65 / 2);
    assert_eq!(cols.iter().sum::<u64>(), 64 * 65 / 2);
    assert!(rows.iter().any(|&r| r != rows[0]) || cols.iter().any(|&c| c != cols[0]));
}

#[tokio::test]
async fn a_tour_on_a_board_with_holes_checks_without_sums() {
    // A 3x3 board without its centre: the ring of eight squares a knight
    // goes round.
    let ring = [
        (0, 0),
        (1, 2),
        (2, 0),
        (0, 1),
        (2, 2),
        (1, 0),
        (0, 2),
        (2, 1),
    ];
    let squares: Vec<[u32; 2]> = ring.iter().map(|&(r, c)| [r, c]).collect();
    let file = json!({"rows": 3, "cols": 3, "closed": true, "holes": [[1, 1]], "squares": squares});
    let (s, v) = check(&file.to_string()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["valid"], json!(true), "{v}");
    assert!(v.get("magic").is_none(), "{v}");
}
