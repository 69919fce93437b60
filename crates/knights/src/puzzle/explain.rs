//! One deduction at a time, with its reason: the engine's rules run in
//! stages on the player's grid (reach first, then every rule, then play's
//! proofs on a numbered prefix, then a one-level trial), and the first
//! number a stage forces is told in one sentence naming its squares.

use super::engine::{Dead, Engine, Rules, Scratch};
use super::solve::{Deduction, NextStep};
use super::Puzzle;
use crate::board::Square;
use crate::play::{At, Outlook, Position};
use crate::{Control, Error, Result, Wanted};

/// The engine with the names it needs for its sentences.
struct Teller<'a> {
    puzzle: &'a Puzzle,
    engine: Engine,
    /// Where each step was placed by the player (or given).
    placed: Vec<Option<Square>>,
}

impl Teller<'_> {
    fn at(&self, s: Square) -> At {
        At::of(self.puzzle.shape().board(), s)
    }

    /// Step `k` as the puzzle writes it.
    fn number(&self, k: usize) -> u32 {
        k as u32 + self.puzzle.base()
    }

    /// "a knight's move", or the leaper's.
    fn a_move(&self) -> String {
        let leaper = self.puzzle.shape().leaper();
        if leaper == crate::shape::Leaper::default() {
            "a knight's move".into()
        } else {
            format!("a ({leaper}) leaper's move")
        }
    }

    fn dead(&self, dead: Dead) -> String {
        match dead {
            Dead::NoSquare(k) => format!("no square is left for {}", self.number(k as usize)),
            Dead::NoNumber(s) => format!("no number is left for {}", self.at(s)),
            Dead::Taken(a, b, s) => format!(
                "{} and {} would both have to be on {}",
                self.number(a as usize),
                self.number(b as usize),
                self.at(s)
            ),
            Dead::Colours(big, small) => format!(
                "numbers alternate colours, so they cannot cover {big} squares of one colour and {small} of the other"
            ),
        }
    }

    /// Two consecutive numbers placed but not a move apart.
    fn broken_link(&self) -> Option<String> {
        let n = self.engine.n;
        let links = (1..n).map(|k| (k - 1, k));
        let wrap = (self.puzzle.closed() && n > 2).then_some((n - 1, 0));
        for (a, b) in links.chain(wrap) {
            if let (Some(p), Some(q)) = (self.placed[a], self.placed[b]) {
                if !self.engine.adjacent(p, q) {
                    return Some(format!(
                        "{} on {} is not {} from {} on {}",
                        self.number(b),
                        self.at(q),
                        self.a_move(),
                        self.number(a),
                        self.at(p)
                    ));
                }
            }
        }
        None
    }

    /// The first step fixed in `st` that the player has not placed, with
    /// the reason its stage gives.
    fn forced(&self, st: &[u64], rules: Rules) -> Option<Deduction> {
        let e = &self.engine;
        let blank: Vec<(usize, Square)> = (0..e.n)
            .filter(|&k| self.placed[k].is_none())
            .filter_map(|k| e.only(st, k).map(|s| (k, s)))
            .collect();
        for &(k, s) in &blank {
            let (prev, next) = (k.checked_sub(1), (k + 1 < e.n).then_some(k + 1));
            for side in [prev, next].into_iter().flatten() {
                if let Some(p) = self.placed[side] {
                    return Some(self.deduce(k, s, format!(
                        "{} must be on {}: it is the only square {} from {} on {} that can still hold it",
                        self.number(k), self.at(s), self.a_move(), self.number(side), self.at(p)
                    )));
                }
            }
        }
        for &(k, s) in &blank {
            if e.steps_of(st, s).count() == 1 && rules == Rules::Full {
                let reason = format!(
                    "{} must hold {}: no other number can be there",
                    self.at(s),
                    self.number(k)
                );
                return Some(self.deduce(k, s, reason));
            }
        }
        let &(k, s) = blank.first()?;
        let below = (0..k).rev().find_map(|j| self.placed[j].map(|p| (j, p)));
        let above = (k + 1..e.n).find_map(|j| self.placed[j].map(|p| (j, p)));
        let around: Vec<String> = [below, above]
            .into_iter()
            .flatten()
            .map(|(j, p)| {
                format!(
                    "{} moves from {} on {}",
                    j.abs_diff(k),
                    self.number(j),
                    self.at(p)
                )
            })
            .collect();
        let why = if rules == Rules::Reach && !around.is_empty() {
            format!(
                "no other free square is a path of {} through free squares",
                around.join(" and ")
            )
        } else {
            "every other square is ruled out by the numbers' reach, the squares only one number can take and the colours".into()
        };
        Some(self.deduce(
            k,
            s,
            format!("{} must be on {}: {why}", self.number(k), self.at(s)),
        ))
    }

    fn deduce(&self, k: usize, s: Square, reason: String) -> Deduction {
        Deduction {
            square: s,
            step: k as u32,
            reason,
        }
    }

    /// Play's proofs on the numbers placed from the first as a path.
    fn prefix_proof(&self, budget: u64, control: &Control) -> Result<Option<String>> {
        let path: Vec<Square> = self.placed.iter().map_while(|p| *p).collect();
        if path.len() < 2 || path.len() == self.engine.n {
            return Ok(None);
        }
        let goal = if self.puzzle.closed() {
            Wanted::Closed
        } else {
            Wanted::Either
        };
        let position = Position::new(self.puzzle.shape().clone(), goal, None)?.with_path(&path)?;
        Ok(match position.verdict(budget, control)? {
            Outlook::NotFinishable(reason) => Some(format!(
                "the numbers {} to {} cannot be finished: {reason}",
                self.number(0),
                self.number(path.len() - 1)
            )),
            _ => None,
        })
    }

    /// One level of trial: for the unfixed steps with fewest squares
    /// first, each square tried and propagated.
    fn trial(&self, st: &[u64], budget: u64, control: &Control) -> Result<Option<NextStep>> {
        let e = &self.engine;
        let mut steps: Vec<(u32, usize)> = (0..e.n)
            .map(|k| (e.size(st, k), k))
            .filter(|&(size, _)| size > 1)
            .collect();
        steps.sort_unstable();
        let mut sc = e.scratch();
        let mut child = Vec::with_capacity(st.len());
        let mut nodes = 0u64;
        for (_, k) in steps {
            let mut alive = Vec::new();
            for s in super::engine::bits(e.step(st, k)) {
                nodes += 1;
                if nodes > budget {
                    return Ok(None);
                }
                if nodes.is_multiple_of(1024) {
                    control.check("the puzzle's deduction")?;
                }
                child.clear();
                child.extend_from_slice(st);
                e.fix(&mut child, k, s);
                if e.propagate(&mut child, Rules::Full, &mut sc).is_ok() {
                    alive.push(s);
                }
            }
            match alive[..] {
                [] => {
                    return Ok(Some(NextStep::Contradiction(format!(
                        "every square left for {} leads to a contradiction",
                        self.number(k)
                    ))))
                }
                [s] => {
                    return Ok(Some(NextStep::Deduction(self.deduce(
                        k,
                        s,
                        format!(
                            "{} must be on {}: every other square for {} leads to a contradiction",
                            self.number(k),
                            self.at(s),
                            self.number(k)
                        ),
                    ))))
                }
                _ => {}
            }
        }
        Ok(None)
    }
}

impl Puzzle {
    /// The next deduction from `filled` (one entry per square of the board,
    /// as [`Puzzle::clues`]: the clues and the numbers placed so far),
    /// searching at most `budget` nodes: the first number the solver's
    /// rules force with its reason, a contradiction with its reason when
    /// the numbers placed cannot all be right, [`NextStep::Solved`] when the
    /// grid is a solution, or [`NextStep::Stuck`].
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
    ) -> Result<NextStep> {
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
        let graph = self.shape.graph()?;
        let mut placed = vec![None; self.cells()];
        for (s, f) in filled.iter().enumerate() {
            if let Some(k) = f {
                placed[*k as usize] = Some(s as Square);
            }
        }
        let teller = Teller {
            puzzle: self,
            engine: Engine::new(self, &graph),
            placed,
        };
        if let Some(why) = teller.broken_link() {
            return Ok(NextStep::Contradiction(why));
        }
        if with.given() == self.cells() {
            return Ok(Self::finished(&with));
        }
        teller.step(&with, budget, control)
    }

    /// The verdict on a grid with every square numbered.
    fn finished(with: &Puzzle) -> NextStep {
        let mut squares = vec![0; with.cells()];
        for (s, f) in with.clues().iter().enumerate() {
            if let Some(k) = f {
                squares[*k as usize] = s as Square;
            }
        }
        let tour = crate::Tour::from_squares_unchecked_on(with.shape(), squares);
        if with.is_solved_by(&tour) {
            NextStep::Solved
        } else {
            NextStep::Contradiction("the numbering is not a tour of this puzzle's kind".into())
        }
    }
}

impl Teller<'_> {
    /// The stages after the direct checks.
    fn step(&self, with: &Puzzle, budget: u64, control: &Control) -> Result<NextStep> {
        let e = &self.engine;
        let mut sc: Scratch = e.scratch();
        let mut st = e.initial(with.clues());
        for rules in [Rules::Reach, Rules::Full] {
            if let Err(dead) = e.propagate(&mut st, rules, &mut sc) {
                return Ok(NextStep::Contradiction(self.dead(dead)));
            }
            if let Some(d) = self.forced(&st, rules) {
                return Ok(NextStep::Deduction(d));
            }
        }
        if let Some(why) = self.prefix_proof(budget.min(20_000), control)? {
            return Ok(NextStep::Contradiction(why));
        }
        Ok(self.trial(&st, budget, control)?.unwrap_or(NextStep::Stuck))
    }
}
