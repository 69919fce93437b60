//! Linear-time constructions of closed and open tours on every board that
//! has one, by divide and conquer (after Parberry 1997 and Lin and Wei 2005).
//!
//! [`crate::algorithms::Construct`] is its way in. The board is cut into blocks of 3 to 18 rows and columns, each block
//! gets a copy of a small base tour kept as verified data ([`search`] found
//! them once), and neighbouring blocks are joined by switching two moves at
//! their boundary (three or four between 3-row blocks, where no two-move
//! switch exists) until one cycle (or one path) is left. The result is
//! walked into the ordered tour. Which cuts are used:
//!
//! - closed tours, both sides at least 5: the even side is cut into parts of
//!   6, 8 and 10, the other into parts of 5 to 10; every block has an even
//!   number of squares and a closed base tour;
//! - closed tours on 3 x n (even n >= 10): parts of 10 to 18 columns;
//! - open tours on boards with a closed tour: the closed tour walked from
//!   the start, then turned open by one Posa rotation that keeps the start;
//! - open tours on odd x odd boards: one block of odd x odd size (5 to 13)
//!   holds an open path, every other block a closed tour;
//! - open tours on 3 x n: a 3 x (4, 7, 8, 9, 11, 13 or 15) block holds the
//!   path and 3 x (10 to 18) blocks the cycles;
//! - open tours on 4 x n: a 4 x (5 to 11) block holds the path and the other
//!   4-row blocks are each covered by two cycles (a 4-row block has no
//!   closed tour), each joined on its own.
//!
//! With a start square, a closed tour is walked from it; an open tour
//! starts there when the block that holds the path can be placed around it
//! and a path from it found in that block (a bounded search on at most 169
//! squares), trying the board's mirror images and then a larger budget; on
//! boards of at most 64 squares an exhaustive search settles what is left.
//! Three theorems rule some starts out and are reported as such:
//! on a board with an odd number of squares an open tour starts and ends on
//! the colour of the corners; on a 4-row board on the outer rows; and no
//! open tour starts a knight's move from two squares of degree 2.
//!
//! # Complexity
//! O(rows * cols) time; one byte per square for the cover, freed before the
//! four of the ordered tour are allocated.
//!
//! # Example
//! ```
//! use knights::{Board, check, Kind, Tour, algorithms::Construct};
//! let tour = Tour::builder(Board::new(10, 13)?).closed().algorithm(Construct).build()?;
//! assert_eq!(check::check_tour(&tour)?, Kind::Closed);
//! let open = Tour::builder(Board::new(9, 9)?).open().start(40).algorithm(Construct).build()?;
//! assert_eq!(open.start(), 40);
//! assert_eq!(check::check_tour(&open)?, Kind::Open);
//! # Ok::<(), knights::Error>(())
//! ```

mod base;
mod join;
mod layout;
pub mod search;
mod trace;
mod walk;

use self::base::{Kind, Pattern};
use self::layout::{split_any, split_even, split_pair, split_three, Blocks, Layout};
use self::search::{find_path, Goal};
use self::trace::Plan;
use crate::board::Square;
use crate::{exists, memory, Board, Cover, Error, Result, Tour, Wanted};

/// Bytes per square that must be available before starting. The peak
/// resident memory (the cover, 1 byte a square, then the tour, 4) stays
/// under 5 bytes a square from the command line, but the largest board
/// made from Python was seen to take more; 7 leaves room for that and a
/// margin (the measurements: BENCHMARKS.md, "Memory"). What callers do
/// next checks its own needs (a numbered grid needs 4 more).
const BYTES_TO_START: u64 = 7;

/// A closed tour of `board`, starting at `start` (square 0 when `None`).
///
/// # Errors
/// [`Error::NoTour`] where no closed tour exists (Schwenk's theorem), and
/// [`Error::Board`] for a start off the board.
///
/// # Complexity
/// O(rows * cols) time, about 4.4 bytes per square at the peak (7 must be
/// available).
pub(crate) fn closed(board: Board, start: Option<Square>) -> Result<Tour> {
    exists::require(board, Wanted::Closed)?;
    memory::ensure_fits(board, "tour", BYTES_TO_START)?;
    let start = check_start(board, start)?.unwrap_or(0);
    let squares = if thin(board) {
        walk::walk(board, &closed_links(board, true)?, start, None)?
    } else {
        let (links, mut blocks) = closed_build(board, true)?;
        let plan = Plan::new(board, &mut blocks, &links);
        drop(links);
        plan.trace(board, start, None)?
    };
    Ok(Tour::from_squares_unchecked(board, squares))
}

/// An open tour of `board` (its ends not a knight's move apart), starting
/// at `start` when given.
///
/// # Errors
/// [`Error::NoTour`] where no open tour exists, or none from `start` by a
/// theorem (odd boards, 4-row boards, next to two corners) or, on boards of
/// at most 64 squares, by exhaustive search; [`Error::GaveUp`] when the
/// construction cannot start at `start` although a tour from there may
/// exist (none known: every start on every board up to 20 x 20, and on
/// 3-, 4-, 11- and 13-row boards up to 45 long, is answered; see the tests).
///
/// # Complexity
/// O(rows * cols) time, about 4.4 bytes per square at the peak (7 must be
/// available).
pub(crate) fn open(board: Board, start: Option<Square>) -> Result<Tour> {
    exists::require(board, Wanted::Open)?;
    memory::ensure_fits(board, "tour", BYTES_TO_START)?;
    let start = check_start(board, start)?;
    if board.squares() == 1 {
        return Ok(Tour::from_squares_unchecked(board, vec![0]));
    }
    if let Some(s) = start.filter(|&s| next_to_two_corners(board, s)) {
        let (r, c) = board.coords(s);
        return Err(Error::NoTour(format!(
            "no open tour of {board} starts at ({r}, {c}): it is a knight's move from two squares that have only two moves each, so a tour from it must end on one of them, a knight's move from the start"
        ).into()));
    }
    if exists::closed_tour(board).exists {
        return open_from_closed(board, start.unwrap_or(0));
    }
    let mut last_err = None;
    // With a start, the board's mirror images give other layouts around it
    // (the tour of the mirror image, mirrored back); then the same with a
    // larger search budget for the block that holds the path.
    let mirrors = if start.is_some() {
        &MIRRORS[..]
    } else {
        &MIRRORS[..1]
    };
    for effort in [1, 8] {
        for &mirror in mirrors {
            let image = |s: Square| mirror_square(board, mirror, s);
            for layout in open_layouts(board, start.map(image), effort)? {
                match open_from_layout(board, &layout) {
                    Ok(mut squares) => {
                        if mirror != 0 {
                            for s in squares.iter_mut() {
                                *s = image(*s); // each mirror is its own inverse
                            }
                        }
                        return Ok(Tour::from_squares_unchecked(board, squares));
                    }
                    Err(e) => last_err = Some(e),
                }
            }
        }
    }
    let (r, c) = board.coords(start.unwrap_or(0));
    // On a small board an exhaustive search settles it.
    if let Some(s) = start.filter(|_| board.squares() <= SMALL) {
        let (rows, cols) = (board.rows(), board.cols());
        match search::search(rows, cols, (r, c), &Goal::Open, SMALL_BUDGET) {
            Some(search::PathFound::Path(p)) => {
                let squares = p.iter().map(|&(r, c)| board.square(r, c)).collect();
                debug_assert_eq!(board.coords(s), p[0]);
                return Ok(Tour::from_squares_unchecked(board, squares));
            }
            Some(search::PathFound::NoneExists) => {
                return Err(Error::NoTour(format!(
                    "no open tour of {board} starts at ({r}, {c}): an exhaustive search of every path from it finds none"
                ).into()));
            }
            None => {}
        }
    }
    // A layout may lack a base block of some size: that is a gap of the
    // construction, not a proof that no tour exists, so say it gave up.
    let why = last_err.map_or_else(String::new, |e| format!(" ({e})"));
    Err(Error::GaveUp(format!(
        "the construction found no open tour of {board} starting at ({r}, {c}){why}, though one may exist; another start may succeed"
    ).into())
    .with_hint(crate::Hint::USE_WARNSDORFF))
}

/// Boards of at most this many squares are settled by exhaustive search
/// when the construction finds no open tour from the start.
const SMALL: usize = 64;

/// The search budget (nodes) for those boards.
const SMALL_BUDGET: u64 = 20_000_000;

/// The board's mirror images: none, rows reversed, columns reversed, both.
const MIRRORS: [u8; 4] = [0, 1, 2, 3];

/// Square `s` under mirror `m` (bit 0 reverses the rows, bit 1 the columns).
fn mirror_square(board: Board, m: u8, s: Square) -> Square {
    let (r, c) = board.coords(s);
    let r = if m & 1 != 0 { board.rows() - 1 - r } else { r };
    let c = if m & 2 != 0 { board.cols() - 1 - c } else { c };
    board.square(r, c)
}

/// The open tour of one layout with its path block, from the path's first end.
fn open_from_layout(board: Board, layout: &Layout) -> Result<Vec<Square>> {
    let (i, j, p) = layout.special.as_ref().expect("open layouts hold a path");
    let [e0, e1] = p.ends.expect("a path pattern has ends");
    let (y, x) = (
        layout.rows[..*i].iter().sum::<u32>(),
        layout.cols[..*j].iter().sum::<u32>(),
    );
    let ends = [e0, e1].map(|(r, c)| board.square(y + r, x + c));
    let (links, mut blocks) = layout.build(board, true)?;
    if thin(board) {
        if !walk::degrees_ok(&links, Some(ends)) {
            return Err(broken(board));
        }
        return walk::walk(board, &links, ends[0], Some(ends[1]));
    }
    let plan = Plan::new(board, &mut blocks, &links);
    drop(links);
    plan.trace(board, ends[0], Some(ends[1]))
}

/// A closed tour or an open tour, as [`closed`] and [`open`]; for
/// [`Wanted::Either`], closed where the board has a closed tour, else open.
pub(crate) fn tour(board: Board, kind: Wanted, start: Option<Square>) -> Result<Tour> {
    let closed = match kind {
        Wanted::Closed => true,
        Wanted::Open => false,
        Wanted::Either => exists::closed_tour(board).exists,
    };
    if closed {
        self::closed(board, start)
    } else {
        open(board, start)
    }
}

/// The closed tour of [`closed`] in its compact form, one byte per square.
pub(crate) fn closed_cover(board: Board) -> Result<Cover> {
    exists::require(board, Wanted::Closed)?;
    Ok(Cover::from_bytes_unchecked(
        board,
        closed_links(board, true)?,
    ))
}

/// The tourney form: the same blocks with their base tours but without the
/// joins, a cover of the board by one cycle per block (Parberry's tourney,
/// Parberry 2020, Figure 15), on every board that has a closed tour.
///
/// # Complexity
/// O(rows * cols) time, one byte per square.
pub(crate) fn tourney(board: Board) -> Result<Cover> {
    exists::require(board, Wanted::Closed)?;
    Ok(Cover::from_bytes_unchecked(
        board,
        closed_links(board, false)?,
    ))
}

/// An open tour from a closed one by a Posa rotation, walking the closed
/// tour either way round; if neither works, the same with the board's
/// mirror images (the tour of the mirrored board, mirrored back).
fn open_from_closed(board: Board, start: Square) -> Result<Tour> {
    // A board with a side of 3 keeps its cover and walks it square by square.
    let (mut links, mut blocks) = if thin(board) {
        (closed_links(board, true)?, None)
    } else {
        let (links, blocks) = closed_build(board, true)?;
        (links, Some(blocks))
    };
    let plan = match blocks.as_mut() {
        Some(blocks) => {
            let plan = Plan::new(board, blocks, &links);
            links = Vec::new();
            Some(plan)
        }
        None => None,
    };
    let closed_from = |s: Square| match &plan {
        Some(plan) => plan.trace(board, s, None),
        None => walk::walk(board, &links, s, None),
    };
    let (m, n) = (board.rows(), board.cols());
    type Mirror = fn(u32, u32, u32, u32) -> (u32, u32);
    let mirrors: [Mirror; 4] = [
        |r, c, _, _| (r, c),
        |r, c, m, _| (m - 1 - r, c),
        |r, c, _, n| (r, n - 1 - c),
        |r, c, m, n| (m - 1 - r, n - 1 - c),
    ];
    for mirror in mirrors {
        let image = |s: Square| {
            let (r, c) = board.coords(s);
            let (r, c) = mirror(r, c, m, n);
            board.square(r, c)
        };
        let mut squares = closed_from(image(start))?;
        if walk::open_up(board, &mut squares).is_err() {
            squares[1..].reverse();
            if walk::open_up(board, &mut squares).is_err() {
                continue;
            }
        }
        if squares[0] != start {
            for s in squares.iter_mut() {
                *s = image(*s); // each mirror is its own inverse
            }
        }
        return Ok(Tour::from_squares_unchecked(board, squares));
    }
    Err(Error::GaveUp(
        format!(
        "no rotation of the constructed closed tour of {board} gives an open tour from the start"
    )
        .into(),
    ))
}

/// Whether `s` is a knight's move from two squares of degree 2: then a
/// Hamiltonian path from `s` can enter only one of them second, so it must
/// end on the other, a knight's move from `s`: no open tour starts at `s`.
pub(crate) fn next_to_two_corners(board: Board, s: Square) -> bool {
    board
        .neighbours(s)
        .filter(|&(_, t)| board.degree(t) == 2)
        .count()
        >= 2
}

fn check_start(board: Board, start: Option<Square>) -> Result<Option<Square>> {
    match start {
        Some(s) if s as usize >= board.squares() => Err(Error::Board(
            format!(
                "square {s} is not on the {board} board, whose squares are 0..{}",
                board.squares()
            )
            .into(),
        )),
        _ => Ok(start),
    }
}

fn broken(board: Board) -> Error {
    Error::GaveUp(
        format!(
        "the construction's moves on {board} do not form a single tour (a bug; please report it)"
    )
        .into(),
    )
}

/// Whether the board has a side of 3: its blocks are joined by exchanges of
/// three moves every 10 to 18 squares, too often for runs to pay, so its
/// cover is walked square by square.
fn thin(board: Board) -> bool {
    board.rows() == 3 || board.cols() == 3
}

/// The cut of a board with a closed tour.
fn closed_layout(board: Board) -> Result<Layout> {
    let (m, n) = (board.rows(), board.cols());
    let cut = if m >= 5 && n >= 5 && m % 2 == 0 {
        split_even(m).zip(split_any(n))
    } else if m >= 5 && n >= 5 {
        split_any(m).zip(split_even(n))
    } else if m == 3 {
        Some(vec![3]).zip(split_three(n))
    } else if n == 3 {
        split_three(m).zip(Some(vec![3]))
    } else {
        None
    };
    let (rows, cols) = cut.ok_or_else(|| exists::no_tour_error(board, Wanted::Closed))?;
    Ok(Layout {
        rows,
        cols,
        special: None,
    })
}

/// The cover of the closed construction, joined or not, checked (every
/// square has two moves).
fn closed_links(board: Board, join: bool) -> Result<Vec<u8>> {
    let (links, _) = closed_build(board, join)?;
    if join && !walk::degrees_ok(&links, None) {
        return Err(broken(board));
    }
    Ok(links)
}

/// The cover of the closed construction and its blocks, for a [`Plan`]
/// (whose walk checks the cover as it goes).
fn closed_build(board: Board, join: bool) -> Result<(Vec<u8>, Blocks)> {
    closed_layout(board)?.build(board, join)
}

/// How one side of the board is cut when a block on it holds the path: the
/// sizes the path block may have, and how the rest is cut.
struct Side {
    len: u32,
    sizes: &'static [u32],
    fill: fn(u32) -> Option<Vec<u32>>,
}

fn none_but_zero(n: u32) -> Option<Vec<u32>> {
    (n == 0).then(Vec::new)
}

impl Side {
    /// (parts, index of the path part) with the path part around `target`.
    fn cuts(&self, target: Option<u32>) -> Vec<(Vec<u32>, usize)> {
        let mut out = Vec::new();
        for &p in self.sizes {
            if p > self.len {
                continue;
            }
            let xs = match target {
                Some(t) => t.saturating_sub(p - 1)..=t.min(self.len - p),
                None => 0..=0,
            };
            for x in xs {
                if let (Some(before), Some(after)) = ((self.fill)(x), (self.fill)(self.len - x - p))
                {
                    let at = before.len();
                    let mut parts = before;
                    parts.push(p);
                    parts.extend(after);
                    out.push((parts, at));
                }
            }
        }
        out
    }
}

/// The sides of a board with an open but no closed tour.
fn open_sides(board: Board) -> Result<(Side, Side)> {
    const ODD: &[u32] = &[5, 7, 9, 11, 13];
    const THREE: &[u32] = &[4, 7, 8, 9, 11, 13, 15];
    const FOUR: &[u32] = &[5, 6, 7, 8, 9, 10, 11];
    let fixed = |len: u32, sizes: &'static [u32]| Side {
        len,
        sizes,
        fill: none_but_zero,
    };
    let (m, n) = (board.rows(), board.cols());
    let side = |len, sizes, fill| Side { len, sizes, fill };
    Ok(match (m, n) {
        (3, _) => (fixed(3, &[3]), side(n, THREE, split_three)),
        (_, 3) => (side(m, THREE, split_three), fixed(3, &[3])),
        (4, _) => (fixed(4, &[4]), side(n, FOUR, split_pair)),
        (_, 4) => (side(m, FOUR, split_pair), fixed(4, &[4])),
        _ if m % 2 == 1 && n % 2 == 1 => (side(m, ODD, split_even), side(n, ODD, split_even)),
        _ => return Err(exists::no_tour_error(board, Wanted::Open)),
    })
}

/// Candidate cuts for an open tour without a closed one, each with its
/// path block, in the order to try them.
fn open_layouts(board: Board, start: Option<Square>, effort: u64) -> Result<Vec<Layout>> {
    let (rs, cs) = open_sides(board)?;
    let (tr, tc) = match start {
        Some(s) => {
            let (r, c) = board.coords(s);
            (Some(r), Some(c))
        }
        None => (None, None),
    };
    if let Some(s) = start {
        let (r, c) = board.coords(s);
        if board.squares() % 2 == 1 && (r + c) % 2 == 1 {
            return Err(Error::NoTour(format!(
                "no open tour of {board} starts at ({r}, {c}): a board with an odd number of squares has one more square of the corners' colour, so every tour starts and ends on that colour"
            ).into()));
        }
        let four_rows = board.rows() == 4 && (r == 1 || r == 2);
        let four_cols = board.cols() == 4 && (c == 1 || c == 2);
        if four_rows || four_cols {
            return Err(Error::NoTour(format!(
                "no open tour of {board} starts at ({r}, {c}): on a board with a side of 4 every move from the outer lines lands on the inner lines, which forces every open tour to start and end on the outer lines"
            ).into()));
        }
    }
    let mut out = Vec::new();
    let row_cuts = rs.cuts(tr);
    let col_cuts = cs.cuts(tc);
    const MAX_TRIES: usize = 24;
    for (rows, i) in &row_cuts {
        for (cols, j) in &col_cuts {
            if out.len() >= MAX_TRIES {
                return Ok(out);
            }
            let (h, w) = (rows[*i], cols[*j]);
            let pattern = match start {
                None => base::pattern(Kind::Path, h, w),
                Some(_) => {
                    let y: u32 = rows[..*i].iter().sum();
                    let x: u32 = cols[..*j].iter().sum();
                    let local = (tr.unwrap_or(0) - y, tc.unwrap_or(0) - x);
                    find_path(h, w, local, &Goal::Open, 20_000 * effort, 3, 1)
                        .map(|p| Pattern::from_parts(h, w, &[p], true))
                }
            };
            if let Some(p) = pattern {
                out.push(Layout {
                    rows: rows.clone(),
                    cols: cols.clone(),
                    special: Some((*i, *j, p)),
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
