//! The methods that make a tourney (Parberry 2020, Section 6), and closed
//! tours from them.
//!
//! A tourney (cycle cover of the knight graph) is quick to make;
//! [`rails::join`] turns it into one closed tour. The methods, one
//! [`TourneyMethod`] each: `walks` (random Warnsdorff walks closed early,
//! any board), `braid` (the concentric braided tourney, sides even),
//! `four_cover` (4x4 blocks, sides divisible by 4), `neural` (the
//! Takefuji-Lee network, any board) and the construction's base tours.
//! They are reached through [`crate::Tourney::builder`] for a tourney and
//! through [`crate::Tour::builder`] with a [`TourneyMethod`] as the
//! algorithm for the joined tour.
//!
//! # Example
//! ```
//! use knights::{Tour, algorithms::TourneyMethod};
//! let t = Tour::builder("12x12".parse()?).algorithm(TourneyMethod::Braid).seed(1).build()?;
//! assert_eq!(knights::check::check_tour(&t)?, knights::Kind::Closed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod braid;
mod closed;
mod four_cover;
pub(crate) mod neural;
pub(crate) mod walks;

pub(crate) use closed::closed_only;

use rand::{Rng, RngCore};

use super::{TourGenerator, TourSpec};
use crate::{exists, rails, Board, Control, Cover, Error, Result, Tour, Wanted};

/// The methods that make a tourney.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TourneyMethod {
    /// Random Warnsdorff walks, each closed as soon as it can be (any board).
    #[default]
    Warnsdorff,
    /// The concentric braided tourney (both sides even, at least 4).
    Braid,
    /// Every 4x4 block covered by its four 4-cycles (sides divisible by 4).
    FourCover,
    /// The Takefuji-Lee neural network, stopped at any tourney.
    Neural,
    /// The base tours of the linear-time divide-and-conquer construction,
    /// without their joins.
    Divide,
}

impl TourneyMethod {
    /// Every method, in a fixed order.
    pub const ALL: [TourneyMethod; 5] = [
        TourneyMethod::Warnsdorff,
        TourneyMethod::Braid,
        TourneyMethod::FourCover,
        TourneyMethod::Neural,
        TourneyMethod::Divide,
    ];

    /// The method's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TourneyMethod::Warnsdorff => "warnsdorff",
            TourneyMethod::Braid => "braid",
            TourneyMethod::FourCover => "four-cover",
            TourneyMethod::Neural => "neural",
            TourneyMethod::Divide => "divide",
        }
    }

    /// One line on the method, for help texts.
    pub fn about(self) -> &'static str {
        match self {
            TourneyMethod::Warnsdorff => {
                "random Warnsdorff walks, each closed as soon as it can be (any board)"
            }
            TourneyMethod::Braid => "the concentric braided tourney (both sides even, at least 4)",
            TourneyMethod::FourCover => {
                "every 4x4 block covered by its four 4-cycles (sides divisible by 4)"
            }
            TourneyMethod::Neural => "the Takefuji-Lee neural network (any board)",
            TourneyMethod::Divide => "the divide-and-conquer base tours without their joins",
        }
    }

    /// Whether the method can make a tourney of this board shape
    /// (it may still give up, for the random ones, on a bad board).
    pub fn supports(self, board: Board) -> bool {
        let (r, c) = (board.rows(), board.cols());
        match self {
            TourneyMethod::Warnsdorff | TourneyMethod::Neural => true,
            TourneyMethod::Braid => r % 2 == 0 && c % 2 == 0 && r >= 4 && c >= 4,
            TourneyMethod::FourCover => r % 4 == 0 && c % 4 == 0,
            TourneyMethod::Divide => exists::closed_tour(board).exists,
        }
    }
}

impl std::str::FromStr for TourneyMethod {
    type Err = Error;

    /// Reads a method's [`TourneyMethod::name`], in any case. (The path is
    /// spelled out: on a `&TourneyMethod`, `.name()` would be
    /// [`TourGenerator::name`], which calls the Warnsdorff tourney `tourney`.)
    fn from_str(text: &str) -> Result<TourneyMethod> {
        let text = text.trim().to_ascii_lowercase();
        TourneyMethod::ALL
            .into_iter()
            .find(|&g| TourneyMethod::name(g) == text)
            .ok_or_else(|| {
                let names = TourneyMethod::ALL.map(TourneyMethod::name);
                Error::Parse(
                    format!(
                        "'{}' is not a tourney generator; name one of {}",
                        crate::excerpt(&text),
                        names.join(", ")
                    )
                    .into(),
                )
            })
    }
}

/// A tourney of `board` by `method`, with its default options, never
/// stopped (what [`crate::Tourney::builder`] makes).
///
/// # Complexity
/// O(rows * cols) for braid and four-cover; O(rows * cols) per attempt for
/// Warnsdorff and per round for the network.
#[cfg(test)]
pub(crate) fn cover<R: Rng + ?Sized>(
    board: Board,
    method: TourneyMethod,
    rng: &mut R,
) -> Result<Cover> {
    controlled(board, method, &Control::new(), rng)
}

/// [`cover`] under the caller's control: the methods that restart (the
/// Warnsdorff walks, the network) end with [`Error::Interrupted`] soon
/// after its stop flag is raised; the others take O(rows * cols) in one go.
pub(crate) fn controlled<R: Rng + ?Sized>(
    board: Board,
    generator: TourneyMethod,
    control: &Control,
    rng: &mut R,
) -> Result<Cover> {
    no_tourney(board)?;
    match generator {
        TourneyMethod::Warnsdorff => {
            let options = walks::WalkOptions {
                control: control.clone(),
                ..Default::default()
            };
            walks::warnsdorff(board, &options, rng)
        }
        TourneyMethod::Braid => braid::braid(board, rng),
        TourneyMethod::FourCover => four_cover::four_cover(board),
        TourneyMethod::Neural => neural::cover(board, control, rng),
        TourneyMethod::Divide => crate::construct::tourney(board),
    }
}

/// Refuses, with the reason, the boards that have no tourney at all: an odd
/// number of squares (every knight cycle alternates colours, so it is even),
/// or a square with fewer than two moves (a side of 1 or 2, or the centre of 3x3).
fn no_tourney(board: Board) -> Result<()> {
    let (rows, cols) = (board.rows(), board.cols());
    let reason = if (u64::from(rows) * u64::from(cols)) % 2 == 1 {
        format!("{board} has an odd number of squares, and every knight cycle alternates colours, so it is even and no set of cycles covers them all")
    } else if rows.min(cols) <= 2 {
        format!(
            "on {board} some square has fewer than two knight moves, so no cycle passes through it"
        )
    } else {
        return Ok(());
    };
    Err(Error::NoTour(
        format!("no tourney exists on {board}: {reason}").into(),
    ))
}

/// A random closed tour: a tourney by `generator`, joined by
/// [`rails::join`], as a tour starting at square 0.
///
/// Refuses boards without a closed tour with the existence theorem.
#[cfg(test)]
pub(crate) fn tour<R: Rng + ?Sized>(
    board: Board,
    generator: TourneyMethod,
    rng: &mut R,
) -> Result<Tour> {
    tour_with(board, generator, &rails::JoinOptions::default(), rng)
}

/// A random closed tour, as [`TourneyMethod`]'s [`TourGenerator`] makes
/// it, with the join's options; the join's control stops the method as
/// well.
pub(crate) fn tour_with<R: Rng + ?Sized>(
    board: Board,
    generator: TourneyMethod,
    join: &rails::JoinOptions,
    rng: &mut R,
) -> Result<Tour> {
    exists::require(board, Wanted::Closed)?;
    let mut cover = controlled(board, generator, &join.control, rng)?;
    rails::join(&mut cover, join, rng)?;
    cover.to_tour(0, None)
}

/// A tourney generator as a [`TourGenerator`]: the tourney joined into one
/// closed tour, walked from the start square when one is given, and opened
/// when an open tour is asked for. The tourney method makes closed tours
/// only, so either kind means closed, and a board without a closed tour is
/// refused with the theorem and the methods that make open tours.
impl TourGenerator for TourneyMethod {
    /// The generator's name, but `tourney` for the Warnsdorff tourney (the
    /// name `warnsdorff` belongs to Warnsdorff's rule for tours).
    fn name(&self) -> &'static str {
        match self {
            TourneyMethod::Warnsdorff => "tourney",
            g => TourneyMethod::name(*g),
        }
    }

    fn generate(&self, spec: &TourSpec, rng: &mut dyn RngCore) -> Result<Tour> {
        let join = rails::JoinOptions {
            control: spec.control.clone(),
            ..Default::default()
        };
        closed_only(spec, |board, rng| tour_with(board, *self, &join, rng), rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_tour;
    use crate::Kind;

    #[test]
    fn every_generator_joins_on_a_board_it_supports() {
        let board = Board::new(12, 12).unwrap();
        for g in TourneyMethod::ALL {
            if !g.supports(board) {
                assert!(cover(board, g, &mut crate::rng::seeded(0)).is_err());
                continue;
            }
            let t = tour(board, g, &mut crate::rng::seeded(1)).unwrap();
            assert_eq!(check_tour(&t), Ok(Kind::Closed), "{}", g.name());
        }
    }

    #[test]
    fn every_generator_name_reads_back() {
        for g in TourneyMethod::ALL {
            assert_eq!(
                TourneyMethod::name(g).parse::<TourneyMethod>().ok(),
                Some(g)
            );
            assert_eq!(
                TourneyMethod::name(g)
                    .to_uppercase()
                    .parse::<TourneyMethod>()
                    .ok(),
                Some(g)
            );
        }
        let e = "tourney".parse::<TourneyMethod>().unwrap_err().to_string();
        assert!(e.contains("name one of warnsdorff, braid"), "{e}");
    }

    #[test]
    fn boards_without_closed_tours_are_refused() {
        let e = tour(
            Board::new(4, 8).unwrap(),
            TourneyMethod::FourCover,
            &mut crate::rng::seeded(0),
        );
        assert!(matches!(e, Err(crate::Error::NoTour(_))));
    }
}
