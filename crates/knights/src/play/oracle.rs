//! The oracle: a position's verdict (the construction where it applies,
//! else the cheap proofs at the root and the pruned search).

use super::reason::{At, Outlook, Reason};
use super::search::{far_keys, Cut, Outcome, Search};
use super::table::Failures;
use super::Position;
use crate::board::Square;
use crate::{construct, exists, Control, Error, Kind, Result, Wanted};

impl Position {
    /// Whether the path can be finished to the goal: a completion, a reason
    /// that proves it cannot, or unknown when `budget` search nodes run out.
    ///
    /// # Errors
    /// [`Error::Interrupted`] when `control`'s flag is raised;
    /// [`Error::TooLarge`] when a construction cannot fit in memory.
    pub fn verdict(&self, budget: u64, control: &Control) -> Result<Outlook> {
        let mut failures = self.failures(budget);
        Ok(self.verdict_in(budget, control, &mut failures)?.0)
    }

    /// A table of failures for the searches of this position's goal and
    /// end, sized for `budget` nodes.
    pub(super) fn failures(&self, budget: u64) -> Failures {
        Failures::new(self.graph.len(), self.goal, self.end, budget)
    }

    /// [`Position::verdict`] sharing `failures` with other searches of the
    /// same goal and end, with the search nodes it spent (at most
    /// `budget`).
    pub(super) fn verdict_in(
        &self,
        budget: u64,
        control: &Control,
        failures: &mut Failures,
    ) -> Result<(Outlook, u64)> {
        if self.goal == Wanted::Closed {
            if let (Some(&s), Some(e)) = (self.path.first(), self.end) {
                if !self.graph.adjacent(s, e) {
                    return Ok((
                        Outlook::NotFinishable(Reason::EndNotClosing {
                            end: self.at(e),
                            start: self.at(s),
                        }),
                        0,
                    ));
                }
            }
        }
        if let Some(v) = self.by_construction()? {
            return Ok((v, 0));
        }
        match self.path.first() {
            Some(_) => self.searched(&self.path, budget, control, failures),
            None => self.empty_path(budget, control),
        }
    }

    /// The linear construction, where it applies: a plain board, no end
    /// square, a path of at most one square.
    fn by_construction(&self) -> Result<Option<Outlook>> {
        if !self.shape.is_plain() || self.end.is_some() || self.path.len() > 1 {
            return Ok(None);
        }
        let board = self.shape.board();
        let start = self.path.first().copied();
        let closed_exists = exists::closed_tour(board).exists;
        let closed = match self.goal {
            Wanted::Closed => true,
            Wanted::Either => closed_exists,
            Wanted::Open => false,
        };
        let theorem = if closed {
            exists::closed_tour(board)
        } else {
            exists::open_tour(board)
        };
        if !theorem.exists {
            let kind = if closed { "closed" } else { "open" };
            return Ok(Some(Outlook::NotFinishable(Reason::NoTour(format!(
                "no {kind} tour exists on {board}: {} ({})",
                theorem.reason, theorem.theorem
            )))));
        }
        let built = if closed {
            construct::closed(board, start)
        } else {
            construct::open(board, start)
        };
        match built {
            Ok(tour) => {
                let skip = self.path.len();
                Ok(Some(Outlook::Finishable(tour.squares()[skip..].to_vec())))
            }
            Err(Error::NoTour(sentence)) => Ok(Some(Outlook::NotFinishable(Reason::NoTour(
                sentence.text().to_string(),
            )))),
            Err(e @ Error::TooLarge { .. }) => Err(e),
            Err(_) => Ok(None),
        }
    }

    /// The empty path: the cheap proofs on the whole board, then a search
    /// from each start in turn (from the end square, reversed, when given;
    /// from one square for a closed tour).
    fn empty_path(&self, budget: u64, control: &Control) -> Result<(Outlook, u64)> {
        if let Some(reason) = self.whole_board_reason() {
            return Ok((Outlook::NotFinishable(reason), 0));
        }
        let g = &self.graph;
        let mut starts: Vec<Square> = match self.end {
            Some(e) => vec![e],
            None => self.legal_moves(),
        };
        starts.sort_by_key(|&s| (g.degree(s), s));
        if self.goal == Wanted::Closed {
            starts.truncate(1);
        }
        let (mut nodes, mut unknown) = (0u64, false);
        let from = Position {
            end: None,
            ..self.clone()
        };
        let mut failures = from.failures(budget);
        for s in starts {
            let left = budget.saturating_sub(nodes);
            let (verdict, spent) = from.searched(&[s], left, control, &mut failures)?;
            nodes += spent.max(1);
            match verdict {
                Outlook::Finishable(rest) => {
                    let mut tour = vec![s];
                    tour.extend(rest);
                    if self.end.is_some() {
                        tour.reverse();
                    }
                    return Ok((Outlook::Finishable(tour), nodes.min(budget)));
                }
                Outlook::NotFinishable(_) => {}
                Outlook::Unknown => unknown = true,
            }
            if nodes >= budget {
                unknown = true;
                break;
            }
        }
        let nodes = nodes.min(budget);
        Ok(if unknown {
            (Outlook::Unknown, nodes)
        } else {
            (Outlook::NotFinishable(Reason::Searched { nodes }), nodes)
        })
    }

    /// A proof on the whole board that no tour of the goal exists: a square
    /// without moves, too many squares of one move, parts, colours.
    fn whole_board_reason(&self) -> Option<Reason> {
        let g = &self.graph;
        let squares = self.legal_moves();
        if squares.len() == 1 {
            return None;
        }
        let closed = self.goal == Wanted::Closed;
        if let Some(&s) = squares.iter().find(|&&s| g.degree(s) == 0) {
            return Some(Reason::Unreachable { square: self.at(s) });
        }
        let ones: Vec<Square> = squares
            .iter()
            .copied()
            .filter(|&s| g.degree(s) == 1)
            .collect();
        if (closed && !ones.is_empty()) || ones.len() > 2 {
            let (first, second) = (ones[0], ones.get(1).copied().unwrap_or(ones[0]));
            return Some(if closed {
                Reason::OneMove {
                    square: self.at(first),
                }
            } else {
                Reason::DeadEnds {
                    first: self.at(first),
                    second: self.at(second),
                }
            });
        }
        if let Some(c) = &self.colours {
            let light = squares.iter().filter(|&&s| c[s as usize] == 0).count();
            let dark = squares.len() - light;
            if light.abs_diff(dark) > 1 || (closed && light != dark) {
                return Some(Reason::Colours {
                    at: None,
                    same: light,
                    other: dark,
                });
            }
        } else if let Some(s) = self.unconnected(&squares) {
            return Some(Reason::Split {
                square: self.at(s),
                from: None,
            });
        }
        None
    }

    /// A square not reached from the first of `squares`, if any.
    fn unconnected(&self, squares: &[Square]) -> Option<Square> {
        let mut seen = vec![false; self.graph.len()];
        let mut queue = vec![squares[0]];
        seen[squares[0] as usize] = true;
        while let Some(s) = queue.pop() {
            for &t in self.graph.neighbours(s) {
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    queue.push(t);
                }
            }
        }
        squares.iter().copied().find(|&s| !seen[s as usize])
    }

    /// The verdict of `path` (not empty) by the cheap proofs at its root
    /// and then the search, with the nodes it spent.
    fn searched(
        &self,
        path: &[Square],
        budget: u64,
        control: &Control,
        failures: &mut Failures,
    ) -> Result<(Outlook, u64)> {
        if !failures.serves(self.goal, self.end) {
            return self.searched(path, budget, control, &mut self.failures(budget));
        }
        let board = self.shape.board();
        let open: Vec<bool> = (0..board.squares() as Square)
            .map(|s| !self.shape.is_hole(s))
            .collect();
        let far = far_keys(board.rows(), board.cols());
        let mut search = Search::new(
            &self.graph,
            &open,
            self.colours.as_deref(),
            &far,
            path,
            self.goal,
            self.end,
            budget,
            failures,
        );
        let c = *path.last().expect("a path that is not empty");
        if let Some(cut) = search.cut(c, true) {
            let reason = self.explain(&mut search, path, cut);
            return Ok((Outlook::NotFinishable(reason), 0));
        }
        let outlook = match search.run(c, control)? {
            Outcome::Found => Outlook::Finishable(std::mem::take(&mut search.trail)),
            Outcome::Exhausted => Outlook::NotFinishable(Reason::Searched {
                nodes: search.nodes,
            }),
            Outcome::OutOfBudget => Outlook::Unknown,
        };
        Ok((outlook, search.nodes.min(budget)))
    }

    /// The reason of a cut at the root, naming its squares.
    fn explain(&self, search: &mut Search<'_>, path: &[Square], cut: Cut) -> Reason {
        let g = &self.graph;
        let c = *path.last().expect("a path");
        let start = self.at(path[0]);
        let left = self.shape.squares() - path.len();
        let free: Vec<Square> = (0..g.len() as Square)
            .filter(|&q| search.is_free(q))
            .collect();
        let near = |q: Square| g.adjacent(q, c);
        let end = || self.at(self.end.expect("an end square"));
        match cut {
            Cut::Stuck => Reason::Stuck {
                at: self.at(c),
                left,
            },
            Cut::Unreachable => {
                let q = free.iter().find(|&&q| search.onward(q) == 0 && !near(q));
                Reason::Unreachable {
                    square: self.at(*q.expect("an unreachable square")),
                }
            }
            Cut::Trapped => {
                let q = free.iter().find(|&&q| search.onward(q) == 0 && near(q));
                Reason::Trapped {
                    square: self.at(*q.expect("a trapped square")),
                    left,
                }
            }
            Cut::DeadEnds => {
                let dead: Vec<Square> = free
                    .iter()
                    .copied()
                    .filter(|&q| search.onward(q) + u8::from(near(q)) <= 1)
                    .take(2)
                    .collect();
                Reason::DeadEnds {
                    first: self.at(dead[0]),
                    second: self.at(dead[1]),
                }
            }
            Cut::DeadEndNotEnd(d) => Reason::DeadEndNotEnd {
                square: self.at(d),
                end: end(),
            },
            Cut::DeadEndNotClosing(d) => Reason::DeadEndNotClosing {
                square: self.at(d),
                start,
            },
            Cut::Colours => {
                let colours = self.colours.as_deref().expect("colours");
                let mine = colours[c as usize];
                let same = free
                    .iter()
                    .filter(|&&q| colours[q as usize] == mine)
                    .count();
                Reason::Colours {
                    at: Some(self.at(c)),
                    same,
                    other: free.len() - same,
                }
            }
            Cut::ColourEnd | Cut::ColourClose => Reason::WrongColourEnd {
                at: self.at(c),
                left,
                target: if cut == Cut::ColourClose {
                    start
                } else {
                    end()
                },
                closing: cut == Cut::ColourClose,
            },
            Cut::ClosingCutOff => Reason::ClosingCutOff { start },
            Cut::EndTaken => Reason::EndTaken { end: end() },
            Cut::Split => {
                let q = search.unreached(c).expect("an unreached square");
                Reason::Split {
                    square: self.at(q),
                    from: Some(self.at(c)),
                }
            }
            Cut::WrongKind => {
                let closed = path.len() > 2 && g.adjacent(c, path[0]);
                let (found, wanted) = if closed {
                    (Kind::Closed, Kind::Open)
                } else {
                    (Kind::Open, Kind::Closed)
                };
                Reason::WrongKind { found, wanted }
            }
            Cut::WrongEnd => Reason::WrongEnd {
                last: self.at(c),
                end: end(),
            },
        }
    }

    /// Square `s` named by row and column.
    pub(super) fn at(&self, s: Square) -> At {
        At::of(self.shape.board(), s)
    }
}
