//! Warnsdorff's rule (1823): always move to the square with the fewest
//! onward moves.
//!
//! The rule is a heuristic: it can get stuck, and it does not aim for a
//! closed tour, so closed tours are found by restarting (with random ties, a
//! new attempt usually goes differently) under a budget of attempts.
//!
//! # Complexity
//! O(rows * cols) per attempt; one byte per square of working memory besides
//! the tour.

use rand::Rng;

use crate::board::Square;
use crate::{exists, memory, Board, Error, Result, Tour};

/// How ties between equally constrained squares are broken.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Tie {
    /// Uniformly at random among the tied squares.
    #[default]
    Random,
    /// The first tied square in move order 0-7.
    First,
}

/// Options of [`tour`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Insist on a closed tour (restarting until one closes).
    pub closed: bool,
    /// The starting square; `None` picks one at random.
    pub start: Option<Square>,
    /// The tie-break.
    pub tie: Tie,
    /// How many attempts before giving up.
    pub max_attempts: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            closed: false,
            start: None,
            tie: Tie::Random,
            max_attempts: 1000,
        }
    }
}

impl Options {
    /// Options for a closed tour, everything else default.
    pub fn closed() -> Self {
        Options {
            closed: true,
            ..Options::default()
        }
    }
}

/// A tour by Warnsdorff's rule.
///
/// # Example
/// ```
/// use knights::{Board, algorithms::warnsdorff};
/// let board = Board::new(10, 10)?;
/// let tour = warnsdorff::tour(board, &warnsdorff::Options::default(), &mut knights::rng::seeded(3))?;
/// assert_eq!(tour.squares().len(), 100);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tour<R: Rng + ?Sized>(board: Board, options: &Options, rng: &mut R) -> Result<Tour> {
    exists::require(board, options.closed)?;
    if let Some(s) = options.start {
        if s as usize >= board.squares() {
            return Err(Error::Board(format!(
                "the start square {s} is not on the {board} board"
            )));
        }
    }
    memory::ensure_fits(board, "Warnsdorff tour", 6)?;
    let mut degree = board.degree_map()?;
    let initial = degree.clone();
    let mut path = Vec::with_capacity(board.squares());
    for _ in 0..options.max_attempts.max(1) {
        let start = options
            .start
            .unwrap_or_else(|| rng.random_range(0..board.squares() as Square));
        degree.copy_from_slice(&initial);
        path.clear();
        if walk(board, start, options.tie, &mut degree, &mut path, rng) {
            let tour = Tour::from_squares_unchecked(board, std::mem::take(&mut path));
            // A one-square board's tour is open by definition.
            if !options.closed || tour.is_closed() {
                return Ok(tour);
            }
            path = tour.into_squares();
        }
    }
    let kind = if options.closed { "closed" } else { "open" };
    Err(Error::GaveUp(format!(
        "Warnsdorff's rule found no {kind} tour of {board} in {} attempts; allow more attempts or use another algorithm",
        options.max_attempts.max(1)
    )))
}

/// Marker for a visited square in the degree map.
const VISITED: u8 = u8::MAX;

/// One walk from `start`; true when it visits every square.
fn walk<R: Rng + ?Sized>(
    board: Board,
    start: Square,
    tie: Tie,
    degree: &mut [u8],
    path: &mut Vec<Square>,
    rng: &mut R,
) -> bool {
    let mut cur = start;
    loop {
        path.push(cur);
        degree[cur as usize] = VISITED;
        let mut best = None;
        let mut best_degree = u8::MAX;
        let mut ties = 0u32;
        for (_, t) in board.neighbours(cur) {
            let d = &mut degree[t as usize];
            if *d == VISITED {
                continue;
            }
            *d -= 1;
            let d = *d;
            if d < best_degree {
                best_degree = d;
                best = Some(t);
                ties = 1;
            } else if d == best_degree && tie == Tie::Random {
                // Reservoir sampling: each tied square is kept with equal chance.
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best = Some(t);
                }
            }
        }
        match best {
            Some(t) => cur = t,
            None => return path.len() == board.squares(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check_tour, TourKind};
    use crate::rng::seeded;

    #[test]
    fn closed_tours_on_even_boards_pass_the_checker() {
        for n in [6u64, 8, 10, 12] {
            let board = Board::new(n, n).unwrap();
            let tour = tour(board, &Options::closed(), &mut seeded(n)).unwrap();
            assert_eq!(check_tour(&tour), Ok(TourKind::Closed));
        }
    }

    #[test]
    fn impossible_requests_give_the_theorem() {
        let err = tour(
            Board::new(4, 4).unwrap(),
            &Options::default(),
            &mut seeded(1),
        )
        .unwrap_err();
        assert!(matches!(err, Error::NoTour(_)), "{err}");
    }
}
