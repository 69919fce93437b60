//! The propagation engine: for each step, the squares that can still hold
//! it, as one bit set per step over the board's squares, narrowed by rules
//! that are each a proof, until nothing changes or a step (or a square) is
//! left with nothing.
//!
//! The rules, in the order they run: a step fixed on a square takes it
//! from every other step; arc consistency along the chain (a step's
//! squares are a move from a square of the step before and of the step
//! after, a closed puzzle wrapping last to first), which gives the
//! distances to the clues; then, with [`Rules::Full`], a square that only
//! one step can take gets it, the colours of a two-coloured move graph
//! (play's colouring) fix which colour every step is on when the colour
//! counts decide it, and a square whose only candidate neighbour for the
//! step before and the step after is the same square is dropped.

use super::Puzzle;
use crate::board::Square;
use crate::shape::Graph;

/// Why a state has no solution.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dead {
    /// No square is left for this step.
    NoSquare(u32),
    /// No step is left for this square.
    NoNumber(Square),
    /// Two steps fixed on one square.
    Taken(u32, u32, Square),
    /// The colour counts of the board do not allow an alternating path.
    Colours(usize, usize),
}

/// Which rules [`Engine::propagate`] runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rules {
    /// Fixed steps' squares taken and arc consistency along the chain.
    Reach,
    /// Every rule.
    Full,
}

/// The fixed data of a puzzle's propagation: the move graph as bit sets,
/// the colour masks, and the sizes.
#[derive(Clone, Debug)]
pub(crate) struct Engine {
    /// Steps (squares that are not holes).
    pub n: usize,
    /// Squares of the board (holes included).
    pub squares: usize,
    /// Words per bit set of squares.
    pub ws: usize,
    pub closed: bool,
    /// Each square's neighbours as a bit set (`squares * ws` words).
    nb: Vec<u64>,
    /// The squares that are not holes.
    free: Vec<u64>,
    /// The colour masks and the colour of step 0 when the counts fix it.
    colours: Option<([Vec<u64>; 2], Option<u8>)>,
    /// The colour counts, when they forbid every numbering.
    colour_dead: Option<(usize, usize)>,
}

/// Scratch space reused across propagations (no allocation in the loop).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    a: Vec<u64>,
    b: Vec<u64>,
    fixed: Vec<u64>,
    count: Vec<u32>,
    last: Vec<u32>,
    /// Step changed since the step after it was last narrowed.
    fresh_next: Vec<bool>,
    /// Step changed since the step before it was last narrowed.
    fresh_prev: Vec<bool>,
}

impl Scratch {
    /// Step `k` changed: its neighbours on the chain must be narrowed.
    fn mark(&mut self, k: usize) {
        self.fresh_next[k] = true;
        self.fresh_prev[k] = true;
    }
}

/// The bits set in `words`, lowest first.
pub(crate) fn bits(words: &[u64]) -> impl Iterator<Item = Square> + '_ {
    words.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let t = w.trailing_zeros();
            w &= w - 1;
            Some(i as Square * 64 + t)
        })
    })
}

fn popcount(words: &[u64]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

fn has(words: &[u64], s: Square) -> bool {
    words[s as usize / 64] >> (s % 64) & 1 == 1
}

fn only(words: &[u64]) -> Option<Square> {
    let mut found = None;
    for (i, &w) in words.iter().enumerate() {
        if w == 0 {
            continue;
        }
        if found.is_some() || w.count_ones() > 1 {
            return None;
        }
        found = Some(i as Square * 64 + w.trailing_zeros());
    }
    found
}

impl Engine {
    /// The engine of `puzzle`'s shape and kind on its move graph.
    pub fn new(puzzle: &Puzzle, graph: &Graph) -> Engine {
        let shape = puzzle.shape();
        let squares = shape.board().squares();
        let ws = squares.div_ceil(64).max(1);
        let mut nb = vec![0u64; squares * ws];
        let mut free = vec![0u64; ws];
        for s in 0..squares as Square {
            if shape.is_hole(s) {
                continue;
            }
            free[s as usize / 64] |= 1 << (s % 64);
            for &t in graph.neighbours(s) {
                nb[s as usize * ws + t as usize / 64] |= 1 << (t % 64);
            }
        }
        let n = puzzle.cells();
        let mut colour_dead = None;
        let colours = crate::play::two_colouring(shape, graph).map(|colour| {
            let mut masks = [vec![0u64; ws], vec![0u64; ws]];
            let mut counts = [0usize; 2];
            for (s, &c) in colour.iter().enumerate() {
                if c < 2 {
                    masks[c as usize][s / 64] |= 1 << (s % 64);
                    counts[c as usize] += 1;
                }
            }
            let (big, small) = (counts[0].max(counts[1]), counts[0].min(counts[1]));
            let balanced = if puzzle.closed() {
                big == small
            } else {
                big - small <= 1
            };
            if !balanced {
                colour_dead = Some((big, small));
            }
            let first = (counts[0] != counts[1]).then_some(u8::from(counts[1] > counts[0]));
            (masks, first)
        });
        Engine {
            n,
            squares,
            ws,
            closed: puzzle.closed(),
            nb,
            free,
            colours,
            colour_dead,
        }
    }

    /// The state where every given step is on its square and every other
    /// step on any square that is not a hole.
    pub fn initial(&self, clues: &[Option<u32>]) -> Vec<u64> {
        let mut st = Vec::with_capacity(self.n * self.ws);
        for _ in 0..self.n {
            st.extend_from_slice(&self.free);
        }
        for (s, c) in clues.iter().enumerate() {
            if let Some(k) = *c {
                self.fix(&mut st, k as usize, s as Square);
            }
        }
        st
    }

    /// A fresh scratch space for this engine.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            a: vec![0; self.ws],
            b: vec![0; self.ws],
            fixed: vec![0; self.ws],
            count: vec![0; self.squares],
            last: vec![0; self.squares],
            fresh_next: vec![true; self.n],
            fresh_prev: vec![true; self.n],
        }
    }

    /// The squares of step `k`.
    pub fn step<'a>(&self, st: &'a [u64], k: usize) -> &'a [u64] {
        &st[k * self.ws..(k + 1) * self.ws]
    }

    /// How many squares step `k` has left.
    pub fn size(&self, st: &[u64], k: usize) -> u32 {
        popcount(self.step(st, k))
    }

    /// The square of step `k` when it has only one.
    pub fn only(&self, st: &[u64], k: usize) -> Option<Square> {
        only(self.step(st, k))
    }

    /// Whether step `k` can still be on `s`.
    pub fn can(&self, st: &[u64], k: usize, s: Square) -> bool {
        has(self.step(st, k), s)
    }

    /// Puts step `k` on `s` alone.
    pub fn fix(&self, st: &mut [u64], k: usize, s: Square) {
        let row = &mut st[k * self.ws..(k + 1) * self.ws];
        row.fill(0);
        row[s as usize / 64] = 1 << (s % 64);
    }

    /// Whether `a` and `b` are a move apart.
    pub fn adjacent(&self, a: Square, b: Square) -> bool {
        has(
            &self.nb[a as usize * self.ws..(a as usize + 1) * self.ws],
            b,
        )
    }

    /// The steps before and after `k` on the chain.
    fn sides(&self, k: usize) -> (Option<usize>, Option<usize>) {
        let n = self.n;
        if n < 2 {
            return (None, None);
        }
        let prev = if k > 0 {
            Some(k - 1)
        } else {
            self.closed.then_some(n - 1)
        };
        let next = if k + 1 < n {
            Some(k + 1)
        } else {
            self.closed.then_some(0)
        };
        (prev, next)
    }

    /// The squares a move from a square of step `k`, into `out`.
    fn reach(&self, st: &[u64], k: usize, out: &mut [u64]) {
        out.fill(0);
        for s in bits(self.step(st, k)) {
            let row = &self.nb[s as usize * self.ws..(s as usize + 1) * self.ws];
            for (o, r) in out.iter_mut().zip(row) {
                *o |= r;
            }
        }
    }

    /// Narrows step `k` to the squares a move from both sides; whether it
    /// changed.
    fn arc(&self, st: &mut [u64], k: usize, sc: &mut Scratch) -> Result<bool, Dead> {
        let (prev, next) = self.sides(k);
        let stale_prev = prev.is_some_and(|p| std::mem::take(&mut sc.fresh_next[p]));
        let stale_next = next.is_some_and(|q| std::mem::take(&mut sc.fresh_prev[q]));
        let mut changed = false;
        for (side, stale) in [(prev, stale_prev), (next, stale_next)] {
            let Some(side) = side.filter(|_| stale) else {
                continue;
            };
            self.reach(st, side, &mut sc.a);
            let row = &mut st[k * self.ws..(k + 1) * self.ws];
            for (w, a) in row.iter_mut().zip(&sc.a) {
                if *w & !a != 0 {
                    *w &= a;
                    changed = true;
                }
            }
        }
        if changed {
            sc.mark(k);
            if popcount(self.step(st, k)) == 0 {
                return Err(Dead::NoSquare(k as u32));
            }
        }
        Ok(changed)
    }

    /// Takes every fixed step's square from the other steps; whether
    /// anything changed.
    fn take_fixed(&self, st: &mut [u64], sc: &mut Scratch) -> Result<bool, Dead> {
        sc.fixed.fill(0);
        for k in 0..self.n {
            if let Some(s) = self.only(st, k) {
                if has(&sc.fixed, s) {
                    let other = (0..k).find(|&j| self.only(st, j) == Some(s)).unwrap_or(k);
                    return Err(Dead::Taken(other as u32, k as u32, s));
                }
                sc.fixed[s as usize / 64] |= 1 << (s % 64);
            }
        }
        let mut changed = false;
        for k in 0..self.n {
            let row = &mut st[k * self.ws..(k + 1) * self.ws];
            if only(row).is_some() {
                continue;
            }
            let mut left = 0;
            for (w, f) in row.iter_mut().zip(&sc.fixed) {
                if *w & f != 0 {
                    *w &= !f;
                    changed = true;
                    sc.fresh_next[k] = true;
                    sc.fresh_prev[k] = true;
                }
                left += w.count_ones();
            }
            if left == 0 {
                return Err(Dead::NoSquare(k as u32));
            }
        }
        Ok(changed)
    }

    /// A square only one step can take gets it; a square no step can take
    /// is a contradiction.
    fn hidden_singles(&self, st: &mut [u64], sc: &mut Scratch) -> Result<bool, Dead> {
        sc.count.fill(0);
        for k in 0..self.n {
            for s in bits(self.step(st, k)) {
                sc.count[s as usize] += 1;
                sc.last[s as usize] = k as u32;
            }
        }
        let mut changed = false;
        for s in bits(&self.free) {
            match sc.count[s as usize] {
                0 => return Err(Dead::NoNumber(s)),
                1 => {
                    let k = sc.last[s as usize] as usize;
                    if self.only(st, k).is_none() {
                        self.fix(st, k, s);
                        sc.mark(k);
                        changed = true;
                    }
                }
                _ => {}
            }
        }
        Ok(changed)
    }

    /// Steps alternate colours; when the counts fix step 0's colour, every
    /// step keeps only squares of its colour.
    fn colour(&self, st: &mut [u64], sc: &mut Scratch) -> Result<bool, Dead> {
        if let Some((big, small)) = self.colour_dead {
            return Err(Dead::Colours(big, small));
        }
        let Some((masks, Some(first))) = &self.colours else {
            return Ok(false);
        };
        let mut changed = false;
        for k in 0..self.n {
            let mask = &masks[(*first as usize) ^ (k & 1)];
            let row = &mut st[k * self.ws..(k + 1) * self.ws];
            let mut narrowed = false;
            for (w, m) in row.iter_mut().zip(mask) {
                if *w & !m != 0 {
                    *w &= m;
                    narrowed = true;
                }
            }
            if narrowed {
                changed = true;
                sc.mark(k);
                if popcount(row) == 0 {
                    return Err(Dead::NoSquare(k as u32));
                }
            }
        }
        Ok(changed)
    }

    /// A square whose only candidate neighbour for the step before and the
    /// step after is one and the same square cannot hold the step.
    fn twins(&self, st: &mut [u64], sc: &mut Scratch) -> Result<bool, Dead> {
        if self.n < 3 {
            return Ok(false);
        }
        let mut changed = false;
        for k in 0..self.n {
            let (Some(prev), Some(next)) = self.sides(k) else {
                continue;
            };
            sc.b.copy_from_slice(self.step(st, k));
            let (a, b) = (&mut sc.a, &sc.b);
            for s in bits(b) {
                let row = &self.nb[s as usize * self.ws..(s as usize + 1) * self.ws];
                for i in 0..self.ws {
                    a[i] = row[i] & (st[prev * self.ws + i] | st[next * self.ws + i]);
                }
                if popcount(a) == 1 {
                    st[k * self.ws + s as usize / 64] &= !(1 << (s % 64));
                    changed = true;
                    sc.fresh_next[k] = true;
                    sc.fresh_prev[k] = true;
                    if popcount(self.step(st, k)) == 0 {
                        return Err(Dead::NoSquare(k as u32));
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Applies `rules` until nothing changes.
    ///
    /// # Errors
    /// The contradiction found, when the state has no solution.
    pub fn propagate(&self, st: &mut [u64], rules: Rules, sc: &mut Scratch) -> Result<(), Dead> {
        if let Some(k) = (0..self.n).find(|&k| self.size(st, k) == 0) {
            return Err(Dead::NoSquare(k as u32));
        }
        sc.fresh_next.fill(true);
        sc.fresh_prev.fill(true);
        loop {
            let mut changed = false;
            while self.take_fixed(st, sc)? {
                changed = true;
            }
            let mut swept = false;
            for k in 0..self.n {
                swept |= self.arc(st, k, sc)?;
            }
            for k in (0..self.n).rev() {
                swept |= self.arc(st, k, sc)?;
            }
            if swept {
                continue;
            }
            if rules == Rules::Full {
                changed |= self.colour(st, sc)?;
                changed |= self.hidden_singles(st, sc)?;
                changed |= self.twins(st, sc)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// The squares in step order when every step is fixed (and they make a
    /// solution: distinct, a move apart, closing when asked).
    pub fn solution(&self, st: &[u64]) -> Option<Vec<Square>> {
        let squares: Vec<Square> = (0..self.n)
            .map(|k| self.only(st, k))
            .collect::<Option<_>>()?;
        let mut seen = vec![false; self.squares];
        for (i, &s) in squares.iter().enumerate() {
            if std::mem::replace(&mut seen[s as usize], true) {
                return None;
            }
            if i > 0 && !self.adjacent(squares[i - 1], s) {
                return None;
            }
        }
        if self.closed && self.n > 1 && !self.adjacent(squares[self.n - 1], squares[0]) {
            return None;
        }
        Some(squares)
    }

    /// The steps square `s` can still hold.
    pub fn steps_of(&self, st: &[u64], s: Square) -> impl Iterator<Item = usize> + '_ {
        let st = st.to_vec();
        (0..self.n).filter(move |&k| self.can(&st, k, s))
    }
}
