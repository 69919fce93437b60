//! Building the program: from a [`Problem`], the [`Step`] of each vertex
//! (its edges back as slots, the degree checks, the slots kept and their
//! masks, the mirror) and the width of the keys, or the refusal of a
//! frontier too wide for them.

use super::keys::key_bits;
use super::nibble::{NIBBLE_KEY_BITS, NIBBLE_SLOTS};
use super::problem::{Problem, ProblemGraph};
use super::program::{Check, Engine, Route, Step, W};
use super::prune::{next_prefix, Pruning, StepSlots};
use crate::Result;
use std::collections::BTreeSet;

impl Engine {
    /// Prepares the steps of `p`, or refuses a frontier too wide for the keys.
    pub fn new(p: &Problem) -> Result<Engine> {
        Engine::build(p, true)
    }

    /// The program of `p` with ranked keys even where nibble keys fit: a
    /// second encoding of the same states, for tests and for checkpoints
    /// written before nibble keys reached their board.
    pub fn ranked(p: &Problem) -> Result<Engine> {
        Engine::build(p, false)
    }

    /// The program of `p`, with nibble keys where they fit if `nibbles`.
    fn build(p: &Problem, nibbles: bool) -> Result<Engine> {
        let graph = ProblemGraph::new(p);
        let pruning = Pruning::new(p, &graph);
        let m = p.modulus.max(1);
        let t: u64 = if p.shape == Route::Path { 3 } else { 1 };
        // The nibble keys (see `nibble.rs`) need the frontier and the
        // new vertex in 16 nibbles, and no voltages.
        let nibble_keys = nibbles && m == 1 && graph.widest_frontier() < NIBBLE_SLOTS;
        let build = StepBuild {
            p,
            graph: &graph,
            pruning: &pruning,
            mirror_ok: graph.is_symmetry(p),
            // Bits a slot takes in the role masks: the spacing of the key's roles.
            spacing: if nibble_keys { 4 } else { 2 },
        };
        let mut twice_processed = 0i32;
        let mut frontier: Vec<usize> = Vec::new();
        let mut steps = Vec::with_capacity(p.n);
        let mut widest_key = 0u32;
        let mut width = 0usize;
        // The vertices that turn scarce at each step, and those scarce now.
        let mut turning: Vec<Vec<usize>> = vec![Vec::new(); p.n];
        for u in 0..p.n {
            if let Some(v) = graph.scarce_from(u) {
                turning[v].push(u);
            }
        }
        let mut scarce = BTreeSet::new();
        for (v, turns) in turning.into_iter().enumerate() {
            twice_processed += pruning.twice_colour(v);
            scarce.remove(&v);
            scarce.extend(turns);
            let (step, next) = build.step(v, &frontier, twice_processed, &scarce);
            let bits = key_bits(next.len(), t, m)?;
            width = width.max(next.len());
            widest_key = if nibble_keys {
                NIBBLE_KEY_BITS
            } else {
                widest_key.max(bits)
            };
            steps.push(step);
            frontier = next;
        }
        Ok(Engine {
            nibble_keys,
            shape: p.shape,
            m,
            t,
            steps,
            key_bits: widest_key,
            width,
            final_frontier: frontier,
            next_prefix: next_prefix(p),
            twice_total: pruning.twice_total,
            prefix_colours: pruning.prefix_colours(p),
        })
    }
}

/// What the steps of one problem are built from.
struct StepBuild<'a> {
    p: &'a Problem,
    graph: &'a ProblemGraph,
    pruning: &'a Pruning,
    /// Whether the problem's mirror is a symmetry of it.
    mirror_ok: bool,
    /// Bits a slot takes in the role masks: 4 with nibble keys, else 2.
    spacing: usize,
}

impl StepBuild<'_> {
    /// The step of vertex `v` after the frontier `frontier`, and the
    /// frontier after it; `twice_processed` is twice the colour sum of the
    /// vertices up to `v`, `scarce` the later vertices left fewer than two
    /// edges.
    fn step(
        &self,
        v: usize,
        frontier: &[usize],
        twice_processed: i32,
        scarce: &BTreeSet<usize>,
    ) -> (Step, Vec<usize>) {
        let (p, n) = (self.p, self.p.n);
        let mut work = frontier.to_vec();
        work.push(v);
        let keep: Vec<u8> = (0..work.len())
            .filter(|&s| self.graph.last_nbr[work[s]] > v)
            .map(|s| s as u8)
            .collect();
        let next: Vec<usize> = keep.iter().map(|&s| work[s as usize]).collect();
        let slots = StepSlots::new(&work, &keep, self.spacing);
        let masks = self.pruning.masks(p, self.graph, v, &slots, scarce);
        let step = Step {
            prev: frontier.len(),
            back: self.back(v, &slots),
            checks: self.checks(v, &slots),
            kept: masks.kept,
            one_left: masks.one_left,
            scarce: masks.scarce,
            keep_colour: masks.keep_colour,
            ready: masks.ready,
            first_prefix: v as u32 + 2,
            twice_processed,
            mirror: self.mirror(v, &next),
            keep_index: keep_index(&keep),
            drop_desc: (0..work.len() as u8)
                .rev()
                .filter(|s| !keep.contains(s))
                .collect(),
            keep,
            last: v + 1 == n && !self.graph.partial,
            prefix: v + 1 < n && p.prefixes.contains(&(v + 1)),
        };
        (step, next)
    }

    /// The edges of vertex `v` to earlier vertices: (slot, voltage).
    fn back(&self, v: usize, slots: &StepSlots) -> Vec<(u8, u8)> {
        self.p.back[v]
            .iter()
            .map(|&(u, e)| {
                let s = slots
                    .slot_of(u as usize)
                    .expect("an earlier neighbour is in the frontier");
                (s, e)
            })
            .collect()
    }

    /// The vertices whose remaining degree changes at the step of `v` (`v`
    /// and its earlier neighbours, each once), with what remains to them.
    fn checks(&self, v: usize, slots: &StepSlots) -> Vec<Check> {
        let mut touched: Vec<usize> = vec![v];
        for &(u, _) in &self.p.back[v] {
            if !touched.contains(&(u as usize)) {
                touched.push(u as usize);
            }
        }
        touched
            .iter()
            .map(|&u| Check {
                slot: slots.slot_of(u).unwrap_or(0),
                remaining: self.graph.remaining(u, v),
                terminal_ok: self.p.may_end(u),
            })
            .collect()
    }

    /// The mirror of each slot of the frontier `next` after the step of
    /// `v`, as indices into `next`, where the vertices processed are their
    /// own mirror image (empty: no mirror after this step).
    fn mirror(&self, v: usize, next: &[usize]) -> Vec<u8> {
        let p = self.p;
        // Not after the last vertex of a whole graph: that step counts
        // the finished tours and keeps no state.
        let closed = self.mirror_ok
            && (v + 1 < p.n || self.graph.partial)
            && (0..=v).all(|u| (p.mirror[u] as usize) <= v);
        if !closed {
            return Vec::new();
        }
        next.iter()
            .map(|&u| {
                let m = p.mirror[u] as usize;
                next.iter()
                    .position(|&x| x == m)
                    .expect("a symmetry keeps the frontier") as u8
            })
            .collect()
    }
}

/// The index in `keep` of each working slot kept.
fn keep_index(keep: &[u8]) -> [u8; W] {
    let mut index = [0u8; W];
    for (i, &s) in keep.iter().enumerate() {
        index[s as usize] = i as u8;
    }
    index
}
