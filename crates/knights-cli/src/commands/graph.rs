//! `knights graph`: facts about the knight graph of a board.

use std::process::ExitCode;

use anyhow::Result;
use knights::exists;

use super::parse_board;
use crate::cli::GraphArgs;

pub fn run(args: GraphArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let edges = board.edge_count();
    let closed = exists::closed_tour(board).exists;
    let open = exists::open_tour(board).exists;
    if args.json {
        let mut v = serde_json::json!({
            "rows": board.rows(), "cols": board.cols(), "squares": board.squares(),
            "edges": edges, "moves": 2 * edges, "closed_tour": closed, "open_tour": open,
        });
        if args.degrees {
            v["degrees"] = board.degree_map()?.into();
        }
        crate::outln!("{v}")?;
    } else {
        crate::outln!(
            "board {board}: {} squares, {edges} edges ({} moves counting both ways)",
            board.squares(),
            2 * edges
        )?;
        crate::outln!("closed tour: {}, open tour: {}", yes(closed), yes(open))?;
        if args.degrees {
            let map = board.degree_map()?;
            for row in map.chunks(board.cols() as usize) {
                let line: Vec<String> = row.iter().map(u8::to_string).collect();
                crate::outln!("{}", line.join(" "))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}
