//! The one independent checker that every tour and tourney is run through.
//!
//! It works on plain coordinates and recomputes everything from first
//! principles (a knight's move is a step of one and two squares, in either
//! order), sharing no code with the generators. It names the first fault it
//! finds in one sentence.
//!
//! # Example
//! ```
//! use knights::{check::check_path, Kind};
//! // An open tour of the 3x4 board, as (row, column) pairs.
//! let tour = [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1),
//!             (0, 2), (2, 3), (1, 1), (0, 3), (2, 2), (1, 0)];
//! assert_eq!(check_path(3, 4, &tour, None), Ok(Kind::Open));
//! // The same with a square visited twice.
//! let mut bad = tour;
//! bad[11] = (0, 0);
//! let fault = check_path(3, 4, &bad, None).unwrap_err();
//! assert_eq!(fault.to_string(), "square (0, 0) is visited twice, at steps 0 and 11");
//! ```

use crate::board::Square;
use crate::{Board, Kind, Tour, Tourney};

mod fault;

pub use fault::{Coord, Fault, Verdict};

/// Whether two squares are a knight's move apart, from first principles.
pub fn is_knight_move(a: Coord, b: Coord) -> bool {
    let dr = (a.0 - b.0).unsigned_abs();
    let dc = (a.1 - b.1).unsigned_abs();
    (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
}

/// A per-square table of the step at which each square was first seen: an
/// array over the board when the path is about as long as the board has
/// squares, else a hash map of the squares the path visits, so that a short
/// path on a huge declared board costs memory for the path only.
struct Seen {
    rows: i64,
    cols: i64,
    table: Table,
}

enum Table {
    Dense(Vec<u32>),
    Sparse(rustc_hash::FxHashMap<u64, u32>),
}

impl Seen {
    const NONE: u32 = u32::MAX;

    /// A table for a path of `len` squares.
    fn new(rows: u32, cols: u32, len: usize) -> Seen {
        let n = rows as usize * cols as usize;
        let table = if n <= len.saturating_mul(4).saturating_add(4096) {
            Table::Dense(vec![Self::NONE; n])
        } else {
            Table::Sparse(Default::default())
        };
        Seen {
            rows: i64::from(rows),
            cols: i64::from(cols),
            table,
        }
    }

    /// Marks `at` as seen at `step`; the step it was already seen at, if any.
    fn visit(&mut self, at: Coord, step: usize) -> Result<(), usize> {
        let i = (at.0 * self.cols + at.1) as usize;
        match &mut self.table {
            Table::Dense(v) => match v[i] {
                Self::NONE => {
                    v[i] = step as u32;
                    Ok(())
                }
                first => Err(first as usize),
            },
            Table::Sparse(m) => match m.entry(i as u64) {
                std::collections::hash_map::Entry::Occupied(e) => Err(*e.get() as usize),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(step as u32);
                    Ok(())
                }
            },
        }
    }

    fn on_board(&self, at: Coord) -> bool {
        at.0 >= 0 && at.1 >= 0 && at.0 < self.rows && at.1 < self.cols
    }

    fn missing(&self) -> Option<(usize, Coord)> {
        let (count, first) = match &self.table {
            Table::Dense(v) => {
                let count = v.iter().filter(|&&s| s == Self::NONE).count();
                (count, v.iter().position(|&s| s == Self::NONE)?)
            }
            Table::Sparse(m) => {
                let n = (self.rows * self.cols) as usize;
                if m.len() == n {
                    return None;
                }
                let mut seen: Vec<u64> = m.keys().copied().collect();
                seen.sort_unstable();
                // The first index that is not its own position in the sorted list.
                let first = seen
                    .iter()
                    .enumerate()
                    .find(|&(i, &s)| s != i as u64)
                    .map_or(seen.len(), |(i, _)| i);
                (n - m.len(), first)
            }
        };
        let first = first as i64;
        Some((count, (first / self.cols, first % self.cols)))
    }
}

fn check_squares(
    seen: &mut Seen,
    squares: &[Coord],
    step0: usize,
    rows: u32,
    cols: u32,
) -> Result<(), Fault> {
    for (i, &at) in squares.iter().enumerate() {
        let step = step0 + i;
        if !seen.on_board(at) {
            return Err(Fault::OffBoard {
                step,
                at,
                rows,
                cols,
            });
        }
        if let Err(first) = seen.visit(at, step) {
            return Err(Fault::Repeated {
                at,
                first,
                second: step,
            });
        }
        if i > 0 && !is_knight_move(squares[i - 1], at) {
            return Err(Fault::NotKnightMove {
                step,
                from: squares[i - 1],
                to: at,
            });
        }
    }
    Ok(())
}

fn check_complete(seen: &Seen, rows: u32, cols: u32) -> Result<(), Fault> {
    match seen.missing() {
        Some((count, first)) => Err(Fault::Missing {
            count,
            first,
            rows,
            cols,
        }),
        None => Ok(()),
    }
}

/// Checks a path of squares on a `rows x cols` board: every square exactly
/// once, each step a knight's move, and, if `claimed_closed` is given, that
/// the claim matches.
///
/// # Complexity
/// O(rows * cols) time, 4 bytes per square; a path much shorter than the
/// board has squares costs O(len log len) time and O(len) memory instead.
pub fn check_path(
    rows: u32,
    cols: u32,
    squares: &[Coord],
    claimed_closed: Option<bool>,
) -> Result<Kind, Fault> {
    if squares.is_empty() {
        return Err(Fault::Empty("tour"));
    }
    let mut seen = Seen::new(rows, cols, squares.len());
    check_squares(&mut seen, squares, 0, rows, cols)?;
    check_complete(&seen, rows, cols)?;
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    let closed = squares.len() > 2 && is_knight_move(last, first);
    match claimed_closed {
        Some(true) if !closed => Err(Fault::NotClosed { first, last }),
        Some(false) if closed => Err(Fault::NotOpen { first, last }),
        _ => Ok(if closed { Kind::Closed } else { Kind::Open }),
    }
}

/// Checks a partial path on a plain `rows x cols` board: every square on
/// the board, none twice, each step a knight's move; squares may be left
/// unvisited, and the empty path passes. [`check_path`] is the whole tour.
///
/// # Example
/// ```
/// use knights::check::check_partial_path;
/// assert_eq!(check_partial_path(8, 8, &[(0, 0), (2, 1), (4, 2)]), Ok(()));
/// let fault = check_partial_path(8, 8, &[(0, 0), (1, 1)]).unwrap_err();
/// assert_eq!(fault.to_string(), "the step from (0, 0) to (1, 1) at step 1 is not a knight's move");
/// ```
pub fn check_partial_path(rows: u32, cols: u32, squares: &[Coord]) -> Result<(), Fault> {
    let mut seen = Seen::new(rows, cols, squares.len());
    check_squares(&mut seen, squares, 0, rows, cols)
}

/// Checks a tourney: cycles that together visit every square exactly once,
/// each closing on itself. Returns the number of cycles.
pub fn check_cycles(rows: u32, cols: u32, cycles: &[Vec<Coord>]) -> Result<usize, Fault> {
    if cycles.iter().all(Vec::is_empty) {
        return Err(Fault::Empty("tourney"));
    }
    let total = cycles.iter().map(Vec::len).sum();
    let mut seen = Seen::new(rows, cols, total);
    let mut step0 = 0;
    for (ci, cycle) in cycles.iter().enumerate() {
        if cycle.len() < 3 {
            return Err(Fault::CycleTooShort {
                cycle: ci,
                len: cycle.len(),
            });
        }
        check_squares(&mut seen, cycle, step0, rows, cols)?;
        let (first, last) = (cycle[0], cycle[cycle.len() - 1]);
        if !is_knight_move(last, first) {
            return Err(Fault::CycleOpen {
                cycle: ci,
                first,
                last,
            });
        }
        step0 += cycle.len();
    }
    check_complete(&seen, rows, cols)?;
    Ok(cycles.len())
}

/// Turns a numbered grid (one step number per square, row-major, numbered
/// from `base`) into the path it describes, checking that the numbers are
/// exactly `base..base + rows * cols`.
pub fn grid_to_path(rows: u32, cols: u32, numbers: &[u64], base: u64) -> Result<Vec<Coord>, Fault> {
    let n = rows as usize * cols as usize;
    let at = |i: usize| ((i / cols as usize) as i64, (i % cols as usize) as i64);
    let mut square_of: Vec<u32> = vec![u32::MAX; n];
    for (i, &number) in numbers.iter().enumerate() {
        let step = number.wrapping_sub(base);
        if number < base || step >= n as u64 {
            return Err(Fault::GridNumber {
                number,
                at: at(i),
                lo: base,
                hi: base + n as u64 - 1,
                rows,
                cols,
            });
        }
        let slot = &mut square_of[step as usize];
        if *slot != u32::MAX {
            return Err(Fault::GridDuplicate {
                number,
                first: at(*slot as usize),
                second: at(i),
            });
        }
        *slot = i as u32;
    }
    Ok(square_of.into_iter().map(|i| at(i as usize)).collect())
}

/// The rules of a board beyond the rectangle, as the checker reads them:
/// holes, wrapped edges, and the leaper's two jumps. Everything is
/// recomputed from this description, sharing no code with
/// [`crate::shape::Shape`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// The squares cut out.
    pub holes: Vec<Coord>,
    /// Whether the top and bottom edges are joined.
    pub wrap_rows: bool,
    /// Whether the left and right edges are joined.
    pub wrap_cols: bool,
    /// The leaper's jumps: (1, 2) for the knight.
    pub leap: (i64, i64),
}

impl Rules {
    /// The plain `rows x cols` board with the knight.
    pub fn plain(rows: u32, cols: u32) -> Rules {
        Rules {
            rows,
            cols,
            holes: Vec::new(),
            wrap_rows: false,
            wrap_cols: false,
            leap: (1, 2),
        }
    }

    /// The rules of a shape.
    pub fn of(shape: &crate::shape::Shape) -> Rules {
        let b = shape.board();
        Rules {
            rows: b.rows(),
            cols: b.cols(),
            holes: shape.holes().map(|h| coord(b, h)).collect(),
            wrap_rows: shape.wrap().rows(),
            wrap_cols: shape.wrap().cols(),
            leap: (i64::from(shape.leaper().a()), i64::from(shape.leaper().b())),
        }
    }

    /// Whether one leap takes `a` to `b`: some (dr, dc) in {(+-p, +-q),
    /// (+-q, +-p)} with `a + (dr, dc) = b`, counted modulo a side that wraps.
    pub fn is_move(&self, a: Coord, b: Coord) -> bool {
        if a == b {
            return false;
        }
        let (p, q) = self.leap;
        let (rows, cols) = (i64::from(self.rows), i64::from(self.cols));
        let same = |x: i64, y: i64, n: i64, wraps: bool| {
            if wraps {
                (x - y).rem_euclid(n) == 0
            } else {
                x == y
            }
        };
        [(p, q), (q, p)].iter().any(|&(dr, dc)| {
            [(dr, dc), (dr, -dc), (-dr, dc), (-dr, -dc)]
                .iter()
                .any(|&(dr, dc)| {
                    same(a.0 + dr, b.0, rows, self.wrap_rows)
                        && same(a.1 + dc, b.1, cols, self.wrap_cols)
                })
        })
    }
}

/// Checks a path on a board with holes, wrapping or another leaper: every
/// square that is not a hole exactly once, no hole, each step one leap, and
/// the closure claim if given. [`check_path`] is the plain case.
///
/// # Example
/// ```
/// use knights::check::{check_path_on, Rules};
/// // The 1x5 torus: a knight's move of one row comes back to row 0, so
/// // (0,0) -> (0,2) -> (0,4) -> (0,1) -> (0,3) and back are knight's moves.
/// let rules = Rules { wrap_rows: true, wrap_cols: true, ..Rules::plain(1, 5) };
/// let path = [(0, 0), (0, 2), (0, 4), (0, 1), (0, 3)];
/// assert_eq!(check_path_on(&rules, &path, Some(true)), Ok(knights::Kind::Closed));
/// ```
pub fn check_path_on(
    rules: &Rules,
    squares: &[Coord],
    claimed_closed: Option<bool>,
) -> Result<Kind, Fault> {
    if squares.is_empty() {
        return Err(Fault::Empty("tour"));
    }
    let (rows, cols) = (rules.rows, rules.cols);
    let (r64, c64) = (i64::from(rows), i64::from(cols));
    const FREE: u32 = u32::MAX;
    const HOLE: u32 = u32::MAX - 1;
    let mut seen = vec![FREE; rows as usize * cols as usize];
    for &(r, c) in &rules.holes {
        if (0..r64).contains(&r) && (0..c64).contains(&c) {
            seen[(r * c64 + c) as usize] = HOLE;
        }
    }
    for (step, &at) in squares.iter().enumerate() {
        if !(0..r64).contains(&at.0) || !(0..c64).contains(&at.1) {
            return Err(Fault::OffBoard {
                step,
                at,
                rows,
                cols,
            });
        }
        let slot = &mut seen[(at.0 * c64 + at.1) as usize];
        match *slot {
            HOLE => return Err(Fault::OnHole { step, at }),
            FREE => *slot = step as u32,
            first => {
                return Err(Fault::Repeated {
                    at,
                    first: first as usize,
                    second: step,
                })
            }
        }
        if step > 0 && !rules.is_move(squares[step - 1], at) {
            return Err(Fault::NotKnightMove {
                step,
                from: squares[step - 1],
                to: at,
            });
        }
    }
    let missing = seen.iter().filter(|&&s| s == FREE).count();
    if let Some(first) = seen.iter().position(|&s| s == FREE) {
        let first = first as i64;
        return Err(Fault::Missing {
            count: missing,
            first: (first / c64, first % c64),
            rows,
            cols,
        });
    }
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    let closed = squares.len() > 2 && rules.is_move(last, first);
    match claimed_closed {
        Some(true) if !closed => Err(Fault::NotClosed { first, last }),
        Some(false) if closed => Err(Fault::NotOpen { first, last }),
        _ => Ok(if closed { Kind::Closed } else { Kind::Open }),
    }
}

fn coord(board: Board, s: Square) -> Coord {
    let cols = u64::from(board.cols());
    ((u64::from(s) / cols) as i64, (u64::from(s) % cols) as i64)
}

/// Checks a [`Tour`] value (as any generator returns it).
pub fn check_tour(tour: &Tour) -> Result<Kind, Fault> {
    let b = tour.board();
    let coords: Vec<Coord> = tour.squares().iter().map(|&s| coord(b, s)).collect();
    if tour.is_plain() {
        check_path(b.rows(), b.cols(), &coords, None)
    } else {
        check_path_on(&Rules::of(&tour.shape()), &coords, None)
    }
}

/// Checks a [`Tourney`] value. Returns the number of cycles.
pub fn check_tourney(tourney: &Tourney) -> Result<usize, Fault> {
    let b = tourney.board();
    let cycles: Vec<Vec<Coord>> = tourney
        .cycles()
        .iter()
        .map(|c| c.iter().map(|&s| coord(b, s)).collect())
        .collect();
    check_cycles(b.rows(), b.cols(), &cycles)
}

/// Checks a compact [`Cover`](crate::Cover): every square has exactly two chosen
/// moves, each on the board and chosen back by its destination. Returns the
/// number of cycles.
pub fn check_cover(cover: &crate::Cover) -> Result<usize, Fault> {
    let b = cover.board();
    let (rows, cols) = (i64::from(b.rows()), i64::from(b.cols()));
    // Moves from their definition in docs/formats.md, written out again here on purpose.
    const D: [(i64, i64); 8] = [
        (-1, 2),
        (-2, 1),
        (-2, -1),
        (-1, -2),
        (1, -2),
        (2, -1),
        (2, 1),
        (1, 2),
    ];
    let links = cover.as_bytes();
    for (i, &bits) in links.iter().enumerate() {
        let at = ((i as i64) / cols, (i as i64) % cols);
        if bits.count_ones() != 2 {
            return Err(Fault::CoverDegree {
                at,
                degree: bits.count_ones(),
            });
        }
        for k in 0..8u8 {
            if bits & (1 << k) == 0 {
                continue;
            }
            let (dr, dc) = D[k as usize];
            let (r, c) = (at.0 + dr, at.1 + dc);
            let off_board = !(0..rows).contains(&r) || !(0..cols).contains(&c);
            if off_board || links[(r * cols + c) as usize] & (1 << ((k + 4) % 8)) == 0 {
                return Err(Fault::CoverAsymmetric {
                    at,
                    mv: k,
                    off_board,
                });
            }
        }
    }
    // Count cycles by walking, marking squares as they are reached.
    let mut done = vec![false; links.len()];
    let mut cycles = 0;
    for start in 0..links.len() {
        if done[start] {
            continue;
        }
        cycles += 1;
        let (mut prev, mut cur) = (usize::MAX, start);
        loop {
            done[cur] = true;
            let at = ((cur as i64) / cols, (cur as i64) % cols);
            let next = (0..8)
                .filter(|k| links[cur] & (1 << k) != 0)
                .map(|k| {
                    let (dr, dc) = D[k];
                    ((at.0 + dr) * cols + at.1 + dc) as usize
                })
                .find(|&t| t != prev)
                .unwrap_or(prev);
            prev = cur;
            cur = next;
            if cur == start {
                break;
            }
        }
    }
    Ok(cycles)
}
