//! The solver: every solution of a puzzle up to a limit, under a node
//! budget and a [`Control`], and one deduction at a time with its reason.
//!
//! FOUNDATION: a plain search in step order; the propagation engine
//! replaces it.

use serde::Serialize;

use super::Puzzle;
use crate::board::Square;
use crate::{Control, Error, Result, Tour};

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
}

impl Solutions {
    /// Whether the puzzle is proved to have exactly one solution.
    pub fn is_unique(&self) -> bool {
        self.tours.len() == 1 && self.complete
    }
}

/// One step of reasoning from a partly filled grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
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

impl Puzzle {
    /// Up to `limit` solutions, searching at most `budget` nodes.
    ///
    /// # Errors
    /// [`Error::Interrupted`] when `control`'s flag is raised.
    pub fn solutions(&self, limit: usize, budget: u64, control: &Control) -> Result<Solutions> {
        let graph = self.shape.graph()?;
        let n = self.cells();
        let mut at = vec![None; n];
        for (s, c) in self.clues.iter().enumerate() {
            if let Some(c) = c {
                at[*c as usize] = Some(s as Square);
            }
        }
        let mut out = Solutions {
            tours: Vec::new(),
            complete: true,
            work: Work::default(),
        };
        let mut used = vec![false; self.clues.len()];
        let mut path = Vec::with_capacity(n);
        let starts: Vec<Square> = match at.first().copied().flatten() {
            Some(s) => vec![s],
            None => (0..self.clues.len() as Square)
                .filter(|&s| !self.shape.is_hole(s) && self.clues[s as usize].is_none())
                .collect(),
        };
        for s in starts {
            used[s as usize] = true;
            path.push(s);
            self.extend(
                &graph, &at, &mut used, &mut path, limit, budget, control, &mut out,
            )?;
            path.pop();
            used[s as usize] = false;
            if out.tours.len() >= limit || !out.complete {
                break;
            }
        }
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        graph: &crate::shape::Graph,
        at: &[Option<Square>],
        used: &mut [bool],
        path: &mut Vec<Square>,
        limit: usize,
        budget: u64,
        control: &Control,
        out: &mut Solutions,
    ) -> Result<()> {
        out.work.nodes += 1;
        if out.work.nodes > budget {
            out.complete = false;
            return Ok(());
        }
        if out.work.nodes % 4096 == 0 {
            control.check("the puzzle's search")?;
        }
        let k = path.len();
        let last = *path.last().expect("a path");
        if k == at.len() {
            if !self.closed || graph.adjacent(last, path[0]) {
                out.tours
                    .push(Tour::from_squares_unchecked_on(&self.shape, path.clone()));
            }
            return Ok(());
        }
        for &q in graph.neighbours(last) {
            let fits = match at[k] {
                Some(c) => c == q,
                None => self.clues[q as usize].is_none(),
            };
            if !fits || used[q as usize] {
                continue;
            }
            used[q as usize] = true;
            path.push(q);
            self.extend(graph, at, used, path, limit, budget, control, out)?;
            path.pop();
            used[q as usize] = false;
            if out.tours.len() >= limit || !out.complete {
                break;
            }
        }
        Ok(())
    }

    /// The next deduction from `filled` (one entry per square of the board,
    /// as [`Puzzle::clues`]: the clues and the numbers placed so far),
    /// searching at most `budget` nodes.
    ///
    /// # Errors
    /// [`Error::Board`] when `filled` does not fit the puzzle (another
    /// length, a clue changed, a number on a hole, out of range or twice);
    /// [`Error::Interrupted`] when `control`'s flag is raised.
    pub fn next_step(
        &self,
        filled: &[Option<u32>],
        budget: u64,
        control: &Control,
    ) -> Result<Step> {
        let with = Puzzle::new(self.shape.clone(), self.closed, filled.to_vec())?;
        if let Some(s) = self
            .clues
            .iter()
            .zip(filled)
            .position(|(c, f)| c.is_some() && c != f)
        {
            return Err(Error::Board(
                format!(
                    "{} is a given square; its number cannot change",
                    self.shape.name(s as Square)
                )
                .into(),
            ));
        }
        let found = with.solutions(2, budget, control)?;
        if found.tours.is_empty() {
            return Ok(if found.complete {
                Step::Contradiction(
                    "the numbers so far cannot all be right: no numbering finishes them".into(),
                )
            } else {
                Step::Stuck
            });
        }
        if with.given() == self.cells() {
            return Ok(Step::Solved);
        }
        if found.tours.len() > 1 {
            return Ok(Step::Stuck);
        }
        let tour = &found.tours[0];
        let (i, &s) = tour
            .squares()
            .iter()
            .enumerate()
            .find(|(_, &s)| filled[s as usize].is_none())
            .expect("a blank square");
        Ok(Step::Deduction(Deduction {
            square: s,
            step: i as u32,
            reason: "the only numbering that finishes the grid puts it there".into(),
        }))
    }
}
