//! The step: a state's successors when one vertex is processed (ranked
//! keys; `nibble.rs` does the same on nibble keys), the choices of the new
//! vertex's edges, the rules that join paths and retire vertices, and the
//! tours a prefix of the vertices completes.

use super::keys::LOW_BITS;
use super::program::{Check, Engine, Frontier, Route, Step, DONE, END, FREE, UNTOUCHED};

impl Engine {
    /// The number of ways `key` becomes a whole tour of the prefix that
    /// ends with this step's vertex (the step must be a prefix step): the
    /// choices of the vertex's edges after which every vertex so far has
    /// its degree and the edges form one cycle, or one path whose ends are
    /// the vertices left with one edge.
    pub fn prefix_tours(&self, step: &Step, key: u128) -> u32 {
        // The new vertex's (at most two) edges turn at most two untouched
        // slots into ends and at most two ends done; a tour leaves no slot
        // untouched and at most two ends. Most states fail this at once.
        let (untouched, open) = self.open_slots(step.prev, key);
        if untouched > 2 || open > 4 {
            return 0;
        }
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
                // The kept slots by role, as masks over the role codes.
                let (odd, high) = (roles & LOW_BITS, (roles >> 1) & LOW_BITS);
                let untouched = step.kept & !odd & !high;
                if !self.may_finish(step, d.term, untouched, high, odd & !high) {
                    return;
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
}
