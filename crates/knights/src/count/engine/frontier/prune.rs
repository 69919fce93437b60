//! The pruning of tours (see the module notes of `frontier`): at build time
//! the masks a step judges its states by, at run time the check that a
//! state may still become one path, or one cycle.

use std::collections::BTreeSet;

use super::problem::{Problem, ProblemGraph};
use super::program::{Engine, PrefixColours, Route, Scarce, Step};

/// Whether and how a problem's states are pruned.
pub(super) struct Pruning {
    /// Whether the problem is a sweep over prefixes, whose states are
    /// judged by every prefix they may still become a tour of (a prefix
    /// leaves a vertex no more neighbours than the whole graph does): a
    /// scarce unprocessed vertex rules out only the prefixes that hold it,
    /// and a frontier vertex short of edges only those that end before
    /// its neighbours.
    sweep: bool,
    /// A 2-colouring (+1, -1) of the vertices, if the pruning judges by
    /// colours, and outside a sweep twice the colour sum of the whole
    /// graph, which a path's two terminals add up to (a sweep's prefixes
    /// have sums of their own: see [`Pruning::prefix_colours`]). Cycles
    /// are not judged by colours: any state's fixed terminals (none)
    /// already add up to a cycle's sum (0).
    colour: Option<Vec<i8>>,
    pub(super) twice_total: Option<i32>,
}

/// The masks of one step (see [`Step`]).
pub(super) struct Masks {
    pub(super) kept: u64,
    pub(super) one_left: u64,
    pub(super) scarce: Vec<Scarce>,
    pub(super) keep_colour: Option<(u64, u64)>,
    pub(super) ready: Vec<(u32, u32)>,
}

/// A step's slots as its masks see them: the working slots (the frontier
/// before the step, then the new vertex) and those kept after it, whose
/// role codes lie `spacing` bits apart.
pub(super) struct StepSlots<'a> {
    work: &'a [usize],
    keep: &'a [u8],
    spacing: usize,
}

impl<'a> StepSlots<'a> {
    pub(super) fn new(work: &'a [usize], keep: &'a [u8], spacing: usize) -> StepSlots<'a> {
        StepSlots {
            work,
            keep,
            spacing,
        }
    }

    /// The working slot of vertex `u`, if it has one.
    pub(super) fn slot_of(&self, u: usize) -> Option<u8> {
        self.work.iter().position(|&x| x == u).map(|s| s as u8)
    }

    /// The mask over the role codes of `slots`, which must be kept.
    fn mask(&self, slots: impl Iterator<Item = u8>) -> u64 {
        slots.fold(0u64, |m, s| {
            let i = self.keep.iter().position(|&k| k == s).expect("a kept slot");
            m | 1 << (self.spacing * i)
        })
    }

    /// The mask of the kept slots whose vertices pass `test`.
    fn mask_where(&self, test: impl Fn(usize) -> bool) -> u64 {
        self.mask(
            self.keep
                .iter()
                .copied()
                .filter(|&s| test(self.work[s as usize])),
        )
    }
}

impl Pruning {
    pub(super) fn new(p: &Problem, graph: &ProblemGraph) -> Pruning {
        let whole = p.prefixes.is_empty();
        let colour = if p.shape == Route::Cycle {
            None
        } else if !p.colour.is_empty() {
            Some(p.colour.clone())
        } else if !graph.partial {
            graph.two_colouring()
        } else {
            None
        };
        // A colouring given with the problem may be of a larger graph
        // (a part met in the middle), whose total is given with it.
        let twice_total = match &colour {
            Some(_) if whole && !p.colour.is_empty() => Some(p.twice_colour_total),
            Some(c) if whole => Some(c.iter().map(|&x| 2 * i32::from(x)).sum()),
            _ => None,
        };
        Pruning {
            sweep: !whole,
            colour,
            twice_total,
        }
    }

    /// In a sweep of paths on a 2-coloured graph, twice the colour sums of
    /// the prefixes counted and of the whole graph, ready for ranges of
    /// sizes; empty otherwise.
    pub(super) fn prefix_colours(&self, p: &Problem) -> PrefixColours {
        let Some(colour) = self.colour.as_ref().filter(|_| self.sweep) else {
            return PrefixColours::default();
        };
        let n = p.n;
        let mut counted = vec![false; n + 1];
        counted[n] = true;
        for &c in p.prefixes.iter().filter(|&&c| c <= n) {
            counted[c] = true;
        }
        let mut twice = 0i32;
        let mut base = Vec::with_capacity(n + 1);
        for (c, &counted) in counted.iter().enumerate() {
            base.push(if counted {
                (twice, twice)
            } else {
                (i32::MAX, i32::MIN)
            });
            if c < n {
                twice += 2 * i32::from(colour[c]);
            }
        }
        PrefixColours::new(base)
    }

    /// Twice the colour of vertex `v` (0 without colours).
    pub(super) fn twice_colour(&self, v: usize) -> i32 {
        self.colour.as_ref().map_or(0, |c| 2 * i32::from(c[v]))
    }

    /// The masks of the step of vertex `v`, whose slots are `slots`: the
    /// kept slots, those left with one neighbour, and when pruning, the
    /// scarce unprocessed vertices (`scarce`: those after `v` left fewer
    /// than two edges, which the build keeps as it goes rather than finding
    /// them afresh at each step, in time growing as the square of the
    /// number of vertices) and the kept slots by colour.
    pub(super) fn masks(
        &self,
        p: &Problem,
        graph: &ProblemGraph,
        v: usize,
        slots: &StepSlots,
        scarce: &BTreeSet<usize>,
    ) -> Masks {
        let scarce = scarce
            .iter()
            .map(|&u| {
                let base = graph.remaining(u, v);
                debug_assert!(u > v && base < 2);
                Scarce {
                    vertex: u as u32,
                    base,
                    slots: slots.mask(graph.nbrs[u].iter().filter(|&&x| x <= v).map(|&x| {
                        slots
                            .slot_of(x)
                            .expect("a neighbour of the unprocessed is kept")
                    })),
                    terminal_ok: p.may_end(u),
                    colour: self.colour.as_ref().map_or(0, |c| c[u]),
                }
            })
            .collect();
        // In a sweep, the least prefix that gives each kept vertex one
        // more edge, and two more: it holds the vertex's first (second)
        // neighbour after `v`.
        let ready = if self.sweep {
            slots
                .keep
                .iter()
                .map(|&s| {
                    let mut later = graph.nbrs[slots.work[s as usize]]
                        .iter()
                        .filter(|&&x| x > v)
                        .map(|&x| x as u32 + 1)
                        .collect::<Vec<u32>>();
                    later.sort_unstable();
                    let at = |i: usize| later.get(i).copied().unwrap_or(u32::MAX);
                    (at(0), at(1))
                })
                .collect()
        } else {
            Vec::new()
        };
        Masks {
            kept: slots.mask(slots.keep.iter().copied()),
            one_left: slots.mask_where(|u| graph.remaining(u, v) == 1),
            scarce,
            keep_colour: self.colour.as_ref().map(|c| {
                (
                    slots.mask_where(|u| c[u] == 1),
                    slots.mask_where(|u| c[u] == -1),
                )
            }),
            ready,
        }
    }
}

/// For a sweep over `p`'s prefixes, the least number of vertices `c >= x`
/// of a prefix counted or of the whole graph, for each `x` up to `n + 1`
/// (`u32::MAX`: none); empty for a whole graph.
pub(super) fn next_prefix(p: &Problem) -> Vec<u32> {
    if p.prefixes.is_empty() {
        return Vec::new();
    }
    let n = p.n;
    let mut counted = vec![false; n + 1];
    counted[n] = true;
    for &c in p.prefixes.iter().filter(|&&c| c < n) {
        counted[c] = true;
    }
    let mut next = vec![u32::MAX; n + 2];
    for x in (0..=n).rev() {
        next[x] = if counted[x] { x as u32 } else { next[x + 1] };
    }
    next
}

impl PrefixColours {
    /// The table over `base`: for each number of vertices, twice the colour
    /// sum of that prefix, or `(i32::MAX, i32::MIN)` if it is not counted.
    fn new(base: Vec<(i32, i32)>) -> PrefixColours {
        let len = base.len();
        let mut levels = vec![base];
        let mut span = 1;
        while 2 * span <= len {
            let below = levels.last().expect("the first level");
            let level = (0..=len - 2 * span)
                .map(|c| {
                    let (a, b) = (below[c], below[c + span]);
                    (a.0.min(b.0), a.1.max(b.1))
                })
                .collect();
            levels.push(level);
            span *= 2;
        }
        PrefixColours { levels }
    }

    /// The least and greatest of twice the colour sums of the prefixes
    /// counted of `lo` to `hi` vertices, if the table has colours and some
    /// prefix there is counted.
    fn range(&self, lo: u32, hi: u32) -> Option<(i32, i32)> {
        let (lo, hi) = (lo as usize, hi as usize);
        if self.levels.is_empty() || lo > hi || hi >= self.levels[0].len() {
            return None;
        }
        // Two spans of 2^j sizes that cover lo..=hi.
        let j = (usize::BITS - 1 - (hi - lo + 1).leading_zeros()) as usize;
        let (a, b) = (self.levels[j][lo], self.levels[j][hi + 1 - (1 << j)]);
        let (least, greatest) = (a.0.min(b.0), a.1.max(b.1));
        (least <= greatest).then_some((least, greatest))
    }
}

impl Engine {
    /// Whether the state `d` after `step` may still become one path (or
    /// one cycle, which has no terminals), judged by the vertices that must
    /// be its terminals (frontier vertices
    /// with one neighbour left and no edge yet, unprocessed vertices with one
    /// neighbour that can still take an edge; at most two, less those fixed)
    /// and, on a 2-coloured graph, by the terminals' colours: the colours of
    /// the terminals add up to twice those of all vertices of the graph the
    /// path covers (the whole graph, `twice_total`, or in a sweep one
    /// of the prefixes between the bounds of `some_prefix`), and those fixed
    /// already add up to twice the processed vertices' colours less the
    /// frontier's edges still to come, each counted with its vertex's colour.
    #[inline]
    pub(super) fn may_finish(
        &self,
        step: &Step,
        term: u8,
        untouched: u64,
        end: u64,
        done: u64,
    ) -> bool {
        let must_here = untouched & step.one_left;
        let mut must = u32::from(term) + must_here.count_ones();
        let sum = |m: u64, (plus, minus): (u64, u64)| {
            (m & plus).count_ones() as i32 - (m & minus).count_ones() as i32
        };
        let mut must_colour = step.keep_colour.map_or(0, |c| sum(must_here, c));
        let most = self.most_terminals();
        let mut totals = self.twice_total.map(|t| (t, t));
        if !self.next_prefix.is_empty() {
            if must > most {
                return false;
            }
            let Some((lo, hi)) = self.some_prefix(step, term, untouched, end, done, must) else {
                return false;
            };
            // Only the prefixes of `lo` to `hi` vertices are left to the
            // state: the range of their colour sums (none without colours).
            totals = self.prefix_colours.range(lo, hi);
        } else {
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
        }
        if must > most {
            return false;
        }
        match (totals, step.keep_colour) {
            (Some((least, greatest)), Some(c)) => {
                let to_come = 2 * sum(untouched, c) + sum(end, c);
                let fixed = step.twice_processed - to_come;
                // Some graph's total, less what is fixed, is within reach
                // of the terminals still free.
                let free = (most - must) as i32;
                let at = fixed + must_colour;
                at - free <= greatest && least <= at + free
            }
            _ => true,
        }
    }

    /// The terminals a tour has: two for a path, none for a cycle.
    fn most_terminals(&self) -> u32 {
        if self.shape == Route::Path {
            2
        } else {
            0
        }
    }

    /// In a sweep, whether some prefix of at least `step.first_prefix`
    /// vertices counted (or the whole graph) is left that the state may
    /// become a tour of, judged by two bounds: the fewest vertices a
    /// prefix needs to hold the neighbours that the frontier's vertices
    /// still need (one for an end, two for an untouched vertex, one less
    /// for the at most `most - term` terminals still free) and the edges
    /// that brings them (each new vertex gives at most two), and the
    /// first scarce unprocessed vertex that no tour may hold (no
    /// neighbour left that can take an edge, or one and no terminal to
    /// spare: `must` are those fixed or forced already). Returns the
    /// least and greatest numbers of vertices of the prefixes left to it
    /// (the least one counted), or `None` if none is.
    #[inline]
    fn some_prefix(
        &self,
        step: &Step,
        term: u8,
        untouched: u64,
        end: u64,
        done: u64,
        must: u32,
    ) -> Option<(u32, u32)> {
        let most = self.most_terminals();
        let mut forced = must;
        let mut most_vertices = self.next_prefix.len() as u32 - 2;
        for sc in &step.scarce {
            let bad = match sc.base + (sc.slots & !done).count_ones() {
                0 => true,
                1 if !sc.terminal_ok => true,
                1 => {
                    forced += 1;
                    forced > most
                }
                _ => false,
            };
            if bad {
                // The prefixes that end before it.
                most_vertices = sc.vertex;
                break;
            }
        }
        let free = most - u32::from(term);
        // Edges the frontier still needs; each new vertex gives two.
        let needed = (2 * (untouched & step.kept).count_ones() + (end & step.kept).count_ones())
            .saturating_sub(free);
        let least = step.first_prefix - 1 + needed.div_ceil(2);
        let reaches = |least: u32| {
            let from = least.max(step.first_prefix) as usize;
            let first = *self.next_prefix.get(from)?;
            (first <= most_vertices).then_some((first, most_vertices))
        };
        if most_vertices as usize + 2 == self.next_prefix.len() {
            // Every prefix to come is open to the state: the whole graph,
            // last, gives each vertex all its neighbours, and the vertices
            // with one left are terminals already counted in `must`.
            return reaches(least);
        }
        // The greatest three of the vertices each slot needs, with what
        // it needs as a terminal.
        let mut top = [(0u32, 0u32); 3];
        let mut push = |need: (u32, u32)| {
            if need.0 > top[2].0 {
                top[2] = need;
                if top[2].0 > top[1].0 {
                    top.swap(1, 2);
                    if top[1].0 > top[0].0 {
                        top.swap(0, 1);
                    }
                }
            }
        };
        let spacing = if self.nibble_keys { 4 } else { 2 };
        let mut bits = (untouched | end) & step.kept;
        while bits != 0 {
            let at = bits.trailing_zeros();
            bits &= bits - 1;
            let (one, two) = step.ready[(at / spacing) as usize];
            if untouched >> at & 1 == 1 {
                push((two, one));
            } else {
                push((one, 0));
            }
        }
        let ready = match free {
            0 => top[0].0,
            1 => top[1].0.max(top[0].1),
            _ => top[2].0.max(top[0].1).max(top[1].1),
        };
        reaches(least.max(ready))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_ranges_are_those_of_the_prefixes_counted_between_the_bounds() {
        let none = (i32::MAX, i32::MIN);
        let mut seed = 7u64;
        for len in 1..40usize {
            let base: Vec<(i32, i32)> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    let x = (seed >> 40) as i32 % 7 - 3;
                    if seed >> 63 == 1 {
                        (x, x)
                    } else {
                        none
                    }
                })
                .collect();
            let table = PrefixColours::new(base.clone());
            for lo in 0..len + 2 {
                for hi in 0..len + 2 {
                    let counted: Vec<i32> = base
                        .iter()
                        .enumerate()
                        .filter(|&(c, &r)| lo <= c && c <= hi && r != none)
                        .map(|(_, &r)| r.0)
                        .collect();
                    let want = (!counted.is_empty()).then(|| {
                        let least = *counted.iter().min().unwrap();
                        (least, *counted.iter().max().unwrap())
                    });
                    let want = if hi >= len { None } else { want };
                    assert_eq!(table.range(lo as u32, hi as u32), want, "{len} {lo} {hi}");
                }
            }
        }
        assert_eq!(PrefixColours::default().range(0, 0), None);
    }
}
