//! Meet across a small separator: the open tours of boards whose knight
//! graph falls apart into two images of one half when a small block of
//! squares is taken out.
//!
//! Take the 4x2 block in the middle of 6x6 out (rows 1 to 4, columns 2
//! and 3): the other 28 squares form two pieces of 14 with no knight's
//! move between them, each the other's mirror image. A Hamiltonian path
//! splits in one way into the edges of one *half* (the edges with an end
//! in its piece, and some of the edges between separator squares) and the
//! edges of the other, so the open meet (`meet_paths.rs`) counts it from
//! the halves' final states on the *separator*, the block. One run of the
//! frontier program gives both halves (the second half's states are the
//! first's, moved by the symmetry), and it ends on 8 squares instead of
//! the 12 of the two separator rows, so it makes fewer successors and far
//! fewer final states and pairs to test than the row cut (the figures:
//! BENCHMARKS.md, "Exact counting").
//!
//! [`Plan::find`] looks for such a block among the rectangles of the board
//! smaller than the two rows of the row cut, and for each with a symmetry
//! of the board that keeps the block and takes every piece to another: the
//! pieces are dealt to the halves, an image to the other half, and so are
//! the edges between separator squares (none may be its own image). Where
//! it can, it deals them so that a half is also symmetric in itself (its
//! *mirror*), so that the frontier program keeps its states up to that
//! mirror image. The half's squares are processed in the best of ten
//! greedy orders that keep the frontier short (see [`Plan::best_order`]).

use super::halves::{square_colour, MAX_WIDTH};
use crate::board::Board;
use crate::count::engine::frontier::{Problem, Route, MAX_FRONTIER};

/// A square as (row, column).
pub(in crate::count) type Square = (usize, usize);

/// A symmetry of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(in crate::count) enum Symmetry {
    UpsideDown,
    Mirror,
    HalfTurn,
    /// Square boards only: rows become columns.
    Transpose,
    /// Square boards only: the transpose about the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    const ALL: [Symmetry; 5] = [
        Symmetry::UpsideDown,
        Symmetry::Mirror,
        Symmetry::HalfTurn,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether this is a symmetry of a `rows x w` board.
    fn fits(self, rows: usize, w: usize) -> bool {
        rows == w || !matches!(self, Symmetry::Transpose | Symmetry::AntiTranspose)
    }

    /// The image of square `(r, c)` on a `rows x w` board.
    pub(in crate::count) fn of(self, rows: usize, w: usize, (r, c): Square) -> Square {
        match self {
            Symmetry::UpsideDown => (rows - 1 - r, c),
            Symmetry::Mirror => (r, w - 1 - c),
            Symmetry::HalfTurn => (rows - 1 - r, w - 1 - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (w - 1 - c, rows - 1 - r),
        }
    }
}

/// How a board is cut for the meet across a separator (see the module notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::count) struct Plan {
    pub rows: usize,
    pub w: usize,
    /// The separator's squares, in the order of their separator indices.
    pub separator: Vec<Square>,
    /// The squares of one half's pieces.
    pub half: Vec<Square>,
    /// The edges between separator squares that belong to the half.
    pub half_edges: Vec<(Square, Square)>,
    /// The symmetry that takes the half to the other half.
    pub swap: Symmetry,
    /// A symmetry of the half itself, if it has one.
    pub mirror: Option<Symmetry>,
    /// The half's squares (its pieces and the separator) in processing
    /// order (see [`Plan::best_order`]).
    pub order: Vec<Square>,
    /// The widest frontier of that order (the frontier program's width).
    pub widest: usize,
}

/// The squares a knight's move from `(r, c)` on a `rows x w` board.
fn moves(rows: usize, w: usize, (r, c): Square) -> impl Iterator<Item = Square> {
    let board = Board::new(rows as u64, w as u64).expect("a board being counted");
    let from = board.square(r as u32, c as u32);
    (0..8).filter_map(move |k| {
        let (r, c) = board.coords(board.step(from, k)?);
        Some((r as usize, c as usize))
    })
}

impl Plan {
    /// The plan with the fewest separator squares (and then one whose half
    /// has a mirror) for a `rows x w` board, if one has fewer than the
    /// row cut's `2 * min(rows, w)` and at most 16 (an end's mate must fit
    /// in 4 bits). The search is deterministic: rectangles in order, then
    /// symmetries in order.
    pub(in crate::count) fn find(rows: usize, w: usize) -> Option<Plan> {
        // On a board twice as long as wide or longer, a block smaller than
        // the row cut's leaves long thin halves, whose frontier is no
        // narrower than the row cut's (9x5: 13 squares against 11); such
        // boards are not searched.
        if rows.max(w) >= 2 * rows.min(w) {
            return None;
        }
        let limit = (2 * rows.min(w)).min(2 * MAX_WIDTH + 1);
        let mut best: Option<Plan> = None;
        let rank = |p: &Plan| (p.separator.len(), p.mirror.is_none());
        for r0 in 0..rows {
            for r1 in r0..rows {
                for c0 in 0..w {
                    for c1 in c0..w {
                        let size = (r1 - r0 + 1) * (c1 - c0 + 1);
                        if size >= limit || best.as_ref().is_some_and(|b| size > b.separator.len())
                        {
                            continue;
                        }
                        // Only a block that some symmetry keeps can do.
                        let kept = r0 + r1 == rows - 1
                            || c0 + c1 == w - 1
                            || (rows == w && ((r0, r1) == (c0, c1) || r0 + c1 == w - 1));
                        if !kept {
                            continue;
                        }
                        let block: Vec<Square> = (r0..=r1)
                            .flat_map(|r| (c0..=c1).map(move |c| (r, c)))
                            .collect();
                        for swap in Symmetry::ALL {
                            let Some(p) = Plan::with(rows, w, &block, swap) else {
                                continue;
                            };
                            if best.as_ref().is_none_or(|b| rank(&p) < rank(b)) {
                                best = Some(p);
                            }
                        }
                    }
                }
            }
        }
        best
    }

    /// The plan with separator `block` and the symmetry `swap` between the
    /// halves, if they make one.
    fn with(rows: usize, w: usize, block: &[Square], swap: Symmetry) -> Option<Plan> {
        if !swap.fits(rows, w) || !keeps_block(swap, rows, w, block) {
            return None;
        }
        // The pieces left when the block is taken out (none may be its own
        // image), and the edges between separator squares (none either).
        let pieces = Pieces::new(rows, w, block, swap)?;
        let piece_swap = pieces.images(swap);
        if pieces.count < 2 {
            return None;
        }
        let edges = BlockEdges::new(rows, w, block);
        let edge_swap = edges.images(swap);
        if (0..edge_swap.len()).any(|e| edge_swap[e] == e) {
            return None;
        }
        // Deal the pieces and the edges: with a mirror of the half where
        // one fits, else each first one to the half.
        let deal = |mirror: Option<Symmetry>| -> Option<(Vec<bool>, Vec<bool>)> {
            let (piece_mirror, edge_mirror) = match mirror {
                Some(m) => (pieces.images(m), edges.images(m)),
                None => ((0..pieces.count).collect(), (0..edge_swap.len()).collect()),
            };
            Some((
                deal_to_half(&piece_swap, &piece_mirror)?,
                deal_to_half(&edge_swap, &edge_mirror)?,
            ))
        };
        let (mirror, (in_half, edge_in_half)) = half_mirrors(rows, w, block, swap)
            .map(Some)
            .chain([None])
            .find_map(|m| deal(m).map(|d| (m, d)))?;
        let mut plan = Plan {
            rows,
            w,
            separator: block.to_vec(),
            half: pieces.squares(&in_half),
            half_edges: edges.chosen(&edge_in_half),
            swap,
            mirror,
            order: Vec::new(),
            widest: 0,
        };
        (plan.order, plan.widest) = plan.best_order();
        // The frontier program must hold the half's frontier.
        (plan.widest < MAX_FRONTIER).then_some(plan)
    }

    /// Whether the edge between `a` and `b` (both on the board, a knight's
    /// move apart) belongs to the half.
    fn in_half(&self, a: Square, b: Square) -> bool {
        let (ha, hb) = (self.half.contains(&a), self.half.contains(&b));
        let (sa, sb) = (self.separator.contains(&a), self.separator.contains(&b));
        (ha && (hb || sb))
            || (hb && sa)
            || (sa && sb && self.half_edges.iter().any(|&e| e == (a, b) || e == (b, a)))
    }

    /// The half's squares (its pieces and the separator) in processing
    /// order, and the widest frontier. Each candidate order is greedy: the
    /// square that leaves the fewest squares waiting (separator squares
    /// always wait), then the one with the most edges back, found in one of
    /// five scans of the squares (the half's by rows and then the
    /// separator's, or all by rows or columns, either way), and with or
    /// without each square's mirror image right after it (which lets the
    /// frontier program keep its states up to that image). The one taken
    /// has the narrowest frontier, then the least sum over its steps of 3 to
    /// the frontier's width, halved where the squares processed are their
    /// own mirror image: a measure of the states, which differ several times
    /// over among these orders (BENCHMARKS.md, "Exact counting").
    fn best_order(&self) -> (Vec<Square>, usize) {
        let squares: Vec<Square> = self.half.iter().chain(&self.separator).copied().collect();
        type Key = fn(&Square) -> (usize, usize);
        let keys: [Key; 4] = [
            |&(r, c)| (r, c),
            |&(r, c)| (c, r),
            |&(r, c)| (usize::MAX - r, usize::MAX - c),
            |&(r, c)| (usize::MAX - c, usize::MAX - r),
        ];
        let scans = std::iter::once(squares.clone()).chain(keys.iter().map(|key| {
            let mut sorted = squares.clone();
            sorted.sort_by_key(key);
            sorted
        }));
        let mut best: Option<((usize, f64), Vec<Square>, usize)> = None;
        for squares in scans {
            let graph = HalfGraph::new(self, &squares);
            for paired in [true, false] {
                if paired && self.mirror.is_none() {
                    continue;
                }
                let (order, widths) = graph.greedy(paired);
                let widest = widths.iter().map(|w| w.0).max().unwrap_or(0);
                let states: f64 = widths
                    .iter()
                    .map(|&(w, symmetric)| 3f64.powi(w as i32) / if symmetric { 2.0 } else { 1.0 })
                    .sum();
                if best.as_ref().is_none_or(|b| (widest, states) < b.0) {
                    let order = order.into_iter().map(|i| squares[i]).collect();
                    best = Some(((widest, states), order, widest));
                }
            }
        }
        let (_, order, widest) = best.expect("one order at least");
        (order, widest)
    }

    /// The half as a frontier problem, and the separator index of each of
    /// its vertices.
    pub(in crate::count) fn problem(&self) -> (Problem, Vec<Option<u8>>) {
        let order = &self.order;
        let index = |x: Square| order.iter().position(|&y| y == x);
        let n = order.len();
        let mut back = vec![Vec::new(); n];
        let mut external = vec![0u8; n];
        for (v, &x) in order.iter().enumerate() {
            for y in moves(self.rows, self.w, x) {
                match index(y) {
                    Some(u) if self.in_half(x, y) => {
                        if u < v {
                            back[v].push((u as u32, 0));
                        }
                    }
                    _ => external[v] += 1,
                }
            }
        }
        let sep_of = order
            .iter()
            .map(|x| self.separator.iter().position(|y| y == x).map(|i| i as u8))
            .collect();
        let problem = Problem {
            n,
            back,
            modulus: 1,
            shape: Route::Path,
            terminal_ok: vec![true; n],
            external,
            colour: order.iter().map(|&(r, c)| square_colour(r, c)).collect(),
            twice_colour_total: if (self.rows * self.w).is_multiple_of(2) {
                0
            } else {
                2
            },
            mirror: match self.mirror {
                Some(m) => order
                    .iter()
                    .map(|&x| {
                        index(m.of(self.rows, self.w, x)).expect("the mirror keeps the half") as u32
                    })
                    .collect(),
                None => Vec::new(),
            },
            prefixes: Vec::new(),
            row: 0,
        };
        (problem, sep_of)
    }

    /// The separator index of each separator square's image under `sym`.
    pub(in crate::count) fn separator_image(&self, sym: Symmetry) -> Vec<usize> {
        self.separator
            .iter()
            .map(|&s| {
                let t = sym.of(self.rows, self.w, s);
                self.separator
                    .iter()
                    .position(|&x| x == t)
                    .expect("the symmetries keep the separator")
            })
            .collect()
    }
}

/// Whether `sym` takes every square of `block` into the block.
fn keeps_block(sym: Symmetry, rows: usize, w: usize, block: &[Square]) -> bool {
    block.iter().all(|&s| block.contains(&sym.of(rows, w, s)))
}

/// The symmetries that may be a half's mirror when `swap` takes the half
/// to the other: those of the board, other than `swap`, that keep the
/// block and commute with `swap`.
fn half_mirrors<'a>(
    rows: usize,
    w: usize,
    block: &'a [Square],
    swap: Symmetry,
) -> impl Iterator<Item = Symmetry> + 'a {
    Symmetry::ALL.into_iter().filter(move |&m| {
        m != swap
            && m.fits(rows, w)
            && keeps_block(m, rows, w, block)
            && (0..rows).all(|r| {
                (0..w).all(|c| {
                    let sq = (r, c);
                    m.of(rows, w, swap.of(rows, w, sq)) == swap.of(rows, w, m.of(rows, w, sq))
                })
            })
    })
}

/// Deals items (the pieces, or the edges between separator squares) to
/// the half: each item not dealt yet and its image under the half's
/// mirror (`mirrored`) to the half, and their images under the swap
/// (`swapped`) to the other half. `None` if an item would go to both.
fn deal_to_half(swapped: &[usize], mirrored: &[usize]) -> Option<Vec<bool>> {
    let n = swapped.len();
    let mut side: Vec<Option<bool>> = vec![None; n];
    for x in 0..n {
        if side[x].is_some() {
            continue;
        }
        for (y, half) in [
            (x, true),
            (mirrored[x], true),
            (swapped[x], false),
            (swapped[mirrored[x]], false),
        ] {
            if side[y].is_some_and(|s| s != half) {
                return None;
            }
            side[y] = Some(half);
        }
    }
    Some(side.into_iter().map(|s| s == Some(true)).collect())
}

/// The pieces a board falls into when a block of squares is taken out.
struct Pieces {
    rows: usize,
    w: usize,
    /// Each square's piece (`usize::MAX` on the block).
    piece: Vec<Vec<usize>>,
    /// How many pieces there are.
    count: usize,
}

impl Pieces {
    /// The pieces of a `rows x w` board without `block`, or `None` if one
    /// of them is its own image under `swap`.
    fn new(rows: usize, w: usize, block: &[Square], swap: Symmetry) -> Option<Pieces> {
        let mut in_block = vec![vec![false; w]; rows];
        for &(r, c) in block {
            in_block[r][c] = true;
        }
        let mut piece = vec![vec![usize::MAX; w]; rows];
        let mut count = 0;
        for r in 0..rows {
            for c in 0..w {
                if piece[r][c] != usize::MAX || in_block[r][c] {
                    continue;
                }
                piece[r][c] = count;
                let mut stack = vec![(r, c)];
                while let Some(sq) = stack.pop() {
                    for (rr, cc) in moves(rows, w, sq) {
                        if piece[rr][cc] == usize::MAX && !in_block[rr][cc] {
                            piece[rr][cc] = count;
                            stack.push((rr, cc));
                        }
                    }
                }
                let (ir, ic) = swap.of(rows, w, (r, c));
                if piece[ir][ic] == count {
                    return None;
                }
                count += 1;
            }
        }
        Some(Pieces {
            rows,
            w,
            piece,
            count,
        })
    }

    /// The first square of piece `p`, by rows.
    fn square_of(&self, p: usize) -> Square {
        (0..self.rows)
            .flat_map(|r| (0..self.w).map(move |c| (r, c)))
            .find(|&(r, c)| self.piece[r][c] == p)
            .expect("every piece has a square")
    }

    /// The image of each piece under `sym`.
    fn images(&self, sym: Symmetry) -> Vec<usize> {
        (0..self.count)
            .map(|p| {
                let (r, c) = sym.of(self.rows, self.w, self.square_of(p));
                self.piece[r][c]
            })
            .collect()
    }

    /// The squares of the pieces `chosen` marks, by rows.
    fn squares(&self, chosen: &[bool]) -> Vec<Square> {
        (0..self.rows)
            .flat_map(|r| (0..self.w).map(move |c| (r, c)))
            .filter(|&(r, c)| self.piece[r][c] != usize::MAX && chosen[self.piece[r][c]])
            .collect()
    }
}

/// The knight's moves between the squares of a block, each once.
struct BlockEdges {
    rows: usize,
    w: usize,
    edges: Vec<(Square, Square)>,
}

impl BlockEdges {
    fn new(rows: usize, w: usize, block: &[Square]) -> BlockEdges {
        let mut edges = Vec::new();
        for &s in block {
            for t in moves(rows, w, s) {
                if s < t && block.contains(&t) {
                    edges.push((s, t));
                }
            }
        }
        BlockEdges { rows, w, edges }
    }

    /// The image of each edge under `sym`, a symmetry that keeps the block.
    fn images(&self, sym: Symmetry) -> Vec<usize> {
        let same = |a: (Square, Square), b: (Square, Square)| a == b || a == (b.1, b.0);
        self.edges
            .iter()
            .map(|&(a, b)| {
                let image = (sym.of(self.rows, self.w, a), sym.of(self.rows, self.w, b));
                self.edges
                    .iter()
                    .position(|&f| same(f, image))
                    .expect("a symmetry keeping the block keeps its edges")
            })
            .collect()
    }

    /// The edges `chosen` marks.
    fn chosen(&self, chosen: &[bool]) -> Vec<(Square, Square)> {
        self.edges
            .iter()
            .zip(chosen)
            .filter(|(_, &mine)| mine)
            .map(|(&e, _)| e)
            .collect()
    }
}

/// The half's squares (numbered in one scan's order) as a graph, for the
/// greedy orders of [`Plan::best_order`].
struct HalfGraph {
    /// Each square's neighbours by the half's edges.
    edges: Vec<Vec<usize>>,
    separator: Vec<bool>,
    /// Each square's mirror image, if the half has a mirror.
    mirror: Option<Vec<usize>>,
}

impl HalfGraph {
    fn new(plan: &Plan, squares: &[Square]) -> HalfGraph {
        let index = |x: Square| squares.iter().position(|&y| y == x);
        HalfGraph {
            edges: squares
                .iter()
                .map(|&x| {
                    moves(plan.rows, plan.w, x)
                        .filter(|&y| plan.in_half(x, y))
                        .filter_map(index)
                        .collect()
                })
                .collect(),
            separator: squares.iter().map(|x| plan.separator.contains(x)).collect(),
            mirror: plan.mirror.map(|m| {
                squares
                    .iter()
                    .map(|&x| index(m.of(plan.rows, plan.w, x)).expect("the mirror keeps the half"))
                    .collect()
            }),
        }
    }

    /// The squares waiting after `v` is taken (those processed with a
    /// neighbour left, and the separator's), and `v`'s edges back.
    fn taken(&self, v: usize, done: &[bool], left: &[usize], waiting: usize) -> (usize, usize) {
        let back = self.edges[v].iter().filter(|&&y| done[y]).count();
        let freed = self.edges[v]
            .iter()
            .filter(|&&y| done[y] && left[y] == 1 && !self.separator[y])
            .count();
        let stays = self.separator[v] || left[v] > 0;
        (waiting + usize::from(stays) - freed, back)
    }

    /// A greedy order (see [`Plan::best_order`]), with the frontier's width
    /// after each square and whether the squares processed then are their
    /// own mirror image.
    fn greedy(&self, paired: bool) -> (Vec<usize>, Vec<(usize, bool)>) {
        let n = self.edges.len();
        let mut done = vec![false; n];
        // Each square's neighbours not processed yet.
        let mut left: Vec<usize> = self.edges.iter().map(Vec::len).collect();
        let mut waiting = 0usize;
        // Processed squares whose mirror image is not.
        let mut unmatched = 0usize;
        let mut order = Vec::with_capacity(n);
        let mut widths = Vec::with_capacity(n);
        while order.len() < n {
            let v = (0..n)
                .filter(|&v| !done[v])
                .min_by_key(|&v| {
                    let (wait, back) = self.taken(v, &done, &left, waiting);
                    (wait, usize::MAX - back)
                })
                .expect("a square is left");
            let image = self.mirror.as_ref().map(|m| m[v]);
            let pair = [Some(v), image.filter(|&u| paired && u != v)];
            for u in pair.into_iter().flatten() {
                waiting = self.taken(u, &done, &left, waiting).0;
                done[u] = true;
                for &y in &self.edges[u] {
                    left[y] -= 1;
                }
                if let Some(m) = &self.mirror {
                    if m[u] != u {
                        if done[m[u]] {
                            unmatched -= 1;
                        } else {
                            unmatched += 1;
                        }
                    }
                }
                order.push(u);
                widths.push((waiting, self.mirror.is_some() && unmatched == 0));
            }
        }
        (order, widths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every plan found on boards up to 10x10: the separator, the half and
    /// its image cover the board once, no knight's move joins the half to
    /// the image, the separator's edges are dealt once each, and the mirror
    /// keeps the half and its edges.
    #[test]
    fn plans_cut_the_board_into_two_images() {
        let mut found = 0;
        for rows in 3..=10 {
            for w in 3..=10 {
                let Some(p) = Plan::find(rows, w) else {
                    continue;
                };
                found += 1;
                let image = |s: Square| p.swap.of(rows, w, s);
                let other: Vec<Square> = p.half.iter().map(|&s| image(s)).collect();
                let mut all: Vec<Square> = [&p.separator[..], &p.half, &other].concat();
                all.sort_unstable();
                all.dedup();
                assert_eq!(all.len(), rows * w, "{rows}x{w}");
                assert_eq!(p.separator.len() + 2 * p.half.len(), rows * w);
                for &a in &p.half {
                    assert!(moves(rows, w, a).all(|b| !other.contains(&b)), "{rows}x{w}");
                }
                let block_edges = p
                    .separator
                    .iter()
                    .flat_map(|&s| moves(rows, w, s).filter(|t| p.separator.contains(t)))
                    .count()
                    / 2;
                assert_eq!(2 * p.half_edges.len(), block_edges, "{rows}x{w}");
                for &(a, b) in &p.half_edges {
                    assert!(!p.in_half(image(a), image(b)), "{rows}x{w}");
                    if let Some(m) = p.mirror {
                        let (ma, mb) = (m.of(rows, w, a), m.of(rows, w, b));
                        assert!(p.in_half(ma, mb), "{rows}x{w}");
                    }
                }
                if let Some(m) = p.mirror {
                    assert!(p.half.iter().all(|&s| p.half.contains(&m.of(rows, w, s))));
                }
                assert!(p.separator.len() < 2 * rows.min(w));
            }
        }
        assert!(found >= 10, "{found}");
    }

    /// The widest frontier the order counts is the frontier program's.
    #[test]
    fn the_orders_frontier_is_the_programs() {
        for (rows, w) in [(6, 6), (7, 6), (6, 5), (7, 5), (7, 4), (5, 5), (8, 5)] {
            let p = Plan::find(rows, w).unwrap();
            let engine = crate::count::engine::frontier::Engine::new(&p.problem().0).unwrap();
            assert_eq!(p.widest, engine.width, "{rows}x{w}");
        }
    }

    #[test]
    fn six_by_six_falls_apart_around_its_middle_block() {
        let p = Plan::find(6, 6).unwrap();
        assert_eq!(p.separator.len(), 8);
        assert_eq!(p.half.len(), 14);
        assert!(p.mirror.is_some());
        assert_eq!(p.half_edges.len(), 2);
    }
}
