//! Meet in the middle for open tours: the Hamiltonian paths of a board from
//! its parts.
//!
//! The board, `w` wide, is cut above row `h`; the *separator* is rows `h`
//! and `h + 1`. Every edge with an end above row `h` lies in the *top
//! part*, every edge with an end below row `h + 1` in the *bottom part*;
//! the edges between the two separator rows, the *middle*, go to the
//! bottom part on odd rows and are shared out on even rows (below). A
//! Hamiltonian path splits in one way into its top edges and its bottom
//! edges. The frontier program counts each part's
//! edge sets as paths (`Route::Path`): every square of the part that is not
//! a separator square has degree 2 or is one of the path's two *terminals*
//! (degree 1), and a final state gives each separator square its degree in
//! the part (0, 1 or 2), pairs the degree-1 squares joined by a path of the
//! part, and marks those whose path leads to a terminal inside the part (as
//! many as the part holds terminals: a path of a part never runs from
//! terminal to terminal).
//!
//! **Even rows.** With `rows = 2h + 2` the middle's edges are shared out
//! so that the bottom part is the top turned upside down (the separator
//! rows swapped), and one run of the frontier program gives both: the top
//! part takes the middle's edges whose end in row `h` lies farther from
//! the centre column than their end in row `h + 1`, the bottom part those
//! whose end in row `h + 1` lies farther out. The top keeps its left-right
//! mirror image. On an odd width the two edges whose ends lie equally far
//! out belong to neither; they are added to the bottom's final states
//! afterwards, edge by edge ([`Middle`]), and a bottom state so made must
//! agree with some top pattern. Each part so holds half the middle, where
//! a bottom part with all of it outgrows the top several times over
//! (BENCHMARKS.md, "Exact counting"). On odd rows the bottom part (rows `h..`, the middle included) runs
//! after the top.
//!
//! A top state and a bottom state make Hamiltonian paths when every
//! separator square gets degree 2 from the two, except the separator
//! squares that are terminals themselves (degree 1 in all), the terminals
//! inside the parts and on the separator number two, and the paths of the
//! two parts, joined at the separator squares, form one path from one
//! terminal to the other through every separator end. The count is the sum
//! of the products of their counts.
//!
//! **The table.** The top part's final states are sorted by their degrees
//! and terminals (their *pattern*), with a hash map from each pattern to its
//! run. Each bottom state looks up every top pattern it can meet: the
//! complement `2 - d` of its degrees, less one at each of at most `2 - t`
//! separator squares of degree 0 or 1 that become terminals (`t`: the
//! terminals inside the bottom part). For each pattern it meets, the bottom
//! state becomes a *request*: the pattern, the bottom's links written as a
//! short program of steps on the top's links, and its count; equal
//! requests are added up.
//!
//! **The join** takes the requests a batch at a time (as many as the
//! memory bound allows), sorted by pattern and program, and folds each
//! pattern's run of top states down the trie of its programs (see the
//! `fold` module notes): its cost follows the states, not their pairs,
//! where walking every top state of the run with every bottom state would
//! cost the product of the two. Every batch walks the runs of the patterns
//! it asks for again, so a batch that fills is first added up in place
//! (many bottom states make equal requests), and a part of the table whose
//! requests still outgrow one batch before any is joined gives up its last
//! buckets (at most half of them at a time) to the next part: one more
//! pass over the bottom states costs less than walking the runs again.
//!
//! **Held states.** The top part's final states wait for the join on a
//! shelf (`shelf.rs`): in memory while they take at most a third of the
//! memory bound, past it in files in a directory of their own (about 15
//! bytes a state), in 256 buckets by the pattern of a state and its mirror
//! image, so that each part of the table reads only its own buckets. With
//! a work directory the bottom states stream into every part of the join
//! from the packed state files of a finished part's final layer (a few
//! bytes a state, no copy), and each part done is recorded in that run's
//! manifest, so that every phase resumes (`executor/replay.rs`); without
//! one they wait on a shelf of one file too. The table's entries take 48
//! bytes while it is built and 32 once built (the links in the fold's form
//! and the count); each part of the table costs one more pass over the
//! bottom states.
//!
//! **Small boards** (at most 42 squares) run their two parts side by side,
//! since their layers are too small to keep both cores busy, and hold the
//! bottom part's final states until the table is built.
//!
//! **The cut** is McKay's, above row `(rows - 1) / 2`, so that on odd row
//! counts the top part is the larger one: with the cut a row higher the
//! table is smaller, but the bottom part piles up states the way the
//! forward program's second half does, and the run makes about three times
//! the successors.
//!
//! **Across a smaller separator.** Some boards fall apart into two images
//! of one half around a block of fewer squares than the two separator rows
//! (6x6 around its middle 4x2 block, 7x6 around a 2x5 one); there one run
//! of the frontier program over the half gives both parts
//! ([`open_tours_across`], `separator.rs`), joined by the same table. It is
//! taken where the half's frontier is at least two squares narrower than
//! the top part's, where it is faster than the row cut.
//!
//! **Mirror images.** Both parts keep their states up to the left-right
//! mirror image (see `frontier.rs`), their final layers too: a bottom state
//! stands for itself and its image, which meet the symmetric table equally
//! often (the middle is symmetric too); the top's states are unfolded into
//! both images, each with half the count, before the table is built.

mod boundary;
mod fold;
mod gather;
#[cfg(test)]
mod join_tests;
mod middle;
mod reader;
mod requests;
mod shelf;
mod table;
#[cfg(test)]
mod tests;

use super::halves::{shifted, MeetRun, MiddleEdges, Part, Side, Summary, MAX_WIDTH};
use super::separator::Plan;
use crate::count::engine::executor::{self, FinalLayer, FinishedLayer, RunOptions};
use crate::count::engine::frontier::{Engine, Problem, Route};
use crate::{Error, Result};
use boundary::{packed, Boundary};
use gather::{Bottoms, Gather};
use middle::Middle;
use reader::{Reader, Relabel};
use table::Table;

/// The row above which [`open_tours`] cuts a board of `rows` rows (see
/// the module notes).
pub(crate) fn cut(rows: usize) -> usize {
    (rows - 1) / 2
}

/// The parts of a `rows x w` board that the frontier program runs: the
/// top, and the bottom unless it is the top upside down.
pub(crate) fn part_problems(rows: usize, w: usize, share: MiddleEdges) -> Vec<Problem> {
    if let Ok(Some(plan)) = across(rows, w) {
        return vec![plan.problem().0];
    }
    let ([top, bottom], shared) = parts(rows, w, share);
    if shared {
        vec![top.problem]
    } else {
        vec![top.problem, bottom.problem]
    }
}

/// The top part and the bottom one, and whether the bottom part is the
/// top upside down (on even rows: the middle's edges shared out between
/// them), its final states then read from the top's (see the module
/// notes).
fn parts(rows: usize, w: usize, share: MiddleEdges) -> ([Part; 2], bool) {
    let h = cut(rows);
    let part = |side: Side| {
        let mut part = Part::new(rows, w, h, side);
        part.problem.shape = Route::Path;
        // Both parts keep their states up to the mirror image, the last
        // layer too: the top's table is unfolded again (see `open_tours`).
        part.problem.mirror = (0..part.problem.n)
            .map(|v| (v - v % w + (w - 1 - v % w)) as u32)
            .collect();
        part
    };
    let (top, lower) = (part(Side::TopWith(share)), part(Side::LowerWith(share)));
    if upside_down(&top.problem, &lower.problem) {
        ([top, lower], true)
    } else {
        ([part(Side::Top), part(Side::Bottom)], false)
    }
}

/// Whether the lower part is the top turned upside down, so that its
/// final states are the top's with the separator rows swapped: the same
/// graph in the same order (each vertex's edges in any order), the colours
/// of the squares negated, and a colour sum of zero (the frontier
/// program's colour test then decides alike).
fn upside_down(top: &Problem, lower: &Problem) -> bool {
    let mut a = top.clone();
    let mut b = lower.clone();
    a.colour.iter_mut().for_each(|c| *c = -*c);
    for v in a.back.iter_mut().chain(b.back.iter_mut()) {
        v.sort_unstable();
    }
    a == b && a.twice_colour_total == 0
}

/// Counts the open tours (undirected Hamiltonian paths) of a `rows x w`
/// board (`rows >= 4`, `w <= 8`).
pub(crate) fn open_tours(rows: usize, w: usize, opts: &RunOptions<'_>) -> Result<MeetRun> {
    if rows < 4 || !(3..=MAX_WIDTH).contains(&w) {
        return Err(Error::Unsupported(format!(
            "meeting in the middle counts open tours of boards with at least 4 rows and 3 to {MAX_WIDTH} columns, not {rows}x{w}"
        ).into()));
    }
    let plan = across(rows, w)?;
    if opts.count.middle != MiddleEdges::Outer && (plan.is_some() || rows % 2 == 1) {
        return Err(Error::Unsupported(format!(
            "the middle's edges are shared out only where a meet cuts the open tours of a board of an even number of rows between its middle rows, and {rows}x{w} {}; leave the share at outer",
            if plan.is_some() { "meets across a smaller separator" } else { "has an odd number of rows" }
        ).into()));
    }
    match plan {
        Some(plan) => open_tours_across(&plan, opts),
        None => open_tours_by_rows(rows, w, opts),
    }
}

/// Counts the open tours of a `rows x w` board cut above row `cut(rows)`
/// (see the module notes).
fn open_tours_by_rows(rows: usize, w: usize, opts: &RunOptions<'_>) -> Result<MeetRun> {
    let ([top, bottom], shared) = parts(rows, w, opts.count.middle);
    let summary = Summary::new(&top.problem, &bottom.problem, opts);
    if let Some(done) = summary.begin(opts)? {
        return Ok(done);
    }
    let top_engine = Engine::new(&top.problem)?;
    let bottom_engine = Engine::new(&bottom.problem)?;
    let top_reader = Reader::new(&top, &top_engine);
    let bottom_reader = Reader::new(&bottom, &bottom_engine);
    let gather = Gather::new(opts, Some(Relabel::mirror(w)));
    let collect = |chunk: &[(u128, u128)]| -> Result<()> {
        gather.table_in(&top_reader.boundaries(&top_engine, chunk))
    };
    // Spread over workers, each holds the part of the table of its own
    // patterns (the top states go to their workers), and every bottom
    // state, which meets patterns of several workers.
    let read_bottom =
        |chunk: &[(u128, u128)]| packed(&bottom_reader.boundaries(&bottom_engine, chunk));
    let hold = |chunk: &[(u128, u128)]| -> Result<()> { gather.hold_back(read_bottom(chunk)) };
    let top_route = |key| gather.pair_of_state(&top_reader.boundary(&top_engine, key));
    // On even rows a top state read upside down is a lower one.
    let swap = Relabel::swap(w);
    let read_lower =
        |chunk: &[(u128, u128)]| held(&top_reader.boundaries(&top_engine, chunk), &swap);
    let collect_and_hold = |chunk: &[(u128, u128)]| -> Result<()> {
        let top = top_reader.boundaries(&top_engine, chunk);
        gather.table_in(&top)?;
        gather.hold_back(held(&top, &swap))
    };
    let stream = streams(opts);
    let (nt, nl) = (top.problem.n, if shared { 0 } else { bottom.problem.n });
    let top_progress = shifted(opts, 0, nt + nl);
    let bottom_progress = shifted(opts, nt, nt + nl);
    let top_final: &FinalLayer<'_> = if shared && !stream {
        &collect_and_hold
    } else {
        &collect
    };
    let top_opts = RunOptions {
        final_layer: Some(top_final),
        progress: Some(&top_progress),
        // Even rows hold every bottom state from the top's final layer.
        route: (!shared).then_some(&top_route as &executor::Route<'_>),
        ..*opts
    };
    let bottom_opts = RunOptions {
        later: true,
        progress: Some(&bottom_progress),
        final_layer: (!stream).then_some(&hold as &FinalLayer<'_>),
        keep_final: stream,
        ..*opts
    };
    // Spread over workers, every collective call must come in one order:
    // one run at a time.
    let small = opts.count.work_dir.as_deref().is_none()
        && opts.workers.is_none()
        && rows * w <= SIDE_BY_SIDE_SQUARES;
    let (top_run, bottom_run) = if shared {
        (
            executor::run(&top.problem, &top_opts)?,
            executor::Run::default(),
        )
    } else if small {
        // A small board: its layers are too small to keep both cores
        // busy, so the parts run side by side.
        let (top_run, bottom_run) = rayon::join(
            || executor::run(&top.problem, &top_opts),
            || executor::run(&bottom.problem, &bottom_opts),
        );
        (top_run?, bottom_run?)
    } else {
        let top_run = executor::run(&top.problem, &top_opts)?;
        // The bottom part runs in what the top's held states leave.
        let left = crate::count::CountOptions {
            max_memory: Some(gather.budget.saturating_sub(gather.held_in_memory())),
            ..opts.count.clone()
        };
        let bottom_opts = RunOptions {
            count: &left,
            ..bottom_opts
        };
        (top_run, executor::run(&bottom.problem, &bottom_opts)?)
    };
    // On an odd width two edges of the middle belong to neither part.
    let middle =
        |table: &Table| (shared && w % 2 == 1).then(|| Middle::new(w, table.runs.keys().copied()));
    let squares = nt + nl;
    let bottoms = match (stream, shared) {
        (false, _) => Bottoms::Held,
        (true, true) => Bottoms::Stream {
            layer: FinishedLayer::open(&top.problem, opts)?,
            read: &read_lower,
        },
        (true, false) => Bottoms::Stream {
            layer: FinishedLayer::open(&bottom.problem, opts)?,
            read: &read_bottom,
        },
    };
    let held_disk = gather.held_on_disk();
    let (sum, pairs_tested) = gather.join_all(bottoms, 2 * w, middle, w, squares)?;
    let done = MeetRun {
        count: opts.summed(sum.total())?,
        top: top_run,
        bottom: bottom_run,
        pairs_tested: opts.summed_u64(pairs_tested)?,
        held_disk,
    };
    summary.finish(&done, opts)?;
    Ok(done)
}

/// The plan of a meet across a separator for a `rows x w` board (see
/// `separator.rs`), where one is found and its half's frontier is at least
/// two squares narrower than the row cut's top part's: there it makes
/// several times fewer successors, while a half only one square narrower
/// (as on 8x5) makes more (BENCHMARKS.md, "Exact counting").
fn across(rows: usize, w: usize) -> Result<Option<Plan>> {
    let Some(plan) = Plan::find(rows, w) else {
        return Ok(None);
    };
    let ([top, _], _) = parts(rows, w, MiddleEdges::Outer);
    let narrower = plan.widest + 2 <= Engine::new(&top.problem)?.width;
    Ok(narrower.then_some(plan))
}

/// Counts the open tours of a board cut by `plan` (see `separator.rs`):
/// one run of the frontier program gives the half's final states, which
/// make the table (unfolded from the half's mirror image, if it has one),
/// and, moved by the symmetry between the halves, the other half's states
/// (where the half has a mirror, each standing for itself and its image,
/// as the row cut's bottom states do).
fn open_tours_across(plan: &Plan, opts: &RunOptions<'_>) -> Result<MeetRun> {
    let (problem, sep_of) = plan.problem();
    let summary = Summary::new(&problem, &problem, opts);
    if let Some(done) = summary.begin(opts)? {
        return Ok(done);
    }
    let engine = Engine::new(&problem)?;
    let seps = plan.separator.len();
    let reader = Reader::of(&sep_of, seps, &engine);
    let mirror = plan
        .mirror
        .map(|m| Relabel::of_image(&plan.separator_image(m)));
    let swap = Relabel::of_image(&plan.separator_image(plan.swap));
    let gather = Gather::new(opts, mirror);
    let stream = streams(opts);
    let collect = |chunk: &[(u128, u128)]| -> Result<()> {
        let half = reader.boundaries(&engine, chunk);
        gather.table_in(&half)?;
        match stream {
            true => Ok(()),
            false => gather.hold_back(held(&half, &swap)),
        }
    };
    let read_other = |chunk: &[(u128, u128)]| held(&reader.boundaries(&engine, chunk), &swap);
    let run = executor::run(
        &problem,
        &RunOptions {
            final_layer: Some(&collect),
            ..*opts
        },
    )?;
    let bottoms = match stream {
        false => Bottoms::Held,
        true => Bottoms::Stream {
            layer: FinishedLayer::open(&problem, opts)?,
            read: &read_other,
        },
    };
    let held_disk = gather.held_on_disk();
    let (sum, pairs_tested) = gather.join_all(bottoms, seps, |_| None, plan.w, problem.n)?;
    let done = MeetRun {
        count: opts.summed(sum.total())?,
        top: run,
        bottom: executor::Run::default(),
        pairs_tested: opts.summed_u64(pairs_tested)?,
        held_disk,
    };
    summary.finish(&done, opts)?;
    Ok(done)
}

/// Whether a count streams its bottom states into the join from a part's
/// final layer in the work directory (see the module notes): with a work
/// directory, on this machine alone.
fn streams(opts: &RunOptions<'_>) -> bool {
    opts.count.work_dir.is_some() && opts.workers.is_none()
}

/// The states of a final layer (read as `states`) as bottom states, moved
/// by `swap`.
fn held(states: &[(Boundary, u128)], swap: &Relabel) -> Vec<(u128, u128)> {
    states
        .iter()
        .map(|(b, c)| (swap.of(b).packed(), *c))
        .collect()
}

/// Boards of at most this many squares run their two parts side by side.
const SIDE_BY_SIDE_SQUARES: usize = 42;
