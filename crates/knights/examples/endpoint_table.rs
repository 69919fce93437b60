//! Regenerates `crates/knights/src/exists/endpoint_table.txt`: for every board of at
//! most 36 squares (rows <= cols) with an open or closed tour, the pairs of
//! squares that the colour rule allows but that no tour joins, by counting
//! the Hamiltonian paths between them with the frontier program.
//!
//! `cargo run --release -p knights --example endpoint_table > crates/knights/src/exists/endpoint_table.txt`

use knights::exists::ends;

fn main() -> Result<(), knights::Error> {
    println!("# Pairs of squares (row-major numbers a-b, a < b) that the colour rule allows");
    println!("# but that no knight's tour joins, on every board of at most 36 squares with");
    println!("# rows <= cols that has a tour; one line per board, empty after the name when");
    println!("# every allowed pair is joined. Made by examples/endpoint_table.rs with the");
    println!("# frontier counter (knights::count::paths_between).");
    for line in ends::table_lines()? {
        println!("{line}");
    }
    Ok(())
}
