//! Which boards have closed and open tours, and the theorems that say so.
//!
//! Closed tours: Schwenk (1991). On an m x n board with m <= n there is a
//! closed tour unless (a) m and n are both odd, (b) m is 1, 2 or 4, or
//! (c) m = 3 and n is 4, 6 or 8.
//!
//! Open tours (Hamiltonian paths): Cull and De Curtins (1978), Conrad et al.
//! (1994). With m <= n they exist exactly for 1x1, 3x4, 3xn with n >= 7,
//! 4xn with n >= 5, and every board with m >= 5.

use std::fmt;

use crate::{Board, Error, Kind, Wanted};

/// The answer to "does a tour of this kind exist on this board?", with its grounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Existence {
    /// Whether such a tour exists.
    pub exists: bool,
    /// The theorem that decides it.
    pub theorem: &'static str,
    /// Why, for this board in particular.
    pub reason: String,
}

impl fmt::Display for Existence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = if self.exists { "yes" } else { "no" };
        write!(f, "{word}: {} ({})", self.reason, self.theorem)
    }
}

const SCHWENK: &str = "Schwenk 1991";
const OPEN: &str = "Cull and De Curtins 1978; Conrad, Hindrichs, Morsy and Wegener 1994";

/// Whether a closed tour exists on `board` (Schwenk's theorem).
///
/// # Example
/// ```
/// use knights::{Board, exists};
/// assert!(exists::closed_tour(Board::new(8, 8)?).exists);
/// let no = exists::closed_tour(Board::new(4, 7)?);
/// assert!(!no.exists);
/// assert!(no.reason.contains("side of 4"));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn closed_tour(board: Board) -> Existence {
    let (m, n) = sides(board);
    let no = |reason: String| Existence {
        exists: false,
        theorem: SCHWENK,
        reason,
    };
    if m % 2 == 1 && n % 2 == 1 {
        return no(format!(
            "{board} has an odd number of squares, and a knight alternates between light and dark squares, so a closed tour would need as many of each"
        ));
    }
    match m {
        1 | 2 => no(format!(
            "a board with a side of {m} has no closed tour: its corner squares have at most one way in and out{}",
            if m == 1 { ", and a 1-wide board has no knight's moves at all" } else { "" }
        )),
        4 => no(String::from(
            "a board with a side of 4 has no closed tour: every move from the two outer lines lands on the two inner lines, so a closed tour must alternate between them, and since it also alternates colours it could only visit half of the squares (Posa's argument)"
        )),
        3 if matches!(n, 4 | 6 | 8) => no(format!(
            "3x{n} is one of the three exceptional 3-row boards (3x4, 3x6, 3x8) with no closed tour"
        )),
        _ => Existence {
            exists: true,
            theorem: SCHWENK,
            reason: format!(
                "{board} has an even number of squares, no side of 1, 2 or 4, and is not 3x4, 3x6 or 3x8"
            ),
        },
    }
}

/// Whether an open tour (a Hamiltonian path whose ends are not a knight's
/// move apart) exists on `board`.
///
/// # Example
/// ```
/// use knights::{Board, exists};
/// assert!(exists::open_tour(Board::new(3, 4)?).exists);
/// assert!(!exists::open_tour(Board::new(4, 4)?).exists);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn open_tour(board: Board) -> Existence {
    let (m, n) = sides(board);
    let yes = |reason: String| Existence {
        exists: true,
        theorem: OPEN,
        reason,
    };
    let no = |reason: String| Existence {
        exists: false,
        theorem: OPEN,
        reason,
    };
    match (m, n) {
        (1, 1) => yes("a 1x1 board is toured by standing on its one square".into()),
        (1, _) => no(format!("a knight has no moves at all on a board of width 1 such as {board}")),
        (2, _) => no(format!(
            "a knight on a board with a side of 2 such as {board} can never leave the squares of its own two-step lane, so it cannot reach every square"
        )),
        (3, 3) => no("the centre square of 3x3 is not a knight's move from any square".into()),
        (3, 4) => yes("among 3-row boards, 3x4 and those with at least 7 columns have open tours".into()),
        (3, 5) | (3, 6) => no(format!(
            "an exhaustive search shows that 3x{n} has no open tour; 3-row boards have one only for 4 or at least 7 columns"
        )),
        (3, _) => yes(format!("3-row boards with at least 7 columns, such as {board}, have open tours")),
        (4, 4) => no("an exhaustive search shows that 4x4 has no open tour; 4-row boards have one from 5 columns on".into()),
        (4, _) => yes(format!("4-row boards with at least 5 columns, such as {board}, have open tours")),
        _ => yes(format!("every board with both sides at least 5, such as {board}, has an open tour")),
    }
}

/// Whether a tour of the kind exists on `board` by the theorems, where an
/// open tour is any Hamiltonian path, closed ones included (as the counter
/// counts them): where none does, a count is 0 without counting.
pub fn tour_exists(board: Board, kind: Kind) -> bool {
    closed_tour(board).exists || (kind == Kind::Open && open_tour(board).exists)
}

/// The sides in increasing order.
fn sides(board: Board) -> (u32, u32) {
    let (r, c) = (board.rows(), board.cols());
    (r.min(c), r.max(c))
}

/// The error every generator returns for an impossible request: no closed
/// tour for [`Wanted::Closed`], else no open tour (no tour at all).
pub fn no_tour_error(board: Board, kind: Wanted) -> Error {
    let (e, kind) = if kind.is_closed() {
        (closed_tour(board), "closed")
    } else {
        (open_tour(board), "open")
    };
    Error::NoTour(
        format!(
            "no {kind} tour exists on {board}: {} ({})",
            e.reason, e.theorem
        )
        .into(),
    )
}

/// `Ok` when a tour of the kind exists (for [`Wanted::Open`] and
/// [`Wanted::Either`], any tour), else the [`no_tour_error`].
pub fn require(board: Board, kind: Wanted) -> crate::Result<()> {
    let e = if kind.is_closed() {
        closed_tour(board)
    } else {
        open_tour(board)
    };
    if e.exists {
        Ok(())
    } else {
        Err(no_tour_error(board, kind))
    }
}
