//! Searches through the tree of paths that can be watched and whose work
//! is told: the interface backtracking and the hybrid share beside
//! [`TourGenerator`], for front ends that show a search step by step and
//! for the experiments that count its nodes.

use super::backtrack::{
    search_observed, Backtrack, BacktrackEvent, BacktrackOptions, Order, Report, Stats,
};
use super::hybrid::Hybrid;
use super::spec::{TourGenerator, TourSpec};

/// A search through the tree of paths, square by square, that can be
/// watched and whose work is told: backtracking ([`Backtrack`]) and the
/// hybrid ([`Hybrid`]).
///
/// # Example
/// ```
/// use knights::algorithms::{Backtrack, TourSpec, TreeSearch, backtrack::BacktrackEvent};
/// let (mut entered, mut left) = (0u64, 0u64);
/// let report = Backtrack::default().search(&TourSpec::new("5x5".parse()?), &mut |e| match e {
///     BacktrackEvent::Enter(_) => entered += 1,
///     BacktrackEvent::Leave(_) => left += 1,
/// });
/// assert_eq!(report.result?.squares().len(), 25);
/// assert_eq!(entered, report.stats.nodes);
/// assert_eq!(entered - left, 25); // the squares of the tour stay on the path
///
/// let from_b1 = TourSpec { start: Some(1), ..TourSpec::new("5x5".parse()?) };
/// let report = Backtrack::default().search(&from_b1, &mut |_| ());
/// assert!(report.result.is_err()); // no tour of 5x5 starts next to a corner
/// assert!(report.stats.nodes > 1);
/// # Ok::<(), knights::Error>(())
/// ```
pub trait TreeSearch: TourGenerator + Sync {
    /// Searches for a tour of exactly the kind `spec` asks (either kind:
    /// the first tour found), telling `observer` every square put on the
    /// path and taken off again, as it happens (for a front end that shows
    /// the search step by step). The observer may block to slow the search
    /// down, and may raise the stop flag of `spec.control` to end it (the
    /// flag is looked at every 4096 nodes); a run that ends without a tour
    /// takes its whole path off, and reports that too. The report tells
    /// the work done whether or not a tour was found. Beyond the plain
    /// board the search is the move graph's, which tells nothing.
    fn search(&self, spec: &TourSpec, observer: &mut dyn FnMut(BacktrackEvent)) -> Report;

    /// Whether it cuts branches that cannot lead to a tour.
    fn prunes(&self) -> bool;
}

/// The search of [`TreeSearch::search`] in `order`.
fn search_spec(
    spec: &TourSpec,
    order: Order,
    max_nodes: u64,
    prune: bool,
    observer: &mut dyn FnMut(BacktrackEvent),
) -> Report {
    if !spec.is_plain() {
        let warnsdorff = order == Order::Warnsdorff;
        return Report {
            result: super::general::generate_backtrack(spec, warnsdorff, max_nodes),
            stats: Stats::default(),
        };
    }
    let options = BacktrackOptions {
        kind: spec.kind,
        start: spec.start,
        order,
        max_nodes,
        prune,
        control: spec.control.clone(),
    };
    search_observed(spec.board, &options, observer)
}

impl TreeSearch for Backtrack {
    fn search(&self, spec: &TourSpec, observer: &mut dyn FnMut(BacktrackEvent)) -> Report {
        search_spec(spec, Order::Fixed, self.max_nodes, self.prune, observer)
    }

    fn prunes(&self) -> bool {
        self.prune
    }
}

impl TreeSearch for Hybrid {
    fn search(&self, spec: &TourSpec, observer: &mut dyn FnMut(BacktrackEvent)) -> Report {
        search_spec(
            spec,
            Order::Warnsdorff,
            self.max_nodes,
            self.prune,
            observer,
        )
    }

    fn prunes(&self) -> bool {
        self.prune
    }
}
