//! The Takefuji-Lee neural network (Neurocomputing 4, 1992), as the tourney
//! paper's reference program runs it (Parberry 2020, Sections 3.2 and 6).
//!
//! One neuron per knight-graph edge `(u, v)`, with state `U = 0` and a random
//! output `V` in {0, 1} at the start. In rounds over the edges in a random
//! order, `U += 4 - (sum of V over the edges at u) - (sum of V over the edges
//! at v)` (each sum includes the neuron itself), then `V = 1` if `U > 3`,
//! `V = 0` if `U < 0`, else unchanged. The network stops when a round
//! changes no state (a round that changes no output while some `U` still
//! moves is not a resting state: the outputs would change later), or after
//! [`TakefujiLee::max_rounds`] rounds, and restarts unless every square has
//! exactly two edges on. (A state is at rest exactly when every square has
//! two edges on, since then every increment is 0.) [`neural`] accepts any
//! such tourney ([`TakefujiLee::cover_observed`], and the tourney method
//! `neural`); as a tour generator it restarts until it is one Hamiltonian
//! cycle.
//!
//! The order of the edges is drawn once per run (restart) and kept for all
//! its rounds, as in the paper's reference program (`RandomizeEdgeList` in
//! its `Reset`).
//!
//! # How it is fast
//! An update whose increment is 0 changes nothing: the state stays, and the
//! output already agrees with it. The increment of an edge depends only on
//! the degrees (number of edges on) of its two ends, so it can become
//! non-zero only when an edge at one of its ends switches. The network keeps
//! the degree of every square, and a two-level bitset over the positions of
//! the round order holding every edge whose increment may be non-zero; a
//! round visits only those, in order, and a switch marks the (up to 16)
//! edges at its two ends. This is the same sequence of states as the full
//! sweep (a test checks it against one), but after the first few dozen
//! rounds only a few edges near the last squares without two edges are
//! active, so a round costs a few operations instead of one per edge.
//!
//! # Complexity
//! O(edges) per run to set up, then O(active edges + edges / 4096) per
//! round; about 60 bytes per square of working memory.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

use super::closed::closed_only;
use crate::algorithms::{TourGenerator, TourSpec};
use crate::board::Geometry;
use crate::{exists, memory, Board, Control, Cover, Error, Result, Square, Tour, Wanted};

/// What the network does, for an observer ([`TakefujiLee::cover_observed`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NeuralEvent {
    /// A run begins: the order of the edges drawn, the outputs random.
    Run,
    /// The edge between `u` and `v` is on as the run begins.
    On {
        /// One end.
        u: Square,
        /// The other end.
        v: Square,
    },
    /// The output of the edge between `u` and `v` switched, in the round
    /// under way.
    Switch {
        /// One end.
        u: Square,
        /// The other end.
        v: Square,
        /// Whether it is now on.
        on: bool,
    },
    /// The run's round `round` (counted from 1) is over. Rounds that switch
    /// no output are taken several at once, so the number may jump.
    Round {
        /// Rounds of the run so far.
        round: u64,
    },
}

/// No edge (a move off the board) in the incidence table.
const NONE: u32 = u32::MAX;

/// One neuron: its edge, as `u << 3 | p` (the other end is one move `p`
/// down from `u`), and its state; 8 bytes, as the updates are bound by
/// memory latency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Neuron {
    edge: u32,
    state: i32,
}

/// The network's working state, reused across runs.
pub(crate) struct Network {
    /// The edges as `u << 3 | p` (move `p` in 4..8 goes down from `u`), in
    /// the order of the current run.
    order: Vec<u32>,
    /// The neuron at each position of the order.
    neurons: Vec<Neuron>,
    /// `inc[s * 8 + k]`: the position of the edge from `s` by move `k`.
    inc: Vec<u32>,
    /// The outputs, as a cover's bytes (bit k of square s: move k on).
    links: Vec<u8>,
    /// Number of edges on at each square.
    deg: Vec<u8>,
    /// Positions whose increment may be non-zero, and which words of
    /// `bits` may be non-zero.
    bits: Vec<u64>,
    summary: Vec<u64>,
    off: [isize; 8],
}

/// What one round did.
struct Round {
    /// Some state changed.
    moving: bool,
    /// Some output changed.
    switched: bool,
}

impl Network {
    pub(crate) fn new(board: Board) -> Result<Network> {
        memory::ensure_fits(board, "neural network", 112)?;
        let n = board.squares();
        let mut order = Vec::with_capacity(4 * n);
        for s in 0..n as u32 {
            for p in 4..8u8 {
                if board.step(s, p).is_some() {
                    order.push(s << 3 | u32::from(p));
                }
            }
        }
        let m = order.len();
        let words = m.div_ceil(64);
        Ok(Network {
            neurons: vec![Neuron::default(); m],
            inc: vec![NONE; 8 * n],
            links: vec![0; n],
            deg: vec![0; n],
            bits: vec![0; words],
            summary: vec![0; words.div_ceil(64)],
            off: Geometry::new(board).off,
            order,
        })
    }

    /// Starts a run: a new random order, random outputs, states 0.
    pub(crate) fn reset<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        self.order.shuffle(rng);
        self.links.fill(0);
        self.deg.fill(0);
        let mut random = 0u64;
        for (pos, &e) in self.order.iter().enumerate() {
            let (u, p) = ((e >> 3) as usize, (e & 7) as usize);
            let v = (u as isize + self.off[p]) as usize;
            self.neurons[pos] = Neuron { edge: e, state: 0 };
            self.inc[u * 8 + p] = pos as u32;
            self.inc[v * 8 + (p ^ 4)] = pos as u32;
            if pos % 64 == 0 {
                random = rng.random();
            }
            if random >> (pos % 64) & 1 == 1 {
                self.links[u] |= 1 << p;
                self.links[v] |= 1 << (p ^ 4);
                self.deg[u] += 1;
                self.deg[v] += 1;
            }
        }
        let m = self.order.len();
        self.bits.fill(!0);
        if !m.is_multiple_of(64) {
            if let Some(last) = self.bits.last_mut() {
                *last = (1u64 << (m % 64)) - 1;
            }
        }
        let words = self.bits.len();
        self.summary.fill(!0);
        if !words.is_multiple_of(64) {
            if let Some(last) = self.summary.last_mut() {
                *last = (1u64 << (words % 64)) - 1;
            }
        }
    }

    /// Marks the edges at square `s` as possibly active.
    #[inline]
    fn mark_square(&mut self, s: usize) {
        for &pos in &self.inc[s * 8..s * 8 + 8] {
            if pos != NONE {
                let w = (pos >> 6) as usize;
                self.bits[w] |= 1 << (pos & 63);
                self.summary[w >> 6] |= 1 << (w & 63);
            }
        }
    }

    /// The first possibly active position at or after `from`.
    #[inline]
    fn next(&mut self, from: usize) -> Option<usize> {
        let w = from >> 6;
        let word = *self.bits.get(w)? & (!0u64 << (from & 63));
        if word != 0 {
            return Some(w * 64 + word.trailing_zeros() as usize);
        }
        let mut sw = w + 1;
        loop {
            let si = sw >> 6;
            let s = *self.summary.get(si)? & (!0u64 << (sw & 63));
            if s == 0 {
                sw = (si + 1) * 64;
                continue;
            }
            let cand = si * 64 + s.trailing_zeros() as usize;
            let word = self.bits[cand];
            if word != 0 {
                return Some(cand * 64 + word.trailing_zeros() as usize);
            }
            // A stale summary bit: its word emptied since it was set.
            self.summary[si] &= !(1 << (cand & 63));
            sw = cand + 1;
        }
    }

    /// The two ends and the move of a neuron's edge.
    #[inline]
    fn ends(&self, n: &Neuron) -> (usize, usize, u32) {
        let (u, p) = ((n.edge >> 3) as usize, n.edge & 7);
        (u, (u as isize + self.off[p as usize]) as usize, p)
    }

    /// The increment of a neuron with the present outputs.
    #[inline]
    fn increment(&self, n: &Neuron) -> i32 {
        let (u, v, _) = self.ends(n);
        4 - i32::from(self.deg[u]) - i32::from(self.deg[v])
    }

    /// One round over the possibly active positions, in order, telling
    /// `observe` every output switched.
    fn round<O: FnMut(NeuralEvent)>(&mut self, observe: &mut O) -> Round {
        let mut r = Round {
            moving: false,
            switched: false,
        };
        let mut at = self.next(0);
        while let Some(pos) = at {
            let mut n = self.neurons[pos];
            let du = self.increment(&n);
            if du == 0 {
                self.bits[pos >> 6] &= !(1 << (pos & 63));
            } else {
                r.moving = true;
                n.state += du;
                self.neurons[pos].state = n.state;
                let (u, v, p) = self.ends(&n);
                let on = self.links[u] >> p & 1 == 1;
                let want = if n.state > 3 {
                    true
                } else if n.state < 0 {
                    false
                } else {
                    on
                };
                if want != on {
                    r.switched = true;
                    let (su, sv) = (u as Square, v as Square);
                    observe(NeuralEvent::Switch {
                        u: su,
                        v: sv,
                        on: want,
                    });
                    self.links[u] ^= 1 << p;
                    self.links[v] ^= 1 << (p ^ 4);
                    if want {
                        self.deg[u] += 1;
                        self.deg[v] += 1;
                    } else {
                        self.deg[u] -= 1;
                        self.deg[v] -= 1;
                    }
                    self.mark_square(u);
                    self.mark_square(v);
                }
            }
            at = self.next(pos + 1);
        }
        r
    }

    /// After a round that switched no output, the rounds until the next
    /// switch: every increment stays the same until then, so each active
    /// state moves in a straight line. `None` when no output will ever
    /// switch (every active neuron already agrees with its drift).
    fn rounds_to_next_switch(&mut self) -> Option<u64> {
        let mut best = u64::MAX;
        let mut at = self.next(0);
        while let Some(pos) = at {
            let n = self.neurons[pos];
            let du = i64::from(self.increment(&n));
            let s = i64::from(n.state);
            let on = self.links[(n.edge >> 3) as usize] >> (n.edge & 7) & 1 == 1;
            // Rounds k >= 1 until s + k du > 3 (off, rising) or < 0 (on, falling).
            let k = match (on, du > 0) {
                (false, true) => (3 - s).max(0) / du + 1,
                (true, false) => s.max(0) / -du + 1,
                _ => i64::MAX,
            };
            best = best.min(k as u64);
            at = self.next(pos + 1);
        }
        (best != i64::MAX as u64).then_some(best)
    }

    /// Moves every active state `k` rounds along its (constant) increment.
    fn drift(&mut self, k: u64) {
        let mut at = self.next(0);
        while let Some(pos) = at {
            let du = i64::from(self.increment(&self.neurons[pos]));
            let state = &mut self.neurons[pos].state;
            *state =
                (i64::from(*state) + k as i64 * du).clamp(i32::MIN.into(), i32::MAX.into()) as i32;
            at = self.next(pos + 1);
        }
    }

    /// Runs rounds until the network rests or `max_rounds` have passed;
    /// whether it rests with every square at two edges. Runs of rounds
    /// that switch no output are taken in one step. A raised stop flag of
    /// `control` ends it between rounds with [`Error::Interrupted`]. `observe` is told
    /// every switch and round.
    fn settle<O: FnMut(NeuralEvent)>(
        &mut self,
        max_rounds: u32,
        control: &Control,
        observe: &mut O,
    ) -> Result<bool> {
        let max_rounds = u64::from(max_rounds);
        let mut rounds = 0u64;
        while rounds < max_rounds {
            control.check("the Takefuji-Lee network")?;
            rounds += 1;
            let r = self.round(observe);
            observe(NeuralEvent::Round { round: rounds });
            if !r.moving {
                return Ok(self.deg.iter().all(|&d| d == 2));
            }
            if !r.switched {
                // The next rounds repeat this one's increments until some
                // output switches, in round `rounds + k`.
                let Some(k) = self.rounds_to_next_switch() else {
                    return Ok(false);
                };
                if rounds + k > max_rounds {
                    return Ok(false);
                }
                self.drift(k - 1);
                rounds += k - 1;
            }
        }
        Ok(false)
    }

    /// Tells `observe` that a run begins and which edges are on.
    fn tell_start<O: FnMut(NeuralEvent)>(&self, observe: &mut O) {
        observe(NeuralEvent::Run);
        for &e in &self.order {
            let (u, p) = ((e >> 3) as usize, e & 7);
            if self.links[u] >> p & 1 == 1 {
                let v = (u as isize + self.off[p as usize]) as Square;
                observe(NeuralEvent::On { u: u as Square, v });
            }
        }
    }
}

/// The largest board the network is run on. On larger boards a run rarely
/// settles within its rounds, and each costs seconds (BENCHMARKS.md has the
/// measurement), so they are refused up front.
pub(crate) const MAX_SQUARES: usize = 200 * 200;

/// Runs the network until `accept` takes a tourney, under the restart
/// budget, telling `observe` what it does.
fn search<R: Rng + ?Sized, O: FnMut(NeuralEvent)>(
    board: Board,
    (options, control): (&TakefujiLee, &Control),
    rng: &mut R,
    (what, accept): (&str, impl Fn(&Cover) -> bool),
    observe: &mut O,
) -> Result<Cover> {
    if board.squares() > MAX_SQUARES {
        return Err(Error::Unsupported(format!(
            "the Takefuji-Lee network rarely settles on boards of more than {MAX_SQUARES} squares such as {board} (each of its runs takes seconds there); use the tourney, braid or divide generators, or the construction, which work on any size"
        ).into()));
    }
    let mut net = Network::new(board)?;
    for _ in 0..options.max_restarts.max(1) {
        net.reset(rng);
        net.tell_start(observe);
        if net.settle(options.max_rounds, control, observe)? {
            let cover = Cover::from_bytes_unchecked(board, net.links.clone());
            if accept(&cover) {
                return Ok(cover);
            }
        }
    }
    Err(Error::GaveUp(format!(
        "the Takefuji-Lee network found no {what} of {board} in {} runs of at most {} rounds; the construct, warnsdorff and hybrid algorithms are fast on large boards and also make open tours",
        options.max_restarts.max(1),
        options.max_rounds
    ).into())
    .with_hint(crate::Hint::Raise(crate::Budget::Attempts)))
}

/// A tourney from the Takefuji-Lee network with its default budgets: the
/// first run that settles with every square at two edges (the tourney
/// method `neural`), stopped by `control`.
///
/// # Complexity
/// Random: a run settles after some thousands of rounds, most of them
/// touching a few dozen edges (BENCHMARKS.md has the time per tourney).
pub(crate) fn cover<R: Rng + ?Sized>(
    board: Board,
    control: &Control,
    rng: &mut R,
) -> Result<Cover> {
    let any = ("tourney", |_: &Cover| true);
    search(
        board,
        (&TakefujiLee::DEFAULT, control),
        rng,
        any,
        &mut |_| {},
    )
}

/// The Takefuji-Lee network: as a [`TourGenerator`], runs restarted until
/// one settles as a single Hamiltonian cycle; it makes cycles only, so
/// either kind means closed, an open tour is the closed one opened, and a
/// board without a closed tour is refused with the methods that make open
/// tours (exponential in practice: for small boards). As a tourney method
/// ([`TakefujiLee::cover_observed`]), the first run that settles at any
/// tourney.
///
/// # Example
/// ```
/// use knights::{Tour, algorithms::TakefujiLee};
/// let tour = Tour::builder("6x6".parse()?).algorithm(TakefujiLee::default()).seed(1).build()?;
/// assert!(tour.is_closed());
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakefujiLee {
    /// Runs before giving up.
    pub max_restarts: u32,
    /// Rounds before a run that has not settled is restarted.
    pub max_rounds: u32,
}

impl TakefujiLee {
    /// 100 runs of at most 20,000 rounds.
    pub const DEFAULT: TakefujiLee = TakefujiLee {
        max_restarts: 100,
        max_rounds: 20_000,
    };

    /// With this budget of runs.
    pub fn max_restarts(self, max_restarts: u32) -> TakefujiLee {
        TakefujiLee {
            max_restarts,
            ..self
        }
    }

    /// With this budget of rounds a run.
    pub fn max_rounds(self, max_rounds: u32) -> TakefujiLee {
        TakefujiLee { max_rounds, ..self }
    }

    /// A tourney of `board`: the first run that settles with every square
    /// at two edges, telling `observe` every run, the edges on as it
    /// begins, every output switched and every round. Raising `control`'s
    /// stop flag ends it between rounds ([`Error::Interrupted`]).
    ///
    /// # Example
    /// ```
    /// use knights::algorithms::{NeuralEvent, TakefujiLee};
    /// let mut rounds = 0;
    /// let cover = TakefujiLee::default().cover_observed(
    ///     "8x8".parse()?,
    ///     &knights::Control::new(),
    ///     &mut knights::rng::seeded(2),
    ///     &mut |event| if let NeuralEvent::Round { round } = event { rounds = round },
    /// )?;
    /// assert!(knights::check::check_cover(&cover)? >= 1 && rounds > 0);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn cover_observed(
        &self,
        board: Board,
        control: &Control,
        rng: &mut dyn RngCore,
        observe: &mut dyn FnMut(NeuralEvent),
    ) -> Result<Cover> {
        let any = ("tourney", |_: &Cover| true);
        search(board, (self, control), rng, any, &mut |event| {
            observe(event)
        })
    }

    /// A closed tour from the network alone: runs restarted until one
    /// settles as a single Hamiltonian cycle.
    fn tour<R: Rng + ?Sized>(&self, board: Board, control: &Control, rng: &mut R) -> Result<Tour> {
        exists::require(board, Wanted::Closed)?;
        let g = Geometry::new(board);
        let one_cycle = |c: &Cover| crate::rails::label_cycles(&g, c.as_bytes()).1.len() == 1;
        let cover = search(
            board,
            (self, control),
            rng,
            ("closed tour", one_cycle),
            &mut |_| {},
        )?;
        cover.to_tour(0, None)
    }
}

impl Default for TakefujiLee {
    fn default() -> Self {
        TakefujiLee::DEFAULT
    }
}

impl TourGenerator for TakefujiLee {
    fn name(&self) -> &'static str {
        "takefuji-lee"
    }

    fn generate(&self, spec: &TourSpec, rng: &mut dyn RngCore) -> Result<Tour> {
        closed_only(spec, |board, rng| self.tour(board, &spec.control, rng), rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check_cover, check_tour};
    use crate::Kind;

    /// The plain rule: every edge of the order in every round, the degrees
    /// summed from the outputs at each update.
    fn settle_by_full_sweeps(net: &mut Network, max_rounds: u32) -> bool {
        let m = net.order.len();
        for _ in 0..max_rounds {
            let mut moving = false;
            for pos in 0..m {
                let (u, v, p) = net.ends(&net.neurons[pos]);
                let n = &mut net.neurons[pos];
                let du = 4 - net.links[u].count_ones() as i32 - net.links[v].count_ones() as i32;
                moving |= du != 0;
                n.state += du;
                let on = net.links[u] >> p & 1 == 1;
                let s = n.state;
                let want = if s > 3 {
                    true
                } else if s < 0 {
                    false
                } else {
                    on
                };
                if want != on {
                    net.links[u] ^= 1 << p;
                    net.links[v] ^= 1 << (p ^ 4);
                }
            }
            if !moving {
                return net.links.iter().all(|b| b.count_ones() == 2);
            }
        }
        false
    }

    #[test]
    fn the_sparse_rounds_follow_the_full_sweeps_exactly() {
        let (mut runs, mut resting) = (0, 0);
        for (r, c, rounds) in [
            (6, 6, 5000),
            (8, 8, 5000),
            (5, 6, 300),
            (12, 10, 40),
            (24, 24, 3000),
        ] {
            let board = Board::new(r, c).unwrap();
            for seed in 0..6 {
                let mut a = Network::new(board).unwrap();
                let mut b = Network::new(board).unwrap();
                a.reset(&mut crate::rng::seeded(seed));
                b.reset(&mut crate::rng::seeded(seed));
                let settled = a.settle(rounds, &Control::new(), &mut |_| {}).unwrap();
                assert_eq!(settled, settle_by_full_sweeps(&mut b, rounds));
                assert_eq!(a.links, b.links, "{board} seed {seed}");
                // An unsettled run may stop early, with the same outputs.
                if settled {
                    assert_eq!(a.neurons, b.neurons, "{board} seed {seed}");
                    resting += 1;
                }
                runs += 1;
            }
        }
        // Both outcomes were compared.
        assert!(0 < resting && resting < runs, "{resting} of {runs}");
    }

    #[test]
    fn settles_to_tourneys() {
        let mut rng = crate::rng::seeded(3);
        for (r, c) in [(6, 6), (8, 8), (5, 6), (10, 12), (32, 32)] {
            let b = Board::new(r, c).unwrap();
            let cover = cover(b, &Control::new(), &mut rng).unwrap();
            check_cover(&cover).unwrap();
        }
    }

    #[test]
    fn the_network_alone_makes_a_closed_tour() {
        let t = TakefujiLee::DEFAULT
            .tour(
                Board::new(6, 6).unwrap(),
                &Control::new(),
                &mut crate::rng::seeded(4),
            )
            .unwrap();
        assert_eq!(check_tour(&t), Ok(Kind::Closed));
    }
}
