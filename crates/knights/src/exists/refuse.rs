//! Quick necessary conditions for a tour: the squares' places (colours,
//! the leaper's residues, Posa's four lines), squares without moves and
//! the move graph's two colour classes. They name no generator, so the
//! generators refuse an impossible request with them as the existence
//! answer does.

use std::collections::VecDeque;

use crate::algorithms::TourSpec;
use crate::board::Square;
use crate::shape::{Graph, Shape};
use crate::{Error, Result, Wanted};

/// The shape's colour classes when its move graph is two-coloured: the
/// class of each square (0 or 1, holes 2) and the sizes; `None` when some
/// cycle is odd.
pub(crate) fn two_colouring(shape: &Shape, graph: &Graph) -> Option<(Vec<u8>, [usize; 2])> {
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
pub(crate) fn reached(shape: &Shape, graph: &Graph) -> usize {
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
/// start or end square is left to the theorems of [`super::theorems`].
pub(crate) fn quick_refusal(spec: &TourSpec) -> Result<()> {
    if spec.is_plain() && spec.start.is_none() {
        return Ok(());
    }
    let shape = &spec.shape;
    let no = |reason: String| {
        Err(Error::NoTour(
            format!("no such tour of {shape}: {reason}").into(),
        ))
    };
    let n = shape.squares();
    let kind = spec.kind;
    if n == 1 {
        return if kind == Wanted::Closed {
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
fn lattice_refusal(shape: &Shape, kind: Wanted) -> Option<String> {
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
    if kind == Wanted::Closed && shape.hole_count() == 0 && leaper == crate::shape::Leaper::KNIGHT {
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
fn degree_refusal(spec: &TourSpec, graph: &Graph) -> Option<String> {
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
    if kind == Wanted::Closed && !ones.is_empty() {
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
fn colour_refusal(spec: &TourSpec, graph: &Graph) -> Option<String> {
    let (shape, kind) = (&spec.shape, spec.kind);
    let ends = [spec.start, spec.end];
    if let Some((class, [x, y])) = two_colouring(shape, graph) {
        let why = "every move changes the colour of its square (the move graph is two-coloured)";
        if kind == Wanted::Closed && x != y {
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
