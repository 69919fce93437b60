//! The completion search: backtracking in Warnsdorff's order (fewest
//! onward moves first, ties to the square farther from the centre, then
//! the lower number) with the cheap proofs as pruning at every node. The
//! counts the proofs need (each square's unvisited neighbours, how many
//! unvisited squares have none or one, the colours left) are kept as the
//! search moves, so each proof costs a few steps; the connectivity proof
//! runs at every node too, as a flood of bit masks on boards of at most
//! 64 squares, else as a search near the square just visited (the whole
//! breadth-first search only when that cannot tell). Every
//! pruning depends on the position alone, never on the nodes counted, so a
//! position's search is the same wherever it is met.

use super::table::{key, position_hash, Failures};
use crate::board::Square;
use crate::shape::Graph;
use crate::{Control, Result, Wanted};

/// Why a node fails a cheap proof (the root names the squares).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    Stuck,
    Unreachable,
    Trapped,
    Split,
    DeadEnds,
    DeadEndNotEnd(Square),
    DeadEndNotClosing(Square),
    Colours,
    ColourEnd,
    ColourClose,
    ClosingCutOff,
    EndTaken,
    WrongKind,
    WrongEnd,
}

/// How a search ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Found,
    Exhausted,
    OutOfBudget,
}

/// The state of one search from a non-empty path.
pub(crate) struct Search<'a> {
    graph: &'a Graph,
    colours: Option<&'a [u8]>,
    /// Tie-break key of each square: larger is tried first among equals.
    far: &'a [u32],
    visited: Vec<bool>,
    /// The visited squares as bits, and their hash, for the failures.
    bits: Vec<u64>,
    set_hash: u64,
    /// On boards of at most 64 squares, each square's neighbours as bits
    /// and the board's squares, so the connectivity proof is a flood of
    /// bit masks.
    near: Vec<u64>,
    board_bits: u64,
    failures: &'a mut Failures,
    /// Unvisited neighbours of each square (visited squares included).
    deg: Vec<u8>,
    /// Unvisited squares with no unvisited neighbour, and with one.
    zero: usize,
    one: usize,
    /// XOR of the unvisited squares with at most one unvisited neighbour.
    low_xor: Square,
    colour_left: [usize; 2],
    left: usize,
    length: usize,
    start: Square,
    end: Option<Square>,
    goal: Wanted,
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<Square>,
    /// The squares played by the search, in order.
    pub trail: Vec<Square>,
    pub nodes: u64,
    budget: u64,
}

impl<'a> Search<'a> {
    /// The search from `path` (not empty; every square legal) on `graph`,
    /// whose squares that are not holes are `open`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        graph: &'a Graph,
        open: &[bool],
        colours: Option<&'a [u8]>,
        far: &'a [u32],
        path: &[Square],
        goal: Wanted,
        end: Option<Square>,
        budget: u64,
        failures: &'a mut Failures,
    ) -> Search<'a> {
        let n = graph.len();
        let mut bits = vec![0u64; n.div_ceil(64).max(1)];
        let mut set_hash = 0;
        for q in (0..n).filter(|&q| !open[q]) {
            bits[q / 64] |= 1 << (q % 64);
            set_hash ^= key(q as Square);
        }
        let near: Vec<u64> = if n <= 64 {
            (0..n as Square)
                .map(|q| graph.neighbours(q).iter().fold(0, |m, &t| m | 1 << t))
                .collect()
        } else {
            Vec::new()
        };
        let mut s = Search {
            graph,
            colours,
            far,
            visited: (0..n).map(|q| !open[q]).collect(),
            bits,
            set_hash,
            near,
            board_bits: if n >= 64 { u64::MAX } else { (1 << n) - 1 },
            failures,
            deg: vec![0; n],
            zero: 0,
            one: 0,
            low_xor: 0,
            colour_left: [0; 2],
            left: 0,
            length: 0,
            start: path[0],
            end,
            goal,
            seen: vec![0; n],
            stamp: 0,
            queue: Vec::new(),
            trail: Vec::new(),
            nodes: 0,
            budget,
        };
        for q in 0..n {
            if !s.visited[q] {
                s.left += 1;
                if let Some(c) = colours {
                    s.colour_left[c[q] as usize] += 1;
                }
            }
            s.deg[q] = graph
                .neighbours(q as Square)
                .iter()
                .filter(|&&t| !s.visited[t as usize])
                .count() as u8;
        }
        for q in 0..n {
            if !s.visited[q] {
                s.mark_low(q as Square, s.deg[q], true);
            }
        }
        for &q in path {
            s.visit(q);
        }
        s
    }

    /// Counts `q` (unvisited, of `deg` unvisited neighbours) in or out of
    /// the low counts.
    fn mark_low(&mut self, q: Square, deg: u8, add: bool) {
        let step = |x: &mut usize| {
            if add {
                *x += 1
            } else {
                *x -= 1
            }
        };
        match deg {
            0 => step(&mut self.zero),
            1 => step(&mut self.one),
            _ => return,
        }
        self.low_xor ^= q;
    }

    /// Flips `v` in the visited bits and their hash.
    fn flip(&mut self, v: Square) {
        self.bits[v as usize / 64] ^= 1 << (v % 64);
        self.set_hash ^= key(v);
    }

    /// Whether the position with the knight on `c` is a stored failure.
    fn failed(&self, c: Square) -> bool {
        let hash = position_hash(self.set_hash, c, self.start);
        self.failures.holds(hash, &self.bits, c, self.start)
    }

    /// Stores the position with the knight on `c` as a failure.
    fn remember(&mut self, c: Square) {
        let hash = position_hash(self.set_hash, c, self.start);
        self.failures.store(hash, &self.bits, c, self.start);
    }

    fn visit(&mut self, v: Square) {
        self.mark_low(v, self.deg[v as usize], false);
        self.visited[v as usize] = true;
        self.flip(v);
        self.left -= 1;
        self.length += 1;
        if let Some(c) = self.colours {
            self.colour_left[c[v as usize] as usize] -= 1;
        }
        for &w in self.graph.neighbours(v) {
            let d = self.deg[w as usize];
            self.deg[w as usize] = d - 1;
            if !self.visited[w as usize] {
                self.mark_low(w, d, false);
                self.mark_low(w, d - 1, true);
            }
        }
    }

    fn unvisit(&mut self, v: Square) {
        for &w in self.graph.neighbours(v) {
            let d = self.deg[w as usize];
            self.deg[w as usize] = d + 1;
            if !self.visited[w as usize] {
                self.mark_low(w, d, false);
                self.mark_low(w, d + 1, true);
            }
        }
        if let Some(c) = self.colours {
            self.colour_left[c[v as usize] as usize] += 1;
        }
        self.left += 1;
        self.length -= 1;
        self.visited[v as usize] = false;
        self.flip(v);
        self.mark_low(v, self.deg[v as usize], true);
    }

    /// The first cheap proof that the path ending on `c` cannot be
    /// finished, if any; `connect` asks for the connectivity proof too.
    pub fn cut(&mut self, c: Square, connect: bool) -> Option<Cut> {
        let g = self.graph;
        if self.left == 0 {
            return self.finished(c);
        }
        if self.end.is_some_and(|e| self.visited[e as usize]) {
            return Some(Cut::EndTaken);
        }
        if self.goal == Wanted::Closed && self.deg[self.start as usize] == 0 {
            return Some(Cut::ClosingCutOff);
        }
        let (mut moves, mut next0, mut next1, mut next_low_xor) = (0, 0, 0, 0);
        for &u in g.neighbours(c) {
            if self.visited[u as usize] {
                continue;
            }
            moves += 1;
            match self.deg[u as usize] {
                0 => next0 += 1,
                1 => next1 += 1,
                _ => continue,
            }
            next_low_xor ^= u;
        }
        if moves == 0 {
            return Some(Cut::Stuck);
        }
        if self.zero > next0 {
            return Some(Cut::Unreachable);
        }
        if next0 > 0 && self.left > 1 {
            return Some(Cut::Trapped);
        }
        let dead = next0 + self.one - next1;
        if dead >= 2 {
            return Some(Cut::DeadEnds);
        }
        if dead == 1 && next0 == 0 {
            let d = self.low_xor ^ next_low_xor;
            if self.end.is_some_and(|e| e != d) {
                return Some(Cut::DeadEndNotEnd(d));
            }
            if self.goal == Wanted::Closed && !g.adjacent(d, self.start) {
                return Some(Cut::DeadEndNotClosing(d));
            }
        }
        if let Some(cut) = self.colour_cut(c) {
            return Some(cut);
        }
        if connect && !self.connected(c) {
            return Some(Cut::Split);
        }
        None
    }

    /// The goal's test of the finished path ending on `c`.
    fn finished(&self, c: Square) -> Option<Cut> {
        let closed = self.length > 2 && self.graph.adjacent(c, self.start);
        match self.goal {
            Wanted::Closed if !closed => return Some(Cut::WrongKind),
            Wanted::Open if closed => return Some(Cut::WrongKind),
            _ => {}
        }
        if self.end.is_some_and(|e| e != c) {
            return Some(Cut::WrongEnd);
        }
        None
    }

    /// The colour proofs: the unvisited squares alternate from `c`.
    fn colour_cut(&self, c: Square) -> Option<Cut> {
        let colours = self.colours?;
        let mine = colours[c as usize] as usize;
        let (same, other) = (self.colour_left[mine], self.colour_left[1 - mine]);
        if other != same && other != same + 1 {
            return Some(Cut::Colours);
        }
        let last = if self.left % 2 == 1 { 1 - mine } else { mine } as u8;
        if self.end.is_some_and(|e| colours[e as usize] != last) {
            return Some(Cut::ColourEnd);
        }
        if self.goal == Wanted::Closed && colours[self.start as usize] == last {
            return Some(Cut::ColourClose);
        }
        None
    }

    /// The unvisited squares reached from `c`'s first unvisited neighbour
    /// through unvisited squares. A path from `c` stays in them, so unless
    /// this is all of them it cannot cover them: it cannot come back
    /// through `c` to a second part.
    fn reach(&mut self, c: Square) -> usize {
        self.stamp += 1;
        let stamp = self.stamp;
        self.queue.clear();
        let first = self
            .graph
            .neighbours(c)
            .iter()
            .find(|&&u| !self.visited[u as usize]);
        if let Some(&u) = first {
            self.queue.push(u);
            self.seen[u as usize] = stamp;
        }
        let mut reached = self.queue.len();
        while let Some(s) = self.queue.pop() {
            for &t in self.graph.neighbours(s) {
                if !self.visited[t as usize] && self.seen[t as usize] != stamp {
                    self.seen[t as usize] = stamp;
                    reached += 1;
                    self.queue.push(t);
                }
            }
        }
        reached
    }

    /// The first unvisited square that [`Search::reach`] misses, if any.
    pub fn unreached(&mut self, c: Square) -> Option<Square> {
        if self.reach(c) == self.left {
            return None;
        }
        let stamp = self.stamp;
        (0..self.graph.len() as Square)
            .find(|&q| !self.visited[q as usize] && self.seen[q as usize] != stamp)
    }

    /// Whether the unvisited squares, connected before `v` was visited,
    /// still are: on small boards by the flood of bit masks; on large ones
    /// by a search near `v` that finds its unvisited neighbours joined
    /// (then removing `v` split nothing) or cut off from each other, and
    /// only when it can tell neither within [`NEAR`] squares, the whole
    /// search.
    fn still_connected(&mut self, v: Square) -> bool {
        if !self.near.is_empty() {
            return self.connected(v);
        }
        let mut targets = [0 as Square; 8];
        let mut count = 0;
        for &t in self.graph.neighbours(v) {
            if !self.visited[t as usize] && count < 8 {
                targets[count] = t;
                count += 1;
            }
        }
        if count <= 1 {
            return count == 1 || self.left == 0;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        self.queue.clear();
        self.queue.push(targets[0]);
        self.seen[targets[0] as usize] = stamp;
        let (mut found, mut head) = (1, 0);
        while head < self.queue.len() {
            if head >= NEAR {
                return self.connected(v);
            }
            let s = self.queue[head];
            head += 1;
            for &t in self.graph.neighbours(s) {
                if self.visited[t as usize] || self.seen[t as usize] == stamp {
                    continue;
                }
                self.seen[t as usize] = stamp;
                if targets[1..count].contains(&t) {
                    found += 1;
                    if found == count {
                        return true;
                    }
                }
                self.queue.push(t);
            }
        }
        false
    }

    fn connected(&mut self, c: Square) -> bool {
        if self.near.is_empty() {
            return self.reach(c) == self.left;
        }
        let free = !self.bits[0] & self.board_bits;
        let first = self.near[c as usize] & free;
        let mut reached = first & first.wrapping_neg();
        let mut frontier = reached;
        while frontier != 0 {
            let mut next = 0;
            while frontier != 0 {
                next |= self.near[frontier.trailing_zeros() as usize];
                frontier &= frontier - 1;
            }
            frontier = next & free & !reached;
            reached |= frontier;
        }
        reached.count_ones() as usize == self.left
    }

    /// Whether square `q` is unvisited.
    pub fn is_free(&self, q: Square) -> bool {
        !self.visited[q as usize]
    }

    /// Unvisited neighbours of `q`.
    pub fn onward(&self, q: Square) -> u8 {
        self.deg[q as usize]
    }

    /// The search from the path's last square `c`, whose cheap proofs have
    /// passed at the root; the completion is left in `trail`. The search
    /// keeps its own stack, so a long path needs no deep recursion. Every
    /// position whose moves all fail is stored in the failures, and a
    /// stored one is not searched again.
    pub fn run(&mut self, c: Square, control: &Control) -> Result<Outcome> {
        let mut stack: Vec<Frame> = Vec::new();
        if self.failed(c) {
            self.nodes += 1;
            return Ok(Outcome::Exhausted);
        }
        if let Some(out) = self.enter(c, &mut stack, control)? {
            return Ok(out);
        }
        while let Some(top) = stack.last_mut() {
            if top.tried == top.count {
                stack.pop();
                self.remember(self.trail.last().copied().unwrap_or(c));
                if stack.is_empty() {
                    break;
                }
                let u = self.trail.pop().expect("a square per frame below the root");
                self.unvisit(u);
                continue;
            }
            let u = top.next[top.tried as usize];
            top.tried += 1;
            self.visit(u);
            self.trail.push(u);
            if self.cut(u, false).is_some() || !self.still_connected(u) || self.failed(u) {
                self.trail.pop();
                self.unvisit(u);
                continue;
            }
            if let Some(out) = self.enter(u, &mut stack, control)? {
                return Ok(out);
            }
        }
        Ok(Outcome::Exhausted)
    }

    /// Counts the node of `c` and pushes its moves in Warnsdorff's order;
    /// an outcome when the search ends here.
    fn enter(
        &mut self,
        c: Square,
        stack: &mut Vec<Frame>,
        control: &Control,
    ) -> Result<Option<Outcome>> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Ok(Some(Outcome::OutOfBudget));
        }
        if self.nodes.is_multiple_of(4096) {
            control.check("the completion search")?;
        }
        if self.left == 0 {
            return Ok(Some(Outcome::Found));
        }
        let mut keyed = [(0u8, 0u32, 0 as Square); 8];
        let mut count = 0;
        for &u in self.graph.neighbours(c) {
            if !self.visited[u as usize] && count < 8 {
                keyed[count] = (self.deg[u as usize], u32::MAX - self.far[u as usize], u);
                count += 1;
            }
        }
        keyed[..count].sort_unstable();
        let mut next = [0 as Square; 8];
        for (slot, &(_, _, u)) in next.iter_mut().zip(&keyed[..count]) {
            *slot = u;
        }
        stack.push(Frame {
            next,
            count: count as u8,
            tried: 0,
        });
        Ok(None)
    }
}

/// Squares the search near a newly visited square looks at before it
/// falls back on the whole search.
const NEAR: usize = 256;

/// The moves of one node still to try.
struct Frame {
    next: [Square; 8],
    count: u8,
    tried: u8,
}

/// The tie-break key of each square of a `rows` x `cols` board: its squared
/// distance from the centre, doubled to stay whole.
pub(crate) fn far_keys(rows: u32, cols: u32) -> Vec<u32> {
    let mut keys = Vec::with_capacity(rows as usize * cols as usize);
    for r in 0..rows {
        for c in 0..cols {
            let dr = (2 * r).abs_diff(rows - 1);
            let dc = (2 * c).abs_diff(cols - 1);
            keys.push(dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc)));
        }
    }
    keys
}
