//! Knuth's random-probe estimate of the number of tours and of the size of
//! the backtracking tree (D. E. Knuth, *Estimating the efficiency of
//! backtrack programs*, Math. Comp. 29 (1975), cited in McKay 1997).
//!
//! The backtracking tree is the plain one: a node is a knight's path from the
//! start square, its children the unvisited squares a move away. A probe walks
//! from the root choosing a child uniformly at random; if the nodes it passes
//! have `d1, d2, ...` children, then `1 + d1 + d1 d2 + ...` is an unbiased
//! estimate of the tree's size, and `d1 d2 ... d(N-1)` (or 0) one of the number
//! of leaves that are tours. Closed tours start at square 0 (each undirected
//! closed tour is then found twice); open tours start at a random square (the
//! estimate is multiplied by the number of squares, and halved for direction),
//! and the tree size reported is the mean over start squares.

use rand::Rng;
use rayon::prelude::*;

use super::Kind;
use crate::{rng, Board, Error, Result};

/// Probes per batch: batch `i` uses [`rng::for_batch`]`(seed, i)`.
const BATCH: u64 = 256;

/// Options of [`estimate()`].
#[derive(Copy, Clone, Debug)]
pub struct EstimateOptions {
    /// Closed or open tours.
    pub kind: Kind,
    /// Number of random probes.
    pub samples: u64,
    /// Seed of the probes (the same seed gives the same estimate on any number of threads).
    pub seed: u64,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            kind: Kind::Closed,
            samples: 100_000,
            seed: 0,
        }
    }
}

/// An estimate with its spread.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Estimated number of undirected tours.
    pub tours: f64,
    /// Standard error of `tours`.
    pub tours_error: f64,
    /// Estimated number of nodes of the backtracking tree.
    pub tree: f64,
    /// Standard error of `tree`.
    pub tree_error: f64,
    /// Probes that ended in a tour.
    pub hits: u64,
    /// Probes made.
    pub samples: u64,
}

#[derive(Copy, Clone, Default)]
struct Sums {
    tours: f64,
    tours2: f64,
    tree: f64,
    tree2: f64,
    hits: u64,
}

/// Knuth's estimate of the number of undirected tours of `board` and of the
/// size of the plain backtracking tree.
///
/// # Complexity
/// `samples x squares x 8` steps, in parallel over batches of probes.
///
/// # Example
/// ```
/// use knights::count::{estimate, EstimateOptions};
/// use knights::Kind;
/// let opts = EstimateOptions { kind: Kind::Open, samples: 20_000, seed: 1 };
/// let e = estimate("3x4".parse()?, &opts)?; // exactly 8 open tours
/// assert!((e.tours - 8.0).abs() < 5.0 * e.tours_error);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn estimate(board: Board, opts: &EstimateOptions) -> Result<Estimate> {
    if opts.samples == 0 {
        return Err(Error::Unsupported(
            "an estimate needs at least one probe".into(),
        ));
    }
    crate::memory::ensure_fits(board, "probe", 16)?;
    let n = board.squares();
    let batches = opts.samples.div_ceil(BATCH);
    let parts: Vec<Sums> = (0..batches)
        .into_par_iter()
        .map(|b| {
            let mut rng = rng::for_batch(opts.seed, b);
            let count = BATCH.min(opts.samples - b * BATCH);
            let mut visited = vec![false; n];
            let mut sums = Sums::default();
            for _ in 0..count {
                let (t, size) = probe(board, opts.kind, &mut visited, &mut rng);
                sums.tours += t;
                sums.tours2 += t * t;
                sums.tree += size;
                sums.tree2 += size * size;
                sums.hits += u64::from(t > 0.0);
            }
            sums
        })
        .collect();
    let mut s = Sums::default();
    for p in parts {
        s.tours += p.tours;
        s.tours2 += p.tours2;
        s.tree += p.tree;
        s.tree2 += p.tree2;
        s.hits += p.hits;
    }
    let k = opts.samples as f64;
    let spread = |sum: f64, sum2: f64| {
        let mean = sum / k;
        let var = if opts.samples > 1 {
            ((sum2 - k * mean * mean) / (k - 1.0)).max(0.0)
        } else {
            0.0
        };
        (mean, (var / k).sqrt())
    };
    let (tours, tours_error) = spread(s.tours, s.tours2);
    let (tree, tree_error) = spread(s.tree, s.tree2);
    Ok(Estimate {
        tours,
        tours_error,
        tree,
        tree_error,
        hits: s.hits,
        samples: opts.samples,
    })
}

/// One probe: (estimate of undirected tours, estimate of tree nodes).
fn probe<R: Rng + ?Sized>(
    board: Board,
    kind: Kind,
    visited: &mut [bool],
    rng: &mut R,
) -> (f64, f64) {
    let n = visited.len();
    visited.fill(false);
    let start = match kind {
        Kind::Closed => 0,
        Kind::Open => rng.random_range(0..n as u32),
    };
    let mut at = start;
    visited[at as usize] = true;
    let mut weight = 1.0f64;
    let mut tree = 1.0f64;
    let mut depth = 1;
    let mut options = [0u32; 8];
    loop {
        let mut d = 0;
        for (_, s) in board.neighbours(at) {
            if !visited[s as usize] {
                options[d] = s;
                d += 1;
            }
        }
        if d == 0 {
            break;
        }
        weight *= d as f64;
        tree += weight;
        at = options[rng.random_range(0..d)];
        visited[at as usize] = true;
        depth += 1;
    }
    let tours = if depth < n {
        0.0
    } else {
        match kind {
            Kind::Closed if board.move_between(at, start).is_some() => weight / 2.0,
            Kind::Closed => 0.0,
            Kind::Open => weight * n as f64 / 2.0,
        }
    };
    (tours, tree)
}
