//! The position oracle against an independent exhaustive search: every
//! completion passes the one checker, every hint is confirmed, every
//! refusal is confirmed by a plain search that shares no code with the
//! oracle, and following hints always finishes.

mod reasons;

use std::cell::RefCell;
use std::collections::HashSet;

use knights::board::Square;
use knights::check::{check_path_on, Rules};
use knights::play::{Outlook, Position};
use knights::shape::Shape;
use knights::{Control, Kind, Wanted};

/// The oracle's node budget in these tests (of each call).
const BUDGET: u64 = 2_000_000;

/// The moves of a shape of at most 64 squares, computed from the checker's
/// rules (not from the shape's move graph).
struct Plain {
    rules: Rules,
    cols: i64,
    open: Vec<bool>,
    adjacent: Vec<u64>,
    /// The states (visited mask, last square, first square) whose search
    /// failed, for one goal and end square: memoised across positions.
    failed: RefCell<(Wanted, Option<Square>, Failed)>,
}

/// Failed states: visited mask, last square, first square.
type Failed = HashSet<(u64, Square, Square)>;

impl Plain {
    fn new(shape: &Shape) -> Plain {
        let rules = Rules::of(shape);
        let n = (rules.rows * rules.cols) as usize;
        assert!(n <= 64);
        let cols = i64::from(rules.cols);
        let at = |s: usize| (s as i64 / cols, s as i64 % cols);
        let open: Vec<bool> = (0..n).map(|s| !rules.holes.contains(&at(s))).collect();
        let adjacent = (0..n)
            .map(|a| {
                (0..n)
                    .filter(|&b| open[a] && open[b] && rules.is_move(at(a), at(b)))
                    .fold(0u64, |m, b| m | 1 << b)
            })
            .collect();
        Plain {
            rules,
            cols,
            open,
            adjacent,
            failed: RefCell::new((Wanted::Either, None, HashSet::new())),
        }
    }

    fn coords(&self, path: &[Square]) -> Vec<(i64, i64)> {
        path.iter()
            .map(|&s| (i64::from(s) / self.cols, i64::from(s) % self.cols))
            .collect()
    }

    /// Whether `path` is a finished tour of `goal` ending on `end`, by the
    /// one checker.
    fn is_tour(&self, path: &[Square], goal: Wanted, end: Option<Square>) -> bool {
        let Ok(kind) = check_path_on(&self.rules, &self.coords(path), None) else {
            return false;
        };
        goal_takes(goal, kind) && end.is_none_or(|e| path.last() == Some(&e))
    }

    /// Whether `path` can be finished, by a plain exhaustive search (with
    /// a memo of the states that failed, kept across calls of the same
    /// goal and end, and no other cleverness than refusing a square
    /// nothing can enter).
    fn finishable(&self, path: &[Square], goal: Wanted, end: Option<Square>) -> bool {
        let all: u64 = (0..self.open.len())
            .filter(|&s| self.open[s])
            .fold(0, |m, s| m | 1 << s);
        if path.is_empty() {
            return (0..self.open.len() as Square)
                .filter(|&s| self.open[s as usize])
                .any(|s| self.finishable(&[s], goal, end));
        }
        let mask = path.iter().fold(0u64, |m, &s| m | 1 << s);
        let mut memo = self.failed.borrow_mut();
        if (memo.0, memo.1) != (goal, end) {
            *memo = (goal, end, HashSet::new());
        }
        let mut trail = path.to_vec();
        self.extend(&mut trail, mask, all, goal, end, &mut memo.2)
    }

    fn extend(
        &self,
        trail: &mut Vec<Square>,
        mask: u64,
        all: u64,
        goal: Wanted,
        end: Option<Square>,
        failed: &mut Failed,
    ) -> bool {
        let c = *trail.last().unwrap();
        if mask == all {
            let closed = trail.len() > 2 && self.adjacent[c as usize] >> trail[0] & 1 == 1;
            let kind_ok = match goal {
                Wanted::Closed => closed,
                Wanted::Open => !closed,
                Wanted::Either => true,
            };
            return kind_ok && end.is_none_or(|e| e == c);
        }
        if failed.contains(&(mask, c, trail[0])) {
            return false;
        }
        let free = all & !mask;
        let left = free.count_ones();
        let nothing_enters = (0..64).filter(|&u| free >> u & 1 == 1).any(|u| {
            self.adjacent[u] & free == 0 && (self.adjacent[c as usize] >> u & 1 == 0 || left > 1)
        });
        if !nothing_enters {
            let mut moves = self.adjacent[c as usize] & free;
            while moves != 0 {
                let u = moves.trailing_zeros();
                moves &= moves - 1;
                trail.push(u);
                if self.extend(trail, mask | 1 << u, all, goal, end, failed) {
                    return true;
                }
                trail.pop();
            }
        }
        failed.insert((mask, c, trail[0]));
        false
    }
}

/// A position reached by random legal play from the empty path.
pub fn random_position(shape: &Shape, goal: Wanted, end: Option<Square>, seed: u64) -> Position {
    Position::random_play(shape.clone(), goal, end, seed).unwrap()
}

/// Checks `verdict` of `path` against the checker and the plain search;
/// whether it was decided.
fn confirm(
    plain: &Plain,
    path: &[Square],
    goal: Wanted,
    end: Option<Square>,
    verdict: &Outlook,
) -> bool {
    match verdict {
        Outlook::Finishable(rest) => {
            let whole: Vec<Square> = path.iter().chain(rest).copied().collect();
            assert!(
                plain.is_tour(&whole, goal, end),
                "{path:?} + {rest:?} is no {goal} tour"
            );
            true
        }
        Outlook::NotFinishable(reason) => {
            assert!(
                !plain.finishable(path, goal, end),
                "{path:?} ({goal}, end {end:?}) can be finished, but the oracle says: {reason}"
            );
            true
        }
        Outlook::Unknown => false,
    }
}

/// `positions` random positions of `shape`: every verdict and hint
/// confirmed, and at least `percent` of the verdicts decided.
fn exhaustive_share(
    shape: &Shape,
    goal: Wanted,
    end: Option<Square>,
    positions: u64,
    percent: u64,
) {
    let plain = Plain::new(shape);
    let (mut decided, mut judged) = (0u64, 0u64);
    for seed in 0..positions {
        let p = random_position(shape, goal, end, seed);
        let answer = p.judge(BUDGET, &Control::new()).unwrap();
        assert!(answer.nodes <= BUDGET);
        let (verdict, hints) = (answer.verdict, answer.hints);
        decided += u64::from(confirm(&plain, p.path(), goal, end, &verdict));
        judged += 1;
        assert_eq!(hints.len(), p.legal_moves().len());
        if matches!(verdict, Outlook::Finishable(_)) && !p.path().is_empty() {
            assert!(
                hints.iter().any(|h| h.is_safe()),
                "{:?}: finishable but no safe move",
                p.path()
            );
        }
        for h in hints {
            let mut path = p.path().to_vec();
            path.push(h.square);
            decided += u64::from(confirm(&plain, &path, goal, end, &h.verdict));
            judged += 1;
        }
    }
    assert!(
        decided * 100 >= judged * percent,
        "{shape} {goal}: {decided} of {judged} decided"
    );
}

fn shape(text: &str) -> Shape {
    Shape::new(text.parse().unwrap())
}

/// The boards and goals of the exhaustive check: every board from 5x5 to
/// 6x6 (goal either where no closed tour exists), then open goals, end
/// squares and other shapes, with the share of verdicts that must be
/// decided.
fn exhaustive_cases() -> Vec<(Shape, Wanted, Option<Square>, u64)> {
    let holed = Shape::parse_board_text(".....\n..#..\n.....\n.....\n").unwrap();
    let torus = shape("4x5").with_wrap(knights::shape::Wrap::Both);
    let camel = shape("5x6").with_leaper(knights::shape::Leaper::new(1, 3).unwrap());
    // Open goals on the torus are decided only at the last square, so more
    // of them run out of the budget.
    vec![
        (shape("5x5"), Wanted::Either, None, 95),
        (shape("5x6"), Wanted::Closed, None, 95),
        (shape("6x6"), Wanted::Closed, None, 95),
        (shape("6x6"), Wanted::Open, None, 80),
        (shape("5x6"), Wanted::Either, Some(29), 80),
        (shape("6x5"), Wanted::Closed, Some(7), 80),
        (holed, Wanted::Either, None, 80),
        (torus.clone(), Wanted::Closed, None, 80),
        (torus, Wanted::Open, Some(3), 80),
        (camel, Wanted::Either, None, 80),
    ]
}

/// The exhaustive check of the first three cases (the boards from 5x5 to
/// 6x6) from `positions` positions each, and of the others from
/// `others` each.
fn exhaustive_check(positions: u64, others: u64) {
    for (i, (s, goal, end, percent)) in exhaustive_cases().into_iter().enumerate() {
        let count = if i < 3 { positions } else { others };
        exhaustive_share(&s, goal, end, count, percent);
    }
}

#[test]
fn every_verdict_and_hint_is_confirmed_from_random_positions() {
    exhaustive_check(150, 25);
}

/// The acceptance's count: 1,000 positions on every board from 5x5 to 6x6.
#[test]
#[ignore = "minutes: cargo test --release -p knights --test tests -- --ignored play::every_verdict_and_hint_from_1000"]
fn every_verdict_and_hint_from_1000_positions_is_confirmed() {
    exhaustive_check(1000, 150);
}

/// From positions the oracle calls finishable, playing the first safe
/// hint each time finishes a tour of the goal.
fn follow_hints(side: u32, goal: Wanted, positions: u64) {
    let s = shape(&format!("{side}x{side}"));
    let mut followed = 0;
    for seed in 0..positions * 200 {
        let mut p = random_position(&s, goal, None, seed);
        if !matches!(
            p.verdict(BUDGET, &Control::new()).unwrap(),
            Outlook::Finishable(_)
        ) {
            continue;
        }
        while p.left() > 0 {
            let hints = p.hints(BUDGET, &Control::new()).unwrap();
            let safe = hints.iter().find(|h| h.is_safe());
            let safe = safe.unwrap_or_else(|| panic!("{s} {:?}: no safe move", p.path()));
            p.play(safe.square).unwrap();
        }
        assert!(p.is_won(), "{s} {:?}", p.path());
        let kind = p.finished().unwrap();
        assert!(goal_takes(goal, kind));
        followed += 1;
        if followed == positions {
            return;
        }
    }
    assert!(followed > 0, "{s}: no finishable position");
}

#[test]
fn following_hints_finishes_from_5x5_to_10x10() {
    for side in 5..=10 {
        let goal = if side % 2 == 1 {
            Wanted::Either
        } else {
            Wanted::Closed
        };
        follow_hints(side, goal, 2);
    }
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn following_hints_finishes_from_many_positions() {
    for side in 5..=10 {
        for goal in [Wanted::Either, Wanted::Closed, Wanted::Open] {
            follow_hints(side, goal, 40);
        }
    }
}

#[test]
fn a_finished_path_says_its_kind() {
    let tour = knights::Tour::builder("6x6".parse().unwrap())
        .closed()
        .algorithm(knights::algorithms::Construct)
        .build()
        .unwrap();
    let p = Position::new(shape("6x6"), Wanted::Open, None)
        .unwrap()
        .with_path(tour.squares())
        .unwrap();
    assert_eq!(p.finished(), Some(Kind::Closed));
    assert!(!p.is_won());
    let Outlook::NotFinishable(r) = p.verdict(10, &Control::new()).unwrap() else {
        panic!("a closed tour is not open")
    };
    assert_eq!(r.kind(), "finished", "{r}");
}

/// Whether a tour of `kind` meets `goal` (either takes both kinds).
fn goal_takes(goal: Wanted, kind: Kind) -> bool {
    matches!(
        (goal, kind),
        (Wanted::Either, _) | (Wanted::Closed, Kind::Closed) | (Wanted::Open, Kind::Open)
    )
}
