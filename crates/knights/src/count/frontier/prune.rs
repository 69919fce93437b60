//! The pruning of open tours (see the module notes of `frontier`): at
//! build time the masks a step judges its states by, at run time the check
//! that a state may still become one path.

use super::problem::{Problem, ProblemGraph};
use super::program::{Engine, Route, Scarce, Step};

/// Whether and how a problem's states are pruned.
pub(super) struct Pruning {
    /// Paths outside sweeps: the pruning judges a state by the whole
    /// graph, so not in a sweep, whose prefixes are graphs of their own.
    pub(super) on: bool,
    /// A 2-colouring (+1, -1) of the vertices, if the pruning judges by
    /// colours, and twice the colour sum of the whole graph.
    colour: Option<Vec<i8>>,
    twice_total: i32,
}

/// The masks of one step (see [`Step`]).
pub(super) struct Masks {
    pub(super) kept: u64,
    pub(super) one_left: u64,
    pub(super) scarce: Vec<Scarce>,
    pub(super) keep_colour: Option<(u64, u64)>,
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
        let on = p.shape == Route::Path && p.prefixes.is_empty();
        let (colour, twice_total) = if !on {
            (None, 0)
        } else if !p.colour.is_empty() {
            (Some(p.colour.clone()), p.twice_colour_total)
        } else if !graph.partial {
            let c = graph.two_colouring();
            let total = c
                .as_ref()
                .map_or(0, |c| 2 * c.iter().map(|&x| i32::from(x)).sum::<i32>());
            (c, total)
        } else {
            (None, 0)
        };
        Pruning {
            on,
            colour,
            twice_total,
        }
    }

    /// Twice the colour sum of the whole graph, which the colours of the
    /// two terminals must add up to, if the pruning judges by colours.
    pub(super) fn twice_total(&self) -> Option<i32> {
        self.colour.as_ref().map(|_| self.twice_total)
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
        let scarce = if self.on {
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
        }
    }
}

impl Engine {
    /// Paths: whether the state `d` after `step` may still become one path,
    /// judged by the vertices that must be its terminals (frontier vertices
    /// with one neighbour left and no edge yet, unprocessed vertices with one
    /// neighbour that can still take an edge; at most two, less those fixed)
    /// and, on a 2-coloured graph, by the terminals' colours: the colours of
    /// the terminals add up to twice those of all vertices, and those fixed
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
}
