//! Nibble keys: the frontier program's step worked on the packed key itself.
//!
//! Where the frontier fits in 15 slots and the graph has no voltages
//! (boards up to 7 wide), a state is one `u64`: slot `i` is the nibble at
//! bits `4i..4i + 4` (0 untouched, 1 done, 2 an end whose path leads to a
//! terminal, 3 and up an end of a path between two frontier ends, both
//! ends with the same label), and the number of terminals fixed is at
//! bits 60 and 61. While a step works, the terminals are held apart and
//! the vertex being processed takes the sixteenth nibble. Labels are
//! numbered 3, 4, ... in the order of their first slot, so equal states
//! get equal keys.
//!
//! A step then joins, retires and compacts slots with shifts and masks,
//! finds an end's mate by comparing all nibbles at once, and relabels only
//! the labelled slots: no decoding into arrays and no ranking of the
//! pairing, which the ranked keys of wider boards need to stay short.
//! The rules are those of [`Engine::expand`] on the decoded state.

use super::program::{Engine, Frontier, Route, Step, DONE, END, FREE, UNTOUCHED, W};

/// Slots a step works on (the frontier and the vertex being processed);
/// a key holds one less.
pub(crate) const NIBBLE_SLOTS: usize = 16;
/// Bits of a nibble key: 15 nibbles and the terminal count.
pub(crate) const NIBBLE_KEY_BITS: u32 = 62;
const TERM_SHIFT: u32 = 60;
/// A key's slots.
const NIBBLES: u64 = (1 << TERM_SHIFT) - 1;
/// The low bit of every nibble of a step's working value.
const ONES: u64 = 0x1111_1111_1111_1111;

const N_UNTOUCHED: u64 = 0;
const N_DONE: u64 = 1;
const N_FREE: u64 = 2;
/// The first label of a pair.
const FIRST_LABEL: u64 = 3;
/// The label of the pair a step opens (at most one a step), above every
/// label of a key (at most 7 pairs: labels 3 to 9).
const FRESH: u64 = 15;

#[inline]
fn get(x: u64, i: usize) -> u64 {
    (x >> (4 * i)) & 15
}

#[inline]
fn set(x: u64, i: usize, v: u64) -> u64 {
    (x & !(15 << (4 * i))) | (v << (4 * i))
}

/// The low bit of every nibble of `x` equal to `v`.
#[inline]
fn equal(x: u64, v: u64) -> u64 {
    let t = x ^ (v * ONES);
    !(t | (t >> 1) | (t >> 2) | (t >> 3)) & ONES
}

/// `x` with every nibble `from` (not 0) set to `to`.
#[inline]
fn relabel(x: u64, from: u64, to: u64) -> u64 {
    x ^ (equal(x, from) * (from ^ to))
}

/// The low bits of the nibbles of `k` slots (at most [`NIBBLE_SLOTS`]).
#[inline]
fn slots(k: usize) -> u64 {
    ONES & u64::MAX.checked_shr(64 - 4 * k as u32).unwrap_or(0)
}

/// The nibbles of `k` slots with their labels numbered from 3 in the order
/// of their first slot.
#[inline]
fn canonical(x: u64, k: usize) -> u64 {
    let mut labelled = !(equal(x, N_UNTOUCHED) | equal(x, N_DONE) | equal(x, N_FREE)) & slots(k);
    if labelled == 0 {
        return x;
    }
    let mut map = [0u8; 16];
    let mut next = FIRST_LABEL as u8;
    let mut out = x;
    while labelled != 0 {
        let i = labelled.trailing_zeros() as usize / 4;
        let v = get(x, i) as usize;
        if map[v] == 0 {
            map[v] = next;
            next += 1;
        }
        out = set(out, i, u64::from(map[v]));
        labelled &= labelled - 1;
    }
    out
}

/// The numbers of untouched slots and of slots not done among the first
/// `k` of `key`.
pub(super) fn open_slots(k: usize, key: u64) -> (u32, u32) {
    let all = slots(k);
    (
        (equal(key, N_UNTOUCHED) & all).count_ones(),
        (!equal(key, N_DONE) & all).count_ones(),
    )
}

/// The state of a nibble key of `k` slots, decoded.
pub(super) fn decode(k: usize, key: u64) -> Frontier {
    let mut d = Frontier {
        st: [UNTOUCHED; W],
        mate: [0; W],
        w: [0; W],
        term: ((key >> TERM_SHIFT) & 3) as u8,
    };
    // The first slot seen of each label.
    let mut first = [u8::MAX; 16];
    for i in 0..k {
        match get(key, i) {
            N_UNTOUCHED => {}
            N_DONE => d.st[i] = DONE,
            N_FREE => {
                d.st[i] = END;
                d.mate[i] = FREE;
            }
            l => {
                d.st[i] = END;
                let f = first[l as usize];
                if f == u8::MAX {
                    first[l as usize] = i as u8;
                } else {
                    d.mate[i] = f;
                    d.mate[f as usize] = i as u8;
                }
            }
        }
    }
    d
}

impl Engine {
    /// [`Engine::expand`] on a nibble key.
    #[inline]
    pub(super) fn expand_nibbles(&self, step: &Step, key: u64, mut emit: impl FnMut(Option<u128>)) {
        let base = key & NIBBLES;
        let term = ((key >> TERM_SHIFT) & 3) as u8;
        let a = step.prev;
        let cycle = self.shape == Route::Cycle;
        let last = step.last;
        let mut out = |x: u64, closed: bool| {
            let Some((x, term, completed)) = settle(x, term, step, cycle, last) else {
                return;
            };
            if last {
                let whole = if cycle { closed } else { term == 2 };
                if whole || completed {
                    emit(None);
                }
                return;
            }
            let mut x = x;
            for &s in &step.drop_desc {
                let low = (1u64 << (4 * s)) - 1;
                x = (x & low) | ((x >> 4) & !low);
            }
            let k = step.keep.len();
            let untouched = equal(x, N_UNTOUCHED) & step.kept;
            let done = equal(x, N_DONE) & step.kept;
            let end = step.kept & !untouched & !done;
            if !self.may_finish(step, term, untouched, end, done) {
                return;
            }
            let mut key = canonical(x, k);
            if !step.mirror.is_empty() {
                let mut y = 0u64;
                for (i, &j) in step.mirror.iter().enumerate() {
                    y |= get(x, i) << (4 * j as usize);
                }
                key = key.min(canonical(y, k));
            }
            emit(Some(u128::from(key | (u64::from(term) << TERM_SHIFT))));
        };
        out(base, false);
        for (i, &(b, _)) in step.back.iter().enumerate() {
            let Some((x1, done1)) = connect(base, a, b as usize, cycle, last) else {
                continue;
            };
            out(x1, done1);
            for &(b2, _) in &step.back[i + 1..] {
                if let Some((x2, done2)) = connect(x1, a, b2 as usize, cycle, last) {
                    out(x2, done1 || done2);
                }
            }
        }
    }
}

/// Adds the edge from the new vertex (slot `a`) to slot `b`: the nibbles
/// after it and whether it closed the whole cycle or path, or `None` if
/// the edge is impossible (see `Engine::connect`).
#[inline]
fn connect(x: u64, a: usize, b: usize, cycle: bool, last: bool) -> Option<(u64, bool)> {
    let (na, nb) = (get(x, a), get(x, b));
    if na == N_DONE || nb == N_DONE {
        return None;
    }
    match (na == N_UNTOUCHED, nb == N_UNTOUCHED) {
        (true, true) => Some((set(set(x, a, FRESH), b, FRESH), false)),
        // The new vertex takes over the end `b`, with its label.
        (true, false) => Some((set(set(x, a, nb), b, N_DONE), false)),
        (false, true) => Some((set(set(x, b, na), a, N_DONE), false)),
        (false, false) => {
            let x = set(set(x, a, N_DONE), b, N_DONE);
            if na == nb {
                // The two ends of one path: a cycle, or the path between
                // the two terminals.
                let whole = if na == N_FREE { last } else { cycle && last };
                whole.then_some((x, true))
            } else if na == N_FREE {
                Some((relabel(x, nb, N_FREE), false))
            } else if nb == N_FREE {
                Some((relabel(x, na, N_FREE), false))
            } else {
                Some((relabel(x, nb, na), false))
            }
        }
    }
}

/// Retires the vertices with no neighbours left, makes terminals of those
/// that must be, prunes those that can no longer get their degree (see
/// `Engine::settle`): the nibbles, the terminals and whether a path between
/// two terminals was completed, or `None` if the state dies.
#[inline]
fn settle(
    mut x: u64,
    mut term: u8,
    step: &Step,
    cycle: bool,
    last: bool,
) -> Option<(u64, u8, bool)> {
    let mut completed = false;
    for c in &step.checks {
        let s = c.slot as usize;
        let v = get(x, s);
        let deg = match v {
            N_UNTOUCHED => 0,
            N_DONE => 2,
            _ => 1,
        };
        let strict = cycle || !c.terminal_ok || term == 2;
        if c.remaining == 0 {
            match deg {
                2 => {}
                0 => return None,
                _ => {
                    if strict {
                        return None;
                    }
                    term += 1;
                    x = set(x, s, N_DONE);
                    if v == N_FREE {
                        if !last {
                            return None;
                        }
                        completed = true;
                    } else {
                        x = relabel(x, v, N_FREE);
                    }
                }
            }
        } else if deg + c.remaining.min(2) < if strict { 2 } else { 1 } {
            return None;
        }
    }
    Some((x, term, completed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_finds_every_nibble_of_a_value() {
        let x = 0x0000_0000_0003_2313u64;
        assert_eq!(equal(x, 3), 0x0000_0000_0001_0101);
        assert_eq!(equal(x, 1), 0x10);
        assert_eq!(equal(x, 0), ONES & !0xf_ffff);
        assert_eq!(relabel(x, 3, 2), 0x0000_0000_0002_2212);
    }

    #[test]
    fn open_slots_counts_untouched_and_not_done() {
        // Slots: done, untouched, free end, paired, paired; then untouched.
        let x = 0x0000_0000_0003_3201u64;
        assert_eq!(open_slots(5, x), (1, 4));
        assert_eq!(open_slots(6, x), (2, 5));
        assert_eq!(open_slots(1, x), (0, 0));
    }

    #[test]
    fn labels_are_numbered_in_order_of_first_slot() {
        // Slots: 9, 1, 15, 9, 15 -> 3, 1, 4, 3, 4.
        let x = 0x0000_0000_000f_9f19u64;
        assert_eq!(canonical(x, 5), 0x0000_0000_0004_3413);
        let d = decode(5, canonical(x, 5));
        assert_eq!((d.mate[0], d.mate[3]), (3, 0));
        assert_eq!((d.mate[2], d.mate[4]), (4, 2));
        assert_eq!(d.st[1], DONE);
    }
}
