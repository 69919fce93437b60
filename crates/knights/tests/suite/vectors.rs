//! Known facts of `tests/data/graph.toml` and `tests/data/cipher.toml`.

use knights::Board;

use super::data;

#[test]
fn graph_edge_counts() {
    let v: toml::Value = toml::from_str(&data("graph.toml")).unwrap();
    let edges = v["edges"].as_array().unwrap();
    assert!(!edges.is_empty());
    for e in edges {
        let b = Board::new(
            e["rows"].as_integer().unwrap() as u64,
            e["cols"].as_integer().unwrap() as u64,
        )
        .unwrap();
        assert_eq!(b.edge_count() as i64, e["undirected"].as_integer().unwrap());
        let moves: u64 = (0..b.squares() as u32)
            .map(|s| u64::from(b.degree(s)))
            .sum();
        assert_eq!(moves as i64, e["directed"].as_integer().unwrap());
    }
}

#[test]
fn course_report_grid_vector_checks_as_closed() {
    let v: toml::Value = toml::from_str(&data("graph.toml")).unwrap();
    let grid = v["reproduce"][0]["grid"].as_str().unwrap();
    let doc = knights::format::read(grid).unwrap();
    assert_eq!(doc.check().unwrap().to_string(), "closed tour on 8x8");
}

#[test]
fn cipher_key_grid_checks_as_open() {
    let v: toml::Value = toml::from_str(&data("cipher.toml")).unwrap();
    let grid = v["vector"][0]["key_grid"].as_str().unwrap();
    let doc = knights::format::read(grid).unwrap();
    assert_eq!(doc.check().unwrap().to_string(), "open tour on 8x8");
}
