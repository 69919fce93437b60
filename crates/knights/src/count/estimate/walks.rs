//! Walks of the pruned tree (sequential importance sampling and uniform
//! walks) and Knuth's plain probe (see the `estimate` module notes).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rand::Rng;

use super::sampled::Mix;
use crate::count::Kind;
use crate::Board;

/// The proposal's strength: a move to a square with `k` onward free squares
/// weighs `exp(-BETA k)` (chosen on 8x8: stronger preferences make the
/// weights heavier-tailed and the standard error larger).
const BETA: f64 = 0.35;

/// Walks with at most this many unvisited squares are completed by exact
/// enumeration of the pruned subtree instead of one random descent.
const TAIL: usize = 16;

/// The enumeration remembers the states with at least this many squares
/// left (below, counting again is cheaper than looking up).
const MEMO_FROM: usize = 8;

/// The knight's graph of a board as flat neighbour lists.
pub(super) struct Graph {
    pub(super) n: usize,
    start: Vec<u32>,
    adj: Vec<u32>,
    board: Board,
}

impl Graph {
    pub(super) fn new(board: Board) -> Graph {
        let n = board.squares();
        let mut start = Vec::with_capacity(n + 1);
        let mut adj = Vec::with_capacity(n * 8);
        for s in 0..n as u32 {
            start.push(adj.len() as u32);
            adj.extend(board.neighbours(s).map(|(_, t)| t));
        }
        start.push(adj.len() as u32);
        Graph {
            n,
            start,
            adj,
            board,
        }
    }

    #[inline]
    fn nb(&self, s: u32) -> &[u32] {
        &self.adj[self.start[s as usize] as usize..self.start[s as usize + 1] as usize]
    }
}

/// Knuth's plain probe: (estimate of undirected tours, estimate of tree nodes).
pub(super) fn knuth_probe<R: Rng + ?Sized>(
    g: &Graph,
    kind: Kind,
    visited: &mut [bool],
    rng: &mut R,
) -> (f64, f64) {
    let n = g.n;
    visited.fill(false);
    let start = match kind {
        Kind::Closed => 0,
        Kind::Open => rng.random_range(0..n as u32),
    };
    let mut at = start;
    visited[at as usize] = true;
    let mut weight = 1.0f64;
    let mut tree = 1.0f64;
    let mut depth = 1;
    let mut options = [0u32; 8];
    loop {
        let mut d = 0;
        for &s in g.nb(at) {
            if !visited[s as usize] {
                options[d] = s;
                d += 1;
            }
        }
        if d == 0 {
            break;
        }
        weight *= d as f64;
        tree += weight;
        at = options[rng.random_range(0..d)];
        visited[at as usize] = true;
        depth += 1;
    }
    let tours = if depth < n {
        0.0
    } else {
        match kind {
            Kind::Closed if g.board.move_between(at, start).is_some() => weight / 2.0,
            Kind::Closed => 0.0,
            Kind::Open => weight * n as f64 / 2.0,
        }
    };
    (tours, tree)
}

/// A walk's knight's path and the free-neighbour counts it leaves.
pub(super) struct Walk {
    visited: Vec<bool>,
    /// Free neighbours of each square (unvisited squares, the path's end,
    /// and for closed tours the start).
    free: Vec<u8>,
    /// The path's end.
    at: u32,
    /// Squares on the path.
    depth: usize,
    /// Unvisited squares with at most one free neighbour.
    ones: usize,
}

impl Walk {
    pub(super) fn new(n: usize) -> Walk {
        Walk {
            visited: vec![false; n],
            free: vec![0; n],
            at: 0,
            depth: 0,
            ones: 0,
        }
    }
}

/// Scratch memory of the cut-square search and of the exact completion.
pub(super) struct Scratch {
    /// Tarjan's search: discovery times, low points, parents, cut marks,
    /// the clock (times above its value at a search's start are that
    /// search's) and the stack of squares with their next neighbour.
    disc: Vec<u32>,
    low: Vec<u32>,
    parent: Vec<u32>,
    cut: Vec<u32>,
    clock: u32,
    dfs: Vec<(u32, u32)>,
    /// Each square's place among the squares left when the exact
    /// completion starts.
    index: Vec<u32>,
    /// Completions and subtree nodes of the states already met, by the
    /// squares visited since the completion started and the path's end.
    memo: HashMap<u128, (f64, f64), BuildHasherDefault<Mix>>,
}

impl Scratch {
    pub(super) fn new(n: usize) -> Scratch {
        Scratch {
            disc: vec![0; n],
            low: vec![0; n],
            parent: vec![0; n],
            cut: vec![0; n],
            clock: 0,
            dfs: Vec::with_capacity(n),
            index: vec![0; n],
            memo: HashMap::default(),
        }
    }
}

/// A walk down the pruned tree, uniform or (with `sis`) with the
/// Warnsdorff-like proposal: (estimate of undirected tours, estimate of the
/// pruned tree's nodes).
pub(super) fn walk_probe<R: Rng + ?Sized>(
    g: &Graph,
    kind: Kind,
    sis: bool,
    walk: &mut Walk,
    sc: &mut Scratch,
    rng: &mut R,
) -> (f64, f64) {
    let n = g.n;
    let closed = kind == Kind::Closed;
    // Closed tours start at the corner 0 and leave it for its first
    // neighbour, coming back from its second: each undirected tour once.
    if closed && g.nb(0).len() < 2 {
        return (0.0, 1.0);
    }
    let start = if closed {
        0
    } else {
        rng.random_range(0..n as u32)
    };
    if !begin(g, walk, closed, start) {
        return (0.0, 1.0);
    }
    let mut weight = 1.0f64;
    let mut tree = 1.0f64;
    let mut options = [0u32; 8];
    let mut ones_after = [0usize; 8];
    let mut score = [0f64; 8];
    while n - walk.depth > TAIL {
        let d = children(g, walk, sc, closed, &mut options, &mut ones_after);
        if d == 0 {
            return (0.0, tree);
        }
        let at = walk.at;
        let pick = if d == 1 {
            0
        } else if sis {
            let mut total = 0.0;
            for j in 0..d {
                let c = options[j];
                let k = g
                    .nb(c)
                    .iter()
                    .filter(|&&u| u != at && !walk.visited[u as usize])
                    .count();
                score[j] = (-(k as f64) * BETA).exp();
                total += score[j];
            }
            let mut x = rng.random::<f64>() * total;
            let mut pick = d - 1;
            for (j, &sc) in score.iter().enumerate().take(d) {
                if x < sc {
                    pick = j;
                    break;
                }
                x -= sc;
            }
            weight *= total / score[pick];
            pick
        } else {
            weight *= d as f64;
            rng.random_range(0..d)
        };
        tree += weight;
        advance(g, walk, closed, options[pick], ones_after[pick]);
    }
    index_left(walk, sc);
    let (t, nodes) = complete(g, walk, sc, closed, 0);
    let t = if closed { t } else { t * n as f64 / 2.0 };
    (weight * t, tree + weight * (nodes - 1.0))
}

/// Starts the walk at `start`; false if some square is already stranded.
fn begin(g: &Graph, walk: &mut Walk, closed: bool, start: u32) -> bool {
    let n = g.n;
    walk.visited.fill(false);
    for s in 0..n as u32 {
        walk.free[s as usize] = g.nb(s).len() as u8;
    }
    walk.visited[start as usize] = true;
    walk.at = start;
    walk.depth = 1;
    walk.ones = (0..n as u32)
        .filter(|&s| s != start && walk.free[s as usize] <= 1)
        .count();
    let stranded = (0..n).any(|s| s != start as usize && walk.free[s] == 0);
    !stranded && walk.ones <= usize::from(!closed)
}

/// Prepares [`complete`] for the walk's unvisited squares.
fn index_left(walk: &Walk, sc: &mut Scratch) {
    sc.memo.clear();
    let mut left = 0;
    for (s, &v) in walk.visited.iter().enumerate() {
        if !v {
            sc.index[s] = left;
            left += 1;
        }
    }
}

/// The allowed children of the walk's path, with the value of `ones`
/// after each move; a closed tour's first move is to the corner's first
/// neighbour.
fn children(
    g: &Graph,
    walk: &Walk,
    sc: &mut Scratch,
    closed: bool,
    options: &mut [u32; 8],
    ones_after: &mut [usize; 8],
) -> usize {
    let at = walk.at;
    let left = g.n - walk.depth;
    // The end `at` stops being free when the path moves on, unless it is
    // the start of a closed tour.
    let leaves = !(closed && at == 0);
    let mut d = 0;
    // The cut squares' mark, once computed.
    let mut mark = 0;
    'child: for &c in g.nb(at) {
        if walk.visited[c as usize] || (closed && walk.depth == 1 && c != g.nb(0)[0]) {
            continue;
        }
        let mut o = walk.ones - usize::from(walk.free[c as usize] <= 1);
        if leaves {
            for &u in g.nb(at) {
                if u == c || walk.visited[u as usize] {
                    continue;
                }
                match walk.free[u as usize] {
                    1 => continue 'child,
                    2 => o += 1,
                    _ => {}
                }
            }
        }
        if o > usize::from(!closed) {
            continue;
        }
        // The squares left after the move must stay connected: `c` must
        // not be a cut square of the unvisited squares.
        if left > 2 {
            if mark == 0 {
                mark = mark_cuts(g, walk, sc, c, left);
                if mark == u32::MAX {
                    return 0;
                }
            }
            if sc.cut[c as usize] == mark {
                continue;
            }
        }
        options[d] = c;
        ones_after[d] = o;
        d += 1;
    }
    d
}

/// Moves the path's end to `c`, with `ones` unvisited squares left with at
/// most one free neighbour.
fn advance(g: &Graph, walk: &mut Walk, closed: bool, c: u32, ones: usize) {
    let at = walk.at;
    if !(closed && at == 0) {
        for &u in g.nb(at) {
            if !walk.visited[u as usize] && u != c {
                walk.free[u as usize] -= 1;
            }
        }
    }
    walk.visited[c as usize] = true;
    walk.at = c;
    walk.depth += 1;
    walk.ones = ones;
}

/// Undoes [`advance`] back to the end `at` with `ones`.
fn retreat(g: &Graph, walk: &mut Walk, closed: bool, at: u32, ones: usize) {
    let c = walk.at;
    walk.visited[c as usize] = false;
    if !(closed && at == 0) {
        for &u in g.nb(at) {
            if !walk.visited[u as usize] && u != c {
                walk.free[u as usize] += 1;
            }
        }
    }
    walk.at = at;
    walk.depth -= 1;
    walk.ones = ones;
}

/// The exact number of completions (tours) of the walk's path in the pruned
/// tree, and the number of nodes of that subtree (`mask`: the squares
/// visited since the completion started, by [`Scratch::index`]).
fn complete(g: &Graph, walk: &mut Walk, sc: &mut Scratch, closed: bool, mask: u64) -> (f64, f64) {
    let at = walk.at;
    let left = g.n - walk.depth;
    if left == 0 {
        let done = !closed || g.board.move_between(at, 0).is_some();
        return (if done { 1.0 } else { 0.0 }, 1.0);
    }
    let key = (u128::from(mask) << 32) | u128::from(at);
    let memo = left >= MEMO_FROM;
    if memo {
        if let Some(&v) = sc.memo.get(&key) {
            return v;
        }
    }
    let mut options = [0u32; 8];
    let mut ones_after = [0usize; 8];
    let d = children(g, walk, sc, closed, &mut options, &mut ones_after);
    let ones = walk.ones;
    let (mut tours, mut nodes) = (0.0, 1.0);
    for i in 0..d {
        let c = options[i];
        advance(g, walk, closed, c, ones_after[i]);
        let (t, k) = complete(g, walk, sc, closed, mask | 1 << sc.index[c as usize]);
        retreat(g, walk, closed, at, ones);
        tours += t;
        nodes += k;
    }
    if memo {
        sc.memo.insert(key, (tours, nodes));
    }
    (tours, nodes)
}

/// Marks the cut squares of the graph of the `left` unvisited squares
/// (those whose removal disconnects it) by Tarjan's depth-first search from
/// the unvisited square `root`, and returns the mark (`u32::MAX` if the
/// unvisited squares are not connected).
fn mark_cuts(g: &Graph, walk: &Walk, sc: &mut Scratch, root: u32, left: usize) -> u32 {
    let n = g.n as u32;
    if sc.clock >= u32::MAX - 2 * n - 2 {
        sc.disc.fill(0);
        sc.cut.fill(0);
        sc.clock = 0;
    }
    let base = sc.clock;
    let mark = base + 1;
    let mut t = base + 1;
    let r = root as usize;
    sc.disc[r] = t;
    sc.low[r] = t;
    sc.parent[r] = u32::MAX;
    sc.dfs.clear();
    sc.dfs.push((root, 0));
    let mut root_children = 0;
    while let Some(top) = sc.dfs.last_mut() {
        let (v, i) = (top.0 as usize, top.1 as usize);
        let nb = g.nb(v as u32);
        if i < nb.len() {
            top.1 += 1;
            let w = nb[i] as usize;
            if walk.visited[w] {
                continue;
            }
            if sc.disc[w] <= base {
                t += 1;
                sc.disc[w] = t;
                sc.low[w] = t;
                sc.parent[w] = v as u32;
                sc.dfs.push((w as u32, 0));
                root_children += u32::from(v == r);
            } else if w as u32 != sc.parent[v] {
                sc.low[v] = sc.low[v].min(sc.disc[w]);
            }
        } else {
            sc.dfs.pop();
            if let Some(&(p, _)) = sc.dfs.last() {
                let p = p as usize;
                sc.low[p] = sc.low[p].min(sc.low[v]);
                if p != r && sc.low[v] >= sc.disc[p] {
                    sc.cut[p] = mark;
                }
            }
        }
    }
    if root_children > 1 {
        sc.cut[r] = mark;
    }
    sc.clock = t;
    if (t - base) as usize == left {
        mark
    } else {
        u32::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::estimate::{estimate, EstimateMethod, EstimateOptions};

    /// The pruned tree loses no tour: enumerated whole it has exactly the
    /// tours (closed from the corner, open from every start square, each
    /// open tour found from both ends), and on a board with no closed tour
    /// every walk fails.
    #[test]
    fn the_pruned_tree_holds_every_tour() {
        for (text, kind, want) in [
            ("5x6", Kind::Closed, 8.0),
            ("6x6", Kind::Closed, 9862.0),
            ("3x4", Kind::Open, 8.0),
            ("4x5", Kind::Open, 82.0),
            ("5x5", Kind::Open, 864.0),
        ] {
            let g = Graph::new(text.parse().unwrap());
            let mut walk = Walk::new(g.n);
            let mut sc = Scratch::new(g.n);
            let closed = kind == Kind::Closed;
            let starts = if closed { 0..1 } else { 0..g.n as u32 };
            let mut total = 0.0;
            for start in starts {
                if begin(&g, &mut walk, closed, start) {
                    index_left(&walk, &mut sc);
                    total += complete(&g, &mut walk, &mut sc, closed, 0).0;
                }
            }
            let got = if closed { total } else { total / 2.0 };
            assert_eq!(got, want, "{text} {kind:?}");
        }
        for method in [EstimateMethod::Sis, EstimateMethod::Pruned] {
            let opts = EstimateOptions {
                kind: Kind::Closed,
                samples: 1000,
                seed: 1,
                method,
                ..Default::default()
            };
            let e = estimate("5x5".parse().unwrap(), &opts).unwrap();
            assert_eq!((e.tours, e.hits), (0.0, 0));
        }
    }
}
