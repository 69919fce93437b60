//! The search for semimagic tours of n x n boards: its units, its two
//! phases (tours symmetric under the half turn, then every tour), and the
//! restarts of a bare search.

use std::collections::HashSet;
use std::path::PathBuf;

use rand::seq::SliceRandom;

use super::engine::{Engine, Geometry};
use super::walk::{dfs, Flow, Walker};
use super::LineSums;
use crate::{check, Board, Budget, Control, Error, Hint, Result, Square, Tour, Wanted};

/// The nodes of the shortest slice of a bare search: slice `i` gets
/// `SLICE_UNIT * luby(i)` nodes of one (first, last) pair's tree.
const SLICE_UNIT: u64 = 100_000;

/// Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... (`i` from 1): the
/// restart lengths within a constant factor of the best for any
/// distribution of run times (Luby, Sinclair, Zuckerman 1993).
pub(crate) fn luby(i: u64) -> u64 {
    let mut i = i.max(1);
    loop {
        let k = 64 - i.leading_zeros();
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// The largest side the search takes.
pub const MAX_SIDE: u32 = 16;

/// A search for semimagic tours of the `side` x `side` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MagicSearch {
    /// The side of the square board.
    pub side: u32,
    /// Closed, open or either.
    pub kind: Wanted,
    /// The square numbered 1, if given.
    pub start: Option<Square>,
    /// A partial path to extend: its squares are numbered 1, 2, ...
    pub prefix: Vec<Square>,
    /// The seed: the order of the choices.
    pub seed: u64,
    /// The node budget (`None`: unbounded, stopped by the control only).
    pub max_nodes: Option<u64>,
    /// Stop after this many tours (`None`: go on to the budget).
    pub limit: Option<u64>,
    /// Only tours symmetric under the half turn (number `k + N/2` on the
    /// square opposite `k`), which are closed.
    pub symmetric: bool,
}

impl MagicSearch {
    /// A search of the `side` x `side` board, every default.
    pub fn new(side: u32) -> MagicSearch {
        MagicSearch {
            side,
            kind: Wanted::Either,
            start: None,
            prefix: Vec::new(),
            seed: 0,
            max_nodes: None,
            limit: Some(1),
            symmetric: false,
        }
    }
}

/// A semimagic tour found, checked by the one checker and by its sums.
#[derive(Clone, Debug)]
pub struct Found {
    /// The tour.
    pub tour: Tour,
    /// Its line sums.
    pub sums: LineSums,
    /// The nodes searched when it was found.
    pub nodes: u64,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// Tours found.
    pub found: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the whole space of the search was searched.
    pub complete: bool,
}

/// One unit of the search: a first square with a last square, or the
/// first square of a tour symmetric under the half turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Number 1 on the first square, `N` on the second.
    Ends(usize, usize),
    /// Number 1 on the square, `k + N/2` opposite `k`.
    HalfTurn(usize),
}

impl Unit {
    /// The unit's engine with `prefix` placed, or `None` when the prefix
    /// cannot be extended in this unit.
    pub(crate) fn root<'g>(self, g: &'g Geometry, prefix: &[Square]) -> Option<Engine<'g>> {
        let mut e = match self {
            Unit::Ends(start, end) => Engine::new(g, start, end)?,
            Unit::HalfTurn(start) => Engine::half_turn(g, start)?,
        };
        for &s in prefix.iter().skip(1) {
            if !e.try_step(s as usize) {
                return None;
            }
        }
        (e.is_full() || e.all_free_ok()).then_some(e)
    }
}

/// What a search carries from unit to unit.
struct Sweep<'c, 'f> {
    walker: Walker<'c>,
    seen: HashSet<Vec<Square>>,
    report: SearchReport,
    limit: u64,
    board: Board,
    /// Whether units are searched in Luby slices (a bare search).
    restarts: bool,
    on_found: &'f mut dyn FnMut(&Found) -> Result<()>,
}

impl Sweep<'_, '_> {
    /// Goes round `pending` until every unit is searched through (`true`)
    /// or the search must end (`false`).
    fn run(&mut self, g: &Geometry, prefix: &[Square], mut pending: Vec<Unit>) -> Result<bool> {
        let (mut slice, mut cursor) = (1u64, 0usize);
        while !pending.is_empty() {
            if self.report.found >= self.limit {
                return Ok(false);
            }
            let at = cursor % pending.len();
            let Some(mut e) = pending[at].root(g, prefix) else {
                pending.remove(at);
                continue;
            };
            self.walker.slice_end = if self.restarts {
                self.walker.nodes.saturating_add(SLICE_UNIT * luby(slice))
            } else {
                u64::MAX
            };
            slice += 1;
            let flow = dfs(
                &mut e,
                &mut self.walker,
                &mut |squares: &[Square], nodes| {
                    if !self.seen.insert(squares.to_vec()) {
                        return Ok(true);
                    }
                    let found = found_tour(self.board, squares, nodes)?;
                    self.report.found += 1;
                    (self.on_found)(&found)?;
                    Ok(self.report.found < self.limit)
                },
            )?;
            match flow {
                Flow::Go => {
                    pending.remove(at);
                }
                Flow::Slice => cursor = at + 1,
                _ => return Ok(false),
            }
        }
        Ok(true)
    }
}

impl MagicSearch {
    /// Runs the search, giving each tour to `on_found` as it is found.
    ///
    /// Two phases, each a round of units in an order the seed shuffles:
    /// first the tours symmetric under the half turn (closed, and a
    /// search of half the depth: see the half-turn core), one unit per
    /// first square; then, unless `symmetric`, every tour, one unit per
    /// (first square, last square) pair. Within a unit, a depth-first
    /// search in Warnsdorff order (the seed breaking ties), pruned by the
    /// line sums and dead ends (see the engines). A path to extend has
    /// each unit searched through in turn; a bare search goes round the
    /// units in slices of Luby's lengths, each a fresh move order, dropping
    /// a unit once a slice searches it through (so it still ends when the
    /// space is exhausted); a tour found again is not handed out twice.
    /// Stops at `limit` tours, at `max_nodes` nodes or when the control's
    /// flag is raised.
    ///
    /// # Errors
    /// [`Error::Refused`] for a side or prefix the search does not take,
    /// or symmetric open tours; [`Error::NoTour`] when the whole space
    /// holds no tour; [`Error::GaveUp`] (raise the nodes) when the budget
    /// ran out first.
    pub fn run(
        &self,
        control: &Control,
        on_found: &mut dyn FnMut(&Found) -> Result<()>,
    ) -> Result<SearchReport> {
        let n = check_side(self.side)?;
        let board = Board::new(n as u64, n as u64)?;
        let g = Geometry::new(n);
        check_prefix(&g, self.start, &self.prefix)?;
        check_symmetric(self.kind, self.symmetric)?;
        let mut rng = crate::rng::seeded(self.seed);
        let mut phases = Vec::new();
        if self.kind != Wanted::Open && self.prefix.len() <= n * n / 2 {
            let mut units: Vec<Unit> = self.starts(&g).into_iter().map(Unit::HalfTurn).collect();
            units.shuffle(&mut rng);
            phases.push(units);
        }
        if !self.symmetric {
            phases.push(self.pairs(&g, &mut rng));
        }
        let mut sweep = Sweep {
            walker: Walker::new(control, self.max_nodes, Some(rng)),
            seen: HashSet::new(),
            report: SearchReport {
                found: 0,
                nodes: 0,
                complete: false,
            },
            limit: self.limit.unwrap_or(u64::MAX),
            board,
            restarts: self.prefix.is_empty(),
            on_found,
        };
        let mut complete = true;
        for units in phases {
            if !sweep.run(&g, &self.prefix, units)? {
                complete = false;
                break;
            }
        }
        let mut report = sweep.report;
        report.complete = complete;
        report.nodes = sweep.walker.nodes;
        if report.found == 0 && sweep.walker.out_of_nodes {
            return Err(Error::GaveUp(
                format!("the magic search found no tour in {} nodes", report.nodes).into(),
            )
            .with_hint(Hint::Raise(Budget::Nodes)));
        }
        if report.found == 0 && report.complete {
            return Err(Error::NoTour(
                format!("no semimagic tour of {n}x{n} {}", self.what()).into(),
            ));
        }
        Ok(report)
    }

    fn what(&self) -> &'static str {
        match (self.prefix.is_empty(), self.start.is_some(), self.symmetric) {
            (false, _, false) => "extends the given path",
            (false, _, true) => "symmetric under the half turn extends the given path",
            (true, true, false) => "starts on the given square",
            (true, true, true) => "symmetric under the half turn starts on the given square",
            (true, false, false) => "exists of the kind asked for",
            (true, false, true) => "is symmetric under the half turn",
        }
    }

    /// The first squares to search from.
    fn starts(&self, g: &Geometry) -> Vec<usize> {
        match (self.prefix.first(), self.start) {
            (Some(&s), _) | (None, Some(s)) => vec![s as usize],
            (None, None) => (0..g.n * g.n).collect(),
        }
    }

    /// The (first, last) square pairs to search, in the seed's order.
    fn pairs(&self, g: &Geometry, rng: &mut crate::rng::KnightRng) -> Vec<Unit> {
        let nn = g.n * g.n;
        let mut pairs: Vec<Unit> = self
            .starts(g)
            .iter()
            .flat_map(|&s| ends(g, s, self.kind).into_iter().map(move |e| (s, e)))
            .filter(|&(_, e)| !self.prefix.contains(&(e as Square)) || self.prefix.len() == nn)
            .map(|(s, e)| Unit::Ends(s, e))
            .collect();
        pairs.shuffle(rng);
        pairs
    }
}

/// The side as a `usize`, if the search takes it.
pub(crate) fn check_side(side: u32) -> Result<usize> {
    if side % 2 == 1 || !(6..=MAX_SIDE).contains(&side) {
        return Err(Error::Refused(
            format!("a magic search takes a square board of even side from 6 to {MAX_SIDE}, not {side}x{side}").into(),
        ));
    }
    Ok(side as usize)
}

/// Refuses symmetric open tours: a tour symmetric under the half turn is
/// closed.
pub(crate) fn check_symmetric(kind: Wanted, symmetric: bool) -> Result<()> {
    if symmetric && kind == Wanted::Open {
        return Err(Error::Refused(
                "a tour symmetric under the half turn is closed, so there is no open one; ask for closed tours or either kind".into(),
            ));
    }
    Ok(())
}

/// Refuses a start off the board or a prefix that is not a knight path.
fn check_prefix(g: &Geometry, start: Option<Square>, prefix: &[Square]) -> Result<()> {
    let nn = g.n * g.n;
    let refuse = |what: String| Err(Error::Refused(what.into()));
    if let Some(s) = start.filter(|&s| s as usize >= nn) {
        return refuse(format!(
            "the start square {s} is off the {n}x{n} board",
            n = g.n
        ));
    }
    if let (Some(s), Some(&p)) = (start, prefix.first()) {
        if s != p {
            return refuse("the path to extend does not begin on the start square".into());
        }
    }
    let mut seen = vec![false; nn];
    for (i, &s) in prefix.iter().enumerate() {
        if s as usize >= nn || seen[s as usize] {
            return refuse(format!(
                "square {} of the path to extend is off the board or repeated",
                i + 1
            ));
        }
        seen[s as usize] = true;
        if i > 0 && !g.adjacent(prefix[i - 1] as usize, s as usize) {
            return refuse(format!(
                "squares {i} and {} of the path to extend are not a knight's move apart",
                i + 1
            ));
        }
    }
    Ok(())
}

/// The last squares a tour of `kind` from `start` may have: the other
/// colour, next to the start for a closed tour, not next to it for an open
/// one.
pub(crate) fn ends(g: &Geometry, start: usize, kind: Wanted) -> Vec<usize> {
    let n = g.n;
    (0..n * n)
        .filter(|&e| (e / n + e % n) % 2 != (start / n + start % n) % 2)
        .filter(|&e| match kind {
            Wanted::Closed => g.adjacent(start, e),
            Wanted::Open => !g.adjacent(start, e),
            Wanted::Either => true,
        })
        .collect()
}

/// A tour found, checked by the one checker and by its sums; a failure of
/// either is a bug of the search.
pub(crate) fn found_tour(board: Board, squares: &[Square], nodes: u64) -> Result<Found> {
    let tour = Tour::new(board, squares.to_vec())?;
    if let Err(fault) = check::check_tour(&tour) {
        return Err(Error::Internal(
            format!("the magic search made a tour the checker refuses: {fault}").into(),
        ));
    }
    match super::sums(&tour) {
        Some(sums) if sums.magic != super::Magic::No => Ok(Found { tour, sums, nodes }),
        _ => Err(Error::Internal(
            "the magic search made a tour that is not semimagic".into(),
        )),
    }
}

/// The exhaustive enumeration of semimagic tours, in ranges, with a
/// checkpoint to resume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// The side of the square board.
    pub side: u32,
    /// Closed, open or either.
    pub kind: Wanted,
    /// The checkpoint file: read to resume, rewritten after each range.
    pub checkpoint: Option<PathBuf>,
    /// The node budget of this run.
    pub max_nodes: Option<u64>,
    /// Only tours symmetric under the half turn: one range per first
    /// square.
    pub symmetric: bool,
}

/// How far an enumeration has come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumerationReport {
    /// Ranges finished, this run and the runs before it.
    pub ranges_done: u64,
    /// Ranges in all.
    pub ranges: u64,
    /// Semimagic tours found (start in the board's fundamental region).
    pub tours: u64,
    /// Their classes up to the 16 symmetries.
    pub classes: u64,
    /// Nodes searched, this run and the runs before it.
    pub nodes: u64,
    /// Whether every range is finished.
    pub complete: bool,
}
