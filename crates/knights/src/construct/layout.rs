//! How a board is cut into blocks, which base each block gets, and how the
//! blocks' cycles are joined into one.
//!
//! The rows are cut into bands and the columns into strips whose sizes come
//! from small sets for which base tours are kept (see [`super::base`]); each
//! block of the grid gets a copy of a base. The blocks are then joined one
//! at a time along a spanning tree of the block grid: each new block `B`,
//! untouched so far, is joined to its already joined neighbour `A` by one
//! switch of two moves. With a move (a, b) of the joined part and a move
//! (c, d) of one of B's cycles, where a-c and b-d are knight's moves, the
//! switch removes (a, b) and (c, d) and adds (a, c) and (b, d). The two were
//! different components, so the result is one cycle (or one path, when the
//! joined part is a path). Every switch keeps every square's number of moves,
//! so at the end there is one cycle or one path through every square.

use super::base::{self, Kind, Pattern};
use crate::board::MOVES;
use crate::{memory, Board, Error, Result};

/// Widths of the 4-row blocks covered by two cycles ([`Kind::Pair`]).
#[cfg(test)]
pub(crate) const PAIR_WIDTHS: [u32; 5] = [5, 6, 7, 8, 9];

/// Cuts `n` into parts of 6, 8 and 10 (mostly 8): every even `n >= 6`, and 0.
pub(crate) fn split_even(n: u32) -> Option<Vec<u32>> {
    if n % 2 == 1 || n == 2 || n == 4 {
        return None;
    }
    let (q, r) = (n / 8, n % 8);
    let mut parts = vec![8; q as usize];
    match r {
        0 => {}
        6 => parts.push(6),
        2 => *parts.last_mut()? = 10,
        _ => {
            // r == 4: 8 + 4 = 12 = 6 + 6
            parts.pop()?;
            parts.extend([6, 6]);
        }
    }
    Some(parts)
}

/// Cuts `n` into parts from 5 to 10 (mostly 8): every `n >= 5`, and 0.
pub(crate) fn split_any(n: u32) -> Option<Vec<u32>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if n < 5 {
        return None;
    }
    if n <= 10 {
        return Some(vec![n]);
    }
    let (q, r) = (n / 8, n % 8);
    let mut parts = vec![8; q as usize];
    match r {
        0 => {}
        5..=7 => parts.push(r),
        _ => {
            parts.pop();
            match 8 + r {
                t @ (9 | 10) => parts.push(t),
                11 => parts.extend([5, 6]),
                _ => parts.extend([6, 6]),
            }
        }
    }
    Some(parts)
}

/// Cuts `n` into parts of 10 to 18 for 3-row blocks: every even `n >= 10`, and 0.
pub(crate) fn split_three(n: u32) -> Option<Vec<u32>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if n % 2 == 1 || n < 10 {
        return None;
    }
    let mut parts = vec![10; (n / 10 - 1) as usize];
    parts.push(10 + n % 10);
    Some(parts)
}

/// Cuts `n` into parts of [`PAIR_WIDTHS`] for 4-row blocks: every `n >= 5`, and 0.
pub(crate) fn split_pair(n: u32) -> Option<Vec<u32>> {
    let mut parts = split_any(n)?;
    if let Some(at) = parts.iter().position(|&p| p == 10) {
        parts.splice(at..=at, [5, 5]);
    }
    Some(parts)
}

/// A board cut into blocks, with an optional special block (the one that
/// holds the path of an open tour).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub rows: Vec<u32>,
    pub cols: Vec<u32>,
    /// (band, strip, pattern) of the block holding a path.
    pub special: Option<(usize, usize, Pattern)>,
}

/// The kind of base an ordinary block of this size gets.
fn kind_for(h: u32, w: u32) -> Kind {
    if h == 4 || w == 4 {
        Kind::Pair
    } else {
        Kind::Closed
    }
}

impl Layout {
    /// The band and strip of the block where joining starts.
    fn root(&self) -> (usize, usize) {
        self.special.as_ref().map_or((0, 0), |&(i, j, _)| (i, j))
    }

    /// The patterns of the ordinary blocks, by size.
    fn patterns(&self) -> Result<Vec<((u32, u32), Pattern)>> {
        let mut out: Vec<((u32, u32), Pattern)> = Vec::new();
        let count = |parts: &[u32], x: u32| parts.iter().filter(|&&p| p == x).count();
        for &h in &self.rows {
            for &w in &self.cols {
                if out.iter().any(|(s, _)| *s == (h, w)) {
                    continue;
                }
                let special = self.special.as_ref().map_or(0, |(i, j, _)| {
                    usize::from((self.rows[*i], self.cols[*j]) == (h, w))
                });
                if count(&self.rows, h) * count(&self.cols, w) == special {
                    continue; // only the special block has this size
                }
                let p = base::pattern(kind_for(h, w), h, w).ok_or_else(|| {
                    Error::Unsupported(
                        format!("the construction has no base block of {h}x{w}").into(),
                    )
                })?;
                out.push(((h, w), p));
            }
        }
        Ok(out)
    }

    /// Which pattern each block gets, with the blocks' offsets.
    pub fn blocks(&self) -> Result<Blocks> {
        let mut patterns: Vec<Pattern> = Vec::new();
        let mut sizes: Vec<(u32, u32)> = Vec::new();
        for ((h, w), p) in self.patterns()? {
            sizes.push((h, w));
            patterns.push(p);
        }
        let special = self.special.as_ref().map(|(i, j, p)| {
            patterns.push(p.clone());
            (*i, *j)
        });
        let mut of = Vec::with_capacity(self.rows.len() * self.cols.len());
        for (i, &h) in self.rows.iter().enumerate() {
            for (j, &w) in self.cols.iter().enumerate() {
                let k = if special == Some((i, j)) {
                    patterns.len() - 1
                } else {
                    sizes
                        .iter()
                        .position(|&s| s == (h, w))
                        .expect("a pattern for every size")
                };
                of.push(k as u16);
            }
        }
        Ok(Blocks {
            ys: offsets(&self.rows),
            xs: offsets(&self.cols),
            patterns,
            of,
            touched: Vec::new(),
        })
    }

    /// The cover of the bases, copied block by block (row by row of the
    /// board, so it is written once, in order), and, when `join` is set,
    /// joined into one cycle or path. Returns the cover and the blocks, with
    /// every square a join touched.
    ///
    /// # Complexity
    /// O(rows * cols): one copy per square and a bounded search per block.
    pub fn build(&self, board: Board, join: bool) -> Result<(Vec<u8>, Blocks)> {
        let n = board.squares();
        let mut blocks = self.blocks()?;
        memory::ensure_fits(board, "construction", 5)?;
        let mut links: Vec<u8> = Vec::new();
        links
            .try_reserve_exact(n)
            .map_err(|_| memory::too_large(board, "construction", n as u64))?;
        let strips = self.cols.len();
        for (i, &h) in self.rows.iter().enumerate() {
            for rr in 0..h as usize {
                for j in 0..strips {
                    let p = blocks.pattern(i, j);
                    let w = p.cols as usize;
                    links.extend_from_slice(&p.links[rr * w..rr * w + w]);
                }
            }
        }
        debug_assert_eq!(links.len(), n);
        if !join {
            return Ok((links, blocks));
        }
        let (ys, xs) = (&blocks.ys, &blocks.xs);
        // Boards with a side of 3 are walked square by square from their
        // cover, so their joins need not note what they change.
        let note = board.rows() != 3 && board.cols() != 3;
        let mut grid = Grid {
            links: &mut links,
            rows: i64::from(board.rows()),
            cols: i64::from(board.cols()),
            touched: Vec::with_capacity(if note {
                self.rows.len() * self.cols.len() * 4
            } else {
                0
            }),
            ys,
            xs,
            band_of_row: if note { owners(ys) } else { Vec::new() },
            strip_of_col: if note { owners(xs) } else { Vec::new() },
        };
        let rect = |i: usize, j: usize| Rect {
            y: i64::from(ys[i]),
            x: i64::from(xs[j]),
            h: i64::from(self.rows[i]),
            w: i64::from(self.cols[j]),
        };
        let mut cache = Vec::new();
        tree(
            self.rows.len(),
            self.cols.len(),
            self.root(),
            &mut |i, j, parent| {
                let a = parent.map(|(pi, pj)| rect(pi, pj));
                join_block(&mut grid, rect(i, j), blocks.pattern(i, j), a, &mut cache)
            },
        )?;
        let touched = grid.touched;
        blocks.touched = touched;
        Ok((links, blocks))
    }
}

/// The blocks of a layout: their offsets and the pattern each one gets.
#[derive(Clone, Debug)]
pub(crate) struct Blocks {
    /// Start row of each band, with the number of rows at the end.
    pub ys: Vec<u32>,
    /// Start column of each strip, with the number of columns at the end.
    pub xs: Vec<u32>,
    /// The distinct patterns (the special block's last).
    pub patterns: Vec<Pattern>,
    /// The pattern of each block, band by band.
    pub of: Vec<u16>,
    /// Every square whose moves a join changed (some more than once), as
    /// (block, index in the block), blocks numbered band by band; empty on
    /// boards with a side of 3 (walked square by square).
    pub touched: Vec<(u32, u16)>,
}

impl Blocks {
    /// The number of strips.
    pub fn strips(&self) -> usize {
        self.xs.len() - 1
    }

    /// The pattern of the block in band `i` and strip `j`.
    pub fn pattern(&self, i: usize, j: usize) -> &Pattern {
        &self.patterns[usize::from(self.of[i * self.strips() + j])]
    }
}

/// For each row (or column), the index of the band (or strip) holding it,
/// from the start offsets of the parts (with the total at the end).
pub(crate) fn owners(offsets: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(*offsets.last().unwrap_or(&0) as usize);
    for (i, w) in offsets.windows(2).enumerate() {
        out.extend(std::iter::repeat_n(i as u32, (w[1] - w[0]) as usize));
    }
    out
}

/// Start offsets of the parts, with the total at the end.
fn offsets(parts: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(parts.len() + 1);
    let mut at = 0;
    out.push(0);
    for &p in parts {
        at += p;
        out.push(at);
    }
    out
}

/// Calls `visit(band, strip, parent)` for every block in joining order,
/// each with its parent (a neighbour visited earlier; `None` for the root):
/// along the root's band outwards, then band by band outwards, each band
/// starting from the root's strip. Stops at the first error.
fn tree(
    bands: usize,
    strips: usize,
    root: (usize, usize),
    visit: &mut dyn FnMut(usize, usize, Option<(usize, usize)>) -> Result<()>,
) -> Result<()> {
    let (i0, j0) = root;
    let mut band = |i: usize, first_parent: Option<(usize, usize)>| -> Result<()> {
        visit(i, j0, first_parent)?;
        for j in j0 + 1..strips {
            visit(i, j, Some((i, j - 1)))?;
        }
        for j in (0..j0).rev() {
            visit(i, j, Some((i, j + 1)))?;
        }
        Ok(())
    };
    band(i0, None)?;
    for i in i0 + 1..bands {
        band(i, Some((i - 1, j0)))?;
    }
    for i in (0..i0).rev() {
        band(i, Some((i + 1, j0)))?;
    }
    Ok(())
}

#[derive(Copy, Clone, Debug)]
struct Rect {
    y: i64,
    x: i64,
    h: i64,
    w: i64,
}

impl Rect {
    fn contains(&self, r: i64, c: i64) -> bool {
        r >= self.y && c >= self.x && r < self.y + self.h && c < self.x + self.w
    }
}

/// The links of the whole board, addressed by (row, column), with the
/// squares whose links were changed.
struct Grid<'a> {
    links: &'a mut [u8],
    rows: i64,
    cols: i64,
    touched: Vec<(u32, u16)>,
    ys: &'a [u32],
    xs: &'a [u32],
    band_of_row: Vec<u32>,
    strip_of_col: Vec<u32>,
}

impl Grid<'_> {
    fn at(&self, r: i64, c: i64) -> usize {
        (r * self.cols + c) as usize
    }

    /// Notes that the links of (r, c) changed (when noting at all).
    fn touch(&mut self, r: i64, c: i64) {
        if self.band_of_row.is_empty() {
            return;
        }
        let (r, c) = (r as usize, c as usize);
        let (i, j) = (self.band_of_row[r] as usize, self.strip_of_col[c] as usize);
        let w = (self.xs[j + 1] - self.xs[j]) as usize;
        let local = (r - self.ys[i] as usize) * w + (c - self.xs[j] as usize);
        let block = i * (self.xs.len() - 1) + j;
        self.touched.push((block as u32, local as u16));
    }

    fn set(&mut self, r: i64, c: i64, k: usize, on: bool) {
        let (dx, dy) = MOVES[k];
        let (i, j) = (self.at(r, c), self.at(r + i64::from(dy), c + i64::from(dx)));
        if on {
            self.links[i] |= 1 << k;
            self.links[j] |= 1 << (k ^ 4);
        } else {
            self.links[i] &= !(1 << k);
            self.links[j] &= !(1 << (k ^ 4));
        }
    }
}

/// The move from one square to another (row and column differences).
fn knight(dr: i64, dc: i64) -> Option<usize> {
    crate::board::move_for(dc, dr).map(usize::from)
}

/// Joins every cycle of block `b` (pattern `p`, untouched so far) to the
/// joined part, which is `parent` and, as they join, `b`'s own cycles.
fn join_block(
    grid: &mut Grid<'_>,
    b: Rect,
    p: &Pattern,
    parent: Option<Rect>,
    cache: &mut Vec<(CacheKey, Exchange)>,
) -> Result<()> {
    let full: u32 = (1u32 << p.parts) - 1;
    let mut joined: u32 = if parent.is_none() { 1 } else { 0 };
    // Scan B from the side that faces the parent.
    let (h, w) = (b.h, b.w);
    let order = |n: i64| -> (i64, i64) {
        match parent {
            Some(a) if a.x + a.w == b.x => (n % h, n / h), // parent on the left
            Some(a) if a.x == b.x + b.w => (n % h, w - 1 - n / h), // on the right
            Some(a) if a.y + a.h == b.y => (n / w, n % w), // above
            Some(_) => (h - 1 - n / w, n % w),             // below
            None => (n / w, n % w),
        }
    };
    // Between 3-row blocks no single switch exists (every 4-cycle of the
    // knight graph on 3 rows has both pairs of opposite moves touching one
    // column), so go straight to the exchange there.
    let thin = h == 3 || w == 3;
    // A block of one cycle: the switch that joined the last block of this
    // size, placed the same way, usually fits again.
    let key: Option<CacheKey> = parent
        .filter(|_| p.parts == 1 && !thin)
        .map(|a| (a.h, a.w, b.h, b.w, a.y - b.y, a.x - b.x, u8::MAX));
    if let Some(key) = key {
        if let Some((_, x)) = cache.iter().find(|(k, _)| *k == key) {
            if apply(grid, b, x) {
                return Ok(());
            }
        }
    }
    while joined != full {
        let mut done = false;
        'scan: for n in 0..if thin { 0 } else { h * w } {
            let (lr, lc) = order(n);
            let lab = u32::from(p.label[(lr * w + lc) as usize]);
            if joined & (1 << lab) != 0 {
                continue;
            }
            let (r, c) = (b.y + lr, b.x + lc);
            let cl = grid.links[grid.at(r, c)];
            for l in (0..8).filter(|l| cl & (1 << l) != 0) {
                let (dx, dy) = MOVES[l];
                let (dr_, dc_) = (r + i64::from(dy), c + i64::from(dx));
                for (j, &(jx, jy)) in MOVES.iter().enumerate() {
                    let (ar, ac) = (r + i64::from(jy), c + i64::from(jx));
                    if ar < 0 || ac < 0 || ar >= grid.rows || ac >= grid.cols {
                        continue;
                    }
                    let in_joined = parent.is_some_and(|a| a.contains(ar, ac))
                        || (b.contains(ar, ac)
                            && joined & (1 << p.label[((ar - b.y) * w + (ac - b.x)) as usize])
                                != 0);
                    if !in_joined {
                        continue;
                    }
                    let al = grid.links[grid.at(ar, ac)];
                    for k in (0..8).filter(|k| al & (1 << k) != 0) {
                        let (kx, ky) = MOVES[k];
                        let (br, bc) = (ar + i64::from(ky), ac + i64::from(kx));
                        if let Some(bd) = knight(dr_ - br, dc_ - bc) {
                            grid.set(ar, ac, k, false);
                            grid.set(r, c, l, false);
                            grid.set(ar, ac, j ^ 4, true);
                            grid.set(br, bc, bd, true);
                            for (tr, tc) in [(ar, ac), (r, c), (br, bc), (dr_, dc_)] {
                                grid.touch(tr, tc);
                            }
                            if let Some(key) = key {
                                let rel = |r: i64, c: i64| (r - b.y, c - b.x);
                                let x = Exchange {
                                    remove: vec![
                                        (rel(ar, ac), rel(br, bc)),
                                        (rel(r, c), rel(dr_, dc_)),
                                    ],
                                    add: vec![
                                        (rel(ar, ac), rel(r, c)),
                                        (rel(br, bc), rel(dr_, dc_)),
                                    ],
                                };
                                cache.retain(|(k, _)| *k != key);
                                cache.push((key, x));
                            }
                            joined |= 1 << lab;
                            done = true;
                            break 'scan;
                        }
                    }
                }
            }
        }
        if !done {
            done = exchange(grid, b, p, parent, joined, cache)
                .map(|lab| joined |= 1 << lab)
                .is_some();
        }
        if !done {
            return Err(Error::GaveUp(format!(
                "the construction found no switch joining the {}x{} block at ({}, {}) to its neighbour",
                b.h, b.w, b.y, b.x
            ).into()));
        }
    }
    Ok(())
}

/// What a cached exchange is good for: the sizes of the parent and the new
/// block, where the parent lies, and the part of the new block it joins.
type CacheKey = (i64, i64, i64, i64, i64, i64, u8);

/// An exchange of moves, in coordinates relative to the new block's
/// corner: the moves removed and the moves added.
#[derive(Clone, Debug)]
struct Exchange {
    remove: Vec<((i64, i64), (i64, i64))>,
    add: Vec<((i64, i64), (i64, i64))>,
}

/// The joining of last resort, for blocks with no single switch between
/// them (3-row blocks, where every 4-cycle of the knight graph has both
/// of its switchable pairs of moves touching one column): remove a move
/// (a, b) of the joined part and two moves (c, d), (e, f) of one unjoined
/// cycle of `b`, and add three moves pairing up a..f, chosen so that the
/// result is one cycle. The joined part, seen from here, is one path from a
/// to b (or, when it is a path itself, the same with a virtual move between
/// its ends); the new cycle minus two moves is two paths whose ends are
/// known from the base order. A search over moves near the boundary,
/// remembered by block sizes; a remembered exchange is reused only while
/// its three moves are still there. Returns the part joined.
fn exchange(
    grid: &mut Grid<'_>,
    b: Rect,
    p: &Pattern,
    parent: Option<Rect>,
    joined: u32,
    cache: &mut Vec<(CacheKey, Exchange)>,
) -> Option<u32> {
    let a = parent?;
    let lab = (0..u32::from(p.parts)).find(|l| joined & (1 << l) == 0)?;
    let key: CacheKey = (a.h, a.w, b.h, b.w, a.y - b.y, a.x - b.x, lab as u8);
    if let Some((_, x)) = cache.iter().find(|(k, _)| *k == key) {
        if apply(grid, b, x) {
            return Some(lab);
        }
    }
    let x = find_exchange(grid, a, b, p, lab)?;
    cache.retain(|(k, _)| *k != key);
    cache.push((key, x.clone()));
    apply(grid, b, &x).then_some(lab)
}

/// Applies exchange `x` (relative to `b`'s corner) if every move it removes
/// is there and none it adds is; says whether it did.
fn apply(grid: &mut Grid<'_>, b: Rect, x: &Exchange) -> bool {
    let abs = |(r, c): (i64, i64)| (r + b.y, c + b.x);
    let inside = |(r, c): (i64, i64)| r >= 0 && c >= 0 && r < grid.rows && c < grid.cols;
    let has = |grid: &Grid<'_>, (u, v): ((i64, i64), (i64, i64))| {
        let (u, v) = (abs(u), abs(v));
        inside(u)
            && inside(v)
            && knight(v.0 - u.0, v.1 - u.1)
                .is_some_and(|k| grid.links[grid.at(u.0, u.1)] & (1 << k) != 0)
    };
    let fits = x.remove.iter().all(|&e| has(grid, e))
        && x.add
            .iter()
            .all(|&(u, v)| inside(abs(u)) && inside(abs(v)) && !has(grid, (u, v)));
    if !fits {
        return false;
    }
    for &(u, v) in &x.remove {
        let (u, v) = (abs(u), abs(v));
        let k = knight(v.0 - u.0, v.1 - u.1).expect("checked above");
        grid.set(u.0, u.1, k, false);
        grid.touch(u.0, u.1);
        grid.touch(v.0, v.1);
    }
    for &(u, v) in &x.add {
        let (u, v) = (abs(u), abs(v));
        let k = knight(v.0 - u.0, v.1 - u.1).expect("an exchange adds knight's moves");
        grid.set(u.0, u.1, k, true);
    }
    true
}

/// Searches for an [`Exchange`] joining part `lab` of block `b` to the parent `a`.
fn find_exchange(grid: &Grid<'_>, a: Rect, b: Rect, p: &Pattern, lab: u32) -> Option<Exchange> {
    const DEPTH: i64 = 4;
    let near = |r: i64, c: i64, rect: Rect, other: Rect| -> bool {
        let dr = if other.y >= rect.y + rect.h {
            rect.y + rect.h - 1 - r
        } else if other.y + other.h <= rect.y {
            r - rect.y
        } else {
            0
        };
        let dc = if other.x >= rect.x + rect.w {
            rect.x + rect.w - 1 - c
        } else if other.x + other.w <= rect.x {
            c - rect.x
        } else {
            0
        };
        dr < DEPTH && dc < DEPTH
    };
    let edges = |rect: Rect, other: Rect, want: &dyn Fn(i64, i64) -> bool| {
        let mut out = Vec::new();
        for r in rect.y..rect.y + rect.h {
            for c in rect.x..rect.x + rect.w {
                if !near(r, c, rect, other) || !want(r, c) {
                    continue;
                }
                let l = grid.links[grid.at(r, c)];
                for k in (0..8).filter(|k| l & (1 << k) != 0) {
                    let (dx, dy) = MOVES[k];
                    out.push(((r, c), (r + i64::from(dy), c + i64::from(dx))));
                }
            }
        }
        out
    };
    let local = |(r, c): (i64, i64)| ((r - b.y) * b.w + (c - b.x)) as usize;
    let in_part = |r: i64, c: i64| u32::from(p.label[local((r, c))]) == lab;
    let a_edges = edges(a, b, &|_, _| true);
    let b_edges: Vec<_> = edges(b, a, &in_part)
        .into_iter()
        .filter(|&(u, v)| b.contains(v.0, v.1) && local(u) < local(v))
        .collect();
    let len = p.label.iter().filter(|&&l| u32::from(l) == lab).count() as i64;
    let ord = |s: (i64, i64)| i64::from(p.order[local(s)]);
    // Orient a move of the cycle along the base order.
    let orient = |(u, v): ((i64, i64), (i64, i64))| {
        if (ord(u) + 1) % len == ord(v) {
            (u, v)
        } else {
            (v, u)
        }
    };
    let linked = |u: (i64, i64), v: (i64, i64)| {
        knight(v.0 - u.0, v.1 - u.1).is_some_and(|k| grid.links[grid.at(u.0, u.1)] & (1 << k) != 0)
    };
    for k in 2..=3usize {
        for &(na, nb) in &a_edges {
            let mut pick = Vec::with_capacity(k);
            if let Some(x) = choose(&b_edges, 0, k, &mut pick, &mut |chosen| {
                let mut cut: Vec<_> = chosen.iter().map(|&e| orient(e)).collect();
                cut.sort_by_key(|&(c, _)| ord(c));
                let mut nodes = vec![na, nb];
                for &(c, d) in &cut {
                    nodes.extend([c, d]);
                }
                if (1..nodes.len()).any(|i| nodes[..i].contains(&nodes[i])) {
                    return None;
                }
                // Fixed links: a~b, and d_i ~ c_(i+1) along the cut cycle.
                let n = nodes.len();
                let fixed: Vec<usize> = (0..n)
                    .map(|i| match i {
                        0 => 1,
                        1 => 0,
                        _ if i % 2 == 1 => {
                            if i + 1 < n {
                                i + 1
                            } else {
                                2
                            }
                        }
                        _ => {
                            if i == 2 {
                                n - 1
                            } else {
                                i - 1
                            }
                        }
                    })
                    .collect();
                let ok = |u: usize, v: usize| {
                    let (su, sv) = (nodes[u], nodes[v]);
                    knight(sv.0 - su.0, sv.1 - su.1).is_some() && !linked(su, sv)
                };
                let mut partner = vec![usize::MAX; n];
                if !matching(&mut partner, &ok, &fixed) {
                    return None;
                }
                let rel = |s: (i64, i64)| (s.0 - b.y, s.1 - b.x);
                let mut remove = vec![(rel(na), rel(nb))];
                remove.extend(cut.iter().map(|&(c, d)| (rel(c), rel(d))));
                let add = (0..n)
                    .filter(|&u| partner[u] > u)
                    .map(|u| (rel(nodes[u]), rel(nodes[partner[u]])))
                    .collect();
                Some(Exchange { remove, add })
            }) {
                return Some(x);
            }
        }
    }
    None
}

/// Calls `f` on every choice of `k` items of `items[from..]` until it says yes.
fn choose<T: Copy, R>(
    items: &[T],
    from: usize,
    k: usize,
    pick: &mut Vec<T>,
    f: &mut dyn FnMut(&[T]) -> Option<R>,
) -> Option<R> {
    if pick.len() == k {
        return f(pick);
    }
    for i in from..items.len() {
        pick.push(items[i]);
        let r = choose(items, i + 1, k, pick, f);
        pick.pop();
        if r.is_some() {
            return r;
        }
    }
    None
}

/// Completes `partner` to a perfect matching of allowed pairs under which
/// the fixed links and the matching form one cycle through every node.
fn matching(partner: &mut [usize], ok: &dyn Fn(usize, usize) -> bool, fixed: &[usize]) -> bool {
    let Some(u) = partner.iter().position(|&p| p == usize::MAX) else {
        let (mut at, mut seen) = (0usize, 0);
        loop {
            at = partner[fixed[at]];
            seen += 2;
            if at == 0 {
                return seen == partner.len();
            }
        }
    };
    for v in u + 1..partner.len() {
        if partner[v] == usize::MAX && ok(u, v) {
            partner[u] = v;
            partner[v] = u;
            if matching(partner, ok, fixed) {
                return true;
            }
            partner[u] = usize::MAX;
            partner[v] = usize::MAX;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_add_up_and_use_known_sizes() {
        for n in 0..400 {
            if let Some(p) = split_even(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| [6, 8, 10].contains(x)), "{n}: {p:?}");
            } else {
                assert!(n % 2 == 1 || n == 2 || n == 4, "{n}");
            }
            if let Some(p) = split_any(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| (5..=10).contains(x)), "{n}: {p:?}");
            } else {
                assert!((1..5).contains(&n), "{n}");
            }
            if let Some(p) = split_three(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| [10, 12, 14, 16, 18].contains(x)), "{n}");
            } else {
                assert!(n % 2 == 1 || (1..10).contains(&n), "{n}");
            }
            if let Some(p) = split_pair(n) {
                assert_eq!(p.iter().sum::<u32>(), n);
                assert!(p.iter().all(|x| PAIR_WIDTHS.contains(x)), "{n}");
            } else {
                assert!((1..5).contains(&n), "{n}");
            }
        }
    }

    #[test]
    fn knight_finds_every_move_and_nothing_else() {
        for dr in -4..=4 {
            for dc in -4..=4 {
                let want = MOVES
                    .iter()
                    .position(|&(dx, dy)| i64::from(dx) == dc && i64::from(dy) == dr);
                assert_eq!(knight(dr, dc), want, "{dr} {dc}");
            }
        }
    }

    #[test]
    fn the_tree_reaches_every_block_from_a_neighbour() {
        for (bands, strips) in [(1, 1), (1, 5), (4, 1), (3, 4)] {
            for i0 in 0..bands {
                for j0 in 0..strips {
                    let mut t = Vec::new();
                    tree(bands, strips, (i0, j0), &mut |i, j, p| {
                        t.push((i, j, p));
                        Ok(())
                    })
                    .unwrap();
                    assert_eq!(t.len(), bands * strips);
                    assert_eq!(t[0], (i0, j0, None));
                    for (n, &(i, j, parent)) in t.iter().enumerate().skip(1) {
                        let (pi, pj) = parent.unwrap();
                        assert_eq!(i.abs_diff(pi) + j.abs_diff(pj), 1);
                        assert!(t[..n].iter().any(|&(a, b, _)| (a, b) == (pi, pj)));
                    }
                }
            }
        }
    }
}
