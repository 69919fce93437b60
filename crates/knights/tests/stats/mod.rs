//! Acceptance tests of the move statistics (Parberry 2020, Sections 3.1 and 7).

mod trace;

use knights::algorithms::TourneyMethod;
use knights::algorithms::{TourGenerator, TourSpec, Warnsdorff};
use knights::check::{check_tour, check_tourney};
use knights::rails::{self, ObfuscateOptions};
use knights::stats::{
    sample, MoveCounts, RunningSummary, Summary, PAPER_TABLES, PAPER_WARNSDORFF_RELATIVE,
};
use knights::{Board, Tourney};

fn summary(board: Board, counts: &[MoveCounts]) -> Summary {
    let mut b = RunningSummary::default();
    counts.iter().for_each(|c| b.push(c));
    b.finish(board)
}

#[test]
fn warnsdorff_repeats_its_moves() {
    // Section 3.1: relative move 0 at 27.2 % in Warnsdorff tours, well
    // above the uniform 1/7.
    let board = Board::new(40, 40).unwrap();
    let counts = sample(
        20,
        3,
        |rng| {
            let t = Warnsdorff::default().generate(&TourSpec::new(board), rng)?;
            check_tour(&t).expect("a valid tour");
            Ok(MoveCounts::of_tour(&t))
        },
        &|| {},
    )
    .unwrap();
    let s = summary(board, &counts);
    assert!(s.relative_moves[0] > 0.2, "{:?}", s.relative_moves);
    assert_eq!(s.relative_moves[4], 0.0);
}

#[test]
fn obfuscation_makes_structured_tours_nearly_uniform() {
    let board = Board::new(30, 30).unwrap();
    let raw = Tourney::builder(board)
        .method(TourneyMethod::Braid)
        .seed(1)
        .cover()
        .unwrap();
    let raw_counts = MoveCounts::of_tourney(&raw.to_tourney().unwrap());
    let counts = sample(
        16,
        9,
        |rng| {
            let mut cover = Tourney::builder(board)
                .method(TourneyMethod::Braid)
                .cover_with(rng)?;
            rails::obfuscate(&mut cover, &ObfuscateOptions::default(), rng)?;
            let t = cover.to_tour(0, None)?;
            check_tour(&t).expect("a valid tour");
            check_tourney(&cover.to_tourney()?).expect("one cycle");
            Ok(MoveCounts::of_tour(&t))
        },
        &|| {},
    )
    .unwrap();
    let s = summary(board, &counts);
    for k in [0, 1, 2, 3, 5, 6, 7] {
        assert!(
            (s.relative_moves[k] - 1.0 / 7.0).abs() < 0.03,
            "relative move {k}: {:?}",
            s.relative_moves
        );
    }
    // The raw braid is far from uniform: the obfuscation did the work.
    let f = raw_counts.relative_frequencies();
    assert!(
        [0, 1, 2, 3, 5, 6, 7]
            .iter()
            .any(|&k| (f[k] - 1.0 / 7.0).abs() > 0.03),
        "{f:?}"
    );
}

#[test]
fn the_paper_tables_match_the_vectors_and_sum_to_one() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/paper_tables.toml"
    ))
    .unwrap();
    let doc: toml::Table = text.parse().unwrap();
    let row = |table: &str, key: &str| -> Vec<f64> {
        doc[table][key]
            .as_array()
            .unwrap_or_else(|| panic!("{table}.{key}"))
            .iter()
            .map(|v| v.as_float().unwrap())
            .collect()
    };
    let index: Vec<usize> = doc["relative_moves"]["index"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_integer().unwrap() as usize)
        .collect();
    assert_eq!(index, [0, 1, 2, 3, 5, 6, 7]);
    for (r, key) in PAPER_TABLES.iter().zip([
        "warnsdorff",
        "takefuji_lee",
        "divide",
        "braid",
        "four_cover",
    ]) {
        assert_eq!(r.moves.to_vec(), row("moves", key), "{key}");
        let rel: Vec<f64> = index.iter().map(|&k| r.relative_moves[k]).collect();
        assert_eq!(rel, row("relative_moves", key), "{key}");
        assert_eq!(r.relative_moves[4], 0.0);
        // Four-digit rounding: each row sums to 1 within 8 half-units.
        assert!((r.moves.iter().sum::<f64>() - 1.0).abs() <= 0.0004, "{key}");
        assert!(
            (r.relative_moves.iter().sum::<f64>() - 1.0).abs() <= 0.0004,
            "{key}"
        );
    }
    assert!((PAPER_WARNSDORFF_RELATIVE.iter().sum::<f64>() - 1.0).abs() < 0.005);
}
