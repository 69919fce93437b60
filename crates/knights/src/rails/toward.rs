//! The deterministic last resort of [`join`](super::join): move the cover
//! toward a reference tour until a cycle disappears.
//!
//! Let `C` be the cover (k >= 2 cycles) and `T` a closed tour of the same
//! board (the linear construction of `construct`, deterministic).
//! Both are 2-regular, so at every square the moves of `C` not in `T` are as
//! many as the moves of `T` not in `C`, and the symmetric difference splits
//! into *alternating closed walks*: leave a square by a move of `C \ T`,
//! arrive, leave by a move of `T \ C`, and so on until the walk is back at
//! its start having just used a move of `T \ C` (a walk cannot get stuck: a
//! square entered by one kind of move still has a move of the other kind
//! left, by the balance). Applying a walk (its `C` moves out, its `T` moves
//! in) keeps every square at two moves, so the cover stays a tourney, and
//! removes the walk's moves from the difference. One *step* applies the
//! walks one after another, in order of their lowest square, counts the
//! cycles after walks 1, 2, 4, 8, ... and stops at the first count below k.
//! It always stops: after the last walk the cover *is* `T`, one cycle. So
//! every step removes at least one cycle (maybe more), deterministically, in
//! O(n log w) time (n squares, w <= n / 2 walks, one O(n) count per power of
//! two), and join needs at most k - 1 steps.

use super::{label_cycles, Geometry};

/// What one step did: the cycles left and the alternating walks applied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub cycles: usize,
    pub walks: u32,
}

/// One step toward `reference` (a closed tour of the same board, as bytes):
/// applies alternating walks of the difference to `links` (a tourney of
/// `cycles` >= 2 cycles) until fewer than `cycles` remain.
///
/// # Complexity
/// O(n log w) for w walks applied (a cycle count after walks 1, 2, 4, ...),
/// w <= n / 2.
pub(crate) fn step(g: &Geometry, links: &mut [u8], reference: &[u8], cycles: usize) -> Step {
    debug_assert!(cycles >= 2);
    let n = links.len();
    // Moves of C not in T, and of T not in C.
    let mut out: Vec<u8> = links.iter().zip(reference).map(|(&c, &t)| c & !t).collect();
    let mut inn: Vec<u8> = links.iter().zip(reference).map(|(&c, &t)| t & !c).collect();
    let mut walks = 0u32;
    for start in 0..n {
        while out[start] != 0 {
            let mut cur = start;
            loop {
                // Leave by a move of C \ T: it leaves the cover.
                let k = out[cur].trailing_zeros() as u8;
                let next = (cur as isize + g.off[k as usize]) as usize;
                out[cur] &= !(1 << k);
                out[next] &= !(1 << (k ^ 4));
                links[cur] &= !(1 << k);
                links[next] &= !(1 << (k ^ 4));
                cur = next;
                // Leave by a move of T \ C: it joins the cover.
                let k = inn[cur].trailing_zeros() as u8;
                debug_assert!(k < 8, "the difference is balanced at every square");
                let next = (cur as isize + g.off[k as usize]) as usize;
                inn[cur] &= !(1 << k);
                inn[next] &= !(1 << (k ^ 4));
                links[cur] |= 1 << k;
                links[next] |= 1 << (k ^ 4);
                cur = next;
                if cur == start {
                    break;
                }
            }
            walks += 1;
            // Count the cycles after walks 1, 2, 4, 8, ...: O(n log n) in
            // all rather than O(n) per walk; the step may then remove more
            // than one cycle, never fewer.
            if walks.is_power_of_two() {
                let now = label_cycles(g, links).1.len();
                if now < cycles {
                    return Step { cycles: now, walks };
                }
            }
        }
    }
    // Every walk applied: the cover is the reference tour (one cycle, as a
    // last count would say).
    debug_assert_eq!(&*links, reference);
    Step { cycles: 1, walks }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::tourney_methods::{cover as tourney, TourneyMethod};
    use crate::check::check_cover;
    use crate::{Board, Cover};

    /// Steps from tourneys of many generators and boards (narrow ones too)
    /// down to one cycle: every step removes a cycle and keeps a tourney.
    #[test]
    fn steps_always_remove_a_cycle_and_end_in_one_tour() {
        let boards = [
            (3, 10),
            (3, 16),
            (5, 6),
            (6, 6),
            (8, 8),
            (7, 10),
            (12, 12),
            (10, 3),
        ];
        for (r, c) in boards {
            let board = Board::new(r, c).unwrap();
            let reference = crate::construct::closed_cover(board).unwrap();
            let g = Geometry::new(board);
            for g_kind in [
                TourneyMethod::Warnsdorff,
                TourneyMethod::Braid,
                TourneyMethod::FourCover,
            ] {
                if !g_kind.supports(board) {
                    continue;
                }
                for seed in 0..5 {
                    let mut rng = crate::rng::seeded(seed);
                    let cover = tourney(board, g_kind, &mut rng).unwrap();
                    let mut links = cover.as_bytes().to_vec();
                    let mut cycles = check_cover(&cover).unwrap();
                    let mut steps = 0;
                    while cycles > 1 {
                        let s = step(&g, &mut links, reference.as_bytes(), cycles);
                        let now = check_cover(&Cover::from_bytes_unchecked(board, links.clone()))
                            .unwrap_or_else(|e| panic!("{board}: {e}"));
                        assert_eq!(now, s.cycles);
                        assert!(s.cycles < cycles && s.walks >= 1, "{board} {s:?}");
                        cycles = s.cycles;
                        steps += 1;
                    }
                    assert!(steps >= 1 || check_cover(&cover) == Ok(1));
                }
            }
        }
    }

    #[test]
    fn a_cover_far_from_the_reference_still_ends() {
        // The four-cover of 8x8 (16 cycles) against the construction's tour.
        let board = Board::new(8, 8).unwrap();
        let reference = crate::construct::closed_cover(board).unwrap();
        let mut links = tourney(board, TourneyMethod::FourCover, &mut crate::rng::seeded(0))
            .unwrap()
            .as_bytes()
            .to_vec();
        let g = Geometry::new(board);
        let mut cycles = 16;
        let mut steps = 0;
        while cycles > 1 {
            cycles = step(&g, &mut links, reference.as_bytes(), cycles).cycles;
            steps += 1;
        }
        assert!(steps <= 15);
        let cover = Cover::from_bytes_unchecked(board, links);
        assert_eq!(check_cover(&cover), Ok(1));
    }
}
