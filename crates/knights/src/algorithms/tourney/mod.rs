//! Tourney generators (Parberry 2020, Section 6) and closed tours from them.
//!
//! A tourney (cycle cover of the knight graph) is quick to make;
//! [`rails::join`] turns it into one closed tour. The generators:
//! [`walks`] (random Warnsdorff walks closed early, any board), [`braid`] (the
//! concentric braided tourney, sides even), [`four_cover`] (4x4 blocks, sides
//! divisible by 4) and [`neural`] (the Takefuji-Lee network, any board).
//!
//! # Example
//! ```
//! use knights::algorithms::tourney::{tour, Generator};
//! let t = tour("12x12".parse()?, Generator::Braid, &mut knights::rng::seeded(1))?;
//! assert_eq!(knights::check::check_tour(&t)?, knights::Kind::Closed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod braid;
mod closed;
pub mod four_cover;
pub mod neural;
pub mod walks;

pub(crate) use closed::closed_only;

use rand::{Rng, RngCore};

use super::{Spec, TourGenerator};
use crate::{exists, rails, Board, Control, Cover, Error, Result, Tour, Wanted};

/// The tourney generators.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Generator {
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

impl Generator {
    /// Every generator, in a fixed order.
    pub const ALL: [Generator; 5] = [
        Generator::Warnsdorff,
        Generator::Braid,
        Generator::FourCover,
        Generator::Neural,
        Generator::Divide,
    ];

    /// The generator's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Generator::Warnsdorff => "warnsdorff",
            Generator::Braid => "braid",
            Generator::FourCover => "four-cover",
            Generator::Neural => "neural",
            Generator::Divide => "divide",
        }
    }

    /// One line on the generator, for help texts.
    pub fn about(self) -> &'static str {
        match self {
            Generator::Warnsdorff => {
                "random Warnsdorff walks, each closed as soon as it can be (any board)"
            }
            Generator::Braid => "the concentric braided tourney (both sides even, at least 4)",
            Generator::FourCover => {
                "every 4x4 block covered by its four 4-cycles (sides divisible by 4)"
            }
            Generator::Neural => "the Takefuji-Lee neural network (any board)",
            Generator::Divide => "the divide-and-conquer base tours without their joins",
        }
    }

    /// Whether the generator can make a tourney of this board shape
    /// (it may still give up, for the random ones, on a bad board).
    pub fn supports(self, board: Board) -> bool {
        let (r, c) = (board.rows(), board.cols());
        match self {
            Generator::Warnsdorff | Generator::Neural => true,
            Generator::Braid => r % 2 == 0 && c % 2 == 0 && r >= 4 && c >= 4,
            Generator::FourCover => r % 4 == 0 && c % 4 == 0,
            Generator::Divide => exists::closed_tour(board).exists,
        }
    }
}

impl std::str::FromStr for Generator {
    type Err = Error;

    /// Reads a generator's [`Generator::name`], in any case. (The path is
    /// spelled out: on a `&Generator`, `.name()` would be
    /// [`TourGenerator::name`], which calls the Warnsdorff tourney `tourney`.)
    fn from_str(text: &str) -> Result<Generator> {
        let text = text.trim().to_ascii_lowercase();
        Generator::ALL
            .into_iter()
            .find(|&g| Generator::name(g) == text)
            .ok_or_else(|| {
                let names = Generator::ALL.map(Generator::name);
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

/// A tourney of `board` by `generator`, with its default options; to stop
/// the generators that restart, give a control through
/// [`crate::TourneyBuilder::control`] or the generators' options.
///
/// # Complexity
/// O(rows * cols) for braid and four-cover; O(rows * cols) per attempt for
/// Warnsdorff and per round for the network.
///
/// # Example
/// ```
/// use knights::algorithms::tourney::{tourney, Generator};
/// let cover = tourney("8x8".parse()?, Generator::FourCover, &mut knights::rng::seeded(0))?;
/// assert_eq!(knights::check::check_cover(&cover)?, 16);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tourney<R: Rng + ?Sized>(board: Board, generator: Generator, rng: &mut R) -> Result<Cover> {
    controlled(board, generator, &Control::new(), rng)
}

/// [`tourney`] under the caller's control: the generators that restart (the
/// Warnsdorff walks, the network) end with [`Error::Interrupted`] soon
/// after its stop flag is raised; the others take O(rows * cols) in one go.
pub(crate) fn controlled<R: Rng + ?Sized>(
    board: Board,
    generator: Generator,
    control: &Control,
    rng: &mut R,
) -> Result<Cover> {
    no_tourney(board)?;
    match generator {
        Generator::Warnsdorff => {
            let options = walks::WalkOptions {
                control: control.clone(),
                ..Default::default()
            };
            walks::warnsdorff(board, &options, rng)
        }
        Generator::Braid => braid::braid(board, rng),
        Generator::FourCover => four_cover::four_cover(board),
        Generator::Neural => {
            let options = neural::NeuralOptions {
                control: control.clone(),
                ..Default::default()
            };
            neural::neural(board, &options, rng)
        }
        Generator::Divide => crate::construct::tourney(board),
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
/// [`rails::join`], as a tour starting at `start` (square 0 when `None`).
///
/// Refuses boards without a closed tour with the existence theorem.
///
/// # Example
/// ```
/// use knights::algorithms::tourney::{tour, Generator};
/// let t = tour("10x12".parse()?, Generator::Warnsdorff, &mut knights::rng::seeded(7))?;
/// assert!(t.is_closed());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tour<R: Rng + ?Sized>(board: Board, generator: Generator, rng: &mut R) -> Result<Tour> {
    tour_with(board, generator, &rails::JoinOptions::default(), rng)
}

/// [`tour`] with the join's options; the join's control stops the
/// generator as well.
pub fn tour_with<R: Rng + ?Sized>(
    board: Board,
    generator: Generator,
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
impl TourGenerator for Generator {
    /// The generator's name, but `tourney` for the Warnsdorff tourney (the
    /// name `warnsdorff` belongs to Warnsdorff's rule for tours).
    fn name(&self) -> &'static str {
        match self {
            Generator::Warnsdorff => "tourney",
            g => Generator::name(*g),
        }
    }

    fn generate(&self, spec: &Spec, rng: &mut dyn RngCore) -> Result<Tour> {
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
        for g in Generator::ALL {
            if !g.supports(board) {
                assert!(tourney(board, g, &mut crate::rng::seeded(0)).is_err());
                continue;
            }
            let t = tour(board, g, &mut crate::rng::seeded(1)).unwrap();
            assert_eq!(check_tour(&t), Ok(Kind::Closed), "{}", g.name());
        }
    }

    #[test]
    fn every_generator_name_reads_back() {
        for g in Generator::ALL {
            assert_eq!(Generator::name(g).parse::<Generator>().ok(), Some(g));
            assert_eq!(
                Generator::name(g).to_uppercase().parse::<Generator>().ok(),
                Some(g)
            );
        }
        let e = "tourney".parse::<Generator>().unwrap_err().to_string();
        assert!(e.contains("name one of warnsdorff, braid"), "{e}");
    }

    #[test]
    fn boards_without_closed_tours_are_refused() {
        let e = tour(
            Board::new(4, 8).unwrap(),
            Generator::FourCover,
            &mut crate::rng::seeded(0),
        );
        assert!(matches!(e, Err(crate::Error::NoTour(_))));
    }
}
