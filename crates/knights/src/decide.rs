//! Whether a tour exists for any request: the plain board's theorems
//! ([`crate::exists`]), given start and end squares on the plain board
//! ([`crate::endpoints`]), and on boards with holes, wrapping or another
//! leaper quick necessary conditions (colour, lattice, degrees,
//! connectedness, the two colour classes) followed by an exhaustive search
//! under a node budget, whose answer is "unknown" when the budget runs out.
//!
//! # Example
//! ```
//! use knights::{algorithms::Spec, decide::{decide, Answer}, shape::{Shape, Wrap, Leaper}};
//! let torus = Spec { kind: Some(knights::Kind::Closed), ..Spec::on(Shape::new("4x4".parse()?).with_wrap(Wrap::Both)) };
//! assert_eq!(decide(&torus, 1_000_000)?.answer, Answer::Yes);
//! let camel = Spec::on(Shape::new("8x8".parse()?).with_leaper(Leaper::new(1, 3)?));
//! let d = decide(&camel, 1_000_000)?;
//! assert_eq!(d.answer, Answer::No);
//! assert!(d.reason.contains("colour"));
//! # Ok::<(), knights::Error>(())
//! ```

use std::collections::VecDeque;
use std::fmt;

use crate::algorithms::general::{self, Outcome};
use crate::algorithms::Spec;
use crate::board::Square;
use crate::shape::{Graph, Shape};
use crate::{endpoints, exists, Error, Kind, Result, Tour};

/// Yes, no, or unknown (the search's budget ran out).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A tour exists (by a theorem, or one was found).
    Yes,
    /// None exists (by a theorem, a necessary condition, or an exhaustive search).
    No,
    /// The search ran out of its budget.
    Unknown,
}

impl Answer {
    /// `yes`, `no` or `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            Answer::Yes => "yes",
            Answer::No => "no",
            Answer::Unknown => "unknown",
        }
    }
}

/// An answer with its grounds, and the tour when a search found one.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The answer.
    pub answer: Answer,
    /// Why, in a sentence or two.
    pub reason: String,
    /// The tour that proves a yes found by search or construction.
    pub tour: Option<Tour>,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.answer.word(), self.reason)
    }
}

fn decision(answer: Answer, reason: String) -> Decision {
    Decision {
        answer,
        reason,
        tour: None,
    }
}

/// Whether a tour as `spec` asks exists (kind, start, end, shape), with
/// an exhaustive search of at most `max_nodes` squares placed where no
/// theorem or necessary condition decides.
///
/// # Errors
/// [`Error::Board`] for a start or end off the board or on a hole;
/// [`Error::TooLarge`] when the move graph cannot fit in memory.
pub fn decide(spec: &Spec, max_nodes: u64) -> Result<Decision> {
    if spec.is_plain() && spec.start.is_none() {
        return Ok(plain(spec));
    }
    if let Err(e) = quick_refusal(spec) {
        return match e {
            Error::NoTour(reason) => Ok(decision(Answer::No, reason)),
            e => Err(e),
        };
    }
    if spec.shape.is_plain() {
        if let (Some(s), Some(t)) = (spec.start, spec.end) {
            let d = endpoints::existence(spec.board, s, t);
            if d.answer != Answer::Unknown {
                return Ok(d);
            }
        } else if spec.start.is_some() {
            // A start alone on the plain board: the construction (with
            // Warnsdorff's rule for the starts it cannot use) decides.
            use crate::algorithms::TourGenerator;
            match crate::algorithms::Auto.generate(spec, &mut crate::rng::seeded(0)) {
                Ok(tour) => {
                    return Ok(Decision {
                        answer: Answer::Yes,
                        reason: format!(
                            "the construction makes a {} tour of {} from this square",
                            tour.kind(),
                            spec.board
                        ),
                        tour: Some(tour),
                    })
                }
                Err(Error::NoTour(reason)) => return Ok(decision(Answer::No, reason)),
                Err(_) => {}
            }
        }
    }
    let graph = spec.shape.graph()?;
    let goal = general::goal(spec, &graph)?;
    let mut last = Outcome::Exhausted;
    for (kind, _) in general::kinds(spec, goal.kind) {
        let g = general::Goal {
            kind,
            shape: goal.shape,
            graph: goal.graph,
            start: goal.start,
            end: goal.end,
        };
        last = general::backtrack(&g, true, max_nodes, &spec.stop);
        if let Outcome::Found(p) = last {
            let tour = general::tour_from(spec, p);
            return Ok(Decision {
                answer: Answer::Yes,
                reason: format!(
                    "a search found one on {} ({} tour)",
                    spec.shape,
                    tour.kind()
                ),
                tour: Some(tour),
            });
        }
    }
    Ok(match last {
        Outcome::Exhausted => decision(
            Answer::No,
            format!("an exhaustive search of {} finds none", spec.shape),
        ),
        Outcome::Stopped => return Err(Error::Interrupted("the search was stopped".into())),
        _ => decision(
            Answer::Unknown,
            format!(
                "no theorem or necessary condition decides {}, and the search found no tour within {max_nodes} nodes",
                spec.shape
            ),
        ),
    })
}

/// The plain board's theorems, or a search from a given start.
fn plain(spec: &Spec) -> Decision {
    let closed = exists::closed_tour(spec.board);
    let open = exists::open_tour(spec.board);
    let e = match spec.kind {
        Some(Kind::Closed) => closed,
        Some(Kind::Open) => open,
        None if closed.exists => closed,
        None => open,
    };
    decision(
        if e.exists { Answer::Yes } else { Answer::No },
        format!("{} ({})", e.reason, e.theorem),
    )
}

/// The shape's colour classes when its move graph is two-coloured: the
/// class of each square (0 or 1, holes 2) and the sizes; `None` when some
/// cycle is odd.
fn two_colouring(shape: &Shape, graph: &Graph) -> Option<(Vec<u8>, [usize; 2])> {
    let n = graph.len();
    let mut class = vec![2u8; n];
    let mut sizes = [0usize; 2];
    let mut queue = VecDeque::new();
    for root in 0..n as Square {
        if shape.is_hole(root) || class[root as usize] != 2 {
            continue;
        }
        class[root as usize] = 0;
        sizes[0] += 1;
        queue.push_back(root);
        while let Some(s) = queue.pop_front() {
            let c = class[s as usize];
            for &t in graph.neighbours(s) {
                match class[t as usize] {
                    2 => {
                        class[t as usize] = 1 - c;
                        sizes[(1 - c) as usize] += 1;
                        queue.push_back(t);
                    }
                    x if x == c => return None,
                    _ => {}
                }
            }
        }
    }
    Some((class, sizes))
}

/// The number of squares reached from the first square that is not a hole.
fn reached(shape: &Shape, graph: &Graph) -> usize {
    let Some(root) = (0..graph.len() as Square).find(|&s| !shape.is_hole(s)) else {
        return 0;
    };
    let mut seen = vec![false; graph.len()];
    seen[root as usize] = true;
    let mut queue = VecDeque::from([root]);
    let mut count = 1;
    while let Some(s) = queue.pop_front() {
        for &t in graph.neighbours(s) {
            if !seen[t as usize] {
                seen[t as usize] = true;
                count += 1;
                queue.push_back(t);
            }
        }
    }
    count
}

/// `Err(NoTour(reason))` when a quick necessary condition fails for the
/// request; `Ok` says nothing about existence. The plain board without a
/// start or end square is left to the theorems of [`crate::exists`].
pub(crate) fn quick_refusal(spec: &Spec) -> Result<()> {
    if spec.is_plain() && spec.start.is_none() {
        return Ok(());
    }
    let shape = &spec.shape;
    let no = |reason: String| Err(Error::NoTour(format!("no such tour of {shape}: {reason}")));
    let n = shape.squares();
    let kind = spec.kind;
    if n == 1 {
        return if kind == Some(Kind::Closed) {
            no("a single square has no closed tour".into())
        } else {
            Ok(())
        };
    }
    if let Some(reason) = lattice_refusal(shape, kind) {
        return no(reason);
    }
    let graph = shape.graph()?;
    match degree_refusal(spec, &graph).or_else(|| colour_refusal(spec, &graph)) {
        Some(reason) => no(reason),
        None => Ok(()),
    }
}

/// Why no tour of `kind` can exist on `shape` by the squares' places alone
/// (colours, residues of the leaper's jumps, Posa's four lines), or `None`.
fn lattice_refusal(shape: &Shape, kind: Option<Kind>) -> Option<String> {
    let b = shape.board();
    let leaper = shape.leaper();
    let wraps_odd =
        (shape.wrap().rows() && b.rows() % 2 == 1) || (shape.wrap().cols() && b.cols() % 2 == 1);
    let colours = (0..b.squares() as Square)
        .filter(|&s| !shape.is_hole(s))
        .map(|s| {
            let (r, c) = b.coords(s);
            (r + c) % 2
        })
        .fold([false; 2], |mut seen, c| {
            seen[c as usize] = true;
            seen
        });
    if (leaper.a() + leaper.b()).is_multiple_of(2) && !wraps_odd && colours == [true, true] {
        return Some(format!(
            "the leaper {leaper} moves {} squares in all, an even number, so it never changes the colour of its square and cannot reach the squares of the other colour",
            leaper.a() + leaper.b()
        ));
    }
    let g = leaper.gcd();
    if g > 1 && shape.wrap() == crate::shape::Wrap::None {
        let classes = (0..b.squares() as Square)
            .filter(|&s| !shape.is_hole(s))
            .map(|s| {
                let (r, c) = b.coords(s);
                (r % g, c % g)
            })
            .collect::<std::collections::BTreeSet<_>>();
        if classes.len() > 1 {
            return Some(format!(
                "both jumps of the leaper {leaper} are multiples of {g}, so it never changes its row or column modulo {g}, and the board has squares in {} such classes",
                classes.len()
            ));
        }
    }
    if kind == Some(Kind::Closed)
        && shape.hole_count() == 0
        && leaper == crate::shape::Leaper::KNIGHT
    {
        // Posa's argument for 4-row boards holds on a cylinder too, where
        // the 4-square side does not wrap and the colours still alternate.
        let four = |side: u32, wraps: bool, other: u32, other_wraps: bool| {
            side == 4 && !wraps && (!other_wraps || other.is_multiple_of(2))
        };
        let w = shape.wrap();
        if four(b.rows(), w.rows(), b.cols(), w.cols())
            || four(b.cols(), w.cols(), b.rows(), w.rows())
        {
            return Some(
                "every move from the two outer lines of its side of 4 lands on the two inner lines, and wrapping the other way does not change that nor the alternation of colours, so a closed tour could visit only half of the squares (Posa's argument, as for the plain board)".into(),
            );
        }
    }
    None
}

/// Why the degrees and pieces of the move graph allow no tour for `spec`
/// (a square without moves, pieces, squares of one move), or `None`.
fn degree_refusal(spec: &Spec, graph: &Graph) -> Option<String> {
    let (shape, kind, n) = (&spec.shape, spec.kind, spec.shape.squares());
    let b = shape.board();
    if let Some(s) = (0..b.squares() as Square).find(|&s| !shape.is_hole(s) && graph.degree(s) == 0)
    {
        return Some(format!(
            "square {} has no move to any other square",
            shape.name(s)
        ));
    }
    if reached(shape, graph) < n {
        return Some("its move graph falls apart into pieces that no move joins".into());
    }
    let ones: Vec<Square> = (0..b.squares() as Square)
        .filter(|&s| !shape.is_hole(s) && graph.degree(s) == 1)
        .collect();
    let ends = [spec.start, spec.end];
    if kind == Some(Kind::Closed) && !ones.is_empty() {
        return Some(format!(
            "square {} has only one move, so a closed tour cannot pass through it",
            shape.name(ones[0])
        ));
    }
    if ones.len() > 2 {
        return Some(format!(
            "{} squares have only one move each, and a tour can end on at most two of them",
            ones.len()
        ));
    }
    if spec.end.is_some() {
        if let Some(&s) = ones.iter().find(|s| !ends.contains(&Some(**s))) {
            return Some(format!(
                "square {} has only one move, so a tour must begin or end there",
                shape.name(s)
            ));
        }
    }
    None
}

/// Why the two colours of a two-coloured move graph allow no tour for
/// `spec` (their sizes, or the colours of the given ends), or `None`.
fn colour_refusal(spec: &Spec, graph: &Graph) -> Option<String> {
    let (shape, kind) = (&spec.shape, spec.kind);
    let ends = [spec.start, spec.end];
    if let Some((class, [x, y])) = two_colouring(shape, graph) {
        let why = "every move changes the colour of its square (the move graph is two-coloured)";
        if kind == Some(Kind::Closed) && x != y {
            return Some(format!(
                "{why}, so a closed tour needs as many squares of each colour, but there are {x} and {y}"
            ));
        }
        if x.abs_diff(y) > 1 {
            return Some(format!(
                "{why}, so a tour needs the two colours to differ by at most one square, but there are {x} and {y}"
            ));
        }
        let colour = |s: Square| class[s as usize] as usize;
        let major = if x > y {
            Some(0)
        } else if y > x {
            Some(1)
        } else {
            None
        };
        for s in ends.into_iter().flatten() {
            if major.is_some_and(|m| colour(s) != m) {
                return Some(format!(
                    "{why}, and with {} squares of one colour and {} of the other a tour must begin and end on the larger colour, which {} is not",
                    x.max(y),
                    x.min(y),
                    shape.name(s)
                ));
            }
        }
        if let (Some(s), Some(t), None) = (spec.start, spec.end, major) {
            if colour(s) == colour(t) {
                return Some(format!(
                    "{why}, and with as many squares of each colour a tour ends on the colour it did not start on, but {} and {} have the same colour",
                    shape.name(s),
                    shape.name(t)
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Leaper, Wrap};

    fn spec(shape: Shape) -> Spec {
        Spec::on(shape)
    }

    #[test]
    fn necessary_conditions() {
        let b: crate::Board = "8x8".parse().unwrap();
        let d = decide(
            &spec(Shape::new(b).with_leaper(Leaper::new(1, 3).unwrap())),
            1000,
        )
        .unwrap();
        assert_eq!(d.answer, Answer::No);
        assert!(d.reason.contains("never changes the colour"), "{d}");
        let d = decide(
            &spec(Shape::new(b).with_leaper(Leaper::new(2, 4).unwrap())),
            1000,
        )
        .unwrap();
        assert_eq!(d.answer, Answer::No, "{d}");
        // 3x3 with the centre cut out has a closed tour (the ring of 8).
        let ring = Shape::parse_board_text("...\n.#.\n...").unwrap();
        let d = decide(
            &Spec {
                kind: Some(Kind::Closed),
                ..spec(ring)
            },
            10_000,
        )
        .unwrap();
        assert_eq!(d.answer, Answer::Yes, "{d}");
        crate::check::check_tour(d.tour.as_ref().unwrap()).unwrap();
        // The same board with the centre kept: the centre has no move.
        let d = decide(
            &Spec {
                end: None,
                ..spec(
                    Shape::new("3x3".parse().unwrap())
                        .with_wrap(Wrap::None)
                        .with_holes(&[0])
                        .unwrap(),
                )
            },
            10_000,
        )
        .unwrap();
        assert_eq!(d.answer, Answer::No, "{d}");
    }

    #[test]
    fn a_start_alone_on_the_plain_board() {
        let b: crate::Board = "8x8".parse().unwrap();
        let d = decide(
            &Spec {
                start: Some(9),
                ..Spec::new(b)
            },
            10,
        )
        .unwrap();
        assert_eq!(d.answer, Answer::Yes, "{d}");
        assert_eq!(d.tour.unwrap().start(), 9);
        // 5x5: open tours start on the corners' colour only.
        let b: crate::Board = "5x5".parse().unwrap();
        let d = decide(
            &Spec {
                start: Some(1),
                kind: Some(Kind::Open),
                ..Spec::new(b)
            },
            1_000_000,
        )
        .unwrap();
        assert_eq!(d.answer, Answer::No, "{d}");
    }

    #[test]
    fn four_row_cylinders_have_no_closed_tour() {
        for (board, wrap) in [
            ("4x40", Wrap::Cols),
            ("40x4", Wrap::Rows),
            ("4x6", Wrap::Cols),
        ] {
            let s = Shape::new(board.parse().unwrap()).with_wrap(wrap);
            let d = decide(
                &Spec {
                    kind: Some(Kind::Closed),
                    ..spec(s)
                },
                1000,
            )
            .unwrap();
            assert_eq!(d.answer, Answer::No, "{board} {wrap}: {d}");
        }
        // The counter agrees on the 4x6 cylinder.
        let s = Shape::new("4x6".parse().unwrap()).with_wrap(Wrap::Cols);
        let count = crate::count::tours_on(&s, &crate::count::Options::default()).unwrap();
        assert_eq!(count.count, 0);
    }

    #[test]
    fn a_small_budget_answers_unknown() {
        let s = Shape::new("8x8".parse().unwrap())
            .with_holes(&[27, 28])
            .unwrap();
        let d = decide(
            &Spec {
                kind: Some(Kind::Closed),
                ..spec(s)
            },
            10,
        )
        .unwrap();
        assert_eq!(d.answer, Answer::Unknown, "{d}");
    }
}
