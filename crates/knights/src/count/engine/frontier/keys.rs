//! Ranked keys: a state packed into as few bits as it takes (see the
//! module notes of `frontier`), decoded into the working array for a step
//! and encoded again after it. Nibble keys are decoded by `nibble.rs`.

use super::nibble;
use super::program::{Engine, Frontier, Step, DONE, END, FREE, MAX_FRONTIER, UNTOUCHED, W};
use crate::{Error, Result};

/// The bits a ranked key of a frontier of `k` vertices takes, with `t`
/// terminal counts and voltages modulo `m`, or the refusal of a frontier
/// too wide for the keys.
pub(super) fn key_bits(k: usize, t: u64, m: u8) -> Result<u32> {
    if k > MAX_FRONTIER {
        return Err(Error::Unsupported(format!(
            "counting needs a frontier of {k} squares here, more than the {MAX_FRONTIER} this counter supports; ask for a narrower board"
        ).into()));
    }
    let e = k - k % 2;
    let upper = u128::from(t) * double_factorial_odd(e) * u128::from(m).pow((e / 2) as u32);
    let bits = 2 * k as u32 + (128 - (upper - 1).leading_zeros());
    if upper > u128::from(u64::MAX) || bits > 128 {
        return Err(Error::Unsupported(format!(
            "counting needs a frontier of {k} squares here, too many to encode; ask for a narrower board"
        ).into()));
    }
    Ok(bits)
}

/// How many keys a frontier of `k` slots can take, with `t` terminal
/// counts and voltages modulo `m`: each slot untouched or done, or an end,
/// either one of at most `t - 1` ends whose paths lead to a terminal or one
/// of a matched pair with a voltage. No state of such a frontier lies
/// outside it, however long the board: a ceiling for projections.
pub(super) fn key_space(k: usize, t: u64, m: u8) -> f64 {
    let free_most = t.saturating_sub(1) as usize;
    let mut total = 0.0;
    for e in 0..=k {
        // Which `e` of the `k` slots are ends; the others untouched or done.
        let ends = binomial(k, e) * 2f64.powi((k - e) as i32);
        for f in (0..=e.min(free_most)).filter(|f| (e - f) % 2 == 0) {
            let pairs = (e - f) / 2;
            total += ends
                * binomial(e, f)
                * double_factorial_odd(e - f) as f64
                * f64::from(m).powi(pairs as i32);
        }
    }
    total * t as f64
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
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
    by!(3 5 7 9 11 13 15 17 19 21 23 25 27 29)
}

/// The low bit of every 2-bit role code.
pub(super) const LOW_BITS: u64 = 0x5555_5555_5555_5555;

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
    /// How many states the widest frontier of the program can hold at most
    /// (see [`key_space`]).
    pub(crate) fn key_space(&self) -> f64 {
        key_space(self.width, self.t, self.m)
    }

    /// The key of the state before the first vertex (an empty frontier).
    pub fn start_key(&self) -> u128 {
        0
    }

    /// The numbers of untouched slots and of slots not done among the
    /// first `k` of `key`, read off its role codes without decoding it.
    #[inline]
    pub(super) fn open_slots(&self, k: usize, key: u128) -> (u32, u32) {
        if self.nibble_keys {
            return nibble::open_slots(k, key as u64);
        }
        // Role codes: 0 untouched, 1 done, 2 and 3 ends.
        let low = key as u64 & ((1u64 << (2 * k)) - 1);
        let (odd, high) = (low & LOW_BITS, (low >> 1) & LOW_BITS);
        let untouched = k as u32 - (odd | high).count_ones();
        let done = (odd & !high).count_ones();
        (untouched, k as u32 - done)
    }

    /// Decodes a key of a frontier of `k` vertices into the working array.
    #[inline]
    pub(super) fn decode(&self, k: usize, key: u128) -> Frontier {
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
        // The roles take at most 2 x 31 bits.
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
    pub(super) fn encode(&self, step: &Step, d: &Frontier, roles: u64) -> u128 {
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
    pub(super) fn roles(keep: &[u8], d: &Frontier) -> u64 {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::engine::frontier::program::Route;

    fn engine(t: u64, m: u8) -> Engine {
        Engine {
            nibble_keys: false,
            shape: if t == 1 { Route::Cycle } else { Route::Path },
            m,
            t,
            steps: Vec::new(),
            key_bits: 0,
            width: 0,
            final_frontier: Vec::new(),
            next_prefix: Vec::new(),
            twice_total: None,
            prefix_colours: Default::default(),
        }
    }

    /// A frontier of `k` slots from the bits of `seed`: roles, a pairing
    /// of the paired ends, voltages modulo `m` and a terminal count.
    fn frontier(k: usize, t: u64, m: u8, mut seed: u64) -> Frontier {
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut d = Frontier {
            st: [UNTOUCHED; W],
            mate: [0; W],
            w: [0; W],
            term: (next(t)) as u8,
        };
        let mut ends = Vec::new();
        for s in 0..k {
            match next(if t > 1 { 4 } else { 3 }) {
                0 => {}
                1 => d.st[s] = DONE,
                2 => {
                    d.st[s] = END;
                    ends.push(s);
                }
                _ => {
                    d.st[s] = END;
                    d.mate[s] = FREE;
                }
            }
        }
        ends.truncate(ends.len() - ends.len() % 2);
        // An odd end left over is done instead.
        for s in 0..k {
            if d.st[s] == END && d.mate[s] != FREE && !ends.contains(&s) {
                d.st[s] = DONE;
            }
        }
        while !ends.is_empty() {
            let a = ends.remove(0);
            let b = ends.remove(next(ends.len() as u64) as usize);
            d.mate[a] = b as u8;
            d.mate[b] = a as u8;
            let volt = next(u64::from(m)) as u8;
            d.w[a] = volt;
            d.w[b] = (m - volt) % m;
        }
        d
    }

    #[test]
    fn the_key_space_counts_every_assignment_of_roles_pairings_and_terminals() {
        // By enumeration: each slot untouched, done, a free end or a
        // paired end; at most `t - 1` free ends, an even number paired,
        // the paired ones matched with a voltage each pair.
        for k in 0..=7 {
            for (t, m) in [(1u64, 1u8), (3, 1), (1, 2), (1, 4)] {
                let mut total = 0u128;
                for roles in 0..4usize.pow(k as u32) {
                    let role = |s: u32| (roles / 4usize.pow(s)) % 4;
                    let free = (0..k as u32).filter(|&s| role(s) == 2).count();
                    let paired = (0..k as u32).filter(|&s| role(s) == 3).count();
                    if free as u64 >= t || paired % 2 == 1 {
                        continue;
                    }
                    total += double_factorial_odd(paired)
                        * u128::from(m).pow(paired as u32 / 2)
                        * u128::from(t);
                }
                assert_eq!(key_space(k, t, m), total as f64, "k {k} t {t} m {m}");
            }
        }
    }

    #[test]
    fn keys_of_every_frontier_width_decode_to_their_state_and_roles() {
        for k in [1, 7, 23, 24, 28, 31] {
            for (t, m) in [(1, 1), (3, 1), (1, 2), (1, 4)] {
                // Skip the widths whose keys would not fit (key_bits refuses them).
                if key_bits(k, t, m).is_err() {
                    assert!(k > 23, "{k} {t} {m}");
                    continue;
                }
                let engine = engine(t, m);
                for seed in 0..200 {
                    let d = frontier(k, t, m, seed);
                    let keep = &IDENTITY[..k];
                    let key = engine.encode_slots(keep, &d, Engine::roles(keep, &d));
                    let back = engine.decode(k, key);
                    for s in 0..k {
                        assert_eq!(back.st[s], d.st[s], "k {k} seed {seed} slot {s}");
                        if d.st[s] == END {
                            assert_eq!(back.mate[s], d.mate[s], "k {k} seed {seed} slot {s}");
                            if d.mate[s] != FREE {
                                assert_eq!(back.w[s], d.w[s], "k {k} seed {seed} slot {s}");
                            }
                        }
                    }
                    assert_eq!(back.term, d.term, "k {k} seed {seed}");
                    let count = |test: &dyn Fn(u8) -> bool| {
                        (0..k).filter(|&s| test(d.st[s])).count() as u32
                    };
                    let open = (count(&|st| st == UNTOUCHED), count(&|st| st != DONE));
                    assert_eq!(engine.open_slots(k, key), open, "k {k} seed {seed}");
                }
            }
        }
    }
}
