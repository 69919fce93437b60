//! The front door: one builder per job, so that the command line, the web
//! page and the Python package ask for tours, tourneys and counts the same
//! way, with the same defaults (seed 0, either kind, the construction).
//!
//! - [`TourBuilder`] ([`Tour::builder`]): one tour by any
//!   [`Algorithm`], from any start, closed / open / either, seeded, and
//!   optionally obfuscated.
//! - [`TourneyBuilder`] ([`Tourney::builder`]): one tourney (cycle cover)
//!   by any [`TourneyMethod`], seeded; join, shatter and obfuscate it with the
//!   functions of [`crate::rails`].
//!
//! Counting has its own builder, [`crate::count::Counter`], because a
//! count has progress, memory, disk and checkpoints to manage.

use rand::RngCore;

use crate::algorithms::{tourney_methods, Algorithm, TourGenerator, TourSpec, TourneyMethod};
use crate::board::Square;
use crate::{rails, rng, Board, Control, Cover, Result, Tour, Tourney, Wanted};

/// A request for one tour: the board, then whatever differs from the
/// defaults (either kind, any start, seed 0, [`Algorithm::Auto`]).
///
/// # Example
/// ```
/// use knights::{Board, Kind, Tour, algorithms::{Tie, Warnsdorff}};
/// let board: Board = "8x8".parse()?;
/// let tour = Tour::builder(board)
///     .closed()
///     .start(board.square(0, 0))
///     .algorithm(Warnsdorff::default().tie(Tie::Random).max_attempts(100))
///     .seed(5)
///     .build()?;
/// assert_eq!(knights::check::check_tour(&tour)?, Kind::Closed);
/// assert_eq!(tour.start(), 0);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use = "a builder does nothing until build() is called"]
pub struct TourBuilder {
    spec: TourSpec,
    seed: u64,
    algorithm: Algorithm,
    shatters: Option<u32>,
}

impl Tour {
    /// A request for one tour of `board`; see [`TourBuilder`].
    pub fn builder(board: Board) -> TourBuilder {
        TourBuilder {
            spec: TourSpec::new(board),
            seed: 0,
            algorithm: Algorithm::Auto,
            shatters: None,
        }
    }
}

impl TourBuilder {
    /// Insist on a closed tour.
    pub fn closed(self) -> TourBuilder {
        self.kind(Wanted::Closed)
    }

    /// Insist on an open tour (ends not a knight's move apart).
    pub fn open(self) -> TourBuilder {
        self.kind(Wanted::Open)
    }

    /// Closed, open or either (the default; what either means for each
    /// method is in [`crate::algorithms`]): a [`Wanted`] or a
    /// [`crate::Kind`].
    pub fn kind(mut self, kind: impl Into<Wanted>) -> TourBuilder {
        self.spec.kind = kind.into();
        self
    }

    /// Start on this square.
    pub fn start(mut self, square: Square) -> TourBuilder {
        self.spec.start = Some(square);
        self
    }

    /// End on this square (a start must be given too): the tour is a path
    /// from the start to it, open unless the two are a move apart.
    pub fn end(mut self, square: Square) -> TourBuilder {
        self.spec.end = Some(square);
        self
    }

    /// End on this square, or anywhere for `None`.
    pub fn end_at(mut self, square: Option<Square>) -> TourBuilder {
        self.spec.end = square;
        self
    }

    /// The board's holes, wrapping and leaper (the shape's board replaces
    /// the builder's). The search methods take any shape; `auto` uses
    /// Warnsdorff's rule, then the hybrid search.
    ///
    /// # Example
    /// ```
    /// use knights::{Tour, Kind, shape::{Shape, Wrap}};
    /// let torus = Shape::new("4x4".parse()?).with_wrap(Wrap::Both);
    /// let tour = Tour::builder(torus.board()).shape(torus).closed().build()?;
    /// assert_eq!(knights::check::check_tour(&tour)?, Kind::Closed);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn shape(mut self, shape: crate::Shape) -> TourBuilder {
        self.spec.board = shape.board();
        self.spec.shape = shape;
        self
    }

    /// Start on this square, or anywhere for `None`.
    pub fn start_at(mut self, square: Option<Square>) -> TourBuilder {
        self.spec.start = square;
        self
    }

    /// The seed of the random choices: the same seed gives the same tour on
    /// every machine.
    pub fn seed(mut self, seed: u64) -> TourBuilder {
        self.seed = seed;
        self
    }

    /// The algorithm, with its options: an [`Algorithm`] or any of the
    /// generator types ([`crate::algorithms::Warnsdorff`], ...).
    pub fn algorithm(mut self, algorithm: impl Into<Algorithm>) -> TourBuilder {
        self.algorithm = algorithm.into();
        self
    }

    /// Obfuscate the closed tour: shatter it `shatters` times (16 in the
    /// tourney paper) and join it again, keeping its start.
    pub fn obfuscate(mut self, shatters: u32) -> TourBuilder {
        self.shatters = Some(shatters);
        self
    }

    /// The caller's control: raising its stop flag (from another thread or
    /// a Ctrl-C handler) stops a long search and the obfuscation's joins
    /// ([`crate::Error::Interrupted`]).
    pub fn control(mut self, control: &Control) -> TourBuilder {
        self.spec.control = control.clone();
        self
    }

    /// What the request says besides the algorithm and the seed.
    pub fn spec(&self) -> &TourSpec {
        &self.spec
    }

    /// The algorithm asked for.
    pub fn algorithm_asked(&self) -> Algorithm {
        self.algorithm
    }

    /// Makes the tour, with the generator [`rng::seeded`]`(seed)`.
    ///
    /// # Errors
    /// As [`TourGenerator::generate`]; [`crate::Error::Unsupported`] when
    /// obfuscation is asked of an open tour.
    pub fn build(&self) -> Result<Tour> {
        self.build_with(&mut rng::seeded(self.seed))
    }

    /// Makes the tour drawing from the caller's generator instead of the seed
    /// (for many tours from one stream, as the statistics do).
    pub fn build_with(&self, rng: &mut dyn RngCore) -> Result<Tour> {
        if self.shatters.is_some() && !self.spec.is_plain() {
            return Err(crate::Error::Unsupported(
                "obfuscation works on closed tours of the plain board only".into(),
            ));
        }
        let tour = self.algorithm.generate(&self.spec, rng)?;
        match self.shatters {
            Some(shatters) => {
                let options = rails::ObfuscateOptions {
                    shatters,
                    join: rails::JoinOptions {
                        control: self.spec.control.clone(),
                        ..Default::default()
                    },
                };
                rails::obfuscate_tour_with(tour, &options, rng)
            }
            None => Ok(tour),
        }
    }
}

/// A request for one tourney (a cycle cover of the knight graph): the
/// board, then the method ([`TourneyMethod::Warnsdorff`] by default) and
/// the seed (0).
///
/// # Example
/// ```
/// use knights::{Tourney, algorithms::TourneyMethod};
/// let cover = Tourney::builder("12x12".parse()?).method(TourneyMethod::Braid).seed(3).cover()?;
/// assert!(knights::check::check_cover(&cover)? >= 1);
/// let tourney = Tourney::builder("8x8".parse()?).method(TourneyMethod::FourCover).build()?;
/// assert_eq!(tourney.len(), 16);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use = "a builder does nothing until build() is called"]
pub struct TourneyBuilder {
    board: Board,
    method: TourneyMethod,
    seed: u64,
    control: Control,
}

impl Tourney {
    /// A request for one tourney of `board`; see [`TourneyBuilder`].
    pub fn builder(board: Board) -> TourneyBuilder {
        TourneyBuilder {
            board,
            method: TourneyMethod::default(),
            seed: 0,
            control: Control::new(),
        }
    }
}

impl TourneyBuilder {
    /// The method that makes the tourney.
    pub fn method(mut self, method: TourneyMethod) -> TourneyBuilder {
        self.method = method;
        self
    }

    /// The seed of the random choices.
    pub fn seed(mut self, seed: u64) -> TourneyBuilder {
        self.seed = seed;
        self
    }

    /// The caller's control: raising its stop flag stops the generators
    /// that restart, the Warnsdorff walks and the network
    /// ([`crate::Error::Interrupted`]).
    pub fn control(mut self, control: &Control) -> TourneyBuilder {
        self.control = control.clone();
        self
    }

    /// The tourney in the compact form that [`crate::rails`] works on.
    pub fn cover(&self) -> Result<Cover> {
        self.cover_with(&mut rng::seeded(self.seed))
    }

    /// [`TourneyBuilder::cover`] drawing its random choices from `rng`
    /// instead of the seed's generator (for callers that make many
    /// tourneys from one stream).
    pub fn cover_with(&self, rng: &mut dyn RngCore) -> Result<Cover> {
        tourney_methods::controlled(self.board, self.method, &self.control, rng)
    }

    /// The tourney as ordered cycles.
    pub fn build(&self) -> Result<Tourney> {
        self.cover()?.to_tourney()
    }
}
