//! The frontier method's runs: the exact counter's frontier program
//! keeping at most `keep` states after each square, thinned by systematic
//! sampling (see the `estimate` module notes).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rand::Rng;

use crate::count::engine::frontier::Engine;

/// States of the sampled frontier program, merged by key.
type Merged = HashMap<u128, f64, BuildHasherDefault<Mix>>;

/// One run of the frontier program that keeps at most `keep` states after
/// each square: an unbiased estimate of the undirected tours, and whether
/// any state was dropped.
pub(super) fn frontier_run<R: Rng + ?Sized>(
    engine: &Engine,
    keep: usize,
    rng: &mut R,
) -> (f64, bool) {
    let mut states: Vec<(u128, f64)> = vec![(engine.start_key(), 1.0)];
    let mut next = Merged::default();
    let mut tours = 0.0;
    let mut sampled = false;
    for step in &engine.steps {
        next.clear();
        for &(key, w) in &states {
            engine.expand(step, key, |out| match out {
                Some(k) => *next.entry(k).or_insert(0.0) += w,
                None => tours += w,
            });
        }
        states.clear();
        states.extend(next.iter().map(|(&k, &w)| (k, w)));
        if states.len() > keep {
            // Key order makes the sample independent of the map's order.
            states.sort_unstable_by_key(|s| s.0);
            thin(&mut states, keep, rng);
            sampled = true;
        }
    }
    (tours, sampled)
}

/// Keeps about `keep` of the weighted states: state `i` with probability
/// `p_i = min(1, w_i / tau)` (the `tau` that makes them sum to `keep`), its
/// weight divided by `p_i`, by systematic sampling in the given order; the
/// weighted sum of any function of the states stays unbiased.
fn thin<R: Rng + ?Sized>(states: &mut Vec<(u128, f64)>, keep: usize, rng: &mut R) {
    let mut w: Vec<f64> = states.iter().map(|s| s.1).collect();
    w.sort_unstable_by(|a, b| b.total_cmp(a));
    // The heaviest states are kept for sure while they weigh at least tau.
    let mut rest: f64 = w.iter().sum();
    let mut tau = rest / keep as f64;
    for (j, &x) in w.iter().enumerate().take(keep) {
        tau = rest / (keep - j) as f64;
        if x < tau {
            break;
        }
        rest -= x;
    }
    let mut acc = 0.0;
    let mut mark: f64 = rng.random();
    let mut out = 0;
    for i in 0..states.len() {
        let (k, x) = states[i];
        acc += (x / tau).min(1.0);
        if acc > mark {
            states[out] = (k, x.max(tau));
            out += 1;
            mark += 1.0;
        }
    }
    states.truncate(out);
}

/// A cheap hasher for 128-bit keys.
#[derive(Default)]
pub(super) struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u128(&mut self, x: u128) {
        let h = (x as u64) ^ ((x >> 64) as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 = (h ^ (h >> 29)).wrapping_mul(0x94D0_49BB_1331_11EB);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng;

    /// Thinning keeps about `keep` states, never lowers a weight, keeps the
    /// heavy states as they are, and leaves the total unbiased.
    #[test]
    fn thinning_is_unbiased() {
        let states: Vec<(u128, f64)> = (0..200u128)
            .map(|k| {
                (
                    k,
                    if k % 50 == 0 {
                        1000.0
                    } else {
                        1.0 + (k % 7) as f64
                    },
                )
            })
            .collect();
        let total: f64 = states.iter().map(|s| s.1).sum();
        let mut rng = rng::seeded(5);
        let trials = 4000;
        let mut sum = 0.0;
        for _ in 0..trials {
            let mut s = states.clone();
            thin(&mut s, 20, &mut rng);
            assert!((19..=21).contains(&s.len()), "{}", s.len());
            for &(k, w) in &s {
                assert!(w >= states[k as usize].1);
            }
            for k in [0, 50, 100, 150] {
                assert!(s.contains(&(k, 1000.0)), "heavy state {k} kept as it is");
            }
            sum += s.iter().map(|s| s.1).sum::<f64>();
        }
        let mean = sum / trials as f64;
        assert!((mean / total - 1.0).abs() < 0.01, "{mean} vs {total}");
    }
}
