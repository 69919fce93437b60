//! Known facts from the shared vectors, and the copies kept in tests/data.

use std::path::PathBuf;

use knights::Board;

use super::data;

#[test]
fn copies_match_the_shared_vectors() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors");
    let Ok(entries) = std::fs::read_dir(&shared) else {
        eprintln!("skipped: {} is not beside this checkout", shared.display());
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            data(&name),
            "tests/data/{name} differs from shared/vectors"
        );
    }
}

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
