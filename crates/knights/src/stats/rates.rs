//! Experiments on the classical searches: how often Warnsdorff's rule gives
//! a closed tour, an open one or none for each tie-break, and how many nodes
//! backtracking and the hybrid need on small boards.
//!
//! The trials run in parallel in fixed batches, batch `i` seeded with
//! [`crate::rng::for_batch`]`(seed, i)`, so a seed gives the same table on
//! any number of threads. Progress is reported through a callback, for the
//! caller to draw.

use rand::Rng;
use rayon::prelude::*;
use serde::Serialize;

use crate::algorithms::warnsdorff::{Outcome, Tie, Walker};
use crate::algorithms::TourSpec;
use crate::algorithms::TreeSearch;
use crate::board::Square;
use crate::{exists, Board, Error, Result, Wanted};

/// Trials per batch (fixed, so results do not depend on the thread count).
pub const TRIALS_PER_BATCH: u64 = 64;

/// A proportion `k / n` with its 95 % Wilson score interval.
///
/// # Example
/// ```
/// use knights::stats::rates::Rate;
/// let r = Rate::new(14, 100);
/// assert_eq!(r.fraction(), 0.14);
/// let (lo, hi) = r.wilson95();
/// assert!(lo < 0.14 && 0.14 < hi);
/// assert!((lo - 0.0852).abs() < 1e-3 && (hi - 0.2215).abs() < 1e-3);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rate {
    /// Successes.
    pub k: u64,
    /// Trials.
    pub n: u64,
}

impl Rate {
    /// The proportion `k` of `n`.
    pub fn new(k: u64, n: u64) -> Rate {
        Rate { k, n }
    }

    /// `k / n` (0 when there are no trials).
    pub fn fraction(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.k as f64 / self.n as f64
        }
    }

    /// The 95 % Wilson score interval (0 to 1 when there are no trials).
    pub fn wilson95(&self) -> (f64, f64) {
        if self.n == 0 {
            return (0.0, 1.0);
        }
        let z = 1.959_963_984_540_054_f64;
        let n = self.n as f64;
        let p = self.fraction();
        let z2n = z * z / n;
        let centre = (p + z2n / 2.0) / (1.0 + z2n);
        let half = z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }
}

/// The outcomes of single Warnsdorff walks with one tie-break.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TieRates {
    /// The tie-break's name.
    pub tie: &'static str,
    /// Walks that closed.
    pub closed: Rate,
    /// Walks that visited every square but did not close.
    pub open: Rate,
    /// Walks that got stuck.
    pub failed: Rate,
}

/// The outcomes of `trials` single walks of Warnsdorff's rule with `tie`,
/// each from a start square drawn uniformly at random (ties at random, where
/// the rule has any, from the same stream), aiming for closed tours or not
/// ([`Walker::aim_closed`]). `progress` is called with the
/// number of walks each finished batch made.
///
/// # Complexity
/// O(trials * rows * cols), spread over rayon's threads.
///
/// # Example
/// ```
/// use knights::{Board, algorithms::warnsdorff::Tie, stats::rates};
/// let r = rates::warnsdorff_rates(Board::new(8, 8)?, Tie::Random, 256, 1, false, &|_| ())?;
/// assert_eq!(r.closed.k + r.open.k + r.failed.k, 256);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn warnsdorff_rates(
    board: Board,
    tie: Tie,
    trials: u64,
    seed: u64,
    aim_closed: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TieRates> {
    exists::require(board, Wanted::Either)?;
    Walker::new(board)?;
    let batches = trials.div_ceil(TRIALS_PER_BATCH);
    let counts = (0..batches)
        .into_par_iter()
        .map_init(
            || {
                let mut w = Walker::new(board).expect("the walker fitted a moment ago");
                w.aim_closed(aim_closed);
                w
            },
            |walker, b| {
                let mut rng = crate::rng::for_batch(seed, b);
                let size = TRIALS_PER_BATCH.min(trials - b * TRIALS_PER_BATCH);
                let mut c = [0u64; 3];
                for _ in 0..size {
                    let start = rng.random_range(0..board.squares() as Square);
                    let i = match walker.walk(start, tie, &mut rng) {
                        Outcome::Closed => 0,
                        Outcome::Open => 1,
                        Outcome::Failed => 2,
                    };
                    c[i] += 1;
                }
                progress(size);
                c
            },
        )
        .reduce(|| [0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    Ok(TieRates {
        tie: tie.name(),
        closed: Rate::new(counts[0], trials),
        open: Rate::new(counts[1], trials),
        failed: Rate::new(counts[2], trials),
    })
}

/// Node counts of one backtracking search over many starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeCounts {
    /// `backtrack` or `hybrid`.
    pub algorithm: &'static str,
    /// Whether closed tours were asked for.
    pub closed: bool,
    /// Whether the prunings were on.
    pub prune: bool,
    /// Searches run (one per start square).
    pub runs: u64,
    /// Searches that found a tour.
    pub found: u64,
    /// Searches that proved no tour starts there.
    pub none: u64,
    /// Searches that ran out of budget.
    pub gave_up: u64,
    /// Fewest nodes of a successful search.
    pub min: u64,
    /// Median nodes of the successful searches.
    pub median: u64,
    /// Mean nodes of the successful searches.
    pub mean: f64,
    /// Most nodes of a successful search.
    pub max: u64,
    /// Nodes of all searches, successful or not.
    pub total: u64,
}

/// Runs `search` (backtracking or the hybrid, pruning or not, with its
/// node budget for each run) for a tour of the kind `spec` asks from every
/// start square of `spec.board` in parallel, and summarises the node
/// counts; `spec.start` is ignored. `progress` is called once per finished
/// start.
///
/// # Example
/// ```
/// use knights::{algorithms::{Hybrid, TourSpec}, stats::rates};
/// let search = Hybrid::default().max_nodes(100_000);
/// let c = rates::backtrack_nodes(&TourSpec::new("5x5".parse()?), &search, &|_| ())?;
/// assert_eq!((c.runs, c.found, c.none), (25, 13, 12));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn backtrack_nodes(
    spec: &TourSpec,
    search: &dyn TreeSearch,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<NodeCounts> {
    let board = spec.board;
    exists::require(board, spec.kind)?;
    let results: Vec<(u64, Option<u64>, bool)> = (0..board.squares() as Square)
        .into_par_iter()
        .map(|start| {
            let from = TourSpec {
                start: Some(start),
                ..spec.clone()
            };
            let report = search.search(&from, &mut |_| ());
            let nodes = report.stats.nodes;
            let r = match report.result {
                Ok(_) => Ok((nodes, Some(nodes), false)),
                Err(e) => match e {
                    Error::NoTour(_) => Ok((nodes, None, true)),
                    Error::GaveUp(_) => Ok((nodes, None, false)),
                    _ => Err(e),
                },
            };
            progress(1);
            r
        })
        .collect::<Result<_>>()?;
    let mut ok: Vec<u64> = results.iter().filter_map(|r| r.1).collect();
    ok.sort_unstable();
    let none = results.iter().filter(|r| r.2).count() as u64;
    let found = ok.len() as u64;
    Ok(NodeCounts {
        algorithm: search.name(),
        closed: spec.kind.is_closed(),
        prune: search.prunes(),
        runs: results.len() as u64,
        found,
        none,
        gave_up: results.len() as u64 - found - none,
        min: ok.first().copied().unwrap_or(0),
        median: ok.get(ok.len() / 2).copied().unwrap_or(0),
        mean: if ok.is_empty() {
            0.0
        } else {
            ok.iter().sum::<u64>() as f64 / ok.len() as f64
        },
        max: ok.last().copied().unwrap_or(0),
        total: results.iter().map(|r| r.0).sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::{Backtrack, Hybrid};

    #[test]
    fn wilson_interval_matches_the_formula_at_the_edges() {
        let (lo, hi) = Rate::new(0, 10).wilson95();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        let (lo, hi) = Rate::new(10, 10).wilson95();
        assert!((lo - 0.7225).abs() < 1e-3, "{lo}");
        assert!((hi - 1.0).abs() < 1e-12, "{hi}");
        assert_eq!(Rate::new(0, 0).wilson95(), (0.0, 1.0));
    }

    #[test]
    fn rates_are_deterministic_for_a_seed_and_add_up() {
        let board = Board::new(8, 8).unwrap();
        for tie in Tie::ALL {
            let a = warnsdorff_rates(board, tie, 300, 9, false, &|_| ()).unwrap();
            let b = warnsdorff_rates(board, tie, 300, 9, false, &|_| ()).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.closed.k + a.open.k + a.failed.k, 300);
        }
    }

    #[test]
    fn the_thread_count_does_not_matter() {
        let board = Board::new(8, 8).unwrap();
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| warnsdorff_rates(board, Tie::Random, 500, 3, true, &|_| ()).unwrap())
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn node_counts_on_5x5() {
        let board = Board::new(5, 5).unwrap();
        let searches: [&dyn TreeSearch; 2] = [
            &Backtrack::default().max_nodes(1_000_000),
            &Hybrid::default().max_nodes(1_000_000),
        ];
        for search in searches {
            let c = backtrack_nodes(&TourSpec::new(board), search, &|_| ()).unwrap();
            assert_eq!((c.runs, c.found, c.none, c.gave_up), (25, 13, 12, 0));
            assert!(c.min >= 25 && c.min <= c.median && c.median <= c.max);
            assert!(c.total >= c.found * 25);
        }
    }
}
