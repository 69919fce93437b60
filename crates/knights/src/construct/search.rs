//! A small exhaustive search for the base tours of the construction.
//!
//! Depth-first search with Warnsdorff's ordering (fewest onward moves
//! first, ties broken by a seeded shuffle) and two prunings: an unvisited
//! square with no unvisited neighbour left must be the very next and last
//! square, and for a closed tour the start must keep an unvisited neighbour
//! until the end. It is meant for boards of at most a few hundred squares:
//! the base tours kept as data in the construction's `base` module were found with it (see
//! `examples/find_bases.rs`), and the construction uses it at run time only
//! to start an open tour inside one small block.

use rand::seq::SliceRandom;

/// What the path must do at its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Return to the start: a closed tour.
    Closed,
    /// End anywhere not a knight's move from the start: an open tour.
    Open,
    /// End on one of these squares, given as (row, column).
    EndIn(Vec<(u32, u32)>),
}

/// One exhaustive search for a Hamiltonian path of (part of) a small
/// board: from `start` (row, column), meeting `goal`, over the squares that
/// `allowed` admits, within `budget` nodes per attempt and `attempts`
/// differently shuffled attempts seeded from `seed`.
///
/// # Example
/// ```
/// use knights::construct::search::{Goal, PathQuery};
/// // On 4 rows, the outer squares of one colour with the inner squares of
/// // the other colour carry a cycle of their own.
/// let class = |r: u32, c: u32| ((r == 0 || r == 3) as u32 + r + c) % 2 == 1;
/// let query = PathQuery { allowed: &class, attempts: 10, seed: 1, ..PathQuery::new(4, 6, (0, 0), &Goal::Closed, 100_000) };
/// assert_eq!(query.path().unwrap().len(), 12);
/// ```
#[derive(Copy, Clone)]
pub struct PathQuery<'a> {
    /// Rows of the board (rows * cols at most 65,535).
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// The squares the path may use, as (row, column).
    pub allowed: &'a dyn Fn(u32, u32) -> bool,
    /// The first square (row, column).
    pub start: (u32, u32),
    /// What the path must do at its end.
    pub goal: &'a Goal,
    /// Search nodes per attempt.
    pub budget: u64,
    /// Attempts, each with its own shuffle of ties.
    pub attempts: u32,
    /// Seed of the shuffles.
    pub seed: u64,
}

impl<'a> PathQuery<'a> {
    /// The whole board, one attempt, seed 0.
    pub fn new(rows: u32, cols: u32, start: (u32, u32), goal: &'a Goal, budget: u64) -> Self {
        PathQuery {
            rows,
            cols,
            allowed: &|_, _| true,
            start,
            goal,
            budget,
            attempts: 1,
            seed: 0,
        }
    }

    /// The path's squares (row, column) in order, if one was found.
    pub fn path(&self) -> Option<Vec<(u32, u32)>> {
        match self.run() {
            Some(PathFound::Path(p)) => Some(p),
            _ => None,
        }
    }

    /// A path, or the proof that none exists (the search ran to its end
    /// within the budget), or `None` when the budget ran out first.
    ///
    /// # Complexity
    /// Exponential in the worst case; bounded by `budget * attempts` nodes.
    pub fn run(&self) -> Option<PathFound> {
        let PathQuery {
            rows,
            cols,
            allowed,
            start,
            goal,
            budget,
            attempts,
            seed,
        } = *self;
        let total = (rows as usize).checked_mul(cols as usize)?;
        if total == 0
            || total > u16::MAX as usize
            || start.0 >= rows
            || start.1 >= cols
            || !allowed(start.0, start.1)
        {
            return None;
        }
        let ok = |s: usize| allowed((s / cols as usize) as u32, (s % cols as usize) as u32);
        let n = (0..total).filter(|&s| ok(s)).count();
        let adj: Vec<Vec<u16>> = (0..total)
            .map(|s| {
                let (r, c) = ((s / cols as usize) as i64, (s % cols as usize) as i64);
                if !ok(s) {
                    return Vec::new();
                }
                crate::board::MOVES
                    .iter()
                    .filter_map(|&(dx, dy)| {
                        let (nr, nc) = (r + i64::from(dy), c + i64::from(dx));
                        (nr >= 0 && nc >= 0 && nr < i64::from(rows) && nc < i64::from(cols))
                            .then(|| (nr as usize * cols as usize + nc as usize) as u16)
                    })
                    .filter(|&t| ok(t as usize))
                    .collect()
            })
            .collect();
        let ends: Vec<bool> = (0..total)
            .map(|s| match goal {
                Goal::EndIn(set) => set
                    .iter()
                    .any(|&(r, c)| r < rows && c < cols && (r * cols + c) as usize == s),
                _ => false,
            })
            .collect();
        let start = (start.0 * cols + start.1) as u16;
        let mut exhausted = false;
        for attempt in 0..attempts {
            let mut rng = crate::rng::for_batch(seed, u64::from(attempt));
            let mut s = Search {
                n,
                adj: &adj,
                ends: &ends,
                goal,
                start,
                visited: (0..total).map(|s| !ok(s)).collect(),
                deg: adj.iter().map(|a| a.len() as u8).collect(),
                path: Vec::with_capacity(n),
                nodes: 0,
                budget,
                rng: &mut rng,
            };
            s.visit(start);
            if s.extend() {
                return Some(PathFound::Path(
                    s.path
                        .iter()
                        .map(|&q| (u32::from(q) / cols, u32::from(q) % cols))
                        .collect(),
                ));
            }
            if s.nodes <= s.budget {
                exhausted = true;
                break;
            }
        }
        exhausted.then_some(PathFound::NoneExists)
    }
}

/// What an exhaustive search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathFound {
    /// A path, as (row, column) squares in order.
    Path(Vec<(u32, u32)>),
    /// The search ran to the end within its budget: no such path exists.
    NoneExists,
}

/// [`find_path`] that also says when no path exists: `None` when the
/// budget ran out first.
///
/// # Example
/// ```
/// use knights::construct::search::{search, PathFound, Goal};
/// assert_eq!(search(5, 5, (0, 1), &Goal::Open, 1_000_000), Some(PathFound::NoneExists));
/// assert!(matches!(search(5, 5, (0, 0), &Goal::Open, 1_000_000), Some(PathFound::Path(_))));
/// ```
pub fn search(
    rows: u32,
    cols: u32,
    start: (u32, u32),
    goal: &Goal,
    budget: u64,
) -> Option<PathFound> {
    PathQuery::new(rows, cols, start, goal, budget).run()
}

/// A Hamiltonian path of the whole `rows x cols` board (at most 65,535
/// squares) from `start` (row, column) that meets `goal`, within `budget`
/// search nodes per attempt and `attempts` differently shuffled attempts
/// seeded from `seed` ([`PathQuery`] with every square allowed). Returns the
/// squares (row, column) in order.
///
/// # Example
/// ```
/// use knights::construct::search::{find_path, Goal};
/// let tour = find_path(6, 6, (0, 0), &Goal::Closed, 100_000, 10, 1).unwrap();
/// assert_eq!(tour.len(), 36);
/// ```
pub fn find_path(
    rows: u32,
    cols: u32,
    start: (u32, u32),
    goal: &Goal,
    budget: u64,
    attempts: u32,
    seed: u64,
) -> Option<Vec<(u32, u32)>> {
    PathQuery {
        attempts,
        seed,
        ..PathQuery::new(rows, cols, start, goal, budget)
    }
    .path()
}

struct Search<'a> {
    n: usize,
    adj: &'a [Vec<u16>],
    ends: &'a [bool],
    goal: &'a Goal,
    start: u16,
    visited: Vec<bool>,
    deg: Vec<u8>,
    path: Vec<u16>,
    nodes: u64,
    budget: u64,
    rng: &'a mut crate::rng::KnightRng,
}

impl Search<'_> {
    fn visit(&mut self, v: u16) {
        self.visited[v as usize] = true;
        self.path.push(v);
        for &x in &self.adj[v as usize] {
            self.deg[x as usize] -= 1;
        }
    }

    fn unvisit(&mut self, v: u16) {
        self.visited[v as usize] = false;
        self.path.pop();
        for &x in &self.adj[v as usize] {
            self.deg[x as usize] += 1;
        }
    }

    fn adjacent(&self, a: u16, b: u16) -> bool {
        self.adj[a as usize].contains(&b)
    }

    /// Extends the path from its last square; true when it is complete.
    fn extend(&mut self) -> bool {
        let cur = *self.path.last().expect("the path has its start");
        let depth = self.path.len();
        if depth == self.n {
            return match self.goal {
                Goal::Closed => self.adjacent(cur, self.start),
                Goal::Open => !self.adjacent(cur, self.start),
                Goal::EndIn(_) => self.ends[cur as usize],
            };
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        if *self.goal == Goal::Closed && self.deg[self.start as usize] == 0 {
            return false;
        }
        let last = depth + 1 == self.n;
        let mut cands: Vec<u16> = Vec::with_capacity(8);
        for &x in &self.adj[cur as usize] {
            if self.visited[x as usize] {
                continue;
            }
            if self.deg[x as usize] == 0 && !last {
                return false; // x could only be reached now, as the last square
            }
            if self.ends[x as usize] && !last {
                continue;
            }
            cands.push(x);
        }
        cands.shuffle(self.rng);
        cands.sort_by_key(|&x| self.deg[x as usize]);
        for x in cands {
            self.visit(x);
            if self.extend() {
                return true;
            }
            self.unvisit(x);
            if self.nodes > self.budget {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_path(rows: u32, cols: u32, p: &[(u32, u32)]) -> bool {
        let coords: Vec<(i64, i64)> = p
            .iter()
            .map(|&(r, c)| (i64::from(r), i64::from(c)))
            .collect();
        crate::check::check_path(rows, cols, &coords, None).is_ok()
    }

    #[test]
    fn finds_each_kind() {
        let closed = find_path(5, 6, (0, 0), &Goal::Closed, 1_000_000, 5, 3).unwrap();
        assert!(is_path(5, 6, &closed));
        assert!(crate::check::is_knight_move(
            (i64::from(closed[29].0), i64::from(closed[29].1)),
            (0, 0)
        ));
        let to = find_path(5, 5, (0, 0), &Goal::EndIn(vec![(4, 4)]), 1_000_000, 5, 3).unwrap();
        assert!(is_path(5, 5, &to));
        assert_eq!(to[24], (4, 4));
        let open = find_path(3, 4, (0, 0), &Goal::Open, 1_000_000, 5, 3).unwrap();
        assert!(is_path(3, 4, &open));
    }

    #[test]
    fn says_none_when_none_exists() {
        assert_eq!(find_path(4, 4, (0, 0), &Goal::Open, 1_000_000, 1, 0), None);
        assert_eq!(
            find_path(3, 6, (0, 0), &Goal::Closed, 1_000_000, 1, 0),
            None
        );
        assert_eq!(find_path(5, 5, (0, 1), &Goal::Open, 1_000_000, 1, 0), None);
    }
}
