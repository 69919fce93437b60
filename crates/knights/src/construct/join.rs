//! How two blocks' cycles become one: the switch of two moves that the
//! layout (`super::layout`) makes along its spanning tree of blocks, and
//! the search for an exchange when no single switch fits.

use super::base::Pattern;
use crate::board::MOVES;
use crate::{Error, Result};

#[derive(Copy, Clone, Debug)]
pub(super) struct Rect {
    pub(super) y: i64,
    pub(super) x: i64,
    pub(super) h: i64,
    pub(super) w: i64,
}

impl Rect {
    fn contains(&self, r: i64, c: i64) -> bool {
        r >= self.y && c >= self.x && r < self.y + self.h && c < self.x + self.w
    }
}

/// The links of the whole board, addressed by (row, column), with the
/// squares whose links were changed.
pub(super) struct Grid<'a> {
    pub(super) links: &'a mut [u8],
    pub(super) rows: i64,
    pub(super) cols: i64,
    pub(super) touched: Vec<(u32, u16)>,
    pub(super) ys: &'a [u32],
    pub(super) xs: &'a [u32],
    pub(super) band_of_row: Vec<u32>,
    pub(super) strip_of_col: Vec<u32>,
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
pub(super) fn join_block(
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
pub(super) type CacheKey = (i64, i64, i64, i64, i64, i64, u8);

/// An exchange of moves, in coordinates relative to the new block's
/// corner: the moves removed and the moves added.
#[derive(Clone, Debug)]
pub(super) struct Exchange {
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
}
