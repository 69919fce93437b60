//! Tours between given start and end squares on the plain board, built
//! from the linear-time construction by Posa rotations: what
//! [`crate::Tour::builder`] runs when an end square is given. Whether one exists
//! is [`crate::exists::ends`]'s question, asked first so that an
//! impossible pair is refused with its reason.
//!
//! **Construction** (O(squares) plus a few reversals of the path): the
//! linear-time closed tour ([`crate::construct`]) is cut at the start,
//! giving a Hamiltonian path in each direction, or the construction's open
//! tour from the start where the board has no closed tour. Posa rotations
//! then move the far end: with the end `e` a knight's move from the square
//! at position `i`, the path `p0..pi, e, ..., p(i+1)` ends at `p(i+1)`, at
//! most two knight's moves from `e`. The end walks to the wanted square,
//! greedily (the rotation whose new end is nearest, not yet visited), and a
//! breadth-first search over short sequences of rotations finishes near it.
//! The path is kept as runs of the constructed path, forwards or backwards,
//! so a rotation costs O(rotations so far) instead of O(squares), and the
//! array is written once at the end. Small boards where this fails fall
//! back to the exhaustive search.
//!
//! # Example
//! ```
//! use knights::{Board, Tour};
//! let board: Board = "8x8".parse()?;
//! let tour = Tour::builder(board).start(board.square(0, 0)).end(board.square(7, 0)).build()?;
//! assert_eq!((tour.start(), tour.end()), (0, 56));
//! knights::check::check_tour(&tour)?;
//! assert!(Tour::builder(board).start(0).end(63).build().is_err());
//! # Ok::<(), knights::Error>(())
//! ```

use std::collections::VecDeque;

use super::general;
use super::spec::TourSpec;
use crate::board::Square;
use crate::exists::{ends::existence, ExistsVerdict};
use crate::{construct, exists, Board, Error, Result, Tour};

/// A tour of `board` from `s` to `t` (open, or closed when they happen to
/// be a knight's move apart), built as the module docs describe.
///
/// # Errors
/// [`Error::NoTour`] with the reason where none exists;
/// [`Error::GaveUp`] where the rotations and the fallback search find none
/// (never seen on boards that the colour rule and the table allow);
/// [`Error::Board`] for a square off the board.
///
/// # Complexity
/// O(rows * cols) time; 4 bytes per square for the path and as much for
/// the positions.
pub(crate) fn tour(board: Board, s: Square, t: Square) -> Result<Tour> {
    for (what, q) in [("start", s), ("end", t)] {
        if q as usize >= board.squares() {
            return Err(Error::Board(
                format!(
                    "the {what} square {q} is not on {board}, whose squares are 0..{}",
                    board.squares()
                )
                .into(),
            ));
        }
    }
    let known = existence(board, s, t);
    if known.answer == ExistsVerdict::No {
        return Err(Error::NoTour(
            format!(
                "no tour of {board} from {} to {}: {}",
                name(board, s),
                name(board, t),
                known.reason
            )
            .into(),
        ));
    }
    if let Some(path) = by_rotations(board, s, t)? {
        return Ok(Tour::from_squares_unchecked(board, path));
    }
    // Small boards: the exhaustive search, which also settles the unknown.
    let spec = TourSpec {
        start: Some(s),
        end: Some(t),
        ..TourSpec::new(board)
    };
    if board.squares() <= 400 {
        return general::generate_backtrack(&spec, true, 50_000_000);
    }
    Err(Error::GaveUp(
        format!(
            "the rotations found no tour of {board} from {} to {}",
            name(board, s),
            name(board, t)
        )
        .into(),
    ))
}

fn name(board: Board, q: Square) -> String {
    let (r, c) = board.coords(q);
    format!("({r}, {c})")
}

/// The construction's path from `s`, rotated to end on `t`; `None` when
/// the construction cannot start at `s` or the rotations do not get there.
fn by_rotations(board: Board, s: Square, t: Square) -> Result<Option<Vec<Square>>> {
    let closed = exists::closed_tour(board).exists;
    let base = match construct::tour(board, crate::Wanted::Either, Some(s)) {
        Ok(tour) => tour.into_squares(),
        Err(Error::NoTour(_) | Error::GaveUp(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut paths = vec![base];
    if closed {
        // The cycle cut at s the other way round.
        let mut other = paths[0].clone();
        other[1..].reverse();
        paths.push(other);
    }
    for path in paths {
        if let Some(done) = rotate_to(board, path, t) {
            return Ok(Some(done));
        }
    }
    Ok(None)
}

/// A path after rotations: the base path's runs, in order, each forwards
/// or backwards. A rotation splits one run and turns the runs after it
/// round, so a path after k rotations costs O(k) to read and change
/// whatever its length.
#[derive(Clone)]
struct Runs {
    /// (first base position, length, backwards).
    runs: Vec<(usize, usize, bool)>,
    n: usize,
}

impl Runs {
    fn new(n: usize) -> Runs {
        Runs {
            runs: vec![(0, n, false)],
            n,
        }
    }

    /// The base position at path position `p`.
    fn at(&self, mut p: usize) -> usize {
        for &(start, len, back) in &self.runs {
            if p < len {
                return if back { start + len - 1 - p } else { start + p };
            }
            p -= len;
        }
        unreachable!("a position on the path")
    }

    /// The path position of base position `b`.
    fn pos(&self, b: usize) -> usize {
        let mut p = 0;
        for &(start, len, back) in &self.runs {
            if (start..start + len).contains(&b) {
                return p + if back { start + len - 1 - b } else { b - start };
            }
            p += len;
        }
        unreachable!("a square of the path")
    }

    /// Turns round the part of the path after position `i`.
    fn rotate(&mut self, i: usize) {
        // Split so that a run boundary falls after position i.
        let cut = i + 1;
        let mut p = 0;
        let mut k = 0;
        while k < self.runs.len() {
            let (start, len, back) = self.runs[k];
            if cut > p && cut < p + len {
                let head = cut - p;
                let (a, b) = if back {
                    ((start + len - head, head, true), (start, len - head, true))
                } else {
                    ((start, head, false), (start + head, len - head, false))
                };
                self.runs[k] = a;
                self.runs.insert(k + 1, b);
                k += 1;
                break;
            }
            p += len;
            k += 1;
            if p == cut {
                break;
            }
        }
        self.runs[k..].reverse();
        for r in &mut self.runs[k..] {
            r.2 = !r.2;
        }
        // Join neighbouring runs that continue each other.
        let mut joined: Vec<(usize, usize, bool)> = Vec::with_capacity(self.runs.len());
        for &r in &self.runs {
            if let Some(last) = joined.last_mut() {
                if last.2 == r.2 && !r.2 && last.0 + last.1 == r.0 {
                    last.1 += r.1;
                    continue;
                }
                if last.2 == r.2 && r.2 && r.0 + r.1 == last.0 {
                    last.0 = r.0;
                    last.1 += r.1;
                    continue;
                }
            }
            joined.push(r);
        }
        self.runs = joined;
        debug_assert_eq!(self.runs.iter().map(|r| r.1).sum::<usize>(), self.n);
    }
}

/// Most rotations the greedy walk of the end makes, per square of the
/// board's perimeter; most paths the final breadth-first search looks at.
const WALK_PER_SIDE: usize = 40;
const MAX_STATES: usize = 4000;
const MAX_DEPTH: usize = 10;
/// The search starts once the end is this near `t` (squared distance), at
/// most this many times.
const NEAR: i64 = 50;
const MAX_SEARCHES: usize = 12;

/// Rotations that make `path` end on `t`: the end walks towards `t` (each
/// rotation moves it at most two knight's moves: the pivot is its
/// neighbour, the new end the pivot's successor), choosing the rotation
/// whose new end is nearest `t` and not yet visited; near `t` a
/// breadth-first search finishes. Deterministic.
fn rotate_to(board: Board, path: Vec<Square>, t: Square) -> Option<Vec<Square>> {
    let n = path.len();
    if path[n - 1] == t {
        return Some(path);
    }
    if path[0] == t || n < 4 {
        return None;
    }
    let mut pos = vec![0u32; board.squares()];
    for (i, &q) in path.iter().enumerate() {
        pos[q as usize] = i as u32;
    }
    let (tr, tc) = board.coords(t);
    let far = |q: Square| {
        let (r, c) = board.coords(q);
        let (dr, dc) = (i64::from(r) - i64::from(tr), i64::from(c) - i64::from(tc));
        dr * dr + dc * dc
    };
    let mut runs = Runs::new(n);
    let mut visited = rustc_hash::FxHashSet::default();
    let limit = WALK_PER_SIDE * (board.rows() + board.cols()) as usize;
    let mut searches = 0;
    for _ in 0..limit {
        let end = path[runs.at(n - 1)];
        visited.insert(end);
        if far(end) <= NEAR {
            if let Some(pivots) = search(board, &path, &pos, &runs, t) {
                for i in pivots {
                    runs.rotate(i);
                }
                break;
            }
            searches += 1;
            if searches > MAX_SEARCHES {
                return None;
            }
        }
        // The rotation whose new end is nearest t, among the unvisited.
        let mut best: Option<(i64, usize)> = None;
        let mut fallback: Option<(i64, usize)> = None;
        for (_, x) in board.neighbours(end) {
            let i = runs.pos(pos[x as usize] as usize);
            if i + 2 >= n {
                continue;
            }
            let new_end = path[runs.at(i + 1)];
            let d = far(new_end);
            let slot = if visited.contains(&new_end) {
                &mut fallback
            } else {
                &mut best
            };
            if slot.is_none_or(|(bd, _)| d < bd) {
                *slot = Some((d, i));
            }
        }
        let (_, i) = best.or(fallback)?;
        runs.rotate(i);
    }
    if path[runs.at(n - 1)] != t {
        return None;
    }
    let mut order: Vec<Square> = Vec::with_capacity(n);
    for &(start, len, back) in &runs.runs {
        let run = &path[start..start + len];
        if back {
            order.extend(run.iter().rev());
        } else {
            order.extend_from_slice(run);
        }
    }
    Some(order)
}

/// Breadth-first over short sequences of rotations from `runs`: the
/// pivots of one that ends on `t`, looking at no two paths with the same end.
fn search(
    board: Board,
    path: &[Square],
    pos: &[u32],
    runs: &Runs,
    t: Square,
) -> Option<Vec<usize>> {
    let n = path.len();
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert(path[runs.at(n - 1)]);
    let mut queue = VecDeque::from([(runs.clone(), Vec::new())]);
    let mut looked = 0;
    while let Some((r, pivots)) = queue.pop_front() {
        looked += 1;
        if looked > MAX_STATES {
            return None;
        }
        let end = path[r.at(n - 1)];
        for (_, x) in board.neighbours(end) {
            let i = r.pos(pos[x as usize] as usize);
            if i + 2 >= n {
                continue;
            }
            let new_end = path[r.at(i + 1)];
            let mut p = pivots.clone();
            p.push(i);
            if new_end == t {
                return Some(p);
            }
            if p.len() < MAX_DEPTH && seen.insert(new_end) {
                let mut next = r.clone();
                next.rotate(i);
                queue.push_back((next, p));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_tour;
    use crate::exists::ends::colour_rule;
    use rand::Rng;

    #[test]
    fn the_acceptance_pair_and_its_same_colour_twin() {
        let b: Board = "8x8".parse().unwrap();
        let t = tour(b, 0, b.square(7, 0)).unwrap();
        assert_eq!((t.start(), t.end()), (0, 56));
        assert_eq!(check_tour(&t).unwrap(), crate::Kind::Open);
        let e = tour(b, 0, 63).unwrap_err();
        assert!(e.to_string().contains("same colour"), "{e}");
    }

    #[test]
    fn random_allowed_pairs_on_square_and_other_boards() {
        let mut rng = crate::rng::seeded(21);
        for (r, c) in [
            (7, 7),
            (8, 8),
            (9, 9),
            (10, 10),
            (11, 11),
            (12, 12),
            (20, 20),
            (25, 25),
            (6, 9),
            (8, 11),
            (7, 10),
        ] {
            let b = Board::new(r, c).unwrap();
            let mut done = 0;
            while done < 10 {
                let s = rng.random_range(0..b.squares() as Square);
                let t = rng.random_range(0..b.squares() as Square);
                if s == t || colour_rule(b, s, t).is_some() {
                    continue;
                }
                // Non-square boards may have no tour between allowed squares:
                // those are decided exactly by the counter.
                if r != c && existence(b, s, t).answer == ExistsVerdict::No {
                    assert!(tour(b, s, t).is_err());
                    continue;
                }
                let found = tour(b, s, t).unwrap_or_else(|e| panic!("{b} {s}->{t}: {e}"));
                assert_eq!((found.start(), found.end()), (s, t));
                check_tour(&found).unwrap();
                done += 1;
            }
        }
    }

    #[test]
    fn a_pair_the_counter_refuses_is_refused() {
        let b: Board = "5x12".parse().unwrap();
        assert!(tour(b, 21, 25).is_err());
    }
}
