//! The project's portable random number generator.
//!
//! Every seeded command maps `--seed N` to [`seeded`]`(N)`, a PCG with 128-bit
//! state (`Pcg64Mcg`) whose output stream is fixed by its specification, so a seed
//! gives the same result on every machine and with every version of `rand`.
//! Library functions never seed themselves: they take `&mut R where R: Rng + ?Sized`.

use rand::{Rng, SeedableRng};

/// The generator that `--seed` selects.
pub type KnightRng = rand_pcg::Pcg64Mcg;

/// The generator for a seed.
///
/// # Example
/// ```
/// use rand::Rng;
/// let mut a = knights::rng::seeded(7);
/// let mut b = knights::rng::seeded(7);
/// assert_eq!(a.random::<u64>(), b.random::<u64>());
/// ```
pub fn seeded(seed: u64) -> KnightRng {
    KnightRng::seed_from_u64(seed)
}

/// The generator for batch `index` of a job seeded with `seed`, so that
/// parallel work gives the same answer on any number of threads.
pub fn for_batch(seed: u64, index: u64) -> KnightRng {
    // SplitMix64-style mixing of (seed, index) into one 64-bit seed.
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    seeded(z ^ (z >> 31))
}

/// The item with the smallest key offered, ties broken uniformly at random
/// by reservoir sampling: the k-th of k equal keys replaces the kept item
/// with chance 1/k, so every tied item is kept with the same chance, at one
/// random draw per tie (none when there is no tie). Warnsdorff's rule and
/// the Warnsdorff tourney pick their next square with it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct LeastOf<K, T> {
    best: Option<(K, T)>,
    ties: u32,
}

impl<K: Ord + Copy, T: Copy> LeastOf<K, T> {
    /// Nothing offered yet.
    pub fn new() -> Self {
        LeastOf {
            best: None,
            ties: 0,
        }
    }

    /// Offers `item` under `key`.
    #[inline]
    pub fn offer<R: Rng + ?Sized>(&mut self, key: K, item: T, rng: &mut R) {
        match self.best {
            Some((k, _)) if key > k => {}
            Some((k, _)) if key == k => {
                self.ties += 1;
                if rng.random_range(0..self.ties) == 0 {
                    self.best = Some((key, item));
                }
            }
            _ => {
                self.best = Some((key, item));
                self.ties = 1;
            }
        }
    }

    /// The item kept, if any was offered.
    #[inline]
    pub fn item(&self) -> Option<T> {
        self.best.map(|(_, t)| t)
    }
}
