//! Backtracking (depth-first search) for open and closed tours, as the
//! textbook chapter teaches it (Practical Algorithms and Data Structures
//! n.d.), and the engine behind the [hybrid](super::hybrid) of Mahmoud's
//! course report (Mahmoud n.d.).
//!
//! The search is iterative: an explicit stack of frames, one per square of
//! the current path, each holding the moves still to try from there, so no
//! board is too large for the call stack. It counts nodes (squares placed),
//! stops when the node budget runs out or when the caller raises the stop
//! flag of its [`Control`], and reports how far it got (nodes and the longest path).
//!
//! Two prunings, on by default ([`Backtrack::prune`]), cut branches that cannot
//! succeed: an unvisited neighbour left with no unvisited neighbours of its
//! own can only be the last square, and for a closed tour the start must keep
//! an unvisited neighbour to come back from.
//!
//! # Complexity
//! Exponential in the worst case (the budget bounds it); O(1) work per node
//! besides ordering eight moves; about 45 bytes per square of memory.

use rand::RngCore;

use super::spec::{TourGenerator, TourSpec};
use crate::board::Square;
use crate::{exists, Board, Control, Error, Result, Tour, Wanted};

use super::warnsdorff::COURSE_REPORT_ORDER;

/// The move order of the textbook chapter's program, `MOVE_OFFSETS` = (row, col)
/// (-1,-2), (1,-2), (-2,-1), (2,-1), (-2,1), (2,1), (-1,2), (1,2), as move
/// numbers of [`crate::board::MOVES`].
pub const TEXTBOOK_ORDER: [u8; 8] = [3, 4, 2, 5, 1, 6, 0, 7];

/// The order in which the moves from a square are tried.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum Order {
    /// A fixed move order, [`TEXTBOOK_ORDER`] (plain backtracking).
    #[default]
    Fixed,
    /// Fewest onward moves first (Warnsdorff), ties furthest from the centre
    /// first (Roth n.d.), then in [`COURSE_REPORT_ORDER`] (the hybrid).
    Warnsdorff,
}

/// The options of [`tour`]: what [`Backtrack`] and
/// [`Hybrid`](super::hybrid::Hybrid) make of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BacktrackOptions {
    /// The kind wanted; for [`Wanted::Open`] a tour found closed is opened
    /// by rotations, keeping a given start.
    pub kind: Wanted,
    /// The start square. `None`: for open tours, every square in row-major
    /// order, each until its tree is exhausted (as the textbook chapter does); for closed tours
    /// in the fixed order, square 0 (a closed tour passes every square); for
    /// closed tours in Warnsdorff's order, every square in turn with at most
    /// 16 nodes per square of the board each.
    pub start: Option<Square>,
    /// The move order.
    pub order: Order,
    /// The node budget: squares placed, over all starts.
    pub max_nodes: u64,
    /// Cut branches that cannot lead to a tour (see the module docs).
    pub prune: bool,
    /// The caller's control: raising its stop flag stops the search.
    pub control: Control,
}

impl Default for BacktrackOptions {
    fn default() -> Self {
        BacktrackOptions {
            kind: Wanted::Either,
            start: None,
            order: Order::Fixed,
            max_nodes: Backtrack::DEFAULT.max_nodes,
            prune: Backtrack::DEFAULT.prune,
            control: Control::new(),
        }
    }
}

/// Plain backtracking as a [`TourGenerator`]: moves in a fixed order
/// ([`TEXTBOOK_ORDER`]), under a node budget.
///
/// Asked for either kind on a board with a closed tour, it spends a
/// sixteenth of its nodes looking for a closed tour, then looks for an open
/// one with the rest.
///
/// # Example
/// ```
/// use knights::{Kind, Tour, algorithms::backtrack::Backtrack};
/// let tour = Tour::builder("5x5".parse()?).algorithm(Backtrack::default()).build()?;
/// assert_eq!(knights::check::check_tour(&tour)?, Kind::Open);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Backtrack {
    /// The node budget: squares placed, over all starts.
    pub max_nodes: u64,
    /// Cut branches that cannot lead to a tour (see the module docs).
    pub prune: bool,
}

impl Backtrack {
    /// 50,000,000 nodes, pruning.
    pub const DEFAULT: Backtrack = Backtrack {
        max_nodes: 50_000_000,
        prune: true,
    };

    /// With this node budget.
    pub fn max_nodes(self, max_nodes: u64) -> Backtrack {
        Backtrack { max_nodes, ..self }
    }

    /// Pruning or not.
    pub fn prune(self, prune: bool) -> Backtrack {
        Backtrack { prune, ..self }
    }
}

impl Default for Backtrack {
    fn default() -> Self {
        Backtrack::DEFAULT
    }
}

impl TourGenerator for Backtrack {
    fn name(&self) -> &'static str {
        "backtrack"
    }

    fn generate(&self, spec: &TourSpec, _rng: &mut dyn RngCore) -> Result<Tour> {
        generate(spec, Order::Fixed, self.max_nodes, self.prune)
    }
}

/// A tour by backtracking in `order` for a request of any kind (see
/// [`Backtrack`] for what "either kind" does).
pub(crate) fn generate(spec: &TourSpec, order: Order, max_nodes: u64, prune: bool) -> Result<Tour> {
    if !spec.is_plain() {
        return super::general::generate_backtrack(spec, order == Order::Warnsdorff, max_nodes);
    }
    let board = spec.board;
    let options = |kind, max_nodes| BacktrackOptions {
        kind,
        start: spec.start,
        order,
        max_nodes,
        prune,
        control: spec.control.clone(),
    };
    match spec.kind {
        kind @ (Wanted::Closed | Wanted::Open) => tour(board, &options(kind, max_nodes)),
        Wanted::Either if !exists::closed_tour(board).exists => {
            tour(board, &options(Wanted::Either, max_nodes))
        }
        Wanted::Either => {
            let share = (max_nodes / 16).max(1);
            match tour(board, &options(Wanted::Closed, share)) {
                Err(e) if matches!(e, Error::GaveUp(_)) && share < max_nodes => {
                    tour(board, &options(Wanted::Either, max_nodes - share))
                }
                other => other,
            }
        }
    }
}

/// How much of the tree a search walked.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Squares placed on the path, over all starts.
    pub nodes: u64,
    /// The longest path reached, in squares.
    pub deepest: usize,
    /// Start squares tried.
    pub starts: u32,
}

/// A tour by backtracking in the order `options.order`; running out of
/// budget or being stopped is an [`Error::GaveUp`] that says how far it got.
pub(crate) fn tour(board: Board, options: &BacktrackOptions) -> Result<Tour> {
    search(board, options).result
}

/// The outcome of a search with its work, successful or not.
#[derive(Debug)]
pub struct Report {
    /// The tour, or why there is none.
    pub result: Result<Tour>,
    /// The work done either way.
    pub stats: Stats,
}

/// Runs the search and reports its work whether or not it found a tour.
pub(crate) fn search(board: Board, options: &BacktrackOptions) -> Report {
    search_inner(board, options, None)
}

/// One step of a backtracking search, as [`TreeSearch::search`](super::TreeSearch::search) reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BacktrackEvent {
    /// The square was put on the path (one node).
    Enter(Square),
    /// The square was taken off the path again: a retreat.
    Leave(Square),
}

/// [`search`], telling `observer` every square the search puts on its path
/// and every square it takes off again ([`TreeSearch::search`](super::TreeSearch::search)).
pub(crate) fn search_observed(
    board: Board,
    options: &BacktrackOptions,
    observer: &mut dyn FnMut(BacktrackEvent),
) -> Report {
    search_inner(board, options, Some(observer))
}

fn search_inner<'a>(
    board: Board,
    options: &'a BacktrackOptions,
    observer: Option<&'a mut dyn FnMut(BacktrackEvent)>,
) -> Report {
    let fail = |e| Report {
        result: Err(e),
        stats: Stats::default(),
    };
    if let Err(e) = exists::require(board, options.kind) {
        return fail(e);
    }
    if let Some(s) = options.start {
        if s as usize >= board.squares() {
            return fail(Error::Board(
                format!("the start square {s} is not on the {board} board").into(),
            ));
        }
    }
    let mut search = match Search::new(board, options) {
        Ok(s) => Search { observer, ..s },
        Err(e) => return fail(e),
    };
    let all = 0..board.squares() as Square;
    let (starts, per_start): (Box<dyn Iterator<Item = Square>>, u64) =
        match (options.start, options.kind.is_closed(), options.order) {
            (Some(s), _, _) => (Box::new(std::iter::once(s)), u64::MAX),
            (None, true, Order::Fixed) => (Box::new(std::iter::once(0)), u64::MAX),
            // Closing is luck at the end of a long walk, not found by
            // backing up a little: try other starts instead.
            (None, true, Order::Warnsdorff) => (Box::new(all), 16 * board.squares() as u64),
            (None, false, _) => (Box::new(all), u64::MAX),
        };
    for start in starts {
        search.stats.starts += 1;
        search.limit = options
            .max_nodes
            .min(search.stats.nodes.saturating_add(per_start));
        match search.run(start) {
            Step::Found => {
                let tour = Tour::from_squares_unchecked(board, search.path.clone());
                return Report {
                    result: super::as_wanted(tour, options.kind, options.start.is_some()),
                    stats: search.stats,
                };
            }
            Step::Exhausted | Step::StartBudget => continue,
            Step::Budget | Step::Stopped => break,
        }
    }
    Report {
        result: Err(search.failure()),
        stats: search.stats,
    }
}

/// Four times the squared distance of `t` from the centre of the board.
fn centre_distance(board: Board, t: Square) -> u64 {
    let (r, c) = board.coords(t);
    let dr = 2 * i64::from(r) - (i64::from(board.rows()) - 1);
    let dc = 2 * i64::from(c) - (i64::from(board.cols()) - 1);
    (dr * dr + dc * dc) as u64
}

/// Marker for a visited square in the degree map.
const VISITED: u8 = u8::MAX;

/// The moves still to try from one square of the path.
#[derive(Copy, Clone, Debug, Default)]
struct Frame {
    cands: [Square; 8],
    len: u8,
    next: u8,
}

/// How a run from one start ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Step {
    Found,
    Exhausted,
    StartBudget,
    Budget,
    Stopped,
}

/// The state of one search.
struct Search<'a> {
    board: Board,
    options: &'a BacktrackOptions,
    degree: Vec<u8>,
    path: Vec<Square>,
    frames: Vec<Frame>,
    stats: Stats,
    /// Unvisited neighbours of the start (closed tours must return to it).
    start_free: u32,
    /// The node count at which the current run stops.
    limit: u64,
    last: Step,
    /// Told of every square entered and left ([`search_observed`]).
    observer: Option<&'a mut dyn FnMut(BacktrackEvent)>,
}

impl<'a> Search<'a> {
    fn new(board: Board, options: &'a BacktrackOptions) -> Result<Search<'a>> {
        Ok(Search {
            board,
            options,
            degree: super::warnsdorff::degrees(board, "backtracking search", 46)?,
            path: Vec::with_capacity(board.squares()),
            frames: Vec::with_capacity(board.squares()),
            stats: Stats::default(),
            start_free: 0,
            limit: options.max_nodes,
            last: Step::Exhausted,
            observer: None,
        })
    }

    /// Depth-first search from `start` until a tour, exhaustion, the budget
    /// or the stop flag. Leaves the path empty unless a tour was found.
    fn run(&mut self, start: Square) -> Step {
        let n = self.board.squares();
        self.start_free = u32::from(self.degree[start as usize]);
        self.enter(start, start);
        let step = loop {
            if self.path.len() == n {
                let end = self.path[n - 1];
                if !self.options.kind.is_closed() || self.board.move_between(end, start).is_some() {
                    break Step::Found;
                }
            }
            let top = self.frames.last_mut().expect("the path is not empty");
            if top.next < top.len {
                let t = top.cands[top.next as usize];
                top.next += 1;
                if self.stats.nodes >= self.limit {
                    break if self.limit < self.options.max_nodes {
                        Step::StartBudget
                    } else {
                        Step::Budget
                    };
                }
                if self.stats.nodes.is_multiple_of(4096) && self.options.control.is_stopped() {
                    break Step::Stopped;
                }
                self.enter(t, start);
            } else {
                self.leave(start);
                if self.path.is_empty() {
                    break Step::Exhausted;
                }
            }
        };
        if step != Step::Found {
            while !self.path.is_empty() {
                self.leave(start);
            }
        }
        self.last = step;
        step
    }

    /// Puts `s` on the path and pushes the frame of its moves.
    fn enter(&mut self, s: Square, start: Square) {
        self.stats.nodes += 1;
        if let Some(observe) = self.observer.as_mut() {
            observe(BacktrackEvent::Enter(s));
        }
        self.path.push(s);
        self.stats.deepest = self.stats.deepest.max(self.path.len());
        self.degree[s as usize] = VISITED;
        if s != start && self.board.move_between(s, start).is_some() {
            self.start_free -= 1;
        }
        let mut frame = Frame::default();
        let order = match self.options.order {
            Order::Fixed => TEXTBOOK_ORDER,
            Order::Warnsdorff => COURSE_REPORT_ORDER,
        };
        let remaining = self.board.squares() - self.path.len();
        let mut dead = self.options.prune
            && self.options.kind.is_closed()
            && remaining > 0
            && self.start_free == 0;
        for k in order {
            if let Some(t) = self.board.step(s, k) {
                let d = &mut self.degree[t as usize];
                if *d != VISITED {
                    *d -= 1;
                    dead |= self.options.prune && *d == 0 && remaining > 1;
                    frame.cands[frame.len as usize] = t;
                    frame.len += 1;
                }
            }
        }
        if dead {
            frame.len = 0;
        } else if self.options.order == Order::Warnsdorff {
            // Aiming to close, the start's neighbours count one more onward
            // move (the start), so they tend to be left for the end.
            let (degree, board, closed) = (&self.degree, self.board, self.options.kind.is_closed());
            frame.cands[..frame.len as usize].sort_by_key(|&t| {
                let back = closed && board.move_between(t, start).is_some();
                (
                    degree[t as usize] + u8::from(back),
                    std::cmp::Reverse(centre_distance(board, t)),
                )
            });
        }
        self.frames.push(frame);
    }

    /// Takes the last square off the path.
    fn leave(&mut self, start: Square) {
        self.frames.pop();
        let s = self.path.pop().expect("the path is not empty");
        if let Some(observe) = self.observer.as_mut() {
            observe(BacktrackEvent::Leave(s));
        }
        let mut free = 0;
        for k in 0..8 {
            if let Some(t) = self.board.step(s, k) {
                let d = &mut self.degree[t as usize];
                if *d != VISITED {
                    *d += 1;
                    free += 1;
                }
            }
        }
        self.degree[s as usize] = free;
        if s != start && self.board.move_between(s, start).is_some() {
            self.start_free += 1;
        }
    }

    /// The error for a search that found nothing.
    fn failure(&self) -> Error {
        let board = self.board;
        let (kind2, kind) = if self.options.kind.is_closed() {
            ("closed", "a closed")
        } else {
            ("open", "an open")
        };
        let name = match self.options.order {
            Order::Fixed => "backtracking",
            Order::Warnsdorff => "the hybrid search",
        };
        let Stats { nodes, deepest, .. } = self.stats;
        let n = board.squares();
        match self.last {
            Step::Budget => Error::GaveUp(format!(
                "{name} ran out of its budget of {} nodes without {kind} tour of {board}; its longest path covered {deepest} of {n} squares; another algorithm may succeed",
                self.options.max_nodes
            ).into())
            .with_hint(crate::Hint::Raise(crate::Budget::Nodes)),
            Step::StartBudget => Error::GaveUp(format!(
                "{name} tried every start square without {kind} tour of {board} ({nodes} nodes); its longest path covered {deepest} of {n} squares"
            ).into()),
            Step::Stopped => Error::Interrupted(format!(
                "{name} was stopped after {nodes} nodes without {kind} tour of {board}; its longest path covered {deepest} of {n} squares"
            ).into()),
            _ => match self.options.start {
                Some(s) => {
                    let (r, c) = board.coords(s);
                    Error::NoTour(format!(
                        "no {kind2} tour of {board} starts at ({r}, {c}): {name} tried every path from there ({nodes} nodes)"
                    ).into())
                }
                None => Error::NoTour(format!(
                    "{name} tried every path and found no {kind2} tour of {board} ({nodes} nodes)"
                ).into()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MOVES;
    use crate::check::check_tour;
    use crate::{Kind, StopFlag};

    #[test]
    fn textbook_orders_are_the_published_ones() {
        // MOVE_OFFSETS of the textbook chapter as (row, col).
        let published = [
            (-1, -2),
            (1, -2),
            (-2, -1),
            (2, -1),
            (-2, 1),
            (2, 1),
            (-1, 2),
            (1, 2),
        ];
        for (k, (dr, dc)) in TEXTBOOK_ORDER.iter().zip(published) {
            assert_eq!(MOVES[*k as usize], (dc, dr));
        }
    }

    #[test]
    fn both_orders_find_small_tours() {
        for order in [Order::Fixed, Order::Warnsdorff] {
            let (any, cl) = (Wanted::Either, Wanted::Closed);
            for (r, c, kind) in [(5, 5, any), (3, 4, any), (6, 6, cl), (3, 10, cl)] {
                let options = BacktrackOptions {
                    kind,
                    order,
                    ..BacktrackOptions::default()
                };
                let board = Board::new(r, c).unwrap();
                let found = search(board, &options);
                let found_kind = check_tour(&found.result.unwrap()).unwrap();
                if kind == cl {
                    assert_eq!(found_kind, Kind::Closed);
                }
                assert!(found.stats.nodes >= board.squares() as u64);
                assert_eq!(found.stats.deepest, board.squares());
            }
        }
    }

    #[test]
    fn pruning_changes_the_work_not_the_answers() {
        let board = Board::new(5, 5).unwrap();
        // Corner, edge, centre; two of them start no tour.
        for start in [0, 1, 2, 7, 12] {
            let run = |prune| {
                let options = BacktrackOptions {
                    start: Some(start),
                    prune,
                    ..BacktrackOptions::default()
                };
                search(board, &options)
            };
            let (pruned, plain) = (run(true), run(false));
            match (pruned.result, plain.result) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "the first tour in the order is the same");
                    assert!(pruned.stats.nodes <= plain.stats.nodes);
                }
                (Err(a), Err(b)) => {
                    assert!(matches!(a, Error::NoTour(_)), "{a}");
                    assert!(matches!(b, Error::NoTour(_)), "{b}");
                }
                (a, b) => panic!("start {start}: {a:?} vs {b:?}"),
            }
        }
    }

    #[test]
    fn the_budget_and_the_stop_flag_end_the_search() {
        let board = Board::new(8, 8).unwrap();
        let options = BacktrackOptions {
            kind: Wanted::Closed,
            max_nodes: 1000,
            prune: false,
            ..BacktrackOptions::default()
        };
        let err = tour(board, &options).unwrap_err();
        assert!(matches!(err, Error::GaveUp(_)), "{err}");
        assert_eq!(err.hint(), Some(crate::Hint::Raise(crate::Budget::Nodes)));
        assert!(err.to_string().contains("budget of 1000 nodes"), "{err}");
        let stop = StopFlag::new();
        stop.stop();
        let options = BacktrackOptions {
            control: Control::new().stop(stop),
            max_nodes: u64::MAX,
            ..options
        };
        let err = tour(board, &options).unwrap_err();
        assert!(err.to_string().contains("was stopped"), "{err}");
    }

    #[test]
    fn the_observer_sees_every_node_and_retreat_and_can_stop_the_search() {
        let board = Board::new(6, 6).unwrap();
        let options = BacktrackOptions {
            kind: Wanted::Closed,
            order: Order::Warnsdorff,
            ..BacktrackOptions::default()
        };
        let mut path = Vec::new();
        let mut retreats = 0u64;
        let report = search_observed(board, &options, &mut |e| match e {
            BacktrackEvent::Enter(s) => path.push(s),
            BacktrackEvent::Leave(s) => {
                assert_eq!(path.pop(), Some(s));
                retreats += 1;
            }
        });
        let tour = report.result.unwrap();
        assert_eq!(path, tour.squares());
        assert_eq!(report.stats.nodes, 36 + retreats);
        assert_eq!(search(board, &options).stats.nodes, report.stats.nodes);

        let stop = StopFlag::new();
        let options = BacktrackOptions {
            start: Some(0),
            control: Control::new().stop(stop.clone()),
            ..BacktrackOptions::default()
        };
        let report = search_observed(Board::new(8, 8).unwrap(), &options, &mut |_| stop.stop());
        assert!(report
            .result
            .unwrap_err()
            .to_string()
            .contains("was stopped"));
        assert!(report.stats.nodes <= 4096);
    }

    #[test]
    fn impossible_requests_give_the_theorem() {
        let options = BacktrackOptions {
            kind: Wanted::Closed,
            ..BacktrackOptions::default()
        };
        let err = tour(Board::new(5, 5).unwrap(), &options).unwrap_err();
        assert!(matches!(err, Error::NoTour(_)), "{err}");
        assert!(err.to_string().contains("Schwenk"), "{err}");
    }
}
