//! The Warnsdorff tourney (Parberry 2020, Section 6): random walks by
//! Warnsdorff's rule, each closed into a cycle as soon as it can be.
//!
//! A walk starts at the first square (row-major) not yet covered and moves,
//! like Warnsdorff's rule, to a free neighbour with the fewest free onward
//! moves (ties at random). As soon as the walk has at least
//! [`WalkOptions::min_cycle`] squares and stands a knight's move from its start,
//! it closes into a cycle and a new walk begins (the paper's rule).
//!
//! Two documented variations make it scale; both can be switched
//! off in [`WalkOptions`]:
//!
//! - *Splice* ([`WalkOptions::splice`]): a walk `s ... e` that gets stuck is not
//!   simply undone. Its longest prefix `s ... e'` whose end is a knight's
//!   move from `b`, where `a - b` is a move of a cycle closed before and `s`
//!   is a knight's move from `a`, replaces that move by the detour
//!   `a - s ... e' - b`; the rest of the walk is freed. Only when no prefix
//!   of two or more squares fits is the walk undone and retried.
//! - *Tiles* ([`WalkOptions::tile`], default 64): a board side of 128 or more is
//!   cut into parts of 64 to 127 squares, and every tile gets its own
//!   tourney (the parts of one side are even, so every tile has an even
//!   number of squares). The literal method does not scale: a walk that
//!   wanders away from its start rarely comes back, and the free squares it
//!   leaves behind make the walks behind it fail and be retried, so the time
//!   per square grows with the board (BENCHMARKS.md has the figures). On
//!   tiles the time per square is flat; the join then
//!   merges the cycles across tile borders like any others, and obfuscation
//!   hides the borders.
//!
//! A walk that fails all its retries has the cycles around its start undone
//! (a local repair, more widely each time the same start fails), and after a
//! budget of repairs (n / 8 + 64) the whole tourney (or tile) starts again,
//! at most [`WalkOptions::max_restarts`] times.
//!
//! Works on every board on which the walks can close (any board with a
//! closed tour, and many more).
//!
//! # Complexity
//! O(rows * cols) per attempt in practice (each square is visited a bounded
//! number of times per walk attempt), and with tiles O(rows * cols) in all;
//! 3 bytes per square of working memory besides the cover.

use rand::Rng;

use crate::board::Padded;
use crate::rng::LeastOf;
use crate::{memory, Board, Control, Cover, Error, Result};

/// Options of [`warnsdorff`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WalkOptions {
    /// The fewest squares a walk must have before it may close (at least 4).
    pub min_cycle: u32,
    /// Attempts per walk before the whole tourney starts again.
    pub retries_per_walk: u32,
    /// Restarts of the whole tourney before giving up.
    pub max_restarts: u32,
    /// The longest walk: a walk that has not closed by then is undone and
    /// retried (default: no limit).
    pub max_walk: u32,
    /// Tile side: a board side of at least twice this many squares (and at
    /// least 16) is cut into parts of `tile` to `2 * tile - 1` squares (even
    /// parts on one side), and each tile gets its own Warnsdorff tourney (0:
    /// never cut; default 64). See the module documentation for why.
    pub tile: u32,
    /// Splice a stuck walk into a cycle closed before, when it fits, instead
    /// of undoing it (default: yes; see the module documentation).
    pub splice: bool,
    /// The caller's control: its stop flag is checked between restarts
    /// ([`Error::Interrupted`]).
    pub control: Control,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            min_cycle: 4,
            retries_per_walk: 16,
            max_restarts: 200,
            max_walk: u32::MAX,
            tile: 64,
            splice: true,
            control: Control::new(),
        }
    }
}

/// A Warnsdorff tourney.
///
/// # Example
/// ```
/// use knights::{Tourney, algorithms::TourneyMethod};
/// let cover = Tourney::builder("8x8".parse()?).method(TourneyMethod::Warnsdorff).seed(1).cover()?;
/// assert!(knights::check::check_cover(&cover)? >= 1);
/// # Ok::<(), knights::Error>(())
/// ```
pub(crate) fn warnsdorff<R: Rng + ?Sized>(
    board: Board,
    options: &WalkOptions,
    rng: &mut R,
) -> Result<Cover> {
    memory::ensure_fits(board, "Warnsdorff tourney", 16)?;
    let (row_parts, col_parts) = tiles(board, options.tile);
    if row_parts.len() == 1 && col_parts.len() == 1 {
        return whole(board, options, rng);
    }
    let cols = board.cols() as usize;
    let mut links = memory::try_vec(board, "Warnsdorff tourney", 1, 0u8)?;
    let mut top = 0usize;
    for &h in &row_parts {
        let mut left = 0usize;
        for &w in &col_parts {
            let tile = Board::new(u64::from(h), u64::from(w))?;
            let part = whole(tile, options, rng)?;
            // Moves are relative, so a tile's bytes are the board's bytes.
            for (r, row) in part.as_bytes().chunks(w as usize).enumerate() {
                let at = (top + r) * cols + left;
                links[at..at + w as usize].copy_from_slice(row);
            }
            left += w as usize;
        }
        top += h as usize;
    }
    Ok(Cover::from_bytes_unchecked(board, links))
}

/// How the board is cut into tiles: the tile heights and the tile widths.
/// A side shorter than twice `tile` (or `tile` 0) is one part; otherwise it
/// is cut into parts of `tile` to `2 * tile` squares. The parts of one side
/// are all even (the rows if their number is even, else the columns), so
/// every tile has an even number of squares, as a tourney needs.
fn tiles(board: Board, tile: u32) -> (Vec<u32>, Vec<u32>) {
    let (rows, cols) = (board.rows(), board.cols());
    let cut = |len: u32, even: bool| -> Vec<u32> {
        if tile == 0 || len < 2 * tile.max(8) || (even && len % 2 == 1) {
            return vec![len];
        }
        let tile = tile.max(8);
        let k = len / tile;
        let unit = if even { 2 } else { 1 };
        let base = len / k / unit * unit;
        let mut extra = (len - base * k) / unit;
        (0..k)
            .map(|_| {
                let more = u32::from(extra > 0) * unit;
                extra = extra.saturating_sub(1);
                base + more
            })
            .collect()
    };
    if rows % 2 == 0 {
        (cut(rows, true), cut(cols, false))
    } else if cols % 2 == 0 {
        (cut(rows, false), cut(cols, true))
    } else {
        (vec![rows], vec![cols])
    }
}

/// The Warnsdorff tourney of a whole board (or one tile), without tiles.
fn whole<R: Rng + ?Sized>(board: Board, options: &WalkOptions, rng: &mut R) -> Result<Cover> {
    let pad = Padded::new(board);
    let padded_len = pad.len(board);
    // free[p]: the square is on the board and not yet in a cycle or the walk.
    let mut free = vec![false; padded_len];
    let mut degree = vec![0u8; padded_len];
    let mut links = memory::try_vec(board, "Warnsdorff tourney", 1, 0u8)?;
    let mut walk: Vec<(usize, usize)> = Vec::new();
    let mut moves: Vec<u8> = Vec::new();
    let min_cycle = options.min_cycle.max(4) as usize;
    for _ in 0..=options.max_restarts {
        options.control.check("the Warnsdorff tourney")?;
        reset(board, &pad, &mut free, &mut degree, &mut links);
        if fill(
            board,
            &pad,
            options,
            min_cycle,
            &mut free,
            &mut degree,
            &mut links,
            &mut walk,
            &mut moves,
            rng,
        ) {
            return Ok(Cover::from_bytes_unchecked(board, links));
        }
    }
    Err(Error::GaveUp(format!(
        "the Warnsdorff tourney of {board} got stuck in all {} attempts; allow more restarts or use another generator",
        options.max_restarts + 1
    ).into()))
}

fn reset(board: Board, pad: &Padded, free: &mut [bool], degree: &mut [u8], links: &mut [u8]) {
    free.fill(false);
    links.fill(0);
    for r in 0..board.rows() as usize {
        for c in 0..board.cols() as usize {
            free[pad.index(r, c)] = true;
        }
    }
    for r in 0..board.rows() as usize {
        for c in 0..board.cols() as usize {
            let p = pad.index(r, c);
            degree[p] = pad
                .off
                .iter()
                .filter(|&&o| free[(p as isize + o) as usize])
                .count() as u8;
        }
    }
}

/// The cycles closed so far: which cycle holds each square, and their squares.
struct Cycles {
    of: Vec<u32>,
    members: Vec<Vec<u32>>,
}

const NONE: u32 = u32::MAX;

/// Covers the board with cycles; false when the budget of local repairs ran out.
///
/// When a walk fails all its retries, the cycles within a few knight's moves
/// of its start are undone (more the more often that start fails) and the
/// scan goes on from the first free square: a local repair instead of a
/// restart of the whole board.
#[allow(clippy::too_many_arguments)]
fn fill<R: Rng + ?Sized>(
    board: Board,
    pad: &Padded,
    options: &WalkOptions,
    min_cycle: usize,
    free: &mut [bool],
    degree: &mut [u8],
    links: &mut [u8],
    walk: &mut Vec<(usize, usize)>,
    moves: &mut Vec<u8>,
    rng: &mut R,
) -> bool {
    let cols = board.cols() as usize;
    let n = board.squares();
    let mut cycles = Cycles {
        of: vec![NONE; n],
        members: Vec::new(),
    };
    let mut repairs_left = 64 + n / 8;
    let mut last_failed = usize::MAX;
    let mut fails_here = 0u32;
    let mut next_start = 0usize;
    while next_start < n {
        let (r, c) = (next_start / cols, next_start % cols);
        let p0 = pad.index(r, c);
        if !free[p0] {
            next_start += 1;
            continue;
        }
        let mut closed = false;
        let mut spliced = false;
        for _ in 0..options.retries_per_walk.max(1) {
            if try_walk(
                pad,
                min_cycle,
                options.max_walk.max(8) as usize,
                (p0, next_start),
                free,
                degree,
                walk,
                moves,
                rng,
            ) {
                closed = true;
                break;
            }
            if options.splice && splice(board, pad, walk, moves, &mut cycles, free, degree, links) {
                spliced = true;
                break;
            }
            unwalk(pad, walk, free, degree);
        }
        if spliced {
            next_start += 1;
            continue;
        }
        if !closed {
            if repairs_left == 0 {
                return false;
            }
            repairs_left -= 1;
            fails_here = if last_failed == next_start {
                fails_here + 1
            } else {
                0
            };
            last_failed = next_start;
            let depth = 1 + (fails_here / 2).min(4);
            let lowest = undo_around(
                board,
                pad,
                next_start,
                depth,
                &mut cycles,
                free,
                degree,
                links,
            );
            next_start = next_start.min(lowest);
            continue;
        }
        let id = cycles.members.len() as u32;
        let mut members = Vec::with_capacity(walk.len());
        for (i, &k) in moves.iter().enumerate() {
            let (u, v) = (walk[i].1, walk[(i + 1) % walk.len()].1);
            links[u] |= 1 << k;
            links[v] |= 1 << (k ^ 4);
            cycles.of[u] = id;
            members.push(u as u32);
        }
        cycles.members.push(members);
        next_start += 1;
    }
    true
}

/// Undoes every cycle with a square within `depth` knight's moves of `s`;
/// the lowest square freed (or `s`).
#[allow(clippy::too_many_arguments)]
fn undo_around(
    board: Board,
    pad: &Padded,
    s: usize,
    depth: u32,
    cycles: &mut Cycles,
    free: &mut [bool],
    degree: &mut [u8],
    links: &mut [u8],
) -> usize {
    let cols = board.cols() as usize;
    let mut frontier = vec![s];
    let mut seen = std::collections::HashSet::from([s]);
    let mut lowest = s;
    for _ in 0..depth {
        let mut next = Vec::new();
        for &u in &frontier {
            for (_, t) in board.neighbours(u as u32) {
                let t = t as usize;
                if seen.insert(t) {
                    next.push(t);
                }
            }
        }
        for &t in &next {
            let id = cycles.of[t];
            if id == NONE {
                continue;
            }
            for m in std::mem::take(&mut cycles.members[id as usize]) {
                let m = m as usize;
                lowest = lowest.min(m);
                cycles.of[m] = NONE;
                links[m] = 0;
                let p = pad.index(m / cols, m % cols);
                free[p] = true;
                for o in pad.off {
                    let q = (p as isize + o) as usize;
                    degree[q] = degree[q].wrapping_add(1);
                }
            }
        }
        frontier = next;
    }
    lowest
}

/// Frees every square of a failed walk again.
fn unwalk(pad: &Padded, walk: &[(usize, usize)], free: &mut [bool], degree: &mut [u8]) {
    for &(p, _) in walk {
        free[p] = true;
        for o in pad.off {
            let q = (p as isize + o) as usize;
            degree[q] = degree[q].wrapping_add(1);
        }
    }
}

/// Splices the longest possible prefix of a stuck walk `s ... e` into a
/// cycle closed before: a move `a - b` of that cycle with `s` a knight's
/// move from `a` and `e` one from `b` becomes the detour `a - s ... e - b`.
/// The rest of the walk is freed. False (nothing changed) when no prefix of
/// at least two squares fits.
#[allow(clippy::too_many_arguments)]
fn splice(
    board: Board,
    pad: &Padded,
    walk: &mut Vec<(usize, usize)>,
    moves: &mut Vec<u8>,
    cycles: &mut Cycles,
    free: &mut [bool],
    degree: &mut [u8],
    links: &mut [u8],
) -> bool {
    if walk.len() < 2 {
        return false;
    }
    let s = walk[0].1;
    // Moves a - b of earlier cycles with a next to the start: at most 16.
    let mut pairs = [(0usize, 0usize); 16];
    let mut count = 0;
    for (_, a) in board.neighbours(s as u32) {
        let a = a as usize;
        if cycles.of[a] == NONE {
            continue;
        }
        for (kb, b) in board.neighbours(a as u32) {
            if links[a] & (1 << kb) != 0 {
                pairs[count] = (a, b as usize);
                count += 1;
            }
        }
    }
    // Padded squares of the b's: adjacency is then a difference in `pad.off`.
    let cols = board.cols() as usize;
    let mut padded = [0isize; 16];
    for (j, &(_, b)) in pairs[..count].iter().enumerate() {
        padded[j] = pad.index(b / cols, b % cols) as isize;
    }
    let found = (1..walk.len()).rev().find_map(|i| {
        let e = walk[i].0 as isize;
        (0..count)
            .find(|&j| pad.off.contains(&(e - padded[j])))
            .map(|j| (i, pairs[j].0, pairs[j].1))
    });
    let Some((i, a, b)) = found else {
        return false;
    };
    let e = walk[i].1;
    unwalk(pad, &walk[i + 1..], free, degree);
    walk.truncate(i + 1);
    moves.truncate(i);
    let id = cycles.of[a];
    let mab = move_between(board, a, b);
    let mas = move_between(board, a, s);
    let meb = move_between(board, e, b);
    links[a] ^= (1 << mab) | (1 << mas);
    links[b] ^= (1 << (mab ^ 4)) | (1 << (meb ^ 4));
    links[s] |= 1 << (mas ^ 4);
    links[e] |= 1 << meb;
    for (j, &k) in moves.iter().enumerate() {
        let (u, v) = (walk[j].1, walk[j + 1].1);
        links[u] |= 1 << k;
        links[v] |= 1 << (k ^ 4);
    }
    let members = &mut cycles.members[id as usize];
    for &(_, u) in walk.iter() {
        cycles.of[u] = id;
        members.push(u as u32);
    }
    true
}

fn move_between(board: Board, a: usize, b: usize) -> u8 {
    board
        .move_between(a as u32, b as u32)
        .expect("squares a knight's move apart")
}

/// One walk from `start`; on success `walk` holds the cycle and `moves` its
/// moves (the last one closing it); on failure `walk` holds the stuck walk
/// (its squares still taken) and `moves` its moves, for [`splice`] or
/// [`unwalk`].
#[allow(clippy::too_many_arguments)]
fn try_walk<R: Rng + ?Sized>(
    pad: &Padded,
    min_cycle: usize,
    max_walk: usize,
    start: (usize, usize),
    free: &mut [bool],
    degree: &mut [u8],
    walk: &mut Vec<(usize, usize)>,
    moves: &mut Vec<u8>,
    rng: &mut R,
) -> bool {
    walk.clear();
    moves.clear();
    let visit = |p: usize, free: &mut [bool], degree: &mut [u8]| {
        free[p] = false;
        for o in pad.off {
            let q = (p as isize + o) as usize;
            degree[q] = degree[q].wrapping_sub(1);
        }
    };
    visit(start.0, free, degree);
    walk.push(start);
    loop {
        let (cur, ucur) = *walk.last().expect("the walk has its start");
        if walk.len() >= min_cycle {
            let d = start.0 as isize - cur as isize;
            if let Some(k) = pad.off.iter().position(|&o| o == d) {
                moves.push(k as u8);
                return true;
            }
        }
        let mut pick = LeastOf::new();
        for k in 0..8 {
            let q = (cur as isize + pad.off[k]) as usize;
            if free[q] {
                pick.offer(degree[q], k, rng);
            }
        }
        let best = match pick.item() {
            Some(k) if walk.len() < max_walk => k,
            // Stuck or lost: the caller splices or undoes the walk.
            _ => return false,
        };
        let q = (cur as isize + pad.off[best]) as usize;
        let uq = (ucur as isize + pad.uoff[best]) as usize;
        visit(q, free, degree);
        walk.push((q, uq));
        moves.push(best as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_cover;

    #[test]
    fn tourneys_on_many_boards() {
        let mut rng = crate::rng::seeded(11);
        for r in 3..=14u64 {
            for c in 5..=14u64 {
                let b = Board::new(r, c).unwrap();
                if !crate::exists::closed_tour(b).exists {
                    continue;
                }
                let cover = warnsdorff(b, &WalkOptions::default(), &mut rng).unwrap();
                check_cover(&cover).unwrap_or_else(|e| panic!("{b}: {e}"));
            }
        }
    }

    #[test]
    fn tiles_cover_the_board_with_even_tiles() {
        for (r, c, t) in [
            (1000, 1000, 64),
            (129, 300, 64),
            (200, 131, 64),
            (40, 41, 8),
            (17, 200, 8),
        ] {
            let b = Board::new(r, c).unwrap();
            let (rows, cols) = tiles(b, t);
            assert_eq!(rows.iter().sum::<u32>() as u64, r);
            assert_eq!(cols.iter().sum::<u32>() as u64, c);
            for &h in &rows {
                for &w in &cols {
                    assert_eq!(h * w % 2, 0, "{b}: {h}x{w}");
                    if rows.len() > 1 || cols.len() > 1 {
                        assert!(h.min(w) >= t.min(r.min(c) as u32), "{b}: {h}x{w}");
                    }
                }
            }
        }
        assert_eq!(tiles(Board::new(127, 500).unwrap(), 64).0, vec![127]);
        assert_eq!(
            tiles(Board::new(500, 500).unwrap(), 0),
            (vec![500], vec![500])
        );
    }

    #[test]
    fn tiled_tourneys_are_tourneys() {
        // Small tiles, so that a small board is cut, with and without splicing.
        for (r, c, seed) in [(40, 40, 1), (33, 50, 2), (50, 33, 3)] {
            let b = Board::new(r, c).unwrap();
            for splice in [true, false] {
                let options = WalkOptions {
                    tile: 12,
                    splice,
                    ..WalkOptions::default()
                };
                let cover = warnsdorff(b, &options, &mut crate::rng::seeded(seed)).unwrap();
                check_cover(&cover).unwrap_or_else(|e| panic!("{b}: {e}"));
                // No move crosses a tile border.
                let (rows, _) = tiles(b, 12);
                let border = rows[0];
                for s in 0..b.squares() as u32 {
                    for (k, t) in b.neighbours(s) {
                        if cover.has(s, k) {
                            let (r1, r2) = (b.coords(s).0, b.coords(t).0);
                            assert_eq!(r1 < border, r2 < border, "{b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn same_seed_same_tourney() {
        let b = Board::new(20, 20).unwrap();
        let a = warnsdorff(b, &WalkOptions::default(), &mut crate::rng::seeded(5)).unwrap();
        let again = warnsdorff(b, &WalkOptions::default(), &mut crate::rng::seeded(5)).unwrap();
        assert_eq!(a, again);
    }
}
