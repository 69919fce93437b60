//! Running a generator many times in parallel, deterministically.

use rayon::prelude::*;

use crate::rng::{for_batch, KnightRng};
use crate::Result;

/// Runs `job` for trials `0..count` in parallel, trial `i` with the generator
/// `rng::for_batch(seed, i)`, and returns the results in trial order: the
/// same seed gives the same results on any number of threads. `progress` is
/// called once per finished trial (from any thread). An error (a stop,
/// say) ends the trials not yet run and is returned; where several trials
/// fail, which of their errors comes back may depend on the threads.
///
/// # Example
/// ```
/// use rand::Rng;
/// let a = knights::stats::sample(100, 7, |rng| Ok(rng.random::<u32>()), &|| {})?;
/// let b = knights::stats::sample(100, 7, |rng| Ok(rng.random::<u32>()), &|| {})?;
/// assert_eq!(a, b);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn sample<T, F>(count: u64, seed: u64, job: F, progress: &(dyn Fn() + Sync)) -> Result<Vec<T>>
where
    T: Send,
    F: Fn(&mut KnightRng) -> Result<T> + Sync,
{
    // Collected straight into a Result: the first error (a stop, say) ends
    // the other trials instead of running the rest to their errors.
    (0..count)
        .into_par_iter()
        .map(|i| {
            let out = job(&mut for_batch(seed, i));
            progress();
            out
        })
        .collect()
}
