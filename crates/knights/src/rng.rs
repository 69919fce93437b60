//! The project's portable random number generator.
//!
//! Every seeded command maps `--seed N` to [`seeded`]`(N)`, a PCG with 128-bit
//! state (`Pcg64Mcg`) whose output stream is fixed by its specification, so a seed
//! gives the same result on every machine and with every version of `rand`.
//! Library functions never seed themselves: they take `&mut R where R: Rng + ?Sized`.

use rand::SeedableRng;

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
