//! Shared helpers of the integration tests.

mod checker;
mod cover;
mod exists;
mod formats;
mod old_ciphertexts;
mod vectors;

use std::path::PathBuf;

use knights::{Board, Square, Tour, Tourney, Wanted};

/// The text of a file under `tests/data`.
pub fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A Warnsdorff tour for tests (open or closed), retried over seeds until one succeeds.
pub fn some_tour(board: Board, closed: bool, seed: u64) -> Tour {
    use knights::algorithms::{TourGenerator, TourSpec, Warnsdorff};
    let spec = TourSpec {
        kind: if closed {
            Wanted::Closed
        } else {
            Wanted::Either
        },
        ..TourSpec::new(board)
    };
    let rule = Warnsdorff::default().max_attempts(10_000);
    let tour = rule.generate(&spec, &mut knights::rng::seeded(seed));
    tour.expect("Warnsdorff finds small tours")
}

/// The tourney of 4-cycles covering each 4x4 block of a (4a)x(4b) board.
pub fn four_cover(blocks_down: u32, blocks_across: u32) -> Tourney {
    let board = Board::new(u64::from(4 * blocks_down), u64::from(4 * blocks_across)).unwrap();
    let mut cycles: Vec<Vec<Square>> = Vec::new();
    for br in 0..blocks_down {
        for bc in 0..blocks_across {
            let sq = |r: u32, c: u32| board.square(4 * br + r, 4 * bc + c);
            cycles.push(vec![sq(0, 0), sq(1, 2), sq(3, 3), sq(2, 1)]);
            cycles.push(vec![sq(0, 3), sq(2, 2), sq(3, 0), sq(1, 1)]);
            cycles.push(vec![sq(0, 1), sq(2, 0), sq(3, 2), sq(1, 3)]);
            cycles.push(vec![sq(0, 2), sq(1, 0), sq(3, 1), sq(2, 3)]);
        }
    }
    Tourney::new(board, cycles).expect("the four-cover is a tourney")
}
