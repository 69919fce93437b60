//! Regenerates `crates/knights/src/endpoint_table.txt`: for every board of at
//! most 36 squares (rows <= cols) with an open or closed tour, the pairs of
//! squares that the colour rule allows but that no tour joins, by counting
//! the Hamiltonian paths between them with the frontier program.
//!
//! `cargo run --release -p knights --example endpoint_table > crates/knights/src/endpoint_table.txt`

use knights::{count, endpoints, exists, Board, Square};

fn main() -> Result<(), knights::Error> {
    println!("# Pairs of squares (row-major numbers a-b, a < b) that the colour rule allows");
    println!("# but that no knight's tour joins, on every board of at most 36 squares with");
    println!("# rows <= cols that has a tour; one line per board, empty after the name when");
    println!("# every allowed pair is joined. Made by examples/endpoint_table.rs with the");
    println!("# frontier counter (knights::count::paths_between).");
    for rows in 1..=6u64 {
        for cols in rows..=36 / rows {
            let board = Board::new(rows, cols)?;
            if !exists::open_tour(board).exists && !exists::closed_tour(board).exists {
                continue;
            }
            let n = board.squares() as Square;
            let mut line = board.to_string();
            for s in 0..n {
                for t in s + 1..n {
                    if endpoints::colour_rule(board, s, t).is_some() {
                        continue;
                    }
                    if count::paths_between(board, s, t)? == 0 {
                        line.push_str(&format!(" {s}-{t}"));
                    }
                }
            }
            println!("{line}");
        }
    }
    Ok(())
}
