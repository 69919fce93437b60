//! The compact cover form and its conversions to and from ordered tours.

use knights::check::{check_cover, check_tour, check_tourney};
use knights::{Board, Cover};
use proptest::prelude::*;

use super::{four_cover, some_tour};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A closed tour survives the trip through its cover from any start, either way round.
    #[test]
    fn closed_tour_round_trips_from_any_start(half in 3u64..8, seed in any::<u64>(), pick in any::<u32>(), back in any::<bool>()) {
        let board = Board::new(2 * half, 2 * half).unwrap();
        let tour = some_tour(board, true, seed);
        let cover = Cover::from_tour(&tour).unwrap();
        prop_assert_eq!(check_cover(&cover), Ok(1));
        let start = pick % board.squares() as u32;
        let rotated = tour.rotated_to(start).unwrap();
        let expected = if back { rotated.reversed() } else { rotated };
        let walked = cover.to_tour(start, Some(expected.squares()[1])).unwrap();
        prop_assert_eq!(&walked, &expected);
        prop_assert!(check_tour(&walked).is_ok());
    }

    /// An open tour's cover walks back from either end.
    #[test]
    fn open_tour_round_trips_from_both_ends(rows in 5u64..12, cols in 5u64..12, seed in any::<u64>()) {
        let board = Board::new(rows, cols).unwrap();
        let tour = some_tour(board, false, seed);
        let cover = Cover::from_tour(&tour).unwrap();
        prop_assume!(!tour.is_closed());
        prop_assert_eq!(&cover.to_tour(tour.start(), None).unwrap(), &tour);
        let from_end = cover.to_tour(tour.end(), None).unwrap();
        prop_assert_eq!(from_end, tour.reversed());
    }

    /// A tourney survives the trip through its cover.
    #[test]
    fn tourney_round_trips(a in 1u32..5, b in 1u32..5) {
        let t = four_cover(a, b);
        let cover = Cover::from_tourney(&t).unwrap();
        prop_assert_eq!(check_cover(&cover), Ok(t.len()));
        let back = cover.to_tourney().unwrap();
        prop_assert_eq!(check_tourney(&back), Ok(t.len()));
        let mut ours: Vec<Vec<u32>> = back.cycles().iter().map(|c| { let mut c = c.clone(); c.sort(); c }).collect();
        let mut theirs: Vec<Vec<u32>> = t.cycles().iter().map(|c| { let mut c = c.clone(); c.sort(); c }).collect();
        ours.sort();
        theirs.sort();
        prop_assert_eq!(ours, theirs);
    }
}

#[test]
fn broken_covers_are_rejected() {
    let board = Board::new(6, 6).unwrap();
    let tour = some_tour(board, true, 5);
    let mut cover = Cover::from_tour(&tour).unwrap();
    let s = tour.start();
    let k = board.move_between(s, tour.squares()[1]).unwrap();
    cover.remove(s, k);
    assert!(check_cover(&cover)
        .unwrap_err()
        .to_string()
        .contains("chosen move"));
    let mut bytes = Cover::from_tour(&tour).unwrap().as_bytes().to_vec();
    bytes[0] = 0b0000_0011; // moves 0 and 1 from the corner leave the board
    let broken = Cover::from_bytes_unchecked(board, bytes);
    assert!(check_cover(&broken).is_err());
}
