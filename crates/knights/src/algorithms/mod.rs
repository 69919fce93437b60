//! The tour generators, one algorithm per module.
//!
//! Every generator takes the board, its options and the caller's random
//! number generator, refuses impossible requests with the existence
//! theorem's reason ([`crate::exists::require`]) and returns a [`crate::Tour`]
//! whose every test runs through the checker.

pub mod backtrack;
pub mod construct;
pub mod hybrid;
pub mod rates;
pub mod tourney;
pub mod warnsdorff;

use rand::Rng;

use crate::board::Square;
use crate::{exists, Board, Result, Tour};

/// The tour algorithms that [`tour`] can run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Algorithm {
    /// The best method for the request: the linear-time construction, with
    /// Warnsdorff's rule as a fallback for the few start squares it cannot use.
    #[default]
    Auto,
    /// Warnsdorff's rule with a tie-break and restarts.
    Warnsdorff,
    /// A tourney by the generator, joined into one closed tour (Parberry 2020).
    Tourney(tourney::Generator),
    /// The Takefuji-Lee neural network alone, restarted until it settles as
    /// one Hamiltonian cycle.
    Neural,
    /// Backtracking in a fixed move order (Practical Algorithms and Data Structures n.d.), under a node budget.
    Backtrack,
    /// Backtracking in Warnsdorff's order (Mahmoud n.d.), under a node budget.
    Hybrid,
    /// The linear-time divide-and-conquer construction ([`construct`]).
    Construct,
}

impl Algorithm {
    /// Every algorithm, in the order `knights tour --help` lists them.
    pub const ALL: [Algorithm; 11] = [
        Algorithm::Auto,
        Algorithm::Warnsdorff,
        Algorithm::Backtrack,
        Algorithm::Hybrid,
        Algorithm::Tourney(tourney::Generator::Warnsdorff),
        Algorithm::Tourney(tourney::Generator::Braid),
        Algorithm::Tourney(tourney::Generator::FourCover),
        Algorithm::Tourney(tourney::Generator::Neural),
        Algorithm::Neural,
        Algorithm::Construct,
        Algorithm::Tourney(tourney::Generator::Divide),
    ];

    /// The algorithm's name, as `knights tour --algorithm` and cipher keys
    /// spell it.
    ///
    /// # Example
    /// ```
    /// use knights::algorithms::Algorithm;
    /// for a in Algorithm::ALL {
    ///     assert_eq!(a.name().parse::<Algorithm>()?, a);
    /// }
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn name(self) -> &'static str {
        use tourney::Generator as G;
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Warnsdorff => "warnsdorff",
            Algorithm::Backtrack => "backtrack",
            Algorithm::Hybrid => "hybrid",
            Algorithm::Tourney(G::Warnsdorff) => "tourney",
            Algorithm::Tourney(G::Braid) => "braid",
            Algorithm::Tourney(G::FourCover) => "four-cover",
            Algorithm::Tourney(G::Neural) => "neural",
            Algorithm::Tourney(G::Divide) => "divide",
            Algorithm::Neural => "takefuji-lee",
            Algorithm::Construct => "construct",
        }
    }
}

impl std::str::FromStr for Algorithm {
    type Err = crate::Error;

    /// Reads an algorithm's [`Algorithm::name`], in any case.
    fn from_str(text: &str) -> Result<Algorithm> {
        let text = text.trim().to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                crate::Error::Parse(format!(
                    "'{text}' is not an algorithm; name one of {}",
                    names.join(", ")
                ))
            })
    }
}

/// What kind of tour is wanted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Want {
    /// Closed where the board has a closed tour, else open.
    #[default]
    Any,
    /// Closed, or an error.
    Closed,
    /// Open (ends not a knight's move apart), or an error.
    Open,
}

/// A request for one tour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TourRequest {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Closed, open or either.
    pub want: Want,
    /// The start square, if it matters.
    pub start: Option<Square>,
    /// A budget of attempts for the methods that restart (`None`: their default).
    pub max_attempts: Option<u32>,
    /// The tie-break of Warnsdorff's rule (`None`: its default).
    pub tie: Option<warnsdorff::Tie>,
    /// A budget of nodes for the backtracking searches (`None`: their default).
    pub max_nodes: Option<u64>,
    /// Raised by the caller to stop a backtracking search early.
    pub stop: backtrack::StopFlag,
}

/// Whether a request resolves to a closed tour on this board.
pub fn wants_closed(board: Board, want: Want) -> bool {
    match want {
        Want::Closed => true,
        Want::Open => false,
        Want::Any => exists::closed_tour(board).exists,
    }
}

/// One tour as the request says.
///
/// # Example
/// ```
/// use knights::{Board, algorithms::{tour, TourRequest}};
/// let t = tour("8x8".parse()?, &TourRequest::default(), &mut knights::rng::seeded(1))?;
/// assert!(t.is_closed());
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tour<R: Rng + ?Sized>(board: Board, request: &TourRequest, rng: &mut R) -> Result<Tour> {
    let closed = wants_closed(board, request.want);
    exists::require(board, closed)?;
    match request.algorithm {
        Algorithm::Construct => construct::tour(board, closed, request.start),
        Algorithm::Auto => match construct::tour(board, closed, request.start) {
            Err(crate::Error::GaveUp(_)) if request.start.is_some() => {
                let fallback = TourRequest {
                    algorithm: Algorithm::Warnsdorff,
                    ..request.clone()
                };
                tour(board, &fallback, rng)
            }
            other => other,
        },
        Algorithm::Warnsdorff => {
            let mut options = warnsdorff::Options {
                closed,
                start: request.start,
                tie: request.tie.unwrap_or_default(),
                ..Default::default()
            };
            if let Some(n) = request.max_attempts {
                options.max_attempts = n;
            }
            let tour = warnsdorff::tour(board, &options, rng)?;
            if request.want == Want::Open {
                return opened(tour, request.start.is_some());
            }
            Ok(tour)
        }
        Algorithm::Tourney(_) | Algorithm::Neural => {
            // The tourney method makes closed tours (opened afterwards if asked).
            exists::require(board, true)?;
            let tour = match request.algorithm {
                Algorithm::Neural => {
                    let mut options = tourney::neural::Options::default();
                    if let Some(n) = request.max_attempts {
                        options.max_restarts = n;
                    }
                    tourney::neural::tour(board, &options, rng)?
                }
                Algorithm::Tourney(g) => tourney::tour(board, g, rng)?,
                _ => unreachable!("matched above"),
            };
            let tour = match request.start {
                Some(s) => tour.rotated_to(s)?,
                None => tour,
            };
            if request.want == Want::Open {
                return opened(tour, request.start.is_some());
            }
            Ok(tour)
        }
        Algorithm::Backtrack | Algorithm::Hybrid => {
            let mut options = backtrack::Options {
                closed,
                start: request.start,
                stop: request.stop.clone(),
                ..Default::default()
            };
            if let Some(n) = request.max_nodes {
                options.max_nodes = n;
            }
            let tour = if request.algorithm == Algorithm::Hybrid {
                hybrid::tour(board, &options)?
            } else {
                backtrack::tour(board, &options)?
            };
            if request.want == Want::Open {
                return opened(tour, request.start.is_some());
            }
            Ok(tour)
        }
    }
}

/// [`make_open`], free to start elsewhere on the cycle when the caller fixed
/// no start: a closed tour whose start has no open tour (see [`make_open`]) is
/// first rotated to the next square that has one.
fn opened(tour: Tour, start_fixed: bool) -> Result<Tour> {
    let board = tour.board();
    let blocked = |s| construct::next_to_two_corners(board, s);
    if tour.is_closed() && !start_fixed && blocked(tour.start()) {
        if let Some(&s) = tour.squares().iter().find(|&&s| !blocked(s)) {
            return make_open(tour.rotated_to(s)?);
        }
    }
    make_open(tour)
}

/// How many rotated paths [`make_open`] looks at before it gives up.
const MAX_ROTATIONS: usize = 256;

/// An open tour from a tour whose ends may be a knight's move apart, keeping
/// its start. A Posa rotation turns the path s0..s(n-1) into
/// s0..si, s(n-1), s(n-2)..s(i+1), where s(n-1) is a knight's move from si,
/// which moves the end to s(i+1). Rotations are tried breadth first, so a
/// path whose one-step rotations all end next to the start is rotated again;
/// at most 256 different paths are looked at, in a fixed order. Tours that are already
/// open are returned as they are.
///
/// # Errors
/// [`crate::Error::NoTour`] when no open tour starts where this one does (the
/// start is a knight's move from two squares of degree 2);
/// [`crate::Error::GaveUp`] when 256 rotated paths all end next to the start.
///
/// # Complexity
/// O(rows * cols) per path looked at; almost always one.
///
/// # Example
/// ```
/// use knights::{algorithms::{self, TourRequest, Want, Algorithm}, check, Board};
/// let board = Board::new(6, 6)?;
/// let request = TourRequest { algorithm: Algorithm::Construct, want: Want::Closed, ..Default::default() };
/// let closed = algorithms::tour(board, &request, &mut knights::rng::seeded(1))?;
/// let open = algorithms::make_open(closed.clone())?;
/// assert!(!open.is_closed());
/// assert_eq!(open.start(), closed.start());
/// check::check_tour(&open)?;
/// # Ok::<(), knights::Error>(())
/// ```
pub fn make_open(tour: Tour) -> Result<Tour> {
    if !tour.is_closed() {
        return Ok(tour);
    }
    let board = tour.board();
    let first = tour.start();
    if construct::next_to_two_corners(board, first) {
        let (r, c) = board.coords(first);
        return Err(crate::Error::NoTour(format!(
            "no open tour of {board} starts at ({r}, {c}): it is a knight's move from two squares that have only two moves each, so a tour from it must end on one of them, a knight's move from the start"
        )));
    }
    let squares = tour.into_squares();
    let mut seen = rustc_hash::FxHashSet::from_iter([squares.clone()]);
    let mut queue = std::collections::VecDeque::from([squares]);
    let mut position = vec![0usize; board.squares()];
    let mut looked_at = 0;
    while let Some(squares) = queue.pop_front() {
        looked_at += 1;
        let n = squares.len();
        for (i, &s) in squares.iter().enumerate() {
            position[s as usize] = i;
        }
        for (_, t) in board.neighbours(squares[n - 1]) {
            let i = position[t as usize];
            if i + 2 >= n {
                continue;
            }
            let mut rotated = squares.clone();
            rotated[i + 1..].reverse();
            if board.move_between(rotated[n - 1], first).is_none() {
                return Ok(Tour::from_squares_unchecked(board, rotated));
            }
            if seen.len() < MAX_ROTATIONS && seen.insert(rotated.clone()) {
                queue.push_back(rotated);
            }
        }
    }
    Err(crate::Error::GaveUp(format!(
        "no rotation of this closed tour of {board} gives an open tour from the same start \
         (looked at {looked_at} rotated paths)"
    )))
}
