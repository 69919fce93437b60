//! `knights graph`: facts about the knight graph of a board.

use anyhow::Result;
use knights::exists;

use crate::cli::GraphArgs;

pub fn run(args: GraphArgs) -> Result<u8> {
    let shape = super::shape(&args.board, &args.shape)?;
    if !shape.is_plain() {
        return general(&args, &shape);
    }
    // A board file without holes is the plain board of its size.
    let board = shape.board();
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
    Ok(crate::exit::EXIT_SUCCESS)
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The facts of a board with holes, wrapping or another leaper; existence
/// by the necessary conditions and a short search (100,000 nodes).
fn general(args: &GraphArgs, shape: &knights::Shape) -> Result<u8> {
    use knights::algorithms::TourSpec;
    use knights::exists;
    let graph = shape.graph()?;
    let edges = graph.edges();
    let board = shape.board();
    let answer = |kind| -> Result<&'static str> {
        let spec = TourSpec {
            kind,
            ..TourSpec::on(shape.clone())
        };
        Ok(exists::decide(&spec, 100_000)?.answer.word())
    };
    let (closed, open) = (
        answer(knights::Wanted::Closed)?,
        answer(knights::Wanted::Open)?,
    );
    let degrees: Vec<Option<usize>> = (0..board.squares() as knights::Square)
        .map(|s| (!shape.is_hole(s)).then(|| graph.degree(s)))
        .collect();
    if args.json {
        let mut v = serde_json::json!({
            "rows": board.rows(), "cols": board.cols(), "squares": shape.squares(),
            "holes": shape.hole_count(), "wrap": shape.wrap().name(), "leaper": [shape.leaper().a(), shape.leaper().b()],
            "edges": edges, "moves": 2 * edges, "closed_tour": closed, "open_tour": open,
        });
        if args.degrees {
            v["degrees"] = degrees.into();
        }
        crate::outln!("{v}")?;
    } else {
        crate::outln!(
            "board {shape}: {} squares, {edges} edges ({} moves counting both ways)",
            shape.squares(),
            2 * edges
        )?;
        crate::outln!("closed tour: {closed}, open tour: {open}")?;
        if args.degrees {
            for row in degrees.chunks(board.cols() as usize) {
                let line: Vec<String> = row
                    .iter()
                    .map(|d| d.map_or("#".to_string(), |d| d.to_string()))
                    .collect();
                crate::outln!("{}", line.join(" "))?;
            }
        }
    }
    Ok(crate::exit::EXIT_SUCCESS)
}
