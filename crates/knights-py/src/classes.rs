//! The public classes `knights.Tour` and `knights.Tourney`: checked
//! library values. Their methods are in `tour.rs` and `tourney.rs`; they
//! are defined here, apart, because each class's methods make the other.

use knights::{Tour, Tourney};
use pyo3::prelude::*;

/// A knight's tour: every square of a board once, each step a knight's
/// move; *closed* when the last square is a knight's move from the first.
///
/// Make one with :func:`tour`, read one with :meth:`from_json` or
/// :func:`read`, or give its squares (checked by the independent checker):
///
/// >>> t = Tour((3, 4), [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1),
/// ...                   (0, 2), (2, 3), (1, 1), (0, 3), (2, 2), (1, 0)])
/// >>> t
/// <knights.Tour 3x4 open, 12 squares from (0, 0) to (1, 0)>
/// >>> t.grid()
/// [[0, 3, 6, 9], [11, 8, 1, 4], [2, 5, 10, 7]]
/// >>> print(t)
///  0  3  6  9
/// 11  8  1  4
///  2  5 10  7
/// >>> Tour.from_json(t.to_json()) == t
/// True
/// >>> t.to_svg().startswith("<svg")
/// True
#[pyclass(frozen, module = "knights", name = "Tour")]
pub(crate) struct PyTour {
    pub(crate) tour: Tour,
}

/// A tourney: a set of closed knight's cycles covering the board, each
/// square on exactly one (Parberry 2020). :func:`join` makes it one closed
/// tour.
///
/// >>> t = tourney("8x8", generator="four-cover")
/// >>> len(t), t.rails
/// (16, 16)
/// >>> t.join(seed=1).closed
/// True
#[pyclass(frozen, module = "knights", name = "Tourney")]
pub(crate) struct PyTourney {
    pub(crate) tourney: Tourney,
}
