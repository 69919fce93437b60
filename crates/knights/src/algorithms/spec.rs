//! What every request for a tour says, whatever the algorithm: the
//! [`TourSpec`] that each generator takes, and the [`TourGenerator`] interface
//! they implement. It names no generator, so the
//! generators, the given-ends construction and the existence question all
//! read it without pointing back at the dispatch in `algorithms/mod.rs`.

use rand::RngCore;

use crate::board::Square;
use crate::{Board, Control, Result, Shape, Tour, Wanted};

/// What every request for a tour says, whatever the algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourSpec {
    /// The board.
    pub board: Board,
    /// Closed, open or either (see the module docs for what either means
    /// per method).
    pub kind: Wanted,
    /// The start square, if it matters.
    pub start: Option<Square>,
    /// The end square, if it matters: the tour is then a path from `start`
    /// (which must be given) to `end`.
    pub end: Option<Square>,
    /// The holes, wrapping and leaper ([`Shape::new`]`(board)` for the
    /// plain board); its board must be `board`.
    pub shape: Shape,
    /// The caller's control: raising its stop flag stops a long search
    /// early ([`crate::Error::Interrupted`]).
    pub control: Control,
}

impl TourSpec {
    /// Either kind, from any start, never stopped.
    pub fn new(board: Board) -> TourSpec {
        TourSpec {
            board,
            kind: Wanted::Either,
            start: None,
            end: None,
            shape: Shape::new(board),
            control: Control::new(),
        }
    }

    /// [`TourSpec::new`] on a shape.
    pub fn on(shape: Shape) -> TourSpec {
        TourSpec {
            board: shape.board(),
            kind: Wanted::Either,
            start: None,
            end: None,
            shape,
            control: Control::new(),
        }
    }

    /// Whether the plain methods (and their pinned outputs) apply: the
    /// plain board, no end square.
    pub fn is_plain(&self) -> bool {
        self.shape.is_plain() && self.end.is_none()
    }
}

/// A method that makes one tour: the interface every tour algorithm
/// implements, with its own options as the implementing type.
///
/// # Example
/// ```
/// use knights::algorithms::{TourSpec, TourGenerator, Warnsdorff, Tie};
/// let spec = TourSpec { kind: knights::Wanted::Closed, ..TourSpec::new("8x8".parse()?) };
/// let tour = Warnsdorff::default().tie(Tie::Pohl).generate(&spec, &mut knights::rng::seeded(3))?;
/// assert!(tour.is_closed());
/// # Ok::<(), knights::Error>(())
/// ```
pub trait TourGenerator {
    /// The method's name, as `knights tour --algorithm` and cipher keys spell it.
    fn name(&self) -> &'static str;

    /// One tour as `spec` asks, drawing its random choices from `rng`.
    ///
    /// # Errors
    /// [`crate::Error::NoTour`] where no tour of the kind exists (with the
    /// theorem), [`crate::Error::GaveUp`] when the method's budget runs out,
    /// [`crate::Error::Interrupted`] when `spec.control` is stopped, [`crate::Error::Board`] for a start off the board,
    /// [`crate::Error::TooLarge`] when the board cannot fit in memory.
    fn generate(&self, spec: &TourSpec, rng: &mut dyn RngCore) -> Result<Tour>;
}
