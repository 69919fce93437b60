//! The oracle: a position's verdict (the construction where it applies,
//! else the cheap proofs at the root and the pruned search) and the hints
//! (every legal next square judged the same way).

use serde::Serialize;

use super::reason::{At, Outlook, Reason};
use super::search::{far_keys, Cut, Outcome, Search};
use super::Position;
use crate::board::Square;
use crate::{construct, exists, Control, Error, Kind, Result, Wanted};

/// One legal next square and what the oracle knows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveHint {
    /// The square.
    pub square: Square,
    /// Its unvisited neighbours once it is played (its onward moves).
    pub onward: usize,
    /// The verdict of the position after it: finishable (a safe move, with
    /// the completion after it), not finishable, or unknown.
    pub verdict: Outlook,
}

impl MoveHint {
    /// Whether the move is known to keep a finish.
    pub fn is_safe(&self) -> bool {
        matches!(self.verdict, Outlook::Finishable(_))
    }
}

/// A hint as answers write it: the square, its onward moves, `safe`,
/// `losing` (with the reason) or `unknown`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct HintLine {
    /// The square, row-major.
    pub square: Square,
    /// The square's row.
    pub row: u32,
    /// The square's column.
    pub col: u32,
    /// Its onward moves.
    pub onward: usize,
    /// `safe`, `losing` or `unknown`.
    pub status: &'static str,
    /// Why the move loses, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Position {
    /// Whether the path can be finished to the goal: a completion, a reason
    /// that proves it cannot, or unknown when `budget` search nodes run out.
    ///
    /// # Errors
    /// [`Error::Interrupted`] when `control`'s flag is raised;
    /// [`Error::TooLarge`] when a construction cannot fit in memory.
    pub fn verdict(&self, budget: u64, control: &Control) -> Result<Outlook> {
        if self.goal == Wanted::Closed {
            if let (Some(&s), Some(e)) = (self.path.first(), self.end) {
                if !self.graph.adjacent(s, e) {
                    return Ok(Outlook::NotFinishable(Reason::EndNotClosing {
                        end: self.at(e),
                        start: self.at(s),
                    }));
                }
            }
        }
        if let Some(v) = self.by_construction()? {
            return Ok(v);
        }
        match self.path.first() {
            Some(_) => self.searched(&self.path, budget, control),
            None => self.empty_path(budget, control),
        }
    }

    /// Every legal next square with its verdict, safe moves first (fewest
    /// onward moves first among them), then unknown, then losing ones.
    ///
    /// # Errors
    /// As [`Position::verdict`].
    pub fn hints(&self, budget: u64, control: &Control) -> Result<Vec<MoveHint>> {
        let moves = self.legal_moves();
        let mut hints = Vec::with_capacity(moves.len());
        let shared = if self.path.is_empty() {
            self.rotations(budget, control)?
        } else {
            None
        };
        for s in moves {
            let mut next = self.clone();
            next.play(s)?;
            let verdict = match &shared {
                Some(tour) => Outlook::Finishable(rotated(tour, s)),
                None => next.verdict(budget, control)?,
            };
            let onward = next.legal_moves().len();
            hints.push(MoveHint {
                square: s,
                onward,
                verdict,
            });
        }
        let rank = |h: &MoveHint| match h.verdict {
            Outlook::Finishable(_) => 0,
            Outlook::Unknown => 1,
            Outlook::NotFinishable(_) => 2,
        };
        hints.sort_by_key(|h| (rank(h), h.onward, h.square));
        Ok(hints)
    }

    /// The hint as answers write it.
    pub fn hint_line(&self, hint: &MoveHint) -> HintLine {
        let (status, reason) = match &hint.verdict {
            Outlook::Finishable(_) => ("safe", None),
            Outlook::NotFinishable(r) => ("losing", Some(r.to_string())),
            Outlook::Unknown => ("unknown", None),
        };
        let at = self.at(hint.square);
        HintLine {
            square: hint.square,
            row: at.row,
            col: at.col,
            onward: hint.onward,
            status,
            reason,
        }
    }

    /// For the empty path with a closed goal (or either) and no end square:
    /// one closed tour, whose rotations finish from every square.
    fn rotations(&self, budget: u64, control: &Control) -> Result<Option<Vec<Square>>> {
        if self.end.is_some() || self.goal == Wanted::Open {
            return Ok(None);
        }
        let closed = Position {
            goal: Wanted::Closed,
            ..self.clone()
        };
        Ok(match closed.verdict(budget, control)? {
            Outlook::Finishable(tour) => Some(tour),
            _ => None,
        })
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
    fn empty_path(&self, budget: u64, control: &Control) -> Result<Outlook> {
        if let Some(reason) = self.whole_board_reason() {
            return Ok(Outlook::NotFinishable(reason));
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
        for s in starts {
            let goal = self.goal;
            let from = Position {
                end: None,
                goal,
                ..self.clone()
            };
            match from.searched(&[s], budget.saturating_sub(nodes), control)? {
                Outlook::Finishable(rest) => {
                    let mut tour = vec![s];
                    tour.extend(rest);
                    if self.end.is_some() {
                        tour.reverse();
                    }
                    return Ok(Outlook::Finishable(tour));
                }
                Outlook::NotFinishable(Reason::Searched { nodes: n }) => nodes += n,
                Outlook::NotFinishable(_) => nodes += 1,
                Outlook::Unknown => {
                    unknown = true;
                    nodes = budget;
                }
            }
            if nodes >= budget {
                unknown = true;
                break;
            }
        }
        Ok(if unknown {
            Outlook::Unknown
        } else {
            Outlook::NotFinishable(Reason::Searched { nodes })
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
    /// and then the search.
    fn searched(&self, path: &[Square], budget: u64, control: &Control) -> Result<Outlook> {
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
        );
        let c = *path.last().expect("a path that is not empty");
        if let Some(cut) = search.cut(c, true) {
            return Ok(Outlook::NotFinishable(self.explain(&mut search, path, cut)));
        }
        Ok(match search.run(c, control)? {
            Outcome::Found => Outlook::Finishable(std::mem::take(&mut search.trail)),
            Outcome::Exhausted => Outlook::NotFinishable(Reason::Searched {
                nodes: search.nodes,
            }),
            Outcome::OutOfBudget => Outlook::Unknown,
        })
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
    fn at(&self, s: Square) -> At {
        At::of(self.shape.board(), s)
    }
}

/// The closed tour `tour` rotated to start at `s`, without `s`.
fn rotated(tour: &[Square], s: Square) -> Vec<Square> {
    let i = tour.iter().position(|&q| q == s).unwrap_or(0);
    tour[i + 1..].iter().chain(&tour[..i]).copied().collect()
}
