//! The Takefuji-Lee neural network (Neurocomputing 4, 1992), as the tourney
//! paper's reference program runs it (seed 000, Sections 3.2 and 6).
//!
//! One neuron per knight-graph edge `(u, v)`, with state `U = 0` and a random
//! output `V` in {0, 1} at the start. In rounds over the edges in random
//! order, `U += 4 - (sum of V over the edges at u) - (sum of V over the edges
//! at v)` (each sum includes the neuron itself), then `V = 1` if `U > 3`,
//! `V = 0` if `U < 0`, else unchanged. The network stops when a round
//! changes no output and no state (a round that changes no output while some
//! `U` still moves is not a resting state: the outputs would change later),
//! or after [`Options::max_rounds`] rounds, and restarts unless every square
//! has exactly two edges on. (A state is at rest exactly when every square
//! has two edges on, since then every increment is 0.) [`neural`] accepts any such
//! tourney; [`tour`] restarts until it is one Hamiltonian cycle.
//!
//! The outputs live in the bits of a [`Cover`], so the sums are popcounts.
//!
//! # Complexity
//! O(rows * cols) per round; 20 bytes per square of working memory.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::rails::Geometry;
use crate::{exists, memory, Board, Cover, Error, Result, Tour};

/// Options of [`neural`] and [`tour`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Rounds before a run that has not settled is restarted.
    pub max_rounds: u32,
    /// Runs before giving up.
    pub max_restarts: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_rounds: 2000,
            max_restarts: 100,
        }
    }
}

/// One run of the network to a stable state; the cover when every square
/// has two edges on.
fn run<R: Rng + ?Sized>(
    g: &Geometry,
    edges: &mut [u32],
    state: &mut [i32],
    links: &mut [u8],
    max_rounds: u32,
    rng: &mut R,
) -> bool {
    links.fill(0);
    state.fill(0);
    for &e in edges.iter() {
        if rng.random::<bool>() {
            let (u, p) = ((e >> 2) as usize, (e & 3) as u8 + 4);
            let v = (u as isize + g.off[p as usize]) as usize;
            links[u] |= 1 << p;
            links[v] |= 1 << (p ^ 4);
        }
    }
    for _ in 0..max_rounds {
        edges.shuffle(rng);
        let mut changed = false;
        let mut moving = false;
        for &e in edges.iter() {
            let (u, p) = ((e >> 2) as usize, (e & 3) as u8 + 4);
            let v = (u as isize + g.off[p as usize]) as usize;
            let s = &mut state[e as usize];
            let du = 4 - links[u].count_ones() as i32 - links[v].count_ones() as i32;
            moving |= du != 0;
            *s += du;
            let on = links[u] & (1 << p) != 0;
            let want = if *s > 3 {
                true
            } else if *s < 0 {
                false
            } else {
                on
            };
            if want != on {
                links[u] ^= 1 << p;
                links[v] ^= 1 << (p ^ 4);
                changed = true;
            }
        }
        if !changed && !moving {
            return links.iter().all(|b| b.count_ones() == 2);
        }
    }
    false
}

/// Runs the network until `accept` takes a tourney, under the restart budget.
fn search<R: Rng + ?Sized>(
    board: Board,
    options: &Options,
    rng: &mut R,
    what: &str,
    accept: impl Fn(&Cover) -> bool,
) -> Result<Cover> {
    memory::ensure_fits(board, "neural network", 24)?;
    let g = Geometry::new(board);
    let mut edges = Vec::new();
    for s in 0..board.squares() as u32 {
        for p in 4..8u8 {
            if board.step(s, p).is_some() {
                edges.push(s << 2 | u32::from(p - 4));
            }
        }
    }
    let mut state = vec![0i32; board.squares() * 4];
    let mut links = vec![0u8; board.squares()];
    for _ in 0..options.max_restarts.max(1) {
        if run(
            &g,
            &mut edges,
            &mut state,
            &mut links,
            options.max_rounds,
            rng,
        ) {
            let cover = Cover::from_bytes_unchecked(board, links.clone());
            if accept(&cover) {
                return Ok(cover);
            }
        }
    }
    Err(Error::GaveUp(format!(
        "the Takefuji-Lee network found no {what} of {board} in {} runs of at most {} rounds; allow more restarts or use another generator",
        options.max_restarts.max(1),
        options.max_rounds
    )))
}

/// A tourney from the Takefuji-Lee network: the first run that settles with
/// every square at two edges.
///
/// # Example
/// ```
/// use knights::algorithms::tourney::neural;
/// let cover = neural::neural("8x8".parse()?, &Default::default(), &mut knights::rng::seeded(2))?;
/// assert!(knights::check::check_cover(&cover)? >= 1);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn neural<R: Rng + ?Sized>(board: Board, options: &Options, rng: &mut R) -> Result<Cover> {
    search(board, options, rng, "tourney", |_| true)
}

/// A closed tour from the Takefuji-Lee network alone: runs are restarted
/// until one settles as a single Hamiltonian cycle (exponential in practice;
/// for small boards).
///
/// # Example
/// ```
/// use knights::algorithms::tourney::neural;
/// let t = neural::tour("6x6".parse()?, &Default::default(), &mut knights::rng::seeded(1))?;
/// assert!(t.is_closed());
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tour<R: Rng + ?Sized>(board: Board, options: &Options, rng: &mut R) -> Result<Tour> {
    exists::require(board, true)?;
    let g = Geometry::new(board);
    let cover = search(board, options, rng, "closed tour", |c| {
        crate::rails::label_cycles(&g, c.as_bytes()).1.len() == 1
    })?;
    cover.to_tour(0, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check_cover, check_tour, TourKind};

    #[test]
    fn settles_to_tourneys() {
        let mut rng = crate::rng::seeded(3);
        for (r, c) in [(6, 6), (8, 8), (5, 6), (10, 12)] {
            let b = Board::new(r, c).unwrap();
            let cover = neural(b, &Options::default(), &mut rng).unwrap();
            check_cover(&cover).unwrap();
        }
    }

    #[test]
    fn the_network_alone_makes_a_closed_tour() {
        let t = tour(
            Board::new(6, 6).unwrap(),
            &Options::default(),
            &mut crate::rng::seeded(4),
        )
        .unwrap();
        assert_eq!(check_tour(&t), Ok(TourKind::Closed));
    }
}
