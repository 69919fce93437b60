//! Clue puzzles against an independent enumerator: a plain exhaustive
//! search over the checker's rules (not the shape's move graph, nothing of
//! the solver) counts each puzzle's solutions, and the solver's counts,
//! the generator's uniqueness and every solution (by the one checker) are
//! held to it.

mod engine;
mod generated;

use std::collections::HashMap;

use knights::board::Square;
use knights::check::{check_path_on, Rules};
use knights::puzzle::Puzzle;
use knights::{Control, Shape};

/// The node budget of the solver in these tests.
pub const BUDGET: u64 = 5_000_000;

/// A plain exhaustive count of a puzzle's solutions on a board of at most
/// 64 squares: every path from a square that may hold the first number,
/// each step a leap of the checker's rules onto a square not yet visited
/// that holds the step's clue (or no clue), remembering how many
/// completions each state (squares visited, last square, first square)
/// has. Its only pruning is that the next clue must still be reachable in
/// the steps left (by breadth-first distances over the same rules).
pub struct Enumerator {
    rules: Rules,
    adjacent: Vec<u64>,
    distance: Vec<Vec<u32>>,
    open: u64,
    at_step: Vec<Option<usize>>,
    clued: u64,
    closed: bool,
    limit: u64,
    memo: HashMap<(u64, usize, usize), u64>,
}

impl Enumerator {
    /// The enumerator of `puzzle`, counting up to `limit`.
    pub fn new(puzzle: &Puzzle, limit: u64) -> Enumerator {
        let rules = Rules::of(puzzle.shape());
        let n = (rules.rows * rules.cols) as usize;
        assert!(n <= 64, "the enumerator takes at most 64 squares");
        let cols = i64::from(rules.cols);
        let at = |s: usize| (s as i64 / cols, s as i64 % cols);
        let is_open = |s: usize| !rules.holes.contains(&at(s));
        let open = (0..n).filter(|&s| is_open(s)).fold(0u64, |m, s| m | 1 << s);
        let adjacent: Vec<u64> = (0..n)
            .map(|a| {
                (0..n)
                    .filter(|&b| is_open(a) && is_open(b) && rules.is_move(at(a), at(b)))
                    .fold(0u64, |m, b| m | 1 << b)
            })
            .collect();
        let distance = (0..n).map(|s| distances(&adjacent, s)).collect();
        let cells = open.count_ones() as usize;
        let mut at_step = vec![None; cells];
        let mut clued = 0u64;
        for (s, clue) in puzzle.clues().iter().enumerate() {
            if let Some(step) = clue {
                at_step[*step as usize] = Some(s);
                clued |= 1 << s;
            }
        }
        Enumerator {
            rules,
            adjacent,
            distance,
            open,
            at_step,
            clued,
            closed: puzzle.closed(),
            limit,
            memo: HashMap::new(),
        }
    }

    /// The number of solutions, at most the limit.
    pub fn count(&mut self) -> u64 {
        let starts = match self.at_step[0] {
            Some(s) => 1u64 << s,
            None => self.open & !self.clued,
        };
        let mut total = 0;
        for s in bits(starts) {
            if self.reaches_next_clue(s, 0) {
                total = (total + self.completions(1 << s, s, s)).min(self.limit);
            }
        }
        total
    }

    /// Completions of the path that visited `visited`, from `first` to `last`.
    fn completions(&mut self, visited: u64, last: usize, first: usize) -> u64 {
        let step = visited.count_ones() as usize;
        if step == self.at_step.len() {
            let closes = self.adjacent[last] >> first & 1 == 1;
            return u64::from(!self.closed || closes);
        }
        let key = (visited, last, if self.closed { first } else { 64 });
        if let Some(&k) = self.memo.get(&key) {
            return k;
        }
        let allowed = match self.at_step[step] {
            Some(s) => 1u64 << s,
            None => !self.clued,
        };
        let mut total = 0;
        for q in bits(self.adjacent[last] & !visited & allowed) {
            if self.reaches_next_clue(q, step) {
                total = (total + self.completions(visited | 1 << q, q, first)).min(self.limit);
            }
        }
        self.memo.insert(key, total);
        total
    }

    /// Whether the next clue after `step` is within reach of `square`.
    fn reaches_next_clue(&self, square: usize, step: usize) -> bool {
        (step + 1..self.at_step.len())
            .find_map(|j| self.at_step[j].map(|c| (j, c)))
            .is_none_or(|(j, c)| self.distance[square][c] as usize <= j - step)
    }

    /// Whether `squares` (a tour's, in order) solve the puzzle: a tour by
    /// the one checker, of the puzzle's kind, through every clue at its
    /// step.
    pub fn solved_by(&self, squares: &[Square]) -> bool {
        let cols = i64::from(self.rules.cols);
        let coords: Vec<(i64, i64)> = squares
            .iter()
            .map(|&s| (i64::from(s) / cols, i64::from(s) % cols))
            .collect();
        let Ok(kind) = check_path_on(&self.rules, &coords, None) else {
            return false;
        };
        (!self.closed || kind == knights::Kind::Closed)
            && squares
                .iter()
                .enumerate()
                .all(|(i, &s)| self.at_step[i].is_none_or(|c| c == s as usize))
    }
}

/// Breadth-first distances from `from` over `adjacent` (`u32::MAX` where
/// unreachable).
fn distances(adjacent: &[u64], from: usize) -> Vec<u32> {
    let mut d = vec![u32::MAX; adjacent.len()];
    d[from] = 0;
    let mut frontier = 1u64 << from;
    let mut seen = frontier;
    let mut k = 0;
    while frontier != 0 {
        k += 1;
        let next = bits(frontier).fold(0u64, |m, s| m | adjacent[s]) & !seen;
        for s in bits(next) {
            d[s] = k;
        }
        seen |= next;
        frontier = next;
    }
    d
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let s = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            s
        })
    })
}

/// The solver's count of `puzzle`'s solutions up to `limit`, which must
/// finish within the budget.
pub fn solver_count(puzzle: &Puzzle, limit: usize) -> usize {
    let found = puzzle
        .solutions(limit, BUDGET, &Control::new())
        .expect("the solver runs");
    assert!(
        found.complete,
        "the solver ran out of budget on\n{puzzle:?}"
    );
    let plain = Enumerator::new(puzzle, limit as u64);
    for tour in &found.tours {
        assert!(plain.solved_by(tour.squares()), "a solution that is none");
    }
    found.tours.len()
}

/// The shapes of the acceptance: 6x6, a holed 6x6 and the 5x5 torus.
pub fn shapes() -> Vec<(&'static str, Shape)> {
    let plain: Shape = "6x6".parse::<knights::Board>().unwrap().into();
    let board = plain.board();
    let holed = plain
        .clone()
        .with_holes(&[board.square(0, 0), board.square(5, 0)])
        .unwrap();
    let torus = Shape::new("5x5".parse().unwrap()).with_wrap(knights::shape::Wrap::Both);
    vec![
        ("6x6", plain),
        ("6x6 with 2 holes", holed),
        ("5x5 torus", torus),
    ]
}

#[test]
fn solver_counts_agree_with_the_enumerator_on_0_1_and_several_solutions() {
    use rand::seq::SliceRandom;
    use rand::Rng;
    let mut seen = [0usize; 3];
    for (name, shape) in shapes() {
        for seed in 0..12u64 {
            let tour = knights::Tour::builder(shape.board())
                .shape(shape.clone())
                .seed(seed)
                .build()
                .unwrap();
            let mut rng = knights::rng::seeded(seed);
            let mut squares = tour.squares().to_vec();
            squares.shuffle(&mut rng);
            let keep = rng.random_range(6..=14).min(squares.len());
            let mut clues = Puzzle::from_tour(&tour, &squares[..keep])
                .unwrap()
                .clues()
                .to_vec();
            if seed % 3 == 0 {
                // Two clues swapped: most such puzzles have no solution.
                let (a, b) = (squares[0] as usize, squares[1] as usize);
                clues.swap(a, b);
            }
            let puzzle = Puzzle::new(shape.clone(), tour.is_closed(), clues).unwrap();
            let plain = Enumerator::new(&puzzle, 3).count() as usize;
            assert_eq!(solver_count(&puzzle, 3), plain, "{name}, seed {seed}");
            seen[plain.min(2)] += 1;
        }
    }
    assert!(
        seen.iter().all(|&k| k > 0),
        "0, 1 and several solutions: {seen:?}"
    );
}
