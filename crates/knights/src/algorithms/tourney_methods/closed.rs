//! Closed tours from methods that make closed tours only (the tourney
//! generators and the network): one place that refuses boards without a
//! closed tour, walks from the asked start and opens the tour when asked, so
//! the generators' modules need not import each other.

use rand::RngCore;

use crate::algorithms::{finish, TourSpec};
use crate::{exists, Board, Error, Result, Tour, Wanted};

/// A tour of `spec` from a method that makes closed tours only (`make`):
/// refuses, with the reason and the methods to use instead, a board whose
/// closed tours do not exist; walks the tour from `spec.start`; opens it
/// when `spec` asks for an open tour.
pub(crate) fn closed_only(
    spec: &TourSpec,
    make: impl FnOnce(Board, &mut dyn RngCore) -> Result<Tour>,
    rng: &mut dyn RngCore,
) -> Result<Tour> {
    let board = spec.board;
    if spec.kind != Wanted::Closed {
        exists::require(board, Wanted::Open)?;
        let closed = exists::closed_tour(board);
        if !closed.exists {
            return Err(Error::NoTour(format!(
                "this method makes closed tours only, and {}; for an open tour use the construct, warnsdorff, backtrack or hybrid algorithm",
                closed.reason
            ).into()));
        }
    }
    let tour = make(board, rng)?;
    let tour = match spec.start {
        Some(s) => tour.rotated_to(s)?,
        None => tour,
    };
    finish(tour, spec)
}
