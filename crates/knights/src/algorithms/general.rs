//! The search methods on any move graph: Warnsdorff's rule and
//! backtracking (in move order, or in Warnsdorff's order for the hybrid)
//! over the adjacency lists of a [`Shape`], for what the plain-board
//! modules do not handle: holes, wrapped edges, other leapers, and a fixed
//! end square. The plain-board modules keep their own faster code, and
//! with it their pinned outputs.
//!
//! The backtracking search is exhaustive when it finishes within its
//! budget, so it also proves that no tour exists ([`Outcome::Exhausted`]).
//! Its prunings are sound: a square with no unvisited neighbour left must
//! be entered next and be the last; a square with one must be entered next
//! or be the path's end, and a path has one end (none to spare when the
//! end is fixed).

use rand::{Rng, RngCore};

use super::spec::TourSpec;
use crate::board::Square;
use crate::shape::{Graph, Shape};
use crate::{Control, Error, Result, Tour, Wanted};

/// What a search is asked for, resolved: the graph and the constraints.
pub(crate) struct Goal<'a> {
    pub shape: &'a Shape,
    pub graph: &'a Graph,
    /// `Closed`: a cycle; `Open`: ends not adjacent; `Either`: any path.
    pub kind: Wanted,
    pub start: Option<Square>,
    pub end: Option<Square>,
}

/// How a backtracking search ended.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// A path meeting the goal.
    Found(Vec<Square>),
    /// The whole tree was searched: no such path exists.
    Exhausted,
    /// The node budget ran out.
    OutOfBudget,
    /// The stop flag was raised.
    Stopped,
}

impl Goal<'_> {
    fn accepts(&self, path: &[Square]) -> bool {
        let (first, last) = (path[0], path[path.len() - 1]);
        if self.end.is_some_and(|e| e != last) {
            return false;
        }
        let closes = path.len() > 2 && self.graph.adjacent(last, first);
        match self.kind {
            Wanted::Closed => closes,
            Wanted::Open => !closes,
            Wanted::Either => true,
        }
    }

    /// The squares a search may start from, in order.
    fn starts(&self) -> Vec<Square> {
        let open = (0..self.graph.len() as Square).filter(|&s| !self.shape.is_hole(s));
        match (self.start, self.kind) {
            (Some(s), _) => vec![s],
            // A cycle passes every square: start at one of least degree.
            (None, Wanted::Closed) => open
                .min_by_key(|&s| self.graph.degree(s))
                .into_iter()
                .collect(),
            (None, _) => open.collect(),
        }
    }
}

/// Working arrays of one search: visited marks and unvisited-neighbour counts.
struct State {
    visited: Vec<bool>,
    free: Vec<u32>,
}

impl State {
    fn new(goal: &Goal<'_>) -> State {
        let n = goal.graph.len();
        let mut free = vec![0u32; n];
        for (s, f) in free.iter_mut().enumerate() {
            *f = goal.graph.degree(s as Square) as u32;
        }
        let visited = (0..n as Square).map(|s| goal.shape.is_hole(s)).collect();
        State { visited, free }
    }

    fn visit(&mut self, graph: &Graph, s: Square) {
        self.visited[s as usize] = true;
        for &t in graph.neighbours(s) {
            self.free[t as usize] -= 1;
        }
    }

    fn unvisit(&mut self, graph: &Graph, s: Square) {
        self.visited[s as usize] = false;
        for &t in graph.neighbours(s) {
            self.free[t as usize] += 1;
        }
    }
}

/// One Warnsdorff walk from `start`: always to the unvisited neighbour with
/// the fewest unvisited neighbours, ties at random (`random`) or the first
/// in move order; a fixed end square is kept for the last step.
fn walk(
    goal: &Goal<'_>,
    start: Square,
    random: bool,
    rng: &mut dyn RngCore,
) -> Option<Vec<Square>> {
    let g = goal.graph;
    let n = goal.shape.squares();
    let mut st = State::new(goal);
    let mut path = Vec::with_capacity(n);
    path.push(start);
    st.visit(g, start);
    while path.len() < n {
        let cur = path[path.len() - 1];
        let last_step = path.len() + 1 == n;
        let mut best = u32::MAX;
        let mut choice = None;
        let mut ties = 0u32;
        for &t in g.neighbours(cur) {
            if st.visited[t as usize] || (goal.end == Some(t) && !last_step) {
                continue;
            }
            let f = st.free[t as usize];
            if f < best {
                best = f;
                choice = Some(t);
                ties = 1;
            } else if f == best && random {
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    choice = Some(t);
                }
            }
        }
        let next = choice?;
        st.visit(g, next);
        path.push(next);
    }
    goal.accepts(&path).then_some(path)
}

/// Warnsdorff's rule with restarts on `goal`: up to `attempts` walks, from
/// the given start or from random starts.
pub(crate) fn warnsdorff(
    goal: &Goal<'_>,
    random: bool,
    attempts: u32,
    control: &Control,
    rng: &mut dyn RngCore,
) -> Option<Vec<Square>> {
    let starts = goal.starts();
    for attempt in 0..attempts {
        if control.is_stopped() {
            return None;
        }
        let start = match goal.start {
            Some(s) => s,
            None if random => starts[rng.random_range(0..starts.len())],
            None => starts[attempt as usize % starts.len()],
        };
        if let Some(p) = walk(goal, start, random, rng) {
            return Some(p);
        }
        if !random && goal.start.is_some() {
            break; // a deterministic walk from a fixed start gives the same path again
        }
    }
    None
}

/// Backtracking from every start of `goal` in turn, under one budget of
/// `max_nodes` squares placed; `warnsdorff_order` tries the neighbours with
/// the fewest unvisited neighbours first (the hybrid).
pub(crate) fn backtrack(
    goal: &Goal<'_>,
    warnsdorff_order: bool,
    max_nodes: u64,
    control: &Control,
) -> Outcome {
    let g = goal.graph;
    let n = goal.shape.squares();
    let mut nodes = 0u64;
    let mut st = State::new(goal);
    for start in goal.starts() {
        let mut path = vec![start];
        st.visit(g, start);
        // Candidates of each level, and how far each level has got in its list.
        let mut cands: Vec<Vec<Square>> = vec![candidates(goal, &st, &path, warnsdorff_order)];
        let mut at: Vec<usize> = vec![0];
        if n == 1 && goal.accepts(&path) {
            return Outcome::Found(path);
        }
        while let Some(level) = cands.last() {
            let i = *at.last().expect("one position per level");
            if i >= level.len() {
                cands.pop();
                at.pop();
                let s = path.pop().expect("one square per level");
                st.unvisit(g, s);
                if let Some(a) = at.last_mut() {
                    *a += 1;
                }
                continue;
            }
            let next = level[i];
            nodes += 1;
            if nodes > max_nodes {
                return Outcome::OutOfBudget;
            }
            if nodes.is_multiple_of(4096) && control.is_stopped() {
                return Outcome::Stopped;
            }
            path.push(next);
            st.visit(g, next);
            if path.len() == n {
                if goal.accepts(&path) {
                    return Outcome::Found(path);
                }
                path.pop();
                st.unvisit(g, next);
                *at.last_mut().expect("a level") += 1;
                continue;
            }
            cands.push(candidates(goal, &st, &path, warnsdorff_order));
            at.push(0);
        }
    }
    Outcome::Exhausted
}

/// The moves worth trying from the head of `path`, after the prunings.
fn candidates(goal: &Goal<'_>, st: &State, path: &[Square], warnsdorff_order: bool) -> Vec<Square> {
    let g = goal.graph;
    let head = path[path.len() - 1];
    let remaining = goal.shape.squares() - path.len();
    let first = path[0];
    // A closed tour must still be able to come back to its start.
    if goal.kind == Wanted::Closed && st.free[first as usize] == 0 && remaining > 0 {
        return Vec::new();
    }
    let mut free: Vec<Square> = g
        .neighbours(head)
        .iter()
        .copied()
        .filter(|&t| !st.visited[t as usize])
        .collect();
    // Squares that only the head can still reach, or that must be an end.
    let mut forced = Vec::new();
    for &t in &free {
        let f = st.free[t as usize];
        if f == 0 && remaining > 1 {
            return Vec::new();
        }
        if f <= 1 && remaining > 1 && goal.end != Some(t) {
            forced.push(t);
        }
    }
    let spare_ends = if goal.end.is_some() { 0 } else { 1 };
    if forced.len() > spare_ends + 1 {
        return Vec::new();
    }
    if forced.len() == spare_ends + 1 {
        free = forced;
    }
    if remaining > 1 {
        free.retain(|&t| goal.end != Some(t));
    }
    if warnsdorff_order {
        free.sort_by_key(|&t| st.free[t as usize]);
    }
    free
}

/// What [`TourSpec`] asks, as a goal on `graph`; refuses a start or end on a hole.
pub(crate) fn goal<'a>(spec: &'a TourSpec, graph: &'a Graph) -> Result<Goal<'a>> {
    let shape = &spec.shape;
    if shape.board() != spec.board {
        return Err(Error::Internal(
            format!(
                "a request names the board {} with a shape on {}",
                spec.board,
                shape.board()
            )
            .into(),
        ));
    }
    for (what, s) in [("start", spec.start), ("end", spec.end)] {
        if let Some(s) = s {
            if s as usize >= spec.board.squares() || shape.is_hole(s) {
                return Err(Error::Board(format!(
                    "the {what} square {s} is not a square of {shape}; name one that is on the board and not a hole"
                ).into()));
            }
        }
    }
    let mut kind = spec.kind;
    if let (Some(s), Some(e)) = (spec.start, spec.end) {
        if s == e && shape.squares() > 1 {
            return Err(Error::Board(
                "the start and end squares are the same; a tour from a square back to it is a closed tour".into(),
            )
            .with_hint(crate::Hint::ClosedFromStart));
        }
        // A path between given ends is closed exactly when they are adjacent.
        let adjacent = graph.adjacent(s, e) && shape.squares() > 2;
        match kind {
            Wanted::Open if adjacent => {
                return Err(Error::NoTour(
                    format!(
                        "{} and {} are a move apart, so a tour between them is closed, not open",
                        shape.name(s),
                        shape.name(e)
                    )
                    .into(),
                ))
            }
            Wanted::Closed if !adjacent => {
                return Err(Error::NoTour(
                    format!(
                        "{} and {} are not a move apart, so a tour between them cannot be closed",
                        shape.name(s),
                        shape.name(e)
                    )
                    .into(),
                ))
            }
            _ => kind = Wanted::Either,
        }
    } else if spec.end.is_some() {
        return Err(Error::Unsupported(
            "an end square needs a start square as well".into(),
        ));
    }
    Ok(Goal {
        shape,
        graph,
        kind,
        start: spec.start,
        end: spec.end,
    })
}

/// The tour on the spec's shape from a path the search found.
pub(crate) fn tour_from(spec: &TourSpec, path: Vec<Square>) -> Tour {
    let mut path = path;
    // A closed tour found from another start is rotated to the one asked for.
    if let (Some(s), None) = (spec.start, spec.end) {
        if path[0] != s {
            if let Some(i) = path.iter().position(|&q| q == s) {
                path.rotate_left(i);
            }
        }
    }
    Tour::from_squares_unchecked_on(&spec.shape, path)
}

/// The two requests of "either kind": a closed tour with a share of the
/// budget, then any path; or just the kind asked for.
pub(crate) fn kinds(spec: &TourSpec, goal_kind: Wanted) -> Vec<(Wanted, u64)> {
    match (goal_kind, spec.kind, spec.end) {
        (Wanted::Either, Wanted::Either, None) => vec![(Wanted::Closed, 16), (Wanted::Either, 1)],
        (k, _, _) => vec![(k, 1)],
    }
}

/// Warnsdorff's rule on any request (see the module docs).
pub(crate) fn generate_warnsdorff(
    spec: &TourSpec,
    random: bool,
    attempts: u32,
    rng: &mut dyn RngCore,
) -> Result<Tour> {
    crate::exists::quick_refusal(spec)?;
    let graph = spec.shape.graph()?;
    let goal = goal(spec, &graph)?;
    for (kind, share) in kinds(spec, goal.kind) {
        let g = Goal {
            kind,
            ..goal_copy(&goal)
        };
        let budget = (attempts / share as u32).max(1);
        if let Some(p) = warnsdorff(&g, random, budget, &spec.control, rng) {
            return Ok(tour_from(spec, p));
        }
    }
    if spec.control.is_stopped() {
        return Err(Error::Interrupted("the search was stopped".into()));
    }
    Err(Error::GaveUp(format!(
        "Warnsdorff's rule found no tour of {} in {attempts} walks; the hybrid algorithm may succeed",
        spec.shape
    ).into())
    .with_hint(crate::Hint::Raise(crate::Budget::Attempts)))
}

fn goal_copy<'a>(g: &Goal<'a>) -> Goal<'a> {
    Goal {
        shape: g.shape,
        graph: g.graph,
        kind: g.kind,
        start: g.start,
        end: g.end,
    }
}

/// Backtracking (or the hybrid) on any request (see the module docs).
pub(crate) fn generate_backtrack(
    spec: &TourSpec,
    warnsdorff_order: bool,
    max_nodes: u64,
) -> Result<Tour> {
    crate::exists::quick_refusal(spec)?;
    let graph = spec.shape.graph()?;
    let goal = goal(spec, &graph)?;
    let mut exhausted = true;
    for (kind, share) in kinds(spec, goal.kind) {
        let g = Goal {
            kind,
            ..goal_copy(&goal)
        };
        match backtrack(
            &g,
            warnsdorff_order,
            (max_nodes / share).max(1),
            &spec.control,
        ) {
            Outcome::Found(p) => return Ok(tour_from(spec, p)),
            Outcome::Exhausted => {}
            Outcome::OutOfBudget => exhausted = false,
            Outcome::Stopped => return Err(Error::Interrupted("the search was stopped".into())),
        }
        if kind == Wanted::Either {
            // Any path at all: its answer decides.
            break;
        }
    }
    if exhausted {
        Err(Error::NoTour(
            format!(
                "no such tour of {} exists: an exhaustive search found none",
                spec.shape
            )
            .into(),
        ))
    } else {
        Err(Error::GaveUp(
            format!(
                "the search found no tour of {} within {max_nodes} nodes",
                spec.shape
            )
            .into(),
        )
        .with_hint(crate::Hint::Raise(crate::Budget::Nodes)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_tour;
    use crate::shape::{Leaper, Wrap};
    use crate::Kind;

    fn spec(shape: Shape) -> TourSpec {
        TourSpec::on(shape)
    }

    #[test]
    fn torus_4x4_has_a_closed_tour() {
        let s = Shape::new("4x4".parse().unwrap()).with_wrap(Wrap::Both);
        let mut sp = spec(s);
        sp.kind = Wanted::Closed;
        let t = generate_backtrack(&sp, true, 1_000_000).unwrap();
        assert_eq!(check_tour(&t), Ok(Kind::Closed));
        let t = generate_warnsdorff(&sp, true, 1000, &mut crate::rng::seeded(1)).unwrap();
        assert_eq!(check_tour(&t), Ok(Kind::Closed));
    }

    #[test]
    fn exhaustive_search_proves_4x4_has_no_open_tour() {
        let mut sp = spec(Shape::new("4x4".parse().unwrap()));
        sp.kind = Wanted::Open;
        let graph = sp.shape.graph().unwrap();
        let g = goal(&sp, &graph).unwrap();
        assert!(matches!(
            backtrack(&g, true, 100_000_000, &Control::new()),
            Outcome::Exhausted
        ));
    }

    #[test]
    fn fixed_ends_on_small_boards() {
        // 5x5: paths run between corner-coloured squares.
        let board: crate::Board = "5x5".parse().unwrap();
        let mut sp = spec(Shape::new(board));
        sp.start = Some(0);
        sp.end = Some(24);
        let t = generate_backtrack(&sp, true, 10_000_000).unwrap();
        assert_eq!((t.start(), t.end()), (0, 24));
        check_tour(&t).unwrap();
        sp.end = Some(1);
        let e = generate_backtrack(&sp, true, 10_000_000).unwrap_err();
        assert!(matches!(e, Error::NoTour(_)), "{e}");
    }

    #[test]
    fn zebra_on_10x10() {
        let s = Shape::new("10x10".parse().unwrap()).with_leaper(Leaper::new(2, 3).unwrap());
        let t = generate_warnsdorff(&spec(s), true, 1000, &mut crate::rng::seeded(0)).unwrap();
        check_tour(&t).unwrap();
        assert_eq!(t.squares().len(), 100);
    }
}
