//! The frontier ("transfer matrix", path decomposition) dynamic program:
//! the states and their transitions. The `executor` stores and steps the states.
//!
//! The graph's vertices are processed in a fixed order; processing vertex `v`
//! decides which of its edges to earlier vertices belong to the cycle or path
//! (zero, one or two of them). After vertex `v` the *frontier* is the set of
//! processed vertices that still have an unprocessed neighbour (on a board of
//! width `w` taken row by row, at most `2w + 1` squares). A state gives each
//! frontier vertex a role — untouched (degree 0), an end of a partial path
//! (degree 1) or done (degree 2) — plus which ends are joined by a path, the
//! voltage of each path (for quotient graphs, see `symmetry.rs`) and, when
//! counting paths, how many ends of the final path (*terminals*) have been
//! fixed. A vertex leaving the frontier must be done (or become a terminal);
//! every vertex must still be able to get its two edges from the neighbours
//! not yet processed; a cycle may close only at the very last vertex.
//!
//! **Open tours (paths)** are pruned harder, since most of their states
//! would die late: a state dies when more than two vertices must be
//! terminals (those fixed, untouched frontier vertices with one neighbour
//! left, unprocessed vertices with at most one neighbour that can still take
//! an edge), or, on a 2-coloured graph such as the knight graph, when the
//! terminals' colours cannot add up to the colour sum of all vertices taken
//! twice (every other vertex has degree 2 and every edge joins two colours;
//! the colours of the terminals fixed so far are twice the processed
//! vertices' colour sum less the frontier's edges still to come, each
//! counted with its vertex's colour). On 6x6 open this takes the successors
//! to about a quarter (BENCHMARKS.md, "Exact counting"). Both judge a state
//! by the whole graph, so a sweep
//! over prefixes runs without them.
//!
//! **Mirror images.** A problem may name a symmetry (the left-right mirror
//! of a board). After a vertex whose processed vertices the symmetry maps
//! onto themselves (the end of a row) a state and its image have the same
//! completions, so the smaller of the two keys stands for both with their
//! counts added. A whole graph's count is unchanged; a part's final layer
//! (see `meet.rs`) is then right only summed against something symmetric.
//!
//! **Key.** A state is packed into one integer: 2 bits per frontier vertex in
//! frontier order (0 untouched, 1 done, 2 end of a path to another frontier
//! end, 3 end of a path that leads to a terminal), then, above them, the
//! mixed-radix number `term + t * (pairing + P * voltages)`: the pairing of the
//! `e` paired ends is ranked among the `P = (e-1)!!` perfect matchings (the
//! first end's mate is one of the `e-1` others, and so on), and one voltage
//! digit per pair. Equal states get equal keys. On an 8-wide board the key
//! takes at most `2 x 17 + 21 = 55` bits, so the states of 8x8 fit `u64` keys.
//! These *ranked keys* are as short as keys go, but a step must decode them
//! into arrays and rank the pairing again. Where the frontier and the new
//! vertex fit in 15 slots and there are no voltages (boards up to 6 wide),
//! the program uses *nibble keys* instead (see the `nibble` module notes),
//! 4 bits a slot with the pairing as labels, which a step works on in place,
//! for a fraction of the instructions (BENCHMARKS.md, "Exact counting",
//! session 7).
//!
//! The program's data (the cell codes, the decoded state, the steps and the
//! prepared [`Engine`]) live in `program.rs`, below this module and
//! `nibble.rs`, which both work on them without importing each other.

use crate::{Error, Result};

mod nibble;
mod program;
use nibble::{NIBBLE_KEY_BITS, NIBBLE_SLOTS};
use program::{Check, Scarce, W};
pub(crate) use program::{Engine, Frontier, Route, Step, DONE, END, FREE, MAX_FRONTIER, UNTOUCHED};

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

/// Whether `p.mirror` is a symmetry of `p`: a permutation of the vertices
/// that maps edges to edges (voltages are not mapped, so only graphs
/// without them) and keeps external edges and terminals.
fn is_symmetry(p: &Problem, nbrs: &[Vec<usize>]) -> bool {
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
    let get = |v: &[u8], u: usize| v.get(u).copied().unwrap_or(0);
    (0..n).all(|u| {
        let mu = m[u] as usize;
        let mut a: Vec<usize> = nbrs[u].iter().map(|&x| m[x] as usize).collect();
        let mut b = nbrs[mu].clone();
        a.sort_unstable();
        b.sort_unstable();
        a == b
            && get(&p.external, u) == get(&p.external, mu)
            && p.terminal_ok.get(u) == p.terminal_ok.get(mu)
    })
}

/// The largest frontier: how many vertices `u <= v` have a neighbour after
/// `v` (`last_nbr[u] > v`), at the worst `v`.
fn widest_frontier(last_nbr: &[usize]) -> usize {
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
fn two_colouring(nbrs: &[Vec<usize>]) -> Option<Vec<i8>> {
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

fn double_factorial_odd(e: usize) -> u128 {
    // (e-1)!! for even e: the perfect matchings of e ends.
    (1..e as u128).step_by(2).product::<u128>().max(1)
}

/// `(x / r, x % r)` for an odd `r` below `W`: a division by a constant in
/// each arm, a multiplication rather than a slow division.
#[inline]
fn div_small_odd(x: u64, r: u8) -> (u64, u64) {
    macro_rules! by {
        ($($c:literal)*) => {
            match r {
                1 => (x, 0),
                $($c => (x / $c, x % $c),)*
                _ => (x / u64::from(r), x % u64::from(r)),
            }
        };
    }
    by!(3 5 7 9 11 13 15 17 19 21 23)
}

/// The low bit of every 2-bit role code.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Slots in order: the keep list of a compacted frontier.
const IDENTITY: [u8; W] = {
    let mut t = [0u8; W];
    let mut i = 0;
    while i < W {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// `PAIRINGS[e]`: the perfect matchings of `e` ends, `(e-1)!!` (for even `e`).
const PAIRINGS: [u64; W + 1] = {
    let mut t = [1u64; W + 1];
    let mut e = 2;
    while e <= W {
        t[e] = t[e - 2] * (e as u64 - 1);
        e += 2;
    }
    t
};

impl Engine {
    /// Prepares the steps of `p`, or refuses a frontier too wide for the keys.
    pub fn new(p: &Problem) -> Result<Engine> {
        Engine::build(p, true)
    }

    /// The program of `p` with ranked keys even where nibble keys fit: a
    /// second encoding of the same states, for tests.
    #[cfg(test)]
    pub fn ranked(p: &Problem) -> Result<Engine> {
        Engine::build(p, false)
    }

    fn build(p: &Problem, nibbles: bool) -> Result<Engine> {
        let n = p.n;
        let mut nbrs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (v, edges) in p.back.iter().enumerate() {
            for &(u, _) in edges {
                nbrs[v].push(u as usize);
                nbrs[u as usize].push(v);
            }
        }
        let external = |u: usize| u32::from(p.external.get(u).copied().unwrap_or(0));
        let partial = (0..n).any(|u| external(u) > 0);
        let last_nbr: Vec<usize> = (0..n)
            .map(|u| match external(u) {
                0 => nbrs[u].iter().copied().max().unwrap_or(0),
                _ => usize::MAX,
            })
            .collect();
        let m = p.modulus.max(1);
        let t: u64 = if p.shape == Route::Path { 3 } else { 1 };
        // The pruning of paths judges a state by the whole graph, so not
        // in a sweep, whose prefixes are graphs of their own.
        let path = p.shape == Route::Path && p.prefixes.is_empty();
        let (colour, twice_total) = if !path {
            (None, 0)
        } else if !p.colour.is_empty() {
            (Some(p.colour.clone()), p.twice_colour_total)
        } else if !partial {
            let c = two_colouring(&nbrs);
            let total = c
                .as_ref()
                .map_or(0, |c| 2 * c.iter().map(|&x| i32::from(x)).sum::<i32>());
            (c, total)
        } else {
            (None, 0)
        };
        let mirror_ok = is_symmetry(p, &nbrs);
        // The nibble keys (see the module notes) need the frontier and the
        // new vertex in 15 nibbles, and no voltages.
        let nibble_keys = nibbles && m == 1 && widest_frontier(&last_nbr) < NIBBLE_SLOTS;
        // Bits a slot takes in the role masks: the spacing of the key's roles.
        let spacing = if nibble_keys { 4 } else { 2 };
        let mut twice_processed = 0i32;
        let mut frontier: Vec<usize> = Vec::new();
        let mut steps = Vec::with_capacity(n);
        let mut key_bits = 0u32;
        let mut width = 0usize;
        for v in 0..n {
            let prev = frontier.len();
            let mut work = frontier.clone();
            work.push(v);
            let slot_of = |u: usize| work.iter().position(|&x| x == u).map(|s| s as u8);
            let mut back = Vec::new();
            for &(u, e) in &p.back[v] {
                let s = slot_of(u as usize).expect("an earlier neighbour is in the frontier");
                back.push((s, e));
            }
            let mut touched: Vec<usize> = vec![v];
            for &(u, _) in &p.back[v] {
                if !touched.contains(&(u as usize)) {
                    touched.push(u as usize);
                }
            }
            let checks = touched
                .iter()
                .map(|&u| Check {
                    slot: slot_of(u).unwrap_or(0),
                    remaining: nbrs[u].iter().filter(|&&x| x > v).count() as u32 + external(u),
                    terminal_ok: p.terminal_ok.get(u).copied().unwrap_or(true),
                })
                .collect();
            let keep: Vec<u8> = (0..work.len())
                .filter(|&s| last_nbr[work[s]] > v)
                .map(|s| s as u8)
                .collect();
            let remaining =
                |u: usize| nbrs[u].iter().filter(|&&x| x > v).count() as u32 + external(u);
            // A mask over the role codes of the kept slots among `slots`.
            let mask = |slots: &mut dyn Iterator<Item = u8>| {
                slots.fold(0u64, |m, s| {
                    let i = keep.iter().position(|&k| k == s).expect("a kept slot");
                    m | 1 << (spacing * i)
                })
            };
            let kept = mask(&mut keep.iter().copied());
            let one_left = mask(
                &mut keep
                    .iter()
                    .copied()
                    .filter(|&s| remaining(work[s as usize]) == 1),
            );
            let scarce = if path {
                (v + 1..n)
                    .filter_map(|u| {
                        let base = nbrs[u].iter().filter(|&&x| x > v).count() as u32 + external(u);
                        (base < 2).then(|| Scarce {
                            base,
                            slots: mask(&mut nbrs[u].iter().filter(|&&x| x <= v).map(|&x| {
                                slot_of(x).expect("a neighbour of the unprocessed is kept")
                            })),
                            terminal_ok: p.terminal_ok.get(u).copied().unwrap_or(true),
                            colour: colour.as_ref().map_or(0, |c| c[u]),
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let keep_colour = colour.as_ref().map(|c| {
                twice_processed += 2 * i32::from(c[v]);
                let of = |want: i8| {
                    mask(
                        &mut keep
                            .iter()
                            .copied()
                            .filter(|&s| c[work[s as usize]] == want),
                    )
                };
                (of(1), of(-1))
            });
            let drop_desc: Vec<u8> = (0..work.len() as u8)
                .rev()
                .filter(|s| !keep.contains(s))
                .collect();
            let mut keep_index = [0u8; W];
            for (i, &s) in keep.iter().enumerate() {
                keep_index[s as usize] = i as u8;
            }
            frontier = keep.iter().map(|&s| work[s as usize]).collect();
            // Not after the last vertex of a whole graph: that step counts
            // the finished tours and keeps no state.
            let closed =
                mirror_ok && (v + 1 < n || partial) && (0..=v).all(|u| (p.mirror[u] as usize) <= v);
            let mirror: Vec<u8> = if closed {
                frontier
                    .iter()
                    .map(|&u| {
                        let m = p.mirror[u] as usize;
                        frontier
                            .iter()
                            .position(|&x| x == m)
                            .expect("a symmetry keeps the frontier") as u8
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let k = frontier.len();
            if k > MAX_FRONTIER {
                return Err(Error::Unsupported(format!(
                    "counting needs a frontier of {k} squares here, more than the {MAX_FRONTIER} this counter supports; ask for a narrower board"
                )));
            }
            width = width.max(k);
            let e = k - k % 2;
            let upper = u128::from(t) * double_factorial_odd(e) * u128::from(m).pow((e / 2) as u32);
            let bits = 2 * k as u32 + (128 - (upper - 1).leading_zeros());
            if upper > u128::from(u64::MAX) || bits > 128 {
                return Err(Error::Unsupported(format!(
                    "counting needs a frontier of {k} squares here, too many to encode; ask for a narrower board"
                )));
            }
            key_bits = if nibble_keys {
                NIBBLE_KEY_BITS
            } else {
                key_bits.max(bits)
            };
            steps.push(Step {
                prev,
                back,
                checks,
                keep,
                kept,
                one_left,
                scarce,
                keep_colour,
                twice_processed,
                mirror,
                keep_index,
                drop_desc,
                last: v + 1 == n && !partial,
                prefix: v + 1 < n && p.prefixes.contains(&(v + 1)),
            });
        }
        Ok(Engine {
            nibble_keys,
            shape: p.shape,
            prune: path,
            twice_total: colour.map(|_| twice_total),
            m,
            t,
            steps,
            key_bits,
            width,
            final_frontier: frontier,
        })
    }

    /// The key of the state before the first vertex (an empty frontier).
    pub fn start_key(&self) -> u128 {
        0
    }

    /// Decodes a key of a frontier of `k` vertices into the working array.
    #[inline]
    fn decode(&self, k: usize, key: u128) -> Frontier {
        if self.nibble_keys {
            return nibble::decode(k, key as u64);
        }
        let mut d = Frontier {
            st: [UNTOUCHED; W],
            mate: [0; W],
            w: [0; W],
            term: 0,
        };
        let mut ends = [0u8; W];
        let mut e = 0usize;
        // The roles take at most 2 x 23 bits.
        let low = key as u64;
        for i in 0..k {
            match ((low >> (2 * i)) & 3) as u8 {
                0 => {}
                1 => d.st[i] = DONE,
                2 => {
                    d.st[i] = END;
                    ends[e] = i as u8;
                    e += 1;
                }
                _ => {
                    d.st[i] = END;
                    d.mate[i] = FREE;
                }
            }
        }
        let mut upper = (key >> (2 * k)) as u64;
        if self.t > 1 {
            // t is 3 for paths: a division by a constant.
            d.term = (upper % 3) as u8;
            upper /= 3;
        }
        if e == 0 {
            return d;
        }
        // `upper` is `rank + P * voltages`, where the rank's mixed-radix
        // digits have the radices e-1, e-3, ..., 1 whose product is P: take
        // them off one by one, and the voltages are what is left.
        let mut len = e;
        let mut firsts = [0u8; W / 2];
        let mut pairs = 0usize;
        // A valid key has an even number of paired ends; a key read from a
        // damaged or forged file may not, and leaves its last end unpaired
        // rather than dividing by zero.
        while len > 1 {
            let a = ends[0] as usize;
            let (q, r) = div_small_odd(upper, (len - 1) as u8);
            upper = q;
            let j = 1 + r as usize;
            let b = ends[j] as usize;
            d.mate[a] = b as u8;
            d.mate[b] = a as u8;
            firsts[pairs] = a as u8;
            pairs += 1;
            // Remove positions 0 and j, keeping the order.
            ends.copy_within(1..j, 0);
            ends.copy_within(j + 1..len, j - 1);
            len -= 2;
        }
        if self.m > 1 {
            // The modulus is 2 or 4: one digit of its bits per pair.
            let bits = self.m.trailing_zeros();
            for &a in &firsts[..pairs] {
                let volt = (upper & u64::from(self.m - 1)) as u8;
                upper >>= bits;
                d.w[a as usize] = volt;
                d.w[d.mate[a as usize] as usize] = (self.m - volt) % self.m;
            }
        }
        d
    }

    /// Encodes the frontier after `step` (the slots in `step.keep`), or
    /// the smaller of its key and its mirror image's where the step says so.
    #[inline]
    fn encode(&self, step: &Step, d: &Frontier, roles: u64) -> u128 {
        let key = self.encode_slots(&step.keep, d, roles);
        if step.mirror.is_empty() {
            return key;
        }
        let mut e = Frontier {
            st: [UNTOUCHED; W],
            mate: [0; W],
            w: [0; W],
            term: d.term,
        };
        for (i, &s) in step.keep.iter().enumerate() {
            let j = step.mirror[i] as usize;
            let s = s as usize;
            e.st[j] = d.st[s];
            if d.st[s] == END {
                let m = d.mate[s];
                e.mate[j] = if m == FREE {
                    FREE
                } else {
                    step.mirror[step.keep_index[m as usize] as usize]
                };
            }
        }
        let keep = &IDENTITY[..step.keep.len()];
        key.min(self.encode_slots(keep, &e, Self::roles(keep, &e)))
    }

    /// The 2-bit role codes of the slots `keep` of `d`, in that order: 0
    /// untouched, 1 done, 2 end of a path to another frontier end, 3 end of
    /// a path that leads to a terminal (the low bits of a key).
    #[inline]
    fn roles(keep: &[u8], d: &Frontier) -> u64 {
        let mut low = 0u64;
        for (i, &s) in keep.iter().enumerate() {
            let s = s as usize;
            let st = d.st[s];
            let code = st + u8::from(st == END && d.mate[s] == FREE);
            low |= u64::from(code) << (2 * i);
        }
        low
    }

    /// Encodes the slots `keep` of `d`, in that order, whose role codes
    /// are `roles`.
    #[inline]
    fn encode_slots(&self, keep: &[u8], d: &Frontier, roles: u64) -> u128 {
        let low = roles;
        // The ends paired in the frontier (code 2), in order.
        let mut pos = [0u8; W];
        let mut ends = [0u8; W];
        let mut e = 0usize;
        let mut paired = (roles >> 1) & !roles & LOW_BITS;
        while paired != 0 {
            let s = keep[paired.trailing_zeros() as usize / 2];
            pos[s as usize] = e as u8;
            ends[e] = s;
            e += 1;
            paired &= paired - 1;
        }
        let shift = 2 * keep.len();
        if e == 0 && self.t == 1 {
            return u128::from(low);
        }
        let mut rank = 0u64;
        let mut mult = 1u64;
        let mut volts = 0u64;
        let mut vmult = 1u64;
        let m = u64::from(self.m);
        // Bit i of `alive`: end i is not matched yet.
        let mut alive: u32 = (1u32 << e) - 1;
        while alive != 0 {
            let first = alive.trailing_zeros() as usize;
            let a = ends[first] as usize;
            let pb = pos[d.mate[a] as usize] as usize;
            // Index of the mate among the alive ends after `a`.
            let between = alive & ((1u32 << pb) - 1) & !((2u32 << first) - 1);
            let len = alive.count_ones() as u64;
            rank += u64::from(between.count_ones()) * mult;
            mult *= len - 1;
            if m > 1 {
                volts += u64::from(d.w[a]) * vmult;
                vmult *= m;
            }
            alive &= !((1u32 << first) | (1u32 << pb));
        }
        let upper = u64::from(d.term) + self.t * (rank + PAIRINGS[e] * volts);
        u128::from(low) | (u128::from(upper) << shift)
    }

    /// The roles ([`UNTOUCHED`], [`END`] or [`DONE`]) and mates (slots in
    /// [`Engine::final_frontier`]) of a state after the last vertex.
    pub fn final_roles(&self, key: u128) -> ([u8; W], [u8; W]) {
        let d = self.decode(self.final_frontier.len(), key);
        (d.st, d.mate)
    }

    /// Adds the edge from the new vertex (slot `a`) to slot `b` with voltage
    /// `e`. Returns `None` if the edge is impossible, else whether it closed
    /// the whole cycle or path (allowed only at the last vertex).
    fn connect(&self, d: &mut Frontier, a: usize, b: usize, e: u8, last: bool) -> Option<bool> {
        let m = self.m;
        match (d.st[a], d.st[b]) {
            (_, DONE) | (DONE, _) => None,
            (UNTOUCHED, UNTOUCHED) => {
                d.st[a] = END;
                d.st[b] = END;
                d.mate[a] = b as u8;
                d.mate[b] = a as u8;
                d.w[a] = e;
                d.w[b] = (m - e) % m;
                Some(false)
            }
            (UNTOUCHED, _) => {
                let p = d.mate[b];
                d.st[b] = DONE;
                d.st[a] = END;
                d.mate[a] = p;
                if p != FREE {
                    d.mate[p as usize] = a as u8;
                    d.w[a] = (e + d.w[b]) % m;
                    d.w[p as usize] = (m - d.w[a]) % m;
                }
                Some(false)
            }
            (_, UNTOUCHED) => {
                let q = d.mate[a];
                d.st[a] = DONE;
                d.st[b] = END;
                d.mate[b] = q;
                if q != FREE {
                    d.mate[q as usize] = b as u8;
                    d.w[b] = (d.w[a] + m - e) % m;
                    d.w[q as usize] = (m - d.w[b]) % m;
                }
                Some(false)
            }
            _ => {
                let q = d.mate[a];
                let p = d.mate[b];
                d.st[a] = DONE;
                d.st[b] = DONE;
                if q as usize == b {
                    // A cycle closes: only the whole tour, at the end, may.
                    let volt = (e + d.w[b]) % m;
                    let generates = m == 1 || volt % 2 == 1;
                    (self.shape == Route::Cycle && last && generates).then_some(true)
                } else if q == FREE && p == FREE {
                    last.then_some(true)
                } else if q == FREE {
                    d.mate[p as usize] = FREE;
                    Some(false)
                } else if p == FREE {
                    d.mate[q as usize] = FREE;
                    Some(false)
                } else {
                    let (q, p) = (q as usize, p as usize);
                    d.mate[q] = p as u8;
                    d.mate[p] = q as u8;
                    d.w[q] = (m - d.w[a] + e + d.w[b]) % m;
                    d.w[p] = (m - d.w[q]) % m;
                    Some(false)
                }
            }
        }
    }

    /// Retires the vertices that have no neighbours left and prunes those
    /// that can no longer get their degree. Returns `None` if the state dies,
    /// else whether a path between two terminals was completed.
    fn settle(&self, d: &mut Frontier, checks: &[Check], last: bool) -> Option<bool> {
        let cycle = self.shape == Route::Cycle;
        let mut completed = false;
        for c in checks {
            let s = c.slot as usize;
            let deg = match d.st[s] {
                UNTOUCHED => 0,
                END => 1,
                _ => 2,
            };
            if c.remaining == 0 {
                match deg {
                    2 => {}
                    0 => return None,
                    _ => {
                        if cycle || !c.terminal_ok || d.term == 2 {
                            return None;
                        }
                        d.term += 1;
                        d.st[s] = DONE;
                        let p = d.mate[s];
                        if p == FREE {
                            if !last {
                                return None;
                            }
                            completed = true;
                        } else {
                            d.mate[p as usize] = FREE;
                        }
                    }
                }
            } else {
                let can = deg + c.remaining.min(2);
                let need = if cycle || !c.terminal_ok || d.term == 2 {
                    2
                } else {
                    1
                };
                if can < need {
                    return None;
                }
            }
        }
        Some(completed)
    }

    /// Paths: whether the state `d` after `step` may still become one path,
    /// judged by the vertices that must be its terminals (frontier vertices
    /// with one neighbour left and no edge yet, unprocessed vertices with one
    /// neighbour that can still take an edge; at most two, less those fixed)
    /// and, on a 2-coloured graph, by the terminals' colours: the colours of
    /// the terminals add up to twice those of all vertices, and those fixed
    /// already add up to twice the processed vertices' colours less the
    /// frontier's edges still to come, each counted with its vertex's colour.
    #[inline]
    fn may_finish(&self, step: &Step, term: u8, untouched: u64, end: u64, done: u64) -> bool {
        let must_here = untouched & step.one_left;
        let mut must = u32::from(term) + must_here.count_ones();
        let sum = |m: u64, (plus, minus): (u64, u64)| {
            (m & plus).count_ones() as i32 - (m & minus).count_ones() as i32
        };
        let mut must_colour = step.keep_colour.map_or(0, |c| sum(must_here, c));
        for sc in &step.scarce {
            match sc.base + (sc.slots & !done).count_ones() {
                0 => return false,
                1 if !sc.terminal_ok => return false,
                1 => {
                    must += 1;
                    must_colour += i32::from(sc.colour);
                }
                _ => {}
            }
        }
        if must > 2 {
            return false;
        }
        match (self.twice_total, step.keep_colour) {
            (Some(total), Some(c)) => {
                let to_come = 2 * sum(untouched, c) + sum(end, c);
                let fixed = step.twice_processed - to_come;
                let rest = total - fixed - must_colour;
                rest.unsigned_abs() <= 2 - must
            }
            _ => true,
        }
    }

    /// The number of ways `key` becomes a whole tour of the prefix that
    /// ends with this step's vertex (the step must be a prefix step): the
    /// choices of the vertex's edges after which every vertex so far has
    /// its degree and the edges form one cycle, or one path whose ends are
    /// the vertices left with one edge.
    pub fn prefix_tours(&self, step: &Step, key: u128) -> u32 {
        let base = self.decode(step.prev, key);
        let slots = step.prev + 1;
        let whole = |d: &Frontier, closed: bool| -> bool {
            let mut ends = 0u32;
            let mut paired = 0u32;
            for s in 0..slots {
                match d.st[s] {
                    UNTOUCHED => return false,
                    END if d.mate[s] == FREE => ends += 1,
                    END => paired += 1,
                    _ => {}
                }
            }
            match self.shape {
                Route::Cycle => closed && ends + paired == 0,
                // One path: its two ends are the terminals fixed before
                // (`term`) and the vertices left with one edge, and the
                // ends still in the frontier belong to it.
                Route::Path => {
                    let term = u32::from(d.term);
                    match (term, paired, ends) {
                        (2, 0, 0) => closed,
                        (1, 0, 1) => true,
                        (0, 2, 0) => true,
                        _ => false,
                    }
                }
            }
        };
        let mut found = 0u32;
        self.choices(step, &base, true, |d, closed| {
            if whole(d, closed) {
                found += 1;
            }
        });
        found
    }

    /// Calls `emit(Some(key))` for every successor of `key` at `step`, or
    /// `emit(None)` for every completed tour at the last step.
    #[inline]
    pub fn expand(&self, step: &Step, key: u128, mut emit: impl FnMut(Option<u128>)) {
        if self.nibble_keys {
            return self.expand_nibbles(step, key as u64, emit);
        }
        let base = self.decode(step.prev, key);
        let last = step.last;
        let out = |d: &mut Frontier, closed: bool| {
            let Some(completed) = self.settle(d, &step.checks, last) else {
                return;
            };
            if last {
                let whole = match self.shape {
                    Route::Cycle => closed,
                    Route::Path => d.term == 2,
                };
                if whole || completed {
                    emit(None);
                }
            } else {
                let roles = Self::roles(&step.keep, d);
                if self.prune {
                    // The kept slots by role, as masks over the role codes.
                    let (odd, high) = (roles & LOW_BITS, (roles >> 1) & LOW_BITS);
                    let untouched = step.kept & !odd & !high;
                    if !self.may_finish(step, d.term, untouched, high, odd & !high) {
                        return;
                    }
                }
                emit(Some(self.encode(step, d, roles)));
            }
        };
        self.choices(step, &base, last, out);
    }

    /// Calls `f(state, closed)` for every choice of zero, one or two of the
    /// new vertex's edges that `connect` allows (`last`: whether the whole
    /// cycle or path may close), with whether a choice closed it.
    #[inline]
    fn choices(
        &self,
        step: &Step,
        base: &Frontier,
        last: bool,
        mut f: impl FnMut(&mut Frontier, bool),
    ) {
        let a = step.prev;
        let mut d = *base;
        f(&mut d, false);
        for (i, &(b, e)) in step.back.iter().enumerate() {
            let mut d1 = *base;
            let Some(done1) = self.connect(&mut d1, a, b as usize, e, last) else {
                continue;
            };
            let mut d = d1;
            f(&mut d, done1);
            for &(b2, e2) in &step.back[i + 1..] {
                let mut d2 = d1;
                if let Some(done2) = self.connect(&mut d2, a, b2 as usize, e2, last) {
                    f(&mut d2, done1 || done2);
                }
            }
        }
    }
}
