//! The frontier program's input: a graph with its vertices in processing
//! order ([`Problem`]), and what the build reads off it ([`ProblemGraph`]):
//! each vertex's neighbours and when it leaves the frontier, the widest
//! frontier, a 2-colouring, and whether the problem's mirror is a symmetry.

use super::program::Route;

/// A graph prepared for the dynamic program: vertices `0..n` in processing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    /// Number of vertices.
    pub n: usize,
    /// For each vertex `v`, its edges to earlier vertices: `(u, voltage v -> u)`.
    /// Parallel edges (with different voltages) may appear.
    pub back: Vec<Vec<(u32, u8)>>,
    /// The voltage group is Z_modulus (1, 2 or 4).
    pub modulus: u8,
    /// Cycle or path.
    pub shape: Route,
    /// Which vertices may be the ends of the path (ignored for cycles).
    pub terminal_ok: Vec<bool>,
    /// For a part of a larger graph: each vertex's edges to vertices outside
    /// the problem (empty: none). A vertex with such edges never leaves the
    /// frontier, may end with any degree, and no cycle closes; the states
    /// after the last vertex are the part's result (see `meet.rs`).
    pub external: Vec<u8>,
    /// Paths: a proper 2-colouring (+1, -1) of the vertices of the whole
    /// graph this problem belongs to (empty: found here if the problem has
    /// no external edges and is bipartite, else none), and twice the colour
    /// sum of that whole graph.
    pub colour: Vec<i8>,
    pub twice_colour_total: i32,
    /// A symmetry of the problem (a permutation of the vertices that keeps
    /// the edges, external edges and terminals; empty: none). After every
    /// vertex whose processed vertices it maps onto themselves, a state and
    /// its mirror image have the same completions, so only the smaller key
    /// is kept, with both counts.
    pub mirror: Vec<u32>,
    /// For a sweep over lengths: the numbers of vertices `k < n` whose
    /// first `k` vertices form a graph of their own to count too (a board
    /// cut after a row: no edge of a later vertex may be needed by them
    /// beyond what the counted states decide). Empty: count the whole
    /// graph only.
    pub prefixes: Vec<usize>,
    /// The squares a row, which a projection extends row by row; 0: found
    /// from the edges (see `project::period`), which is right for a
    /// rectangle's rows but not for rows that are rings, whose moves across
    /// the seam reach back farther than a row and a half.
    pub row: usize,
}

// By hand, so that a problem without prefixes hashes as it did before
// they existed: checkpoint names stay the same.
impl std::hash::Hash for Problem {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.n.hash(h);
        self.back.hash(h);
        self.modulus.hash(h);
        self.shape.hash(h);
        self.terminal_ok.hash(h);
        self.external.hash(h);
        if !self.prefixes.is_empty() {
            self.prefixes.hash(h);
        }
    }
}

impl Problem {
    /// Whether vertex `u` may be an end of the path.
    pub(super) fn may_end(&self, u: usize) -> bool {
        self.terminal_ok.get(u).copied().unwrap_or(true)
    }
}

/// A problem's graph as the build reads it.
pub(super) struct ProblemGraph {
    /// Each vertex's neighbours in the problem.
    pub(super) nbrs: Vec<Vec<usize>>,
    /// Each vertex's edges to vertices outside the problem.
    external: Vec<u32>,
    /// Each vertex's last neighbour, after which it leaves the frontier
    /// (`usize::MAX` for a vertex with external edges: it never leaves).
    pub(super) last_nbr: Vec<usize>,
    /// Whether the problem is a part of a larger graph (has external edges).
    pub(super) partial: bool,
}

impl ProblemGraph {
    pub(super) fn new(p: &Problem) -> ProblemGraph {
        let n = p.n;
        let mut nbrs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (v, edges) in p.back.iter().enumerate() {
            for &(u, _) in edges {
                nbrs[v].push(u as usize);
                nbrs[u as usize].push(v);
            }
        }
        let external: Vec<u32> = (0..n)
            .map(|u| u32::from(p.external.get(u).copied().unwrap_or(0)))
            .collect();
        let last_nbr = (0..n)
            .map(|u| match external[u] {
                0 => nbrs[u].iter().copied().max().unwrap_or(0),
                _ => usize::MAX,
            })
            .collect();
        ProblemGraph {
            partial: external.iter().any(|&x| x > 0),
            nbrs,
            external,
            last_nbr,
        }
    }

    /// The edges vertex `u` may still take after vertex `v` is processed:
    /// to later vertices, and to vertices outside the problem.
    pub(super) fn remaining(&self, u: usize, v: usize) -> u32 {
        self.nbrs[u].iter().filter(|&&x| x > v).count() as u32 + self.external[u]
    }

    /// The first vertex `v < u` after whose step `u` has fewer than two
    /// edges left ([`ProblemGraph::remaining`]): `u` is scarce from then
    /// until its own step; `None` if it never is before it.
    pub(super) fn scarce_from(&self, u: usize) -> Option<usize> {
        let total = self.nbrs[u].len() + self.external[u] as usize;
        // Fewer than two left once `total - 1` neighbours are processed.
        let v = match total.saturating_sub(1) {
            0 => 0,
            need => {
                let mut earlier: Vec<usize> =
                    self.nbrs[u].iter().copied().filter(|&x| x < u).collect();
                earlier.sort_unstable();
                *earlier.get(need - 1)?
            }
        };
        (v < u).then_some(v)
    }

    /// Whether `p.mirror` is a symmetry of `p`: a permutation of the
    /// vertices that maps edges to edges (voltages are not mapped, so only
    /// graphs without them) and keeps external edges and terminals.
    pub(super) fn is_symmetry(&self, p: &Problem) -> bool {
        let n = p.n;
        let m = &p.mirror;
        if m.len() != n || p.modulus > 1 {
            return false;
        }
        let mut seen = vec![false; n];
        for &x in m {
            if x as usize >= n || std::mem::replace(&mut seen[x as usize], true) {
                return false;
            }
        }
        let nbrs = &self.nbrs;
        (0..n).all(|u| {
            let mu = m[u] as usize;
            let mut a: Vec<usize> = nbrs[u].iter().map(|&x| m[x] as usize).collect();
            let mut b = nbrs[mu].clone();
            a.sort_unstable();
            b.sort_unstable();
            a == b
                && self.external[u] == self.external[mu]
                && p.terminal_ok.get(u) == p.terminal_ok.get(mu)
        })
    }

    /// The largest frontier: how many vertices `u <= v` have a neighbour
    /// after `v` (`last_nbr[u] > v`), at the worst `v`.
    pub(super) fn widest_frontier(&self) -> usize {
        let last_nbr = &self.last_nbr;
        let n = last_nbr.len();
        // +1 where a vertex enters the frontier, -1 after its last neighbour.
        let mut delta = vec![0i64; n + 1];
        for (u, &l) in last_nbr.iter().enumerate() {
            if l > u {
                delta[u] += 1;
                delta[l.min(n)] -= 1;
            }
        }
        let mut size = 0i64;
        let mut widest = 0i64;
        for d in &delta[..n] {
            size += d;
            widest = widest.max(size);
        }
        widest as usize
    }

    /// A proper 2-colouring (+1 and -1) of the graph, if it is bipartite.
    pub(super) fn two_colouring(&self) -> Option<Vec<i8>> {
        let nbrs = &self.nbrs;
        let mut colour = vec![0i8; nbrs.len()];
        for start in 0..nbrs.len() {
            if colour[start] != 0 {
                continue;
            }
            colour[start] = 1;
            let mut stack = vec![start];
            while let Some(u) = stack.pop() {
                for &x in &nbrs[u] {
                    if colour[x] == 0 {
                        colour[x] = -colour[u];
                        stack.push(x);
                    } else if colour[x] == colour[u] {
                        return None;
                    }
                }
            }
        }
        Some(colour)
    }
}
