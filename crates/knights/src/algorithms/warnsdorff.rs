//! Warnsdorff's rule (1823): always move to the square with the fewest
//! onward moves.
//!
//! The rule is a heuristic: it can get stuck, and it does not aim for a
//! closed tour, so closed tours are found by restarting under a budget of
//! attempts. Asked for a closed tour, the walk counts the start square as
//! free in its neighbours' degrees, so the rule leaves those neighbours for
//! the end ([`Walker::aim_closed`]; not with [`Tie::First`], which keeps the
//! course report's walk exactly): on 8x8 with random ties this raises the closed walks
//! from about 14 % to about 57 %. What happens among squares of equal degree is the tie-break
//! ([`Tie`]); it decides how often the rule succeeds:
//!
//! - [`Tie::Random`]: uniformly at random (The Knight's Tour, n.d.);
//! - [`Tie::First`]: the first in the fixed move order of the program of
//!   Mahmoud's course report (Mahmoud n.d.),
//!   with its search over start squares (columns outer, rows inner);
//! - [`Tie::Centre`]: the square furthest from the centre (The Knight's Tour,
//!   n.d., after Roth n.d.), remaining ties at random;
//! - [`Tie::Pohl`]: Pohl's second-level rule (1967), the square whose
//!   unvisited neighbours have the smallest total degree, then the one
//!   furthest from the centre, remaining ties at random.
//!
//! # Complexity
//! O(rows * cols) per attempt (Pohl's rule looks at up to 64 squares a
//! step); six bytes per square of working memory besides the tour.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngCore};

use super::spec::{TourGenerator, TourSpec};
use crate::board::{Square, MOVES};
use crate::rng::LeastOf;
use crate::{exists, memory, Board, Control, Error, Result, Tour, Wanted};

/// The move order of the program of Mahmoud's course report (Mahmoud n.d.): (dx, dy) = (1,2), (1,-2), (2,1),
/// (2,-1), (-1,2), (-1,-2), (-2,1), (-2,-1) with dx the column step, as move
/// numbers of [`crate::board::MOVES`].
pub const COURSE_REPORT_ORDER: [u8; 8] = [6, 1, 7, 0, 5, 2, 4, 3];

/// How ties between equally constrained squares are broken.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tie {
    /// Uniformly at random among the tied squares.
    #[default]
    Random,
    /// The first tied square in [`COURSE_REPORT_ORDER`]; without a given start,
    /// starts are tried columns outer, rows inner, as the course report does.
    First,
    /// The tied square furthest from the centre of the board, then at random.
    Centre,
    /// Pohl's second-level rule: the tied square whose unvisited neighbours
    /// have the smallest sum of degrees, then furthest from the centre, then
    /// at random.
    Pohl,
}

impl Tie {
    /// Every tie-break, in the order the experiments report them.
    pub const ALL: [Tie; 4] = [Tie::Random, Tie::First, Tie::Centre, Tie::Pohl];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Tie::Random => "random",
            Tie::First => "first",
            Tie::Centre => "centre",
            Tie::Pohl => "pohl",
        }
    }

    /// One line on the tie-break, for help texts.
    pub fn about(self) -> &'static str {
        match self {
            Tie::Random => "uniformly at random (from the seed)",
            Tie::First => "the first in the course report's fixed move order, with its search over start squares",
            Tie::Centre => "the square furthest from the centre, then at random",
            Tie::Pohl => "Pohl's second-level rule, then furthest from the centre, then at random",
        }
    }
}

impl fmt::Display for Tie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Tie {
    type Err = Error;

    fn from_str(s: &str) -> Result<Tie> {
        let s = s.trim().to_ascii_lowercase();
        Tie::ALL
            .into_iter()
            .find(|t| t.name() == s || (s == "center" && *t == Tie::Centre))
            .ok_or_else(|| {
                Error::Parse(
                    format!(
                        "'{}' is not a tie-break; use random, first, centre or pohl",
                        crate::excerpt(&s)
                    )
                    .into(),
                )
            })
    }
}

/// The options of [`tour`]: what [`Warnsdorff`] makes of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WarnsdorffOptions {
    /// The kind wanted: [`Wanted::Closed`] restarts until a walk closes;
    /// [`Wanted::Either`] takes the first walk that visits every square;
    /// [`Wanted::Open`] takes it too and opens it by rotations when it
    /// closed (keeping the start when one is given).
    pub kind: Wanted,
    /// The starting square; `None` picks one at random (or searches the
    /// starts in the course report's order with [`Tie::First`]).
    pub start: Option<Square>,
    /// The tie-break.
    pub tie: Tie,
    /// How many attempts before giving up.
    pub max_attempts: u32,
    /// With [`Wanted::Closed`]: when no walk closes within the budget, return the
    /// first walk that visited every square (an open tour) instead of
    /// failing.
    pub open_fallback: bool,
    /// The caller's control: its stop flag is checked between walks
    /// ([`Error::Interrupted`]).
    pub control: Control,
}

impl Default for WarnsdorffOptions {
    fn default() -> Self {
        WarnsdorffOptions {
            kind: Wanted::Either,
            start: None,
            tie: Tie::Random,
            max_attempts: Warnsdorff::DEFAULT.max_attempts,
            open_fallback: false,
            control: Control::new(),
        }
    }
}

impl WarnsdorffOptions {
    /// The options for a closed tour, everything else default.
    #[cfg(test)]
    pub(crate) fn closed() -> Self {
        WarnsdorffOptions {
            kind: Wanted::Closed,
            ..WarnsdorffOptions::default()
        }
    }
}

/// How one walk ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Every square visited, and the last is a knight's move from the first.
    Closed,
    /// Every square visited, the ends not a knight's move apart.
    Open,
    /// Stuck before visiting every square.
    Failed,
}

/// What a walk by the rule does, for an observer
/// ([`Warnsdorff::generate_observed`], [`Walker::walk_observed`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// A walk begins at `start` (after a walk that failed, another one).
    Walk {
        /// The first square.
        start: Square,
    },
    /// A move: the unvisited squares a move away from `from` with their
    /// onward degrees as the rule counts them, and the one it chose.
    Move {
        /// The square the knight is on.
        from: Square,
        /// The candidates, each with its onward degree.
        candidates: &'a [(Square, u8)],
        /// The square the rule moved to.
        chosen: Square,
    },
}

/// A tour by Warnsdorff's rule.
#[cfg(test)]
pub(crate) fn tour<R: Rng + ?Sized>(
    board: Board,
    options: &WarnsdorffOptions,
    rng: &mut R,
) -> Result<Tour> {
    tour_observed(board, options, rng, &mut |_| {})
}

/// [`tour`], telling `observe` every walk (so the walks a tour took are
/// its [`Step::Walk`]s) and every move of the rule as it makes them (the
/// last walk is the tour's).
pub(crate) fn tour_observed<R: Rng + ?Sized, O: FnMut(Step<'_>)>(
    board: Board,
    options: &WarnsdorffOptions,
    rng: &mut R,
    observe: &mut O,
) -> Result<Tour> {
    exists::require(board, options.kind)?;
    let closed = options.kind.is_closed();
    if let Some(s) = options.start {
        if s as usize >= board.squares() {
            return Err(Error::Board(
                format!("the start square {s} is not on the {board} board").into(),
            ));
        }
    }
    let mut walker = Walker::new(board)?;
    // The course report's program does not aim; the other tie-breaks close far more
    // often when they do (see BENCHMARKS.md).
    walker.aim_closed(closed && options.tie != Tie::First);
    let deterministic = options.tie == Tie::First;
    let budget = match (deterministic, options.start) {
        // The same start and the same rule give the same walk.
        (true, Some(_)) => 1,
        (true, None) => options.max_attempts.max(1).min(board.squares() as u32),
        _ => options.max_attempts.max(1),
    };
    let mut first_open: Option<Vec<Square>> = None;
    for attempt in 0..budget {
        options.control.check("Warnsdorff's rule")?;
        let start = match (options.start, deterministic) {
            (Some(s), _) => s,
            (None, true) => {
                // Columns outer, rows inner, as the course report's program.
                let (c, r) = (attempt / board.rows(), attempt % board.rows());
                board.square(r, c)
            }
            (None, false) => rng.random_range(0..board.squares() as Square),
        };
        let outcome = walker.walk_observed(start, options.tie, rng, observe);
        if outcome == Outcome::Closed || (outcome == Outcome::Open && !closed) {
            let tour = Tour::from_squares_unchecked(board, walker.path.clone());
            return super::as_wanted(tour, options.kind, options.start.is_some());
        }
        if outcome == Outcome::Open && options.open_fallback && first_open.is_none() {
            first_open = Some(walker.path.clone());
        }
    }
    if let Some(path) = first_open {
        return Ok(Tour::from_squares_unchecked(board, path));
    }
    let kind = if closed { "closed" } else { "open" };
    let deterministic = deterministic && options.start.is_some();
    let advice = if deterministic {
        "this tie-break is deterministic, so try another start or tie-break"
    } else {
        "another tie-break or algorithm may succeed"
    };
    let gave_up = Error::GaveUp(format!(
        "Warnsdorff's rule with {} ties found no {kind} tour of {board} in {budget} attempt{}; {advice}",
        options.tie,
        if budget == 1 { "" } else { "s" }
    ).into());
    Err(if deterministic {
        gave_up
    } else {
        gave_up.with_hint(crate::Hint::Raise(crate::Budget::Attempts))
    })
}

/// The degree of every square, checking first that `bytes_per_square` fit
/// in memory.
pub(crate) fn degrees(board: Board, what: &'static str, bytes_per_square: u64) -> Result<Vec<u8>> {
    memory::ensure_fits(board, what, bytes_per_square)?;
    board.degree_map()
}

/// Marker for a visited square in the degree map.
const VISITED: u8 = u8::MAX;

/// Warnsdorff's rule as a [`TourGenerator`]: its tie-break and its budget
/// of walks.
///
/// Asked for either kind on a board with a closed tour, it spends at most a
/// sixteenth of its walks (but at least 64, or all when there are fewer)
/// trying to close, then returns the first open tour it walked, or walks on
/// for an open one with the rest of the budget. On 8x8 with random ties
/// almost every request still closes (a walk aiming to close does so about
/// 57 % of the time); on large boards, where closing is rare luck, an open
/// tour comes at once instead of a failure.
///
/// # Example
/// ```
/// use knights::{Board, Kind, Tour, algorithms::warnsdorff::{Tie, Warnsdorff}};
/// let board: Board = "200x200".parse()?;
/// let tour = Tour::builder(board).algorithm(Warnsdorff::default().tie(Tie::Centre)).build()?;
/// assert_eq!(knights::check::check_tour(&tour)?, Kind::Open);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Warnsdorff {
    /// The tie-break.
    pub tie: Tie,
    /// Walks before giving up.
    pub max_attempts: u32,
}

impl Warnsdorff {
    /// Random ties, 1000 walks.
    pub const DEFAULT: Warnsdorff = Warnsdorff {
        tie: Tie::Random,
        max_attempts: 1000,
    };

    /// With this tie-break.
    pub fn tie(self, tie: Tie) -> Warnsdorff {
        Warnsdorff { tie, ..self }
    }

    /// With this budget of walks (at least 1).
    pub fn max_attempts(self, max_attempts: u32) -> Warnsdorff {
        Warnsdorff {
            max_attempts,
            ..self
        }
    }

    /// The walks spent trying to close when either kind will do.
    fn closing_share(budget: u32) -> u32 {
        (budget / 16).max(budget.min(64))
    }
}

impl Default for Warnsdorff {
    fn default() -> Self {
        Warnsdorff::DEFAULT
    }
}

impl TourGenerator for Warnsdorff {
    fn name(&self) -> &'static str {
        "warnsdorff"
    }

    fn generate(&self, spec: &TourSpec, rng: &mut dyn RngCore) -> Result<Tour> {
        self.generate_observed(spec, rng, &mut |_| {})
    }
}

impl Warnsdorff {
    /// The tour [`TourGenerator::generate`] makes, telling `observe` every
    /// walk and move of the rule on a plain board (on other shapes, the
    /// move graph's walk tells nothing). The tour is the last walk's,
    /// opened by a rotation where an open tour was asked and the walk closed.
    ///
    /// # Example
    /// ```
    /// use knights::algorithms::{TourSpec, Tie, Warnsdorff, warnsdorff::Step};
    /// let spec = TourSpec { kind: knights::Wanted::Closed, ..TourSpec::new("8x8".parse()?) };
    /// let mut walks = 0;
    /// let tour = Warnsdorff::default().tie(Tie::First).generate_observed(
    ///     &spec, &mut knights::rng::seeded(0), &mut |step| walks += matches!(step, Step::Walk { .. }) as u32)?;
    /// assert!(tour.is_closed());
    /// assert_eq!(walks, 9); // the course report's program closes from its ninth start
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn generate_observed<O: FnMut(Step<'_>)>(
        &self,
        spec: &TourSpec,
        rng: &mut dyn RngCore,
        observe: &mut O,
    ) -> Result<Tour> {
        if !spec.is_plain() {
            let random = self.tie != Tie::First;
            return super::general::generate_warnsdorff(spec, random, self.max_attempts, rng);
        }
        let board = spec.board;
        let options = |kind, max_attempts, open_fallback| WarnsdorffOptions {
            kind,
            start: spec.start,
            tie: self.tie,
            max_attempts,
            open_fallback,
            control: spec.control.clone(),
        };
        match spec.kind {
            kind @ (Wanted::Closed | Wanted::Open) => {
                let options = options(kind, self.max_attempts, false);
                tour_observed(board, &options, rng, observe)
            }
            Wanted::Either if !exists::closed_tour(board).exists => {
                let options = options(Wanted::Either, self.max_attempts, false);
                tour_observed(board, &options, rng, observe)
            }
            Wanted::Either => {
                let budget = self.max_attempts.max(1);
                let share = Warnsdorff::closing_share(budget);
                match tour_observed(board, &options(Wanted::Closed, share, true), rng, observe) {
                    Err(e) if matches!(e, Error::GaveUp(_)) && share < budget => {
                        let rest = options(Wanted::Either, budget - share, false);
                        tour_observed(board, &rest, rng, observe)
                    }
                    other => other,
                }
            }
        }
    }
}

/// Reusable working memory for single walks (one per thread in experiments).
///
/// # Example
/// ```
/// use knights::{Board, algorithms::warnsdorff::{Walker, Tie, Outcome}};
/// let mut walker = Walker::new(Board::new(8, 8)?)?;
/// let outcome = walker.walk(0, Tie::First, &mut knights::rng::seeded(0));
/// assert_ne!(outcome, Outcome::Failed);
/// assert_eq!(walker.path().len(), 64);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Walker {
    board: Board,
    initial: Vec<u8>,
    degree: Vec<u8>,
    path: Vec<Square>,
    /// Square offset of each move, `dy * cols + dx`.
    offset: [i64; 8],
    aim_closed: bool,
}

impl Walker {
    /// Working memory for walks on `board`, or an error if it would not fit.
    pub fn new(board: Board) -> Result<Walker> {
        let initial = degrees(board, "Warnsdorff tour", 6)?;
        let degree = initial.clone();
        let path = Vec::with_capacity(board.squares());
        let cols = i64::from(board.cols());
        let offset = MOVES.map(|(dx, dy)| i64::from(dy) * cols + i64::from(dx));
        Ok(Walker {
            board,
            initial,
            degree,
            path,
            offset,
            aim_closed: false,
        })
    }

    /// Whether walks aim for a closed tour: the start then counts as
    /// unvisited in its neighbours' degrees, so the rule tends to leave them
    /// for the end, where one of them can close the tour.
    pub fn aim_closed(&mut self, on: bool) {
        self.aim_closed = on;
    }

    /// The squares of the last walk, in order.
    pub fn path(&self) -> &[Square] {
        &self.path
    }

    /// One walk from `start` by the rule with the tie-break `tie`.
    pub fn walk<R: Rng + ?Sized>(&mut self, start: Square, tie: Tie, rng: &mut R) -> Outcome {
        self.walk_observed(start, tie, rng, &mut |_| {})
    }

    /// [`Walker::walk`], telling `observe` the walk's start and every move.
    pub fn walk_observed<R: Rng + ?Sized, O: FnMut(Step<'_>)>(
        &mut self,
        start: Square,
        tie: Tie,
        rng: &mut R,
        observe: &mut O,
    ) -> Outcome {
        observe(Step::Walk { start });
        let board = self.board;
        self.degree.copy_from_slice(&self.initial);
        self.path.clear();
        let (rows, cols) = (i64::from(board.rows()), i64::from(board.cols()));
        let mut cur = start;
        loop {
            self.path.push(cur);
            self.degree[cur as usize] = VISITED;
            let (r, c) = board.coords(cur);
            let (r, c) = (i64::from(r), i64::from(c));
            let mut cands = [(0 as Square, 0u8); 8];
            let mut n = 0;
            for k in COURSE_REPORT_ORDER {
                let (dx, dy) = MOVES[k as usize];
                let (nr, nc) = (r + i64::from(dy), c + i64::from(dx));
                if nr < 0 || nc < 0 || nr >= rows || nc >= cols {
                    continue;
                }
                let t = (i64::from(cur) + self.offset[k as usize]) as Square;
                let d = &mut self.degree[t as usize];
                if *d != VISITED {
                    // Aiming to close, the start counts as free for its
                    // neighbours, so that they tend to be left for the end.
                    if !(self.aim_closed && cur == start) {
                        *d -= 1;
                    }
                    cands[n] = (t, *d);
                    n += 1;
                }
            }
            if n == 0 {
                break;
            }
            let from = cur;
            cur = self.choose(&cands[..n], tie, rng);
            observe(Step::Move {
                from,
                candidates: &cands[..n],
                chosen: cur,
            });
        }
        if self.path.len() < board.squares() {
            Outcome::Failed
        } else if self.path.len() > 2 && board.move_between(cur, start).is_some() {
            Outcome::Closed
        } else {
            Outcome::Open
        }
    }

    /// The square the rule picks among the candidates (square, onward degree).
    fn choose<R: Rng + ?Sized>(&self, cands: &[(Square, u8)], tie: Tie, rng: &mut R) -> Square {
        let least = cands.iter().map(|&(_, d)| d).min().unwrap_or(0);
        let mut pick = LeastOf::new();
        for &(t, _) in cands.iter().filter(|&&(_, d)| d == least) {
            // Smaller key wins; equal keys are ties.
            let key = match tie {
                Tie::First => return t,
                Tie::Random => (0, 0),
                Tie::Centre => (0, u64::MAX - self.centre_distance(t)),
                Tie::Pohl => (self.second_level(t), u64::MAX - self.centre_distance(t)),
            };
            pick.offer(key, t, rng);
        }
        pick.item().unwrap_or(cands[0].0)
    }

    /// Four times the squared distance of `t` from the centre of the board.
    fn centre_distance(&self, t: Square) -> u64 {
        let (r, c) = self.board.coords(t);
        let dr = 2 * i64::from(r) - (i64::from(self.board.rows()) - 1);
        let dc = 2 * i64::from(c) - (i64::from(self.board.cols()) - 1);
        (dr * dr + dc * dc) as u64
    }

    /// The sum of the onward degrees of the unvisited neighbours of `t`.
    fn second_level(&self, t: Square) -> u64 {
        self.board
            .neighbours(t)
            .map(|(_, u)| self.degree[u as usize])
            .filter(|&d| d != VISITED)
            .map(u64::from)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_tour;
    use crate::rng::seeded;
    use crate::Kind;

    /// The tour of `options` from the seed, and the walks it took.
    fn counting_walks(board: Board, options: &WarnsdorffOptions, seed: u64) -> (Result<Tour>, u32) {
        let mut walks = 0;
        let found = tour_observed(board, options, &mut seeded(seed), &mut |step| {
            walks += u32::from(matches!(step, Step::Walk { .. }));
        });
        (found, walks)
    }

    #[test]
    fn closed_tours_on_even_boards_pass_the_checker() {
        for tie in Tie::ALL {
            for n in [6u64, 8, 10, 12] {
                let board = Board::new(n, n).unwrap();
                let options = WarnsdorffOptions {
                    tie,
                    ..WarnsdorffOptions::closed()
                };
                let (found, walks) = counting_walks(board, &options, n);
                assert_eq!(check_tour(&found.unwrap()), Ok(Kind::Closed), "{tie} {n}");
                assert!(walks >= 1);
            }
        }
    }

    #[test]
    fn the_start_is_kept() {
        let board = Board::new(7, 9).unwrap();
        for tie in Tie::ALL {
            for start in [0, 10, 31] {
                let options = WarnsdorffOptions {
                    start: Some(start),
                    tie,
                    ..WarnsdorffOptions::default()
                };
                if let Ok(t) = tour(board, &options, &mut seeded(5)) {
                    assert!(check_tour(&t).is_ok());
                    assert_eq!(t.start(), start);
                }
            }
        }
    }

    #[test]
    fn tie_names_round_trip() {
        for tie in Tie::ALL {
            assert_eq!(tie.name().parse::<Tie>().unwrap(), tie);
        }
        assert_eq!("center".parse::<Tie>().unwrap(), Tie::Centre);
        assert!("middle".parse::<Tie>().is_err());
    }

    #[test]
    fn a_deterministic_walk_is_tried_once() {
        // With a fixed order and a given start there is nothing to retry:
        // every start of 5x5 succeeds or fails after exactly one walk.
        let board = Board::new(5, 5).unwrap();
        for s in 0..25 {
            let options = WarnsdorffOptions {
                start: Some(s),
                tie: Tie::First,
                ..WarnsdorffOptions::default()
            };
            match counting_walks(board, &options, 0) {
                (Ok(_), walks) => assert_eq!(walks, 1),
                (Err(e), _) => assert!(e.to_string().contains("in 1 attempt;"), "{e}"),
            }
        }
    }

    #[test]
    fn impossible_requests_give_the_theorem() {
        let err = tour(
            Board::new(4, 4).unwrap(),
            &WarnsdorffOptions::default(),
            &mut seeded(1),
        )
        .unwrap_err();
        assert!(matches!(err, Error::NoTour(_)), "{err}");
    }
}
