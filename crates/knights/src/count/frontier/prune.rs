//! The pruning of tours (see the module notes of `frontier`): at build time
//! the masks a step judges its states by, at run time the check that a
//! state may still become one path, or one cycle.

use super::problem::{Problem, ProblemGraph};
use super::program::{Engine, Route, Scarce, Step};

/// Whether and how a problem's states are pruned.
pub(super) struct Pruning {
    /// Whether the scarce unprocessed vertices are judged. Not in a sweep,
    /// whose prefixes are graphs of their own: there a state is judged by
    /// every graph it may still become a tour of (a prefix leaves the
    /// frontier's vertices no more neighbours than the whole graph does),
    /// so not by the unprocessed vertices, which a prefix may end before.
    scarce: bool,
    /// A 2-colouring (+1, -1) of the vertices, if the pruning judges by
    /// colours, and for each vertex `v` the least and greatest of twice the
    /// colour sums of the graphs a state after `v` may still become a tour
    /// of: the whole graph, and in a sweep each prefix that ends at least
    /// two vertices later (its tours are counted from the states before
    /// its last vertex). Cycles are not judged by colours: any state's
    /// fixed terminals (none) already add up to a cycle's sum (0).
    colour: Option<Vec<i8>>,
    twice_totals: Vec<(i32, i32)>,
}

/// The masks of one step (see [`Step`]).
pub(super) struct Masks {
    pub(super) kept: u64,
    pub(super) one_left: u64,
    pub(super) scarce: Vec<Scarce>,
    pub(super) keep_colour: Option<(u64, u64)>,
    pub(super) twice_totals: Option<(i32, i32)>,
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
        let twice_totals = match &colour {
            None => Vec::new(),
            Some(_) if whole && !p.colour.is_empty() => {
                vec![(p.twice_colour_total, p.twice_colour_total); p.n]
            }
            Some(c) => prefix_totals(p, c),
        };
        Pruning {
            scarce: whole,
            colour,
            twice_totals,
        }
    }

    /// Twice the colour of vertex `v` (0 without colours).
    pub(super) fn twice_colour(&self, v: usize) -> i32 {
        self.colour.as_ref().map_or(0, |c| 2 * i32::from(c[v]))
    }

    /// The masks of the step of vertex `v`, whose slots are `slots`: the
    /// kept slots, those left with one neighbour, and when pruning, the
    /// scarce unprocessed vertices and the kept slots by colour.
    pub(super) fn masks(
        &self,
        p: &Problem,
        graph: &ProblemGraph,
        v: usize,
        slots: &StepSlots,
    ) -> Masks {
        let scarce = if self.scarce {
            (v + 1..p.n)
                .filter_map(|u| {
                    let base = graph.remaining(u, v);
                    (base < 2).then(|| Scarce {
                        base,
                        slots: slots.mask(graph.nbrs[u].iter().filter(|&&x| x <= v).map(|&x| {
                            slots
                                .slot_of(x)
                                .expect("a neighbour of the unprocessed is kept")
                        })),
                        terminal_ok: p.may_end(u),
                        colour: self.colour.as_ref().map_or(0, |c| c[u]),
                    })
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
            twice_totals: self.twice_totals.get(v).copied(),
        }
    }
}

/// For each vertex `v` of a problem coloured `colour`, the least and
/// greatest of twice the colour sums of the whole graph and of the prefixes
/// of at least `v + 2` vertices (the whole graph's only, without prefixes).
/// Judging by the range keeps every state some prefix's sum would keep;
/// where the prefixes are every cell, twice their sum moves by 2 from one
/// to the next, so every even number of the range is one of them.
fn prefix_totals(p: &Problem, colour: &[i8]) -> Vec<(i32, i32)> {
    let n = p.n;
    // twice[c]: twice the colour sum of the first c vertices.
    let mut twice = vec![0i32; n + 1];
    let mut counted = vec![false; n + 1];
    for c in 0..n {
        twice[c + 1] = twice[c] + 2 * i32::from(colour[c]);
    }
    for &c in &p.prefixes {
        if c <= n {
            counted[c] = true;
        }
    }
    let mut range = (twice[n], twice[n]);
    let mut out = vec![range; n];
    for v in (0..n.saturating_sub(2)).rev() {
        let c = v + 2;
        if counted[c] {
            range = (range.0.min(twice[c]), range.1.max(twice[c]));
        }
        out[v] = range;
    }
    out
}

impl Engine {
    /// Whether the state `d` after `step` may still become one path (or
    /// one cycle, which has no terminals), judged by the vertices that must
    /// be its terminals (frontier vertices
    /// with one neighbour left and no edge yet, unprocessed vertices with one
    /// neighbour that can still take an edge; at most two, less those fixed)
    /// and, on a 2-coloured graph, by the terminals' colours: the colours of
    /// the terminals add up to twice those of all vertices of the graph the
    /// path covers (the whole graph, or in a sweep some later prefix: the
    /// step's range `twice_totals`), and those fixed
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
        // A path has two terminals, a cycle none.
        let most = if self.shape == Route::Path { 2 } else { 0 };
        if must > most {
            return false;
        }
        match (step.twice_totals, step.keep_colour) {
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
}
