//! The frontier ("transfer matrix", path decomposition) dynamic program.
//!
//! The graph's vertices are processed in a fixed order; processing vertex `v`
//! decides which of its edges to earlier vertices belong to the cycle or path
//! (zero, one or two of them). A state describes the *frontier*: the last
//! `slots` vertices (slot `i` is vertex `v - i`), each untouched (degree 0),
//! an end of a partial path (degree 1) or done (degree 2, or already left),
//! plus which ends are joined by a path, the voltage of each path (for
//! quotient graphs, see `symmetry.rs`) and, when counting open tours, how many
//! ends of the final path (*terminals*) have been fixed. Every vertex whose
//! last neighbour has been processed must be done; every vertex must still be
//! able to get its two edges from the neighbours not yet processed; a cycle may
//! close only at the very last vertex.
//!
//! States are packed into a `u128` key, 4 bits per slot (0 untouched, 1 done,
//! 15 an end whose path leads to a terminal, else a path label numbered by
//! first appearance from slot 0, so equal frontiers get equal keys), 2 bits of
//! terminal count and 2 bits of voltage per label. Counts are `u128`.

use rustc_hash::FxHashMap;

use crate::{Error, Result};

/// The most slots a key can hold (4 bits each, plus 2 + 2 x 13 bits).
pub(crate) const MAX_SLOTS: usize = 24;

const UNTOUCHED: u8 = 0;
const DONE: u8 = 1;
const END: u8 = 2;
/// The mate of an end whose path leads to a terminal.
const FREE: u8 = 255;
const FREE_NIBBLE: u128 = 15;

/// Cycles (closed tours) or paths (open tours).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// One cycle through every vertex, whose voltage generates the group.
    Cycle,
    /// One path through every vertex, with both ends in `terminal_ok`.
    Path,
}

/// A graph prepared for the dynamic program: vertices `0..n` in processing order.
pub(crate) struct Problem {
    /// Number of vertices.
    pub n: usize,
    /// For each vertex `v`, its edges to earlier vertices: `(u, voltage v -> u)`.
    /// Parallel edges (with different voltages) may appear.
    pub back: Vec<Vec<(u32, u8)>>,
    /// The voltage group is Z_modulus (1, 2 or 4).
    pub modulus: u8,
    /// Cycle or path.
    pub shape: Shape,
    /// Which vertices may be the ends of the path (ignored for cycles).
    pub terminal_ok: Vec<bool>,
}

/// What the dynamic program hands to the progress callback after each vertex.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// Vertices processed so far.
    pub step: usize,
    /// Vertices in all.
    pub steps: usize,
    /// States in the frontier now.
    pub states: usize,
    /// The most states seen so far.
    pub peak: usize,
}

/// The figures of a run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Run {
    pub count: u128,
    pub states_per_step: Vec<u64>,
    pub peak: u64,
    pub slots: usize,
}

/// Bytes one stored state costs in the hash map, with its share of slack.
pub(crate) const BYTES_PER_STATE: u64 = 80;

#[derive(Copy, Clone)]
struct Frontier {
    st: [u8; MAX_SLOTS],
    mate: [u8; MAX_SLOTS],
    /// Voltage from this end to its mate.
    w: [u8; MAX_SLOTS],
    term: u8,
}

/// Per vertex: the slots whose remaining degree changes, and what remains.
struct Check {
    slot: u8,
    remaining: u32,
    terminal_ok: bool,
}

struct Engine<'a> {
    p: &'a Problem,
    slots: usize,
    m: u8,
}

impl Engine<'_> {
    fn decode_shifted(&self, key: u128) -> Frontier {
        let mut d = Frontier {
            st: [DONE; MAX_SLOTS],
            mate: [0; MAX_SLOTS],
            w: [0; MAX_SLOTS],
            term: ((key >> (4 * self.slots)) & 3) as u8,
        };
        d.st[0] = UNTOUCHED;
        let mut first = [u8::MAX; 16];
        let vbase = 4 * self.slots + 2;
        for i in 0..self.slots - 1 {
            let x = ((key >> (4 * i)) & 15) as u8;
            let pos = i + 1;
            match x {
                0 => d.st[pos] = UNTOUCHED,
                1 => d.st[pos] = DONE,
                15 => {
                    d.st[pos] = END;
                    d.mate[pos] = FREE;
                }
                l => {
                    d.st[pos] = END;
                    let l = l as usize;
                    if first[l] == u8::MAX {
                        first[l] = pos as u8;
                        d.w[pos] = ((key >> (vbase + 2 * (l - 2))) & 3) as u8;
                    } else {
                        let q = first[l] as usize;
                        d.mate[q] = pos as u8;
                        d.mate[pos] = q as u8;
                        d.w[pos] = (self.m - d.w[q]) % self.m;
                    }
                }
            }
        }
        debug_assert_eq!(
            (key >> (4 * (self.slots - 1))) & 15,
            1,
            "a vertex left undone"
        );
        d
    }

    fn encode(&self, d: &Frontier) -> u128 {
        let mut key = u128::from(d.term) << (4 * self.slots);
        let vbase = 4 * self.slots + 2;
        let mut label = [0u8; MAX_SLOTS];
        let mut next = 2u8;
        for i in 0..self.slots {
            let x = match d.st[i] {
                UNTOUCHED => 0,
                DONE => 1,
                _ => {
                    let mate = d.mate[i];
                    if mate == FREE {
                        FREE_NIBBLE
                    } else if (mate as usize) > i {
                        let l = next;
                        next += 1;
                        label[mate as usize] = l;
                        key |= u128::from(d.w[i]) << (vbase + 2 * (l as usize - 2));
                        u128::from(l)
                    } else {
                        u128::from(label[i])
                    }
                }
            };
            key |= x << (4 * i);
        }
        key
    }

    /// Adds the edge from slot 0 (the new vertex) to slot `b` with voltage `e`.
    /// Returns `None` if the edge is impossible, else whether it closed a
    /// cycle of generating voltage (`Some(true)`) or completed a path
    /// between terminals (also `Some(true)`); `last` allows those.
    fn connect(&self, d: &mut Frontier, b: usize, e: u8, last: bool) -> Option<bool> {
        let m = self.m;
        let a = 0usize;
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
                    (self.p.shape == Shape::Cycle && last && generates).then_some(true)
                } else if q == FREE && p == FREE {
                    (last).then_some(true)
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
    /// that can no longer get their degree. Returns `None` if the state dies.
    fn settle(&self, d: &mut Frontier, checks: &[Check], last: bool) -> Option<bool> {
        let cycle = self.p.shape == Shape::Cycle;
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
}

/// Runs the dynamic program; `progress` is called after every vertex.
pub(crate) fn run(
    p: &Problem,
    max_memory: Option<u64>,
    progress: Option<&(dyn Fn(&Progress) + Sync)>,
) -> Result<Run> {
    let n = p.n;
    let mut max_back = 0usize;
    let mut nbrs: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, edges) in p.back.iter().enumerate() {
        for &(u, _) in edges {
            max_back = max_back.max(v - u as usize);
            nbrs[v].push(u);
            nbrs[u as usize].push(v as u32);
        }
    }
    let slots = max_back + 1;
    if slots > MAX_SLOTS {
        return Err(Error::Unsupported(format!(
            "counting needs a frontier of {slots} squares here, more than the {MAX_SLOTS} this counter supports; ask for a narrower board"
        )));
    }
    let remaining = |u: usize, t: usize| nbrs[u].iter().filter(|&&w| w as usize > t).count() as u32;
    let checks: Vec<Vec<Check>> = (0..n)
        .map(|v| {
            let mut us: Vec<usize> = vec![v];
            for &(u, _) in &p.back[v] {
                if !us.contains(&(u as usize)) {
                    us.push(u as usize);
                }
            }
            us.iter()
                .map(|&u| Check {
                    slot: (v - u) as u8,
                    remaining: remaining(u, v),
                    terminal_ok: p.terminal_ok.get(u).copied().unwrap_or(true),
                })
                .collect()
        })
        .collect();
    let engine = Engine {
        p,
        slots,
        m: p.modulus.max(1),
    };
    let budget_states = max_memory
        .or_else(crate::memory::available_bytes)
        .map(|b| (b / BYTES_PER_STATE).max(1) as usize)
        .unwrap_or(usize::MAX);

    let mut cur: FxHashMap<u128, u128> = FxHashMap::default();
    // Before the first vertex every slot is "done": there is nothing there.
    let mut start = 0u128;
    for i in 0..slots {
        start |= 1 << (4 * i);
    }
    cur.insert(start, 1);
    let mut next: FxHashMap<u128, u128> = FxHashMap::default();
    let mut run = Run {
        slots,
        ..Run::default()
    };
    let mut peak = 1usize;
    for v in 0..n {
        let last = v + 1 == n;
        let back: Vec<(usize, u8)> = p.back[v]
            .iter()
            .map(|&(u, e)| (v - u as usize, e))
            .collect();
        let checks = &checks[v];
        next.clear();
        let mut emit = |d: &mut Frontier, done: bool, count: u128| -> Result<()> {
            let Some(completed) = engine.settle(d, checks, last) else {
                return Ok(());
            };
            if last {
                let whole = match p.shape {
                    Shape::Cycle => done,
                    Shape::Path => d.term == 2,
                };
                if whole || completed {
                    run.count = run.count.checked_add(count).ok_or_else(overflow)?;
                }
                return Ok(());
            }
            let slot = next.entry(engine.encode(d)).or_insert(0);
            *slot = slot.checked_add(count).ok_or_else(overflow)?;
            if next.len() > budget_states {
                return Err(over_budget(max_memory, next.len()));
            }
            Ok(())
        };
        for (&key, &count) in &cur {
            let base = engine.decode_shifted(key);
            let mut d = base;
            emit(&mut d, false, count)?;
            for (i, &(b, e)) in back.iter().enumerate() {
                let mut d1 = base;
                let Some(done1) = engine.connect(&mut d1, b, e, last) else {
                    continue;
                };
                let mut d = d1;
                emit(&mut d, done1, count)?;
                for &(b2, e2) in &back[i + 1..] {
                    let mut d2 = d1;
                    if let Some(done2) = engine.connect(&mut d2, b2, e2, last) {
                        emit(&mut d2, done1 || done2, count)?;
                    }
                }
            }
        }
        std::mem::swap(&mut cur, &mut next);
        peak = peak.max(cur.len());
        run.states_per_step.push(cur.len() as u64);
        if let Some(f) = progress {
            f(&Progress {
                step: v + 1,
                steps: n,
                states: cur.len(),
                peak,
            });
        }
    }
    run.peak = peak as u64;
    Ok(run)
}

fn overflow() -> Error {
    Error::Unsupported("the count exceeds 2^128, more than this counter can hold".into())
}

fn over_budget(max_memory: Option<u64>, states: usize) -> Error {
    let bytes = states as u64 * BYTES_PER_STATE;
    match max_memory {
        Some(limit) => Error::GaveUp(format!(
            "the count stopped: its frontier grew past {states} states (about {}), over the memory bound of {}; allow more with --max-memory",
            crate::memory::human_bytes(bytes),
            crate::memory::human_bytes(limit)
        )),
        None => Error::GaveUp(format!(
            "the count stopped: its frontier grew past {states} states (about {}), more than the memory available",
            crate::memory::human_bytes(bytes)
        )),
    }
}
