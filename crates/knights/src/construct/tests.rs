//! Tests of the construction: every board up to 60 x 60, start squares,
//! the tourney form, and (ignored, for release mode) large odd shapes.

use proptest::prelude::*;

use super::*;
use crate::check::{check_cover, check_tour};
use crate::Kind;

fn board(r: u32, c: u32) -> Board {
    Board::new(u64::from(r), u64::from(c)).unwrap()
}

/// A closed tour exactly where Schwenk's theorem says one exists, an open
/// tour exactly where one exists, each through the checker, and the
/// theorem's refusal everywhere else.
#[test]
fn every_board_up_to_60x60() {
    for r in 1..=60 {
        for c in 1..=60 {
            let b = board(r, c);
            match closed(b, None) {
                Ok(t) => {
                    assert!(
                        exists::closed_tour(b).exists,
                        "{b}: closed tour where none exists"
                    );
                    assert_eq!(check_tour(&t), Ok(Kind::Closed), "{b}");
                    assert_eq!(t.start(), 0, "{b}");
                }
                Err(e) => {
                    assert!(!exists::closed_tour(b).exists, "{b}: {e}");
                    assert!(matches!(e, Error::NoTour(_)), "{b}: {e}");
                }
            }
            match open(b, None) {
                Ok(t) => {
                    assert!(
                        exists::open_tour(b).exists,
                        "{b}: open tour where none exists"
                    );
                    assert_eq!(check_tour(&t), Ok(Kind::Open), "{b}");
                }
                Err(e) => {
                    assert!(!exists::open_tour(b).exists, "{b}: {e}");
                    assert!(matches!(e, Error::NoTour(_)), "{b}: {e}");
                }
            }
        }
    }
}

/// The tourney form is a cover by one cycle per block.
#[test]
fn tourney_form_is_one_cycle_per_block() {
    for (r, c, blocks) in [
        (8, 8, 1),
        (16, 16, 4),
        (10, 13, 2),
        (3, 30, 3),
        (21, 40, 15),
    ] {
        let cover = tourney(board(r, c)).unwrap();
        assert_eq!(check_cover(&cover), Ok(blocks), "{r}x{c}");
        let joined = closed_cover(board(r, c)).unwrap();
        assert_eq!(check_cover(&joined), Ok(1), "{r}x{c}");
    }
    assert!(matches!(tourney(board(5, 5)), Err(Error::NoTour(_))));
}

/// Every start square of some small boards of each family.
#[test]
fn every_start_on_small_boards() {
    for (r, c) in [
        (5, 5),
        (7, 9),
        (3, 10),
        (3, 7),
        (4, 5),
        (4, 11),
        (6, 6),
        (5, 8),
        (11, 11),
    ] {
        let b = board(r, c);
        for s in 0..b.squares() as Square {
            if exists::closed_tour(b).exists {
                let t = closed(b, Some(s)).unwrap();
                assert_eq!(t.start(), s);
                assert_eq!(check_tour(&t), Ok(Kind::Closed), "{b} from {s}");
            }
            match open(b, Some(s)) {
                Ok(t) => {
                    assert_eq!(t.start(), s, "{b}");
                    assert_eq!(check_tour(&t), Ok(Kind::Open), "{b} from {s}");
                }
                Err(e) => {
                    let (sr, sc) = b.coords(s);
                    let theorem = (b.squares() % 2 == 1 && (sr + sc) % 2 == 1)
                        || (r == 4 && (sr == 1 || sr == 2))
                        || (c == 4 && (sc == 1 || sc == 2))
                        || next_to_two_corners(b, s)
                        || e.to_string().contains("exhaustive search");
                    assert!(theorem, "{b} from ({sr}, {sc}): {e}");
                    assert!(matches!(e, Error::NoTour(_)), "{b}: {e}");
                }
            }
        }
    }
}

#[test]
fn no_open_tour_from_between_two_corners() {
    for (r, c) in [(5, 8), (5, 5), (8, 5)] {
        let b = board(r, c);
        let s = if r == 5 {
            b.square(2, 1)
        } else {
            b.square(1, 2)
        };
        assert!(next_to_two_corners(b, s));
        assert!(matches!(open(b, Some(s)), Err(Error::NoTour(_))), "{b}");
    }
}

#[test]
fn refuses_a_start_off_the_board() {
    assert!(matches!(
        closed(board(6, 6), Some(36)),
        Err(Error::Board(_))
    ));
    assert!(matches!(open(board(5, 5), Some(99)), Err(Error::Board(_))));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any size, any start: the tour passes the checker and starts there.
    #[test]
    fn any_size_any_start(r in 3u32..70, c in 3u32..70, pick in any::<u32>(), want_closed in any::<bool>()) {
        let b = board(r, c);
        let s = pick % b.squares() as u32;
        let (sr, sc) = b.coords(s);
        if want_closed && exists::closed_tour(b).exists {
            let t = closed(b, Some(s)).unwrap();
            prop_assert_eq!(t.start(), s);
            prop_assert_eq!(check_tour(&t), Ok(Kind::Closed));
        } else if exists::open_tour(b).exists {
            match open(b, Some(s)) {
                Ok(t) => {
                    prop_assert_eq!(t.start(), s);
                    prop_assert_eq!(check_tour(&t), Ok(Kind::Open));
                }
                Err(e) => {
                    let odd_minority = b.squares() % 2 == 1 && (sr + sc) % 2 == 1;
                    let four_inner = (r == 4 && (sr == 1 || sr == 2)) || (c == 4 && (sc == 1 || sc == 2));
                    let trapped = next_to_two_corners(b, s);
                    if matches!(e, Error::GaveUp(_)) {
                        // A gap of the construction (3-row boards, some odd
                        // boards lacking a base block for the start's
                        // layout): `auto` must still deliver a tour from there.
                        let t = crate::Tour::builder(b).open().start(s).seed(u64::from(pick)).build();
                        let t = t.map_err(|e| TestCaseError::fail(format!("{b} from ({sr}, {sc}): auto failed too: {e}")))?;
                        prop_assert_eq!(t.start(), s);
                        prop_assert_eq!(check_tour(&t), Ok(Kind::Open));
                    } else {
                        prop_assert!(odd_minority || four_inner || trapped, "{} from ({}, {}): {}", b, sr, sc, e);
                        prop_assert!(matches!(e, Error::NoTour(_)), "{}: {}", b, e);
                    }
                }
            }
        }
    }
}

/// More than 65,536 blocks in a row: block numbers do not wrap.
#[test]
fn many_blocks_in_a_row() {
    for (r, c, want_closed) in [(3, 700_000, true), (700_001, 3, false)] {
        let b = board(r, c);
        let kind = if want_closed {
            Kind::Closed
        } else {
            Kind::Open
        };
        let t = tour(b, kind.into(), None).unwrap();
        assert_eq!(check_tour(&t), Ok(kind), "{b}");
    }
}

/// Large odd shapes (run in release: `cargo test --release -p knights -- --ignored construct`).
#[test]
#[ignore]
fn large_shapes_in_release() {
    for (r, c, want_closed) in [
        (997, 1000, true),
        (3, 20002, true),
        (20002, 3, true),
        (5, 99999, false),
        (1001, 1001, false),
        (4, 100_001, false),
        (99_999, 7, false),
        (1000, 1000, true),
        (3, 1_000_000, true),
        (7, 100_000, true),
        (10_000, 10_000, true),
    ] {
        let b = board(r, c);
        let kind = if want_closed {
            Kind::Closed
        } else {
            Kind::Open
        };
        let t = tour(b, kind.into(), None).unwrap();
        assert_eq!(check_tour(&t), Ok(kind), "{b}");
    }
}

/// The walk proves its result: a cover of several cycles is refused, and
/// so is a cover with a square of three moves.
#[test]
fn the_walk_refuses_a_cover_of_several_cycles() {
    for (r, c) in [(16, 16), (10, 20), (3, 20)] {
        let b = board(r, c);
        let (links, mut blocks) = closed_build(b, false).unwrap();
        let plan = Plan::new(b, &mut blocks, &links);
        for s in [0, 5, b.squares() as Square - 1] {
            let w = plan.trace(b, s, None);
            assert!(matches!(w, Err(Error::GaveUp(_))), "{b}");
            // The square-by-square walk of boards with a side of 3 too.
            let w = walk::walk(b, &links, s, None);
            assert!(matches!(w, Err(Error::GaveUp(_))), "{b}");
        }
        let (mut links, mut blocks) = closed_build(b, true).unwrap();
        if thin(b) {
            assert!(walk::walk(b, &links, 0, None).is_ok());
            continue; // walked square by square: no plan
        }
        assert!(Plan::new(b, &mut blocks.clone(), &links)
            .trace(b, 0, None)
            .is_ok());
        // One extra move on a square the walk passes, noted as a join would.
        for s in [b.squares() / 2, 7] {
            let free =
                (0..8).find(|&k| links[s] & (1 << k) == 0 && b.step(s as Square, k).is_some());
            links[s] |= 1 << free.unwrap();
            let (r, c) = b.coords(s as Square);
            let (i, j) = (
                blocks.ys.iter().rposition(|&y| y <= r).unwrap(),
                blocks.xs.iter().rposition(|&x| x <= c).unwrap(),
            );
            let w = blocks.xs[j + 1] - blocks.xs[j];
            let local = (r - blocks.ys[i]) * w + (c - blocks.xs[j]);
            blocks
                .touched
                .push(((i * blocks.strips() + j) as u32, local as u16));
            let w = Plan::new(b, &mut blocks.clone(), &links).trace(b, 0, None);
            assert!(matches!(w, Err(Error::GaveUp(_))), "{b}");
        }
    }
}

/// The walk trusts every square a join did not note to have its base
/// moves: check that on boards of every family.
#[test]
fn joins_note_every_square_they_change() {
    let layouts: Vec<(Board, layout::Layout)> = [(8, 8), (16, 21), (10, 13), (3, 40), (40, 5)]
        .into_iter()
        .map(|(r, c)| (board(r, c), closed_layout(board(r, c)).unwrap()))
        .chain(
            [(9, 23), (3, 33), (4, 30), (25, 4), (13, 13)]
                .into_iter()
                .flat_map(|(r, c)| {
                    open_layouts(board(r, c), None, 1)
                        .unwrap()
                        .into_iter()
                        .take(1)
                        .map(move |l| (board(r, c), l))
                }),
        )
        .collect();
    for (b, layout) in layouts {
        let (base, _) = layout.build(b, false).unwrap();
        let (links, blocks) = layout.build(b, true).unwrap();
        if thin(b) {
            // Walked square by square from the cover: nothing noted.
            assert!(blocks.touched.is_empty(), "{b}");
            continue;
        }
        let touched: Vec<Square> = blocks
            .touched
            .iter()
            .map(|&(block, local)| {
                let (i, j) = (
                    block as usize / blocks.strips(),
                    block as usize % blocks.strips(),
                );
                let w = blocks.xs[j + 1] - blocks.xs[j];
                let (r, c) = (u32::from(local) / w, u32::from(local) % w);
                b.square(blocks.ys[i] + r, blocks.xs[j] + c)
            })
            .collect();
        let mut changed = 0;
        for s in 0..b.squares() {
            if links[s] != base[s] {
                changed += 1;
                assert!(touched.contains(&(s as Square)), "{b}: square {s}");
            }
        }
        assert!(changed > 0 || b.squares() <= 64, "{b}");
    }
}

/// Every start on every board up to `max` x `max` (and `extra`): an open
/// tour from it through the checker, or a refusal by a theorem or by an
/// exhaustive search, never a gap of the construction.
fn every_start_answered(max: u32, extra: &[(u32, u32)]) {
    let mut boards: Vec<(u32, u32)> = (1..=max)
        .flat_map(|r| (1..=max).map(move |c| (r, c)))
        .collect();
    boards.extend_from_slice(extra);
    for (r, c) in boards {
        let b = board(r, c);
        if !exists::open_tour(b).exists {
            continue;
        }
        for s in 0..b.squares() as Square {
            let (sr, sc) = b.coords(s);
            match open(b, Some(s)) {
                Ok(t) => {
                    assert_eq!(t.start(), s, "{b}");
                    assert_eq!(check_tour(&t), Ok(Kind::Open), "{b} from ({sr}, {sc})");
                }
                Err(Error::NoTour(why)) => {
                    let theorem = (b.squares() % 2 == 1 && (sr + sc) % 2 == 1)
                        || (r == 4 && (sr == 1 || sr == 2))
                        || (c == 4 && (sc == 1 || sc == 2))
                        || next_to_two_corners(b, s);
                    assert!(
                        theorem || (b.squares() <= SMALL && why.contains("exhaustive search")),
                        "{b} from ({sr}, {sc}): {why}"
                    );
                }
                Err(e) => panic!("{b} from ({sr}, {sc}): {e}"),
            }
        }
    }
}

#[test]
fn every_start_up_to_12x12() {
    // The boards where the construction once gave up on some starts.
    every_start_answered(12, &[(3, 15), (3, 17), (17, 3), (11, 15), (15, 11)]);
}

/// (run in release: `cargo test --release -p knights --lib -- --ignored every_start`)
#[test]
#[ignore]
fn every_start_up_to_20x20() {
    let mut extra = Vec::new();
    for n in 21..=45u32 {
        extra.extend([(3, n), (n, 3), (4, n), (n, 4)]);
    }
    for n in (21..=31u32).step_by(2) {
        extra.extend([(11, n), (n, 11), (13, n), (n, 13)]);
    }
    every_start_answered(20, &extra);
}

/// The memory asked before a tour of 65535x65535 is more than the 24 GiB
/// such a tour was seen to take (BENCHMARKS.md, "Memory"), so a machine
/// that cannot hold it refuses it instead of starting it.
#[test]
fn the_largest_board_asks_for_more_than_it_was_seen_to_take() {
    let squares = board(65535, 65535).squares() as u64;
    assert!(squares * BYTES_TO_START > 24 << 30);
}

/// The construction's entry points as the builder calls them: starts kept,
/// kinds as asked, the closed form and the tourney form covers.
#[test]
fn the_entry_points_keep_their_promises() {
    let t = closed(Board::new(3, 10).unwrap(), Some(7)).unwrap();
    assert!(t.is_closed());
    assert_eq!(t.start(), 7);
    assert!(closed(Board::new(4, 9).unwrap(), None).is_err());
    let t = open(Board::new(4, 30).unwrap(), Some(15)).unwrap();
    assert!(!t.is_closed());
    assert_eq!(t.start(), 15);
    assert!(tour(Board::new(6, 6).unwrap(), Wanted::Closed, None)
        .unwrap()
        .is_closed());
    assert!(!tour(Board::new(3, 4).unwrap(), Wanted::Either, None)
        .unwrap()
        .is_closed());
    let cover = closed_cover(Board::new(8, 8).unwrap()).unwrap();
    assert_eq!(check_cover(&cover).unwrap(), 1);
    let cover = tourney(Board::new(16, 16).unwrap()).unwrap();
    assert_eq!(check_cover(&cover).unwrap(), 4);
}
