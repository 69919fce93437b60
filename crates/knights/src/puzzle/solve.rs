//! The solver: every solution of a puzzle up to a limit, under a node
//! budget and a [`Control`], by propagation ([`super::engine`]) and, where
//! it stalls, a search that guesses the square of the step with the fewest
//! left and propagates each guess, copying the state on each branch.

use serde::Serialize;

use super::engine::{Engine, Rules, Scratch};
use super::{Difficulty, Puzzle};
use crate::board::Square;
use crate::{Control, Result, Tour};
/// What the solver spent: search nodes, guesses, and how deep guesses
/// were nested.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Work {
    /// Search nodes (each a state propagated).
    pub nodes: u64,
    /// Guesses: the alternatives the search tried where propagation could
    /// not decide.
    pub guesses: u64,
    /// The deepest nesting of guesses (0: propagation alone).
    pub depth: u32,
}

/// The solutions found, up to the limit asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Solutions {
    /// The solutions, each a tour of the puzzle's shape numbered from its
    /// first square.
    pub tours: Vec<Tour>,
    /// Whether the search finished: then `tours` holds every solution when
    /// fewer than the limit were found. `false` when the budget ran out.
    pub complete: bool,
    /// What the search spent.
    pub work: Work,
    /// The limit the search was asked for.
    pub limit: usize,
}

impl Solutions {
    /// Whether the puzzle is proved to have exactly one solution: one found,
    /// the search finished, and a second was looked for (a limit of 2 or
    /// more).
    pub fn is_unique(&self) -> bool {
        self.tours.len() == 1 && self.complete && self.limit >= 2
    }
}

/// One step of reasoning from a partly filled grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NextStep {
    /// A number that must go on a square, and why.
    Deduction(Deduction),
    /// The numbers so far cannot all be right: why, in one sentence.
    Contradiction(String),
    /// Every square is numbered, and the numbering solves the puzzle.
    Solved,
    /// No square is forced by the reasoning the solver names within the
    /// budget.
    Stuck,
}

/// A number forced onto a square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Deduction {
    /// The square.
    pub square: Square,
    /// The step it holds, counted from 0.
    pub step: u32,
    /// Why, in one sentence, with numbers written from the puzzle's base.
    pub reason: String,
}

/// How often the search looks at the [`Control`], in nodes.
const CHECK_EVERY: u64 = 4096;

/// The search's own state: the engine, the limits, what it found, and one
/// state buffer per level of nesting (reused, so a branch allocates only
/// the first time its level is reached).
struct Search<'a> {
    engine: &'a Engine,
    limit: usize,
    budget: u64,
    control: &'a Control,
    found: Vec<Vec<Square>>,
    complete: bool,
    work: Work,
    levels: Vec<Vec<u64>>,
    scratch: Scratch,
    /// Guesses may nest at most this deep; deeper, the search stops
    /// incomplete (the generator's cap for a grade).
    max_depth: u32,
}

impl Search<'_> {
    /// Whether the search must stop: enough solutions, or out of budget.
    fn done(&self) -> bool {
        self.found.len() >= self.limit || !self.complete
    }

    /// Counts one node; `false` when the budget is spent.
    fn node(&mut self) -> Result<bool> {
        self.work.nodes += 1;
        if self.work.nodes > self.budget {
            self.complete = false;
            return Ok(false);
        }
        if self.work.nodes.is_multiple_of(CHECK_EVERY) {
            self.control.check("the puzzle's search")?;
        }
        Ok(true)
    }

    /// Searches below the propagated state `st`, `depth` guesses deep.
    fn below(&mut self, st: &[u64], depth: u32) -> Result<()> {
        let e = self.engine;
        let mut pick = None;
        for k in 0..e.n {
            let size = e.size(st, k);
            if size > 1 && pick.is_none_or(|(_, best)| size < best) {
                pick = Some((k, size));
            }
        }
        let Some((k, _)) = pick else {
            if let Some(squares) = e.solution(st) {
                self.found.push(squares);
            }
            return Ok(());
        };
        if depth >= self.max_depth {
            self.complete = false;
            return Ok(());
        }
        self.work.depth = self.work.depth.max(depth + 1);
        let level = depth as usize;
        if self.levels.len() <= level {
            self.levels.push(Vec::with_capacity(st.len()));
        }
        let mut child = std::mem::take(&mut self.levels[level]);
        let choices: Vec<Square> = super::engine::bits(e.step(st, k)).collect();
        for s in choices {
            if self.done() || !self.node()? {
                break;
            }
            self.work.guesses += 1;
            child.clear();
            child.extend_from_slice(st);
            e.fix(&mut child, k, s);
            if e.propagate(&mut child, Rules::Full, &mut self.scratch)
                .is_ok()
            {
                self.below(&child, depth + 1)?;
            }
        }
        self.levels[level] = child;
        Ok(())
    }
}

/// The solutions of `clues` on `engine`'s puzzle up to `limit` (as step
/// orders of squares), whether the search finished, and its work, under
/// `budget` nodes with guesses nested at most `max_depth` deep.
pub(crate) fn search(
    engine: &Engine,
    scratch: &mut Scratch,
    clues: &[Option<u32>],
    limit: usize,
    budget: u64,
    max_depth: u32,
    control: &Control,
) -> Result<(Vec<Vec<Square>>, bool, Work)> {
    let mut search = Search {
        engine,
        limit,
        budget,
        control,
        found: Vec::new(),
        complete: true,
        work: Work::default(),
        levels: Vec::new(),
        scratch: std::mem::take(scratch),
        max_depth,
    };
    let mut root = engine.initial(clues);
    if limit > 0
        && search.node()?
        && engine
            .propagate(&mut root, Rules::Full, &mut search.scratch)
            .is_ok()
    {
        search.below(&root, 0)?;
    }
    *scratch = search.scratch;
    Ok((search.found, search.complete, search.work))
}

impl Puzzle {
    /// Up to `limit` solutions, searching at most `budget` nodes (each a
    /// state propagated: the puzzle itself, then each guess).
    ///
    /// # Errors
    /// [`crate::Error::Interrupted`] when `control`'s flag is raised;
    /// [`crate::Error::TooLarge`] when the move graph cannot fit in memory.
    pub fn solutions(&self, limit: usize, budget: u64, control: &Control) -> Result<Solutions> {
        let graph = self.shape.graph()?;
        let engine = Engine::new(self, &graph);
        let mut scratch = engine.scratch();
        let found = search(
            &engine,
            &mut scratch,
            &self.clues,
            limit,
            budget,
            u32::MAX,
            control,
        )?;
        Ok(Solutions {
            tours: found
                .0
                .into_iter()
                .map(|squares| Tour::from_squares_unchecked_on(&self.shape, squares))
                .collect(),
            complete: found.1,
            work: found.2,
            limit,
        })
    }

    /// The puzzle's difficulty by the solver's work on proving its solution
    /// unique (`solutions(2, budget, ..)`, see [`Difficulty`]); `None` when
    /// it has no solution or more than one, or the budget ran out first.
    ///
    /// # Errors
    /// As [`Puzzle::solutions`].
    pub fn grade(&self, budget: u64, control: &Control) -> Result<Option<Difficulty>> {
        let found = self.solutions(2, budget, control)?;
        Ok(found
            .is_unique()
            .then(|| Difficulty::of_depth(found.work.depth)))
    }
}
