//! A brute-force enumerator of tours, independent of the dynamic program:
//! depth-first search over knight's paths with one simple, safe cut.

use std::collections::BTreeSet;

use knights::count::Kind;
use knights::Board;

/// Every undirected tour of `board`, once each, as its squares in order.
pub fn tours(board: Board, kind: Kind) -> Vec<Vec<u32>> {
    let n = board.squares();
    let mut search = Search {
        board,
        kind,
        path: Vec::with_capacity(n),
        seen: vec![false; n],
        free: (0..n as u32)
            .map(|s| board.neighbours(s).count() as u8)
            .collect(),
        found: Vec::new(),
    };
    let starts: Vec<u32> = match kind {
        Kind::Closed => vec![0],
        Kind::Open => (0..n as u32).collect(),
    };
    for s in starts {
        search.visit(s);
        search.extend();
        search.unvisit(s);
    }
    search.found
}

struct Search {
    board: Board,
    kind: Kind,
    path: Vec<u32>,
    seen: Vec<bool>,
    /// Unvisited neighbours of each square.
    free: Vec<u8>,
    found: Vec<Vec<u32>>,
}

impl Search {
    fn visit(&mut self, s: u32) {
        self.seen[s as usize] = true;
        self.path.push(s);
        for (_, t) in self.board.neighbours(s) {
            self.free[t as usize] -= 1;
        }
    }

    fn unvisit(&mut self, s: u32) {
        self.seen[s as usize] = false;
        self.path.pop();
        for (_, t) in self.board.neighbours(s) {
            self.free[t as usize] += 1;
        }
    }

    /// A safe cut: after the head moved from `old` to `new`, an unvisited
    /// neighbour of `old` that can no longer be entered, or two that can no
    /// longer be entered and left, end the branch.
    fn hopeless(&self, old: u32, new: u32) -> bool {
        let start = self.path[0];
        let mut last_only = 0;
        for (_, y) in self.board.neighbours(old) {
            if self.seen[y as usize] {
                continue;
            }
            let mut avail = u32::from(self.free[y as usize]);
            avail += u32::from(self.board.move_between(y, new).is_some());
            if self.kind == Kind::Closed {
                avail += u32::from(self.board.move_between(y, start).is_some());
            }
            if avail == 0 {
                return true;
            }
            if avail == 1 {
                last_only += 1;
            }
        }
        last_only > 1
    }

    fn extend(&mut self) {
        let n = self.seen.len();
        if self.path.len() == n {
            let (first, last) = (self.path[0], self.path[n - 1]);
            let keep = match self.kind {
                Kind::Open => n == 1 || first < last,
                Kind::Closed => {
                    n > 2 && self.board.move_between(last, first).is_some() && self.path[1] < last
                }
            };
            if keep {
                self.found.push(self.path.clone());
            }
            return;
        }
        let at = *self.path.last().unwrap();
        let next: Vec<u32> = self
            .board
            .neighbours(at)
            .map(|(_, s)| s)
            .filter(|&s| !self.seen[s as usize])
            .collect();
        for s in next {
            self.visit(s);
            if !self.hopeless(at, s) {
                self.extend();
            }
            self.unvisit(s);
        }
    }
}

/// Nodes of the plain backtracking tree of paths from `start`.
pub fn tree_size(board: Board, start: u32) -> u64 {
    fn walk(board: Board, at: u32, seen: &mut [bool]) -> u64 {
        let mut nodes = 1;
        for (_, s) in board.neighbours(at) {
            if !seen[s as usize] {
                seen[s as usize] = true;
                nodes += walk(board, s, seen);
                seen[s as usize] = false;
            }
        }
        nodes
    }
    let mut seen = vec![false; board.squares()];
    seen[start as usize] = true;
    walk(board, start, &mut seen)
}

type Edges = Vec<(u32, u32)>;

fn edges(tour: &[u32], map: impl Fn(u32) -> u32) -> Edges {
    let mut e: Edges = (0..tour.len())
        .map(|i| {
            let (a, b) = (map(tour[i]), map(tour[(i + 1) % tour.len()]));
            (a.min(b), a.max(b))
        })
        .collect();
    e.sort_unstable();
    e
}

/// For the closed tours of `board`: (how many, how many a half turn leaves
/// unchanged, how many classes under the board's symmetries).
pub fn symmetry_facts(board: Board) -> (u128, u128, u128) {
    let (rows, cols) = (board.rows(), board.cols());
    let sq = |r: u32, c: u32| board.square(r, c);
    let mut maps: Vec<Box<dyn Fn(u32, u32) -> u32>> = vec![
        Box::new(sq),
        Box::new(|r, c| sq(rows - 1 - r, cols - 1 - c)),
        Box::new(|r, c| sq(rows - 1 - r, c)),
        Box::new(|r, c| sq(r, cols - 1 - c)),
    ];
    if rows == cols {
        let n = rows;
        maps.push(Box::new(move |r, c| sq(c, n - 1 - r)));
        maps.push(Box::new(move |r, c| sq(n - 1 - c, r)));
        maps.push(Box::new(|r, c| sq(c, r)));
        maps.push(Box::new(move |r, c| sq(n - 1 - c, n - 1 - r)));
    }
    let all = tours(board, Kind::Closed);
    let mut half_turn = 0;
    let mut classes = BTreeSet::new();
    for t in &all {
        let images: Vec<Edges> = maps
            .iter()
            .map(|m| {
                edges(t, |s| {
                    let (r, c) = board.coords(s);
                    m(r, c)
                })
            })
            .collect();
        if images[1] == images[0] {
            half_turn += 1;
        }
        classes.insert(images.into_iter().min().unwrap());
    }
    (all.len() as u128, half_turn, classes.len() as u128)
}
