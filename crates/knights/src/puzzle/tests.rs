//! The engine's unit tests: counts, grades and deductions on small boards.

use super::*;
use crate::{Control, Kind};

fn solve(text: &str) -> Solutions {
    let p: Puzzle = text.parse().unwrap();
    p.solutions(3, 1_000_000, &Control::new()).unwrap()
}

#[test]
fn a_full_grid_is_easy_and_unique() {
    let tour = Tour::builder("6x6".parse().unwrap())
        .seed(1)
        .build()
        .unwrap();
    let p = Puzzle::from_tour(&tour, tour.squares()).unwrap();
    let found = p.solutions(2, 1000, &Control::new()).unwrap();
    assert!(found.is_unique());
    assert_eq!(found.work.depth, 0);
    assert!(p.is_solved_by(&found.tours[0]));
}

#[test]
fn the_doc_example_counts() {
    let found = solve("puzzle 3x4 open\n 1  .  .  .\n .  .  .  .\n .  .  . 12\n");
    assert!(found.complete);
    for t in &found.tours {
        assert!(crate::check::check_tour(t).is_ok());
    }
}

#[test]
fn a_puzzle_with_no_clues_on_5x5_has_many() {
    let found = solve("puzzle 5x5 open\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n");
    assert_eq!(found.tours.len(), 3);
    assert!(found.work.depth >= 2);
    for t in &found.tours {
        assert_eq!(crate::check::check_tour(t).unwrap(), Kind::Open);
    }
}

#[test]
fn one_solution_found_under_a_limit_of_one_is_not_unique() {
    let p: Puzzle = "puzzle 5x5 open\n1 . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n"
        .parse()
        .unwrap();
    let one = p.solutions(1, 1_000_000, &Control::new()).unwrap();
    assert_eq!((one.tours.len(), one.is_unique()), (1, false));
    let two = p.solutions(2, 1_000_000, &Control::new()).unwrap();
    assert_eq!((two.tours.len(), two.is_unique()), (2, false));
}
