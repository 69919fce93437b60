//! The hybrid of Mahmoud's course report (Mahmoud n.d.): backtracking that tries the moves in Warnsdorff's
//! order (fewest onward moves first; ties furthest from the centre first, as
//! Arnd Roth suggests, then in the course report's fixed move order).
//!
//! Most of the time the first branch it tries is Warnsdorff's own walk, so
//! it finds an open tour almost as fast as the rule; where the rule would
//! get stuck, it backs up instead of starting over. It shares the iterative
//! engine, the node budget and the [`Control`](crate::Control)
//! of [`backtrack`].
//!
//! # Complexity
//! O(rows * cols) nodes when Warnsdorff's walk succeeds, exponential in the
//! worst case (the node budget bounds it); about 45 bytes per square.

use rand::RngCore;

#[cfg(test)]
use super::backtrack::BacktrackOptions;
use super::backtrack::{self, Order};
use super::spec::{TourGenerator, TourSpec};
#[cfg(test)]
use crate::Board;
use crate::{Result, Tour};

/// The hybrid search and its work; `options.order` is ignored (always
/// Warnsdorff's order).
#[cfg(test)]
fn search(board: Board, options: &BacktrackOptions) -> backtrack::Report {
    let options = BacktrackOptions {
        order: Order::Warnsdorff,
        ..options.clone()
    };
    backtrack::search(board, &options)
}

/// The hybrid as a [`TourGenerator`]: backtracking in Warnsdorff's order
/// under a node budget; "either kind" as for
/// [`Backtrack`](super::backtrack::Backtrack).
///
/// # Example
/// ```
/// use knights::{Kind, Tour, algorithms::hybrid::Hybrid};
/// let tour = Tour::builder("8x8".parse()?).algorithm(Hybrid::default()).build()?;
/// assert_eq!(knights::check::check_tour(&tour)?, Kind::Closed);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hybrid {
    /// The node budget: squares placed, over all starts.
    pub max_nodes: u64,
    /// Cut branches that cannot lead to a tour.
    pub prune: bool,
}

impl Hybrid {
    /// 50,000,000 nodes, pruning.
    pub const DEFAULT: Hybrid = Hybrid {
        max_nodes: backtrack::Backtrack::DEFAULT.max_nodes,
        prune: true,
    };

    /// With this node budget.
    pub fn max_nodes(self, max_nodes: u64) -> Hybrid {
        Hybrid { max_nodes, ..self }
    }

    /// Pruning or not.
    pub fn prune(self, prune: bool) -> Hybrid {
        Hybrid { prune, ..self }
    }
}

impl Default for Hybrid {
    fn default() -> Self {
        Hybrid::DEFAULT
    }
}

impl TourGenerator for Hybrid {
    fn name(&self) -> &'static str {
        "hybrid"
    }

    fn generate(&self, spec: &TourSpec, _rng: &mut dyn RngCore) -> Result<Tour> {
        backtrack::generate(spec, Order::Warnsdorff, self.max_nodes, self.prune)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_tour;
    use crate::Error;
    use crate::Kind;

    #[test]
    fn closed_tours_on_even_boards() {
        for (r, c) in [(6, 6), (8, 8), (10, 10), (6, 9), (5, 8)] {
            let board = Board::new(r, c).unwrap();
            let options = BacktrackOptions {
                kind: crate::Wanted::Closed,
                max_nodes: 2_000_000,
                ..BacktrackOptions::default()
            };
            let found = search(board, &options).result.unwrap();
            assert_eq!(check_tour(&found), Ok(Kind::Closed), "{board}");
        }
    }

    #[test]
    fn open_tours_from_every_start_of_a_small_board() {
        // 5x5: a tour starts only on the 13 squares of the corners' colour.
        let board = Board::new(5, 5).unwrap();
        let mut found = 0;
        for s in 0..25 {
            let options = BacktrackOptions {
                start: Some(s),
                ..BacktrackOptions::default()
            };
            match search(board, &options).result {
                Ok(t) => {
                    assert!(check_tour(&t).is_ok());
                    assert_eq!(t.start(), s);
                    found += 1;
                }
                Err(e) => {
                    let (r, c) = board.coords(s);
                    assert_eq!((r + c) % 2, 1, "{e}");
                    assert!(matches!(e, Error::NoTour(_)), "{e}");
                }
            }
        }
        assert_eq!(found, 13);
    }

    #[test]
    fn the_order_is_always_warnsdorff() {
        let board = Board::new(6, 6).unwrap();
        let fixed = BacktrackOptions::default();
        let a = search(board, &fixed);
        let b = backtrack::search(
            board,
            &BacktrackOptions {
                order: Order::Warnsdorff,
                ..BacktrackOptions::default()
            },
        );
        assert_eq!((a.result.unwrap(), a.stats), (b.result.unwrap(), b.stats));
    }
}
