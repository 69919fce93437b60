//! A closed tour opened where an open one is wanted: Posa rotations move
//! the end of the path until it is no knight's move from the start, which
//! stays. The generators finish with it ([`finish`]), so it sits below them.

use super::spec::TourSpec;
use crate::{construct, Result, Tour, Wanted};

/// The tour as `spec` asks for its kind: opened (see [`opened`]) when an
/// open tour is wanted and the method made a closed one.
pub(crate) fn finish(tour: Tour, spec: &TourSpec) -> Result<Tour> {
    as_wanted(tour, spec.kind, spec.start.is_some())
}

/// The tour as `kind` asks: opened (see [`opened`]) for [`Wanted::Open`]
/// when it is closed, else as it is; `start_fixed` when the caller gave
/// the start.
pub(crate) fn as_wanted(tour: Tour, kind: Wanted, start_fixed: bool) -> Result<Tour> {
    if kind == Wanted::Open {
        return opened(tour, start_fixed);
    }
    Ok(tour)
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
/// use knights::{algorithms::{self, Construct}, check, Board, Tour};
/// let closed = Tour::builder(Board::new(6, 6)?).closed().algorithm(Construct).build()?;
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
        ).into()));
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
    Err(crate::Error::GaveUp(
        format!(
            "no rotation of this closed tour of {board} gives an open tour from the same start \
         (looked at {looked_at} rotated paths)"
        )
        .into(),
    ))
}
