//! parse(render(x)) == x for tours and tourneys in every format.

use knights::format::{self, read, Checked, SvgOptions};
use knights::{Board, Tour, Tourney};
use proptest::prelude::*;

use super::{four_cover, some_tour};

fn tour_back(text: &str) -> Tour {
    match read(text).unwrap().into_checked().unwrap() {
        Checked::Tour(t) => t,
        Checked::Tourney(_) => panic!("read a tourney"),
    }
}

fn tourney_back(text: &str) -> Tourney {
    match read(text).unwrap().into_checked().unwrap() {
        Checked::Tourney(t) => t,
        Checked::Tour(_) => panic!("read a tour"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tours_round_trip(rows in 5u64..16, cols in 5u64..16, closed in any::<bool>(), seed in any::<u64>()) {
        let board = Board::new(rows, cols).unwrap();
        let closed = closed && knights::exists::closed_tour(board).exists;
        let tour = some_tour(board, closed, seed);
        prop_assert_eq!(&tour_back(&format::tour_json(&tour).with("seed", seed).to_string()), &tour);
        prop_assert_eq!(&tour_back(&format::grid(&tour, 0).to_string()), &tour);
        prop_assert_eq!(&tour_back(&format::grid(&tour, 1).to_string()), &tour);
        prop_assert_eq!(&tour_back(&format::move_list(&tour).to_string()), &tour);
        prop_assert_eq!(&tour_back(&format::move_list(&tour).algebraic().unwrap().to_string()), &tour);
        let svg = format::tour_svg(&tour, SvgOptions { animate: seed % 2 == 0, ..SvgOptions::default() }).to_string();
        prop_assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn tourneys_round_trip(a in 1u32..4, b in 1u32..4) {
        let t = four_cover(a, b);
        prop_assert_eq!(&tourney_back(&format::tourney_json(&t).to_string()), &t);
        prop_assert_eq!(&tourney_back(&format::tourney_move_list(&t).to_string()), &t);
        prop_assert_eq!(&tourney_back(&format::tourney_move_list(&t).algebraic().unwrap().to_string()), &t);
        let svg = format::tourney_svg(&t, SvgOptions::default()).to_string();
        prop_assert_eq!(svg.matches("<polygon").count(), t.len());
    }
}

#[test]
fn a_closed_tour_is_a_one_cycle_tourney() {
    let tour = some_tour(Board::new(8, 8).unwrap(), true, 9);
    let t = Tourney::new(tour.board(), vec![tour.squares().to_vec()]).unwrap();
    assert_eq!(tourney_back(&format::tourney_json(&t).to_string()), t);
    // Its move list closes: as many moves as squares.
    let moves = format::move_list(&tour).to_string();
    let count = moves.lines().nth(1).unwrap().split_whitespace().count() - 2;
    assert_eq!(count, 64);
}

#[test]
fn grid_widths_and_base() {
    let tour = Tour::new(
        Board::new(3, 4).unwrap(),
        vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4],
    )
    .unwrap();
    assert_eq!(
        format::grid(&tour, 0).to_string(),
        " 0  3  6  9\n11  8  1  4\n 2  5 10  7\n"
    );
    let json = format::tour_json(&tour).to_string();
    assert!(
        json.starts_with(r#"{"rows":3,"cols":4,"closed":false,"squares":[[0,0],[1,2],"#),
        "{json}"
    );
}

#[test]
fn move_list_errors_name_the_line() {
    let e = read("tour 8x8\nfrom 0,0: 7 6 9").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: '9' is not a move; moves are the digits 0 to 7"
    );
    let e = read("tour 8y8\n").unwrap_err();
    assert!(e.to_string().contains("not a board size"), "{e}");
    let e = read("tourney 4x4\nfrom 0,0: 7 6 4\n").unwrap_err();
    assert!(
        e.to_string().contains("does not return to its start"),
        "{e}"
    );
    let f = read("tour 3x3\nfrom 0,0: 7 7 7")
        .unwrap()
        .check()
        .unwrap_err();
    assert!(f.to_string().contains("off the 3x3 board"), "{f}");
}
