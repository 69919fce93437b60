//! The answer for any request: the plain board's theorems, a given start
//! and end on the plain board, the quick necessary conditions, and where
//! none decides an exhaustive search with the generators' backtracking
//! under a node budget ("unknown" when it runs out). A start alone on the
//! plain board is answered by the construction, which tours from every
//! square the theorems allow.

use super::refuse::quick_refusal;
use super::{ends, theorems, Decision, ExistsVerdict};
use crate::algorithms::general::{self, Outcome};
use crate::algorithms::{Auto, TourGenerator, TourSpec};
use crate::{Error, Result, Wanted};

/// Whether a tour as `spec` asks exists (kind, start, end, shape), with
/// an exhaustive search of at most `max_nodes` squares placed where no
/// theorem or necessary condition decides.
///
/// # Errors
/// [`Error::Board`] for a start or end off the board or on a hole;
/// [`Error::TooLarge`] when the move graph cannot fit in memory.
pub fn decide(spec: &TourSpec, max_nodes: u64) -> Result<Decision> {
    if spec.is_plain() && spec.start.is_none() {
        return Ok(plain(spec));
    }
    if let Err(e) = quick_refusal(spec) {
        return match e {
            Error::NoTour(reason) => Ok(Decision::said(ExistsVerdict::No, reason.to_string())),
            e => Err(e),
        };
    }
    if spec.shape.is_plain() {
        if let (Some(s), Some(t)) = (spec.start, spec.end) {
            let d = ends::existence(spec.board, s, t);
            if d.answer != ExistsVerdict::Unknown {
                return Ok(d);
            }
        } else if spec.start.is_some() {
            // A start alone on the plain board: the construction (with
            // Warnsdorff's rule for the starts it cannot use) decides.
            match Auto.generate(spec, &mut crate::rng::seeded(0)) {
                Ok(tour) => {
                    return Ok(Decision {
                        answer: ExistsVerdict::Yes,
                        reason: format!(
                            "the construction makes a {} tour of {} from this square",
                            tour.kind(),
                            spec.board
                        ),
                        tour: Some(tour),
                    })
                }
                Err(Error::NoTour(reason)) => {
                    return Ok(Decision::said(ExistsVerdict::No, reason.to_string()))
                }
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
        last = general::backtrack(&g, true, max_nodes, &spec.control);
        if let Outcome::Found(p) = last {
            let tour = general::tour_from(spec, p);
            return Ok(Decision {
                answer: ExistsVerdict::Yes,
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
        Outcome::Exhausted => Decision::said(
            ExistsVerdict::No,
            format!("an exhaustive search of {} finds none", spec.shape),
        ),
        Outcome::Stopped => return Err(Error::Interrupted("the search was stopped".into())),
        _ => Decision::said(
            ExistsVerdict::Unknown,
            format!(
                "no theorem or necessary condition decides {}, and the search found no tour within {max_nodes} nodes",
                spec.shape
            ),
        ),
    })
}

/// The plain board's theorems, or a search from a given start.
fn plain(spec: &TourSpec) -> Decision {
    let closed = theorems::closed_tour(spec.board);
    let open = theorems::open_tour(spec.board);
    let e = match spec.kind {
        Wanted::Closed => closed,
        Wanted::Open => open,
        Wanted::Either if closed.exists => closed,
        Wanted::Either => open,
    };
    Decision::said(
        if e.exists {
            ExistsVerdict::Yes
        } else {
            ExistsVerdict::No
        },
        format!("{} ({})", e.reason, e.theorem),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Leaper, Shape, Wrap};

    fn spec(shape: Shape) -> TourSpec {
        TourSpec::on(shape)
    }

    #[test]
    fn necessary_conditions() {
        let b: crate::Board = "8x8".parse().unwrap();
        let d = decide(
            &spec(Shape::new(b).with_leaper(Leaper::new(1, 3).unwrap())),
            1000,
        )
        .unwrap();
        assert_eq!(d.answer, ExistsVerdict::No);
        assert!(d.reason.contains("never changes the colour"), "{d}");
        let d = decide(
            &spec(Shape::new(b).with_leaper(Leaper::new(2, 4).unwrap())),
            1000,
        )
        .unwrap();
        assert_eq!(d.answer, ExistsVerdict::No, "{d}");
        // 3x3 with the centre cut out has a closed tour (the ring of 8).
        let ring = Shape::parse_board_text("...\n.#.\n...").unwrap();
        let d = decide(
            &TourSpec {
                kind: Wanted::Closed,
                ..spec(ring)
            },
            10_000,
        )
        .unwrap();
        assert_eq!(d.answer, ExistsVerdict::Yes, "{d}");
        crate::check::check_tour(d.tour.as_ref().unwrap()).unwrap();
        // The same board with the centre kept: the centre has no move.
        let d = decide(
            &TourSpec {
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
        assert_eq!(d.answer, ExistsVerdict::No, "{d}");
    }

    #[test]
    fn a_start_alone_on_the_plain_board() {
        let b: crate::Board = "8x8".parse().unwrap();
        let d = decide(
            &TourSpec {
                start: Some(9),
                ..TourSpec::new(b)
            },
            10,
        )
        .unwrap();
        assert_eq!(d.answer, ExistsVerdict::Yes, "{d}");
        assert_eq!(d.tour.unwrap().start(), 9);
        // 5x5: open tours start on the corners' colour only.
        let b: crate::Board = "5x5".parse().unwrap();
        let d = decide(
            &TourSpec {
                start: Some(1),
                kind: Wanted::Open,
                ..TourSpec::new(b)
            },
            1_000_000,
        )
        .unwrap();
        assert_eq!(d.answer, ExistsVerdict::No, "{d}");
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
                &TourSpec {
                    kind: Wanted::Closed,
                    ..spec(s)
                },
                1000,
            )
            .unwrap();
            assert_eq!(d.answer, ExistsVerdict::No, "{board} {wrap}: {d}");
        }
        // The counter agrees on the 4x6 cylinder.
        let s = Shape::new("4x6".parse().unwrap()).with_wrap(Wrap::Cols);
        let count = crate::count::Counter::on_shape(&s).tours().unwrap();
        assert_eq!(count.count, 0);
    }

    #[test]
    fn a_small_budget_answers_unknown() {
        let s = Shape::new("8x8".parse().unwrap())
            .with_holes(&[27, 28])
            .unwrap();
        let d = decide(
            &TourSpec {
                kind: Wanted::Closed,
                ..spec(s)
            },
            10,
        )
        .unwrap();
        assert_eq!(d.answer, ExistsVerdict::Unknown, "{d}");
    }
}
