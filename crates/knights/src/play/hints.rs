//! The hints: the position's verdict and every legal next square's, under
//! one node budget for the whole call. The position is judged first, and
//! the first square of its completion is a safe move at no cost; every
//! other move is tried against the cheap proofs (a losing move at no
//! search cost), and only the moves left are searched, each with a share
//! of the nodes still unspent. All the searches of a call share one table
//! of failures, so a sub-position proven unfinishable once is not searched
//! again.

use serde::Serialize;

use super::reason::Outlook;
use super::Position;
use crate::board::Square;
use crate::{Control, Result, Wanted};

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

/// A position judged with its moves: what [`Position::judge`] answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The position's verdict.
    pub verdict: Outlook,
    /// Every legal next square with its verdict.
    pub hints: Vec<MoveHint>,
    /// The search nodes spent, at most the budget.
    pub nodes: u64,
}

impl Position {
    /// Every legal next square with its verdict, as [`Position::judge`]
    /// gives them.
    ///
    /// # Errors
    /// As [`Position::verdict`].
    pub fn hints(&self, budget: u64, control: &Control) -> Result<Vec<MoveHint>> {
        Ok(self.judge(budget, control)?.hints)
    }

    /// The position's verdict and every legal next square with its own,
    /// within `budget` search nodes for the whole call (a move not judged
    /// within it is unknown, never safe). The hints come safe moves first
    /// (fewest onward moves first among them), then unknown, then losing
    /// ones. The same position and budget give the same answer on every
    /// machine: the budget counts nodes, not time.
    ///
    /// # Errors
    /// As [`Position::verdict`].
    pub fn judge(&self, budget: u64, control: &Control) -> Result<Judgement> {
        let mut failures = self.failures(budget);
        let (verdict, spent) = self.verdict_in(budget, control, &mut failures)?;
        let mut left = budget.saturating_sub(spent);
        let shared = if self.path.is_empty() {
            let (tour, spent) = self.rotations(left, control)?;
            left = left.saturating_sub(spent);
            tour
        } else {
            None
        };
        let first = match &verdict {
            Outlook::Finishable(rest) if !self.path.is_empty() => rest.split_first(),
            _ => None,
        };
        let mut hints = Vec::new();
        let mut pending = Vec::new();
        for s in self.legal_moves() {
            let mut next = self.clone();
            next.play(s)?;
            let onward = next.legal_moves().len();
            let known = match (&shared, first) {
                (Some(tour), _) => Outlook::Finishable(rotated(tour, s)),
                (None, Some((&f, rest))) if f == s => Outlook::Finishable(rest.to_vec()),
                _ => next.verdict_in(0, control, &mut failures)?.0,
            };
            if known == Outlook::Unknown {
                pending.push((onward, s, next));
            } else {
                hints.push(MoveHint {
                    square: s,
                    onward,
                    verdict: known,
                });
            }
        }
        pending.sort_by_key(|&(onward, s, _)| (onward, s));
        let count = pending.len() as u64;
        for (i, (onward, s, next)) in pending.into_iter().enumerate() {
            let share = left / (count - i as u64);
            let (verdict, spent) = next.verdict_in(share, control, &mut failures)?;
            left = left.saturating_sub(spent);
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
        Ok(Judgement {
            verdict,
            hints,
            nodes: budget - left,
        })
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
    /// one closed tour, whose rotations finish from every square, within
    /// `budget` nodes, with the nodes spent.
    fn rotations(&self, budget: u64, control: &Control) -> Result<(Option<Vec<Square>>, u64)> {
        if self.end.is_some() || self.goal == Wanted::Open {
            return Ok((None, 0));
        }
        let closed = Position {
            goal: Wanted::Closed,
            ..self.clone()
        };
        let mut failures = closed.failures(budget);
        Ok(match closed.verdict_in(budget, control, &mut failures)? {
            (Outlook::Finishable(tour), spent) => (Some(tour), spent),
            (_, spent) => (None, spent),
        })
    }
}

/// The closed tour `tour` rotated to start at `s`, without `s`.
fn rotated(tour: &[Square], s: Square) -> Vec<Square> {
    let i = tour.iter().position(|&q| q == s).unwrap_or(0);
    tour[i + 1..].iter().chain(&tour[..i]).copied().collect()
}
