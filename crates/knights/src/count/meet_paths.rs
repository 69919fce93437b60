//! Meet in the middle for open tours: the Hamiltonian paths of a board from
//! its parts.
//!
//! The board, `w` wide, is cut above row `h`; the *separator* is rows `h`
//! and `h + 1`. Every edge lies in the *top part* (edges with an end above
//! row `h`) or in the *bottom part* (both ends in rows `h..`); the bottom
//! part's edges between the two separator rows are the *middle*, the others
//! the *lower part*. A Hamiltonian path splits in one way into its top
//! edges and its bottom edges. The frontier program counts each part's
//! edge sets as paths (`Route::Path`): every square of the part that is not
//! a separator square has degree 2 or is one of the path's two *terminals*
//! (degree 1), and a final state gives each separator square its degree in
//! the part (0, 1 or 2), pairs the degree-1 squares joined by a path of the
//! part, and marks those whose path leads to a terminal inside the part (as
//! many as the part holds terminals: a path of a part never runs from
//! terminal to terminal).
//!
//! **Even rows.** With `rows = 2h + 2` the lower part is the top turned
//! upside down (the separator rows swapped), so one run of the frontier
//! program gives both, and the middle (`2w - 4` edges on a few short
//! paths) is added to the lower part's final states afterwards, edge by
//! edge ([`Middle`]); the bottom states so made are added up by state. A
//! bottom state must agree with some top pattern, checked on each square
//! once it has no middle edge left, so most ways to add middle edges die
//! early. An even board runs half its squares where it ran all of them,
//! and in about half the time. On odd rows the bottom part runs with its
//! middle: running the lower part and adding the middle after was slower
//! there. (The figures: BENCHMARKS.md, "Exact counting" and "Figures moved
//! from doc comments".)
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
//! terminals inside the bottom part); every top state of the run is walked
//! with it once. (Entering each top state under every bottom pattern it
//! meets instead made the table several times larger and its build a large
//! share of the count's time; a run in order keeps the states a bottom
//! state meets together in memory, which is faster too.)
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
//! the top part's, where it is several times faster than the row cut.
//!
//! **Mirror images.** Both parts keep their states up to the left-right
//! mirror image (see `frontier.rs`), their final layers too: a bottom state
//! stands for itself and its image, which meet the symmetric table equally
//! often (the middle is symmetric too); the top's states are unfolded into
//! both images, each with half the count, before the table is built.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::executor::Stop;
use super::executor::{self, FinalLayer, RunOptions};
use super::frontier::{Engine, Problem, Route, DONE, END, UNTOUCHED};
use super::halves::{shifted, MeetRun, Part, Side, Summary, MAX_WIDTH};
use super::number::ProductSum;
use super::separator::Plan;
use crate::{Error, Result};

/// Bytes of memory a top state takes in the table, with its entry.
const TABLE_BYTES_PER_STATE: u64 = 72;
/// Bytes of memory a bottom (or lower) state takes while it waits for the
/// table.
const HELD_BYTES_PER_STATE: u64 = 32;
/// The final states of the bottom (or lower) part joined at once, at most.
const BLOCK: usize = 1 << 20;

/// A part's final state on the separator: degrees (2 bits a square), the
/// terminals inside the part, and for each square of degree 1 its mate
/// (4 bits a square: the square at the path's other end, or the square
/// itself when the path leads to a terminal inside the part).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Boundary {
    degrees: u32,
    term: u8,
    mates: u64,
}

impl Boundary {
    /// The boundary as one number, to sort and add up by.
    fn packed(&self) -> u128 {
        u128::from(self.degrees) | u128::from(self.mates) << 32 | u128::from(self.term) << 96
    }

    fn unpacked(k: u128) -> Boundary {
        Boundary {
            degrees: k as u32,
            mates: (k >> 32) as u64,
            term: (k >> 96) as u8,
        }
    }
}

/// The row above which [`open_tours`] cuts a board of `rows` rows (see
/// the module notes).
pub(crate) fn cut(rows: usize) -> usize {
    (rows - 1) / 2
}

/// The parts of a `rows x w` board that the frontier program runs: the
/// top, and the bottom unless the lower part is the top upside down.
pub(crate) fn part_problems(rows: usize, w: usize) -> Vec<Problem> {
    if let Ok(Some(plan)) = across(rows, w) {
        return vec![plan.problem().0];
    }
    let ([top, bottom], shared) = parts(rows, w);
    if shared {
        vec![top.problem]
    } else {
        vec![top.problem, bottom.problem]
    }
}

/// The top part and the bottom one, and whether the middle's edges are
/// left out of the bottom part (which then is the lower part, the top
/// upside down) to be added to its final states (see the module notes).
fn parts(rows: usize, w: usize) -> ([Part; 2], bool) {
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
    let (top, lower) = (part(Side::Top), part(Side::Lower));
    if upside_down(&top.problem, &lower.problem) {
        ([top, lower], true)
    } else {
        ([top, part(Side::Bottom)], false)
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
        )));
    }
    match across(rows, w)? {
        Some(plan) => open_tours_across(&plan, opts),
        None => open_tours_by_rows(rows, w, opts),
    }
}

/// Counts the open tours of a `rows x w` board cut above row `cut(rows)`
/// (see the module notes).
fn open_tours_by_rows(rows: usize, w: usize, opts: &RunOptions<'_>) -> Result<MeetRun> {
    let ([top, bottom], shared) = parts(rows, w);
    let summary = Summary::new(&top.problem, &bottom.problem, opts);
    if let Some(done) = summary.begin(opts)? {
        return Ok(done);
    }
    let top_engine = Engine::new(&top.problem)?;
    let bottom_engine = Engine::new(&bottom.problem)?;
    let top_reader = Reader::new(&top, &top_engine);
    let bottom_reader = Reader::new(&bottom, &bottom_engine);
    let gather = Gather::new(opts);
    let mirror = Relabel::mirror(w);
    let collect = |chunk: &[(u128, u128)]| -> Result<()> {
        gather.table_in(
            &top_reader.boundaries(&top_engine, chunk),
            2 * w,
            Some(&mirror),
        )
    };
    let hold = |chunk: &[(u128, u128)]| -> Result<()> {
        gather.hold_back(packed(&bottom_reader.boundaries(&bottom_engine, chunk)))
    };
    // On even rows a top state read upside down is a lower one.
    let swap = Relabel::swap(w);
    let collect_and_hold = |chunk: &[(u128, u128)]| -> Result<()> {
        let top = top_reader.boundaries(&top_engine, chunk);
        gather.table_in(&top, 2 * w, Some(&mirror))?;
        gather.hold_back(top.iter().map(|(b, c)| (swap.of(b).packed(), *c)).collect())
    };
    let (nt, nl) = (top.problem.n, if shared { 0 } else { bottom.problem.n });
    let top_progress = shifted(opts, 0, nt + nl);
    let bottom_progress = shifted(opts, nt, nt + nl);
    let top_final: &FinalLayer<'_> = if shared { &collect_and_hold } else { &collect };
    let top_opts = RunOptions {
        final_layer: Some(top_final),
        progress: Some(&top_progress),
        ..*opts
    };
    let bottom_opts = RunOptions {
        later: true,
        progress: Some(&bottom_progress),
        ..*opts
    };
    let ready = || {
        let table = gather.table(2 * w);
        let middle = shared.then(|| Middle::new(w, table.runs.keys().copied()));
        (table, middle)
    };
    let join = |table: &Table, middle: &Option<Middle>, chunk: &[(u128, u128)]| {
        gather.join(table, middle, w, chunk)
    };
    let join_held = |table: &Table, middle: &Option<Middle>| gather.join_held(table, middle, w);
    let small = opts.work_dir.is_none() && rows * w <= SIDE_BY_SIDE_SQUARES;
    let (top_run, bottom_run) = if shared {
        let top_run = executor::run(&top.problem, &top_opts)?;
        let (table, middle) = ready();
        join_held(&table, &middle)?;
        (top_run, executor::Run::default())
    } else if small {
        // A small board: its layers are too small to keep both cores
        // busy, so the parts run side by side.
        let (top_run, bottom_run) = rayon::join(
            || executor::run(&top.problem, &top_opts),
            || {
                executor::run(
                    &bottom.problem,
                    &RunOptions {
                        final_layer: Some(&hold),
                        ..bottom_opts
                    },
                )
            },
        );
        let (top_run, bottom_run) = (top_run?, bottom_run?);
        let (table, middle) = ready();
        join_held(&table, &middle)?;
        (top_run, bottom_run)
    } else {
        let top_run = executor::run(&top.problem, &top_opts)?;
        let (table, middle) = ready();
        let bottom_run = executor::run(
            &bottom.problem,
            &RunOptions {
                final_layer: Some(&|chunk: &[(u128, u128)]| {
                    let bottom = packed(&bottom_reader.boundaries(&bottom_engine, chunk));
                    join(&table, &middle, &bottom)
                }),
                ..bottom_opts
            },
        )?;
        (top_run, bottom_run)
    };
    let (sum, pairs_tested) = gather.total();
    let done = MeetRun {
        count: sum.total(),
        top: top_run,
        bottom: bottom_run,
        pairs_tested,
    };
    summary.finish(&done, opts)?;
    Ok(done)
}

/// What a meet gathers while its parts run: the top part's final states as
/// table entries (see [`unfolded`]), the bottom part's (or lower part's)
/// final states as packed boundaries, where they wait for the table, the
/// memory they take against the budget, and the join's sum.
struct Gather<'a> {
    opts: &'a RunOptions<'a>,
    budget: u64,
    states: Mutex<Vec<(u64, Links, u128)>>,
    held: Mutex<Vec<(u128, u128)>>,
    bytes: AtomicU64,
    total: Mutex<(ProductSum, u64)>,
}

impl<'a> Gather<'a> {
    fn new(opts: &'a RunOptions<'a>) -> Gather<'a> {
        Gather {
            opts,
            budget: opts.budget(),
            states: Mutex::new(Vec::new()),
            held: Mutex::new(Vec::new()),
            bytes: AtomicU64::new(0),
            total: Mutex::new((ProductSum::default(), 0)),
        }
    }

    fn charge(&self, n: usize, per: u64) -> Result<()> {
        let more = n as u64 * per;
        if self.bytes.fetch_add(more, Ordering::Relaxed) + more > self.budget {
            return Err(Error::GaveUp(format!(
                "the count stopped: the parts' final states need more than the memory bound of {}",
                crate::memory::human_bytes(self.budget),
            ))
            .with_hint(crate::Hint::UseMethod("forward")));
        }
        Ok(())
    }

    /// Adds top states to the table's entries.
    fn table_in(
        &self,
        top: &[(Boundary, u128)],
        seps: usize,
        mirror: Option<&Relabel>,
    ) -> Result<()> {
        let local = unfolded(top, seps, mirror);
        self.charge(local.len(), TABLE_BYTES_PER_STATE)?;
        lock(&self.states).extend(local);
        Ok(())
    }

    /// Holds bottom states (packed) until the table is built.
    fn hold_back(&self, bottom: Vec<(u128, u128)>) -> Result<()> {
        self.charge(bottom.len(), HELD_BYTES_PER_STATE)?;
        lock(&self.held).extend(bottom);
        Ok(())
    }

    /// The table of the top states gathered so far.
    fn table(&self, seps: usize) -> Table {
        Table::new(std::mem::take(&mut *lock(&self.states)), seps)
    }

    /// Joins bottom states with the table (see [`join_bottom`]) and adds
    /// the result to the total.
    fn join(
        &self,
        table: &Table,
        middle: &Option<Middle>,
        w: usize,
        chunk: &[(u128, u128)],
    ) -> Result<()> {
        // What the table and the held states leave, shared by the chunks
        // joined at once.
        let threads = rayon::current_num_threads().max(1) as u64;
        let room = self
            .budget
            .saturating_sub(self.bytes.load(Ordering::Relaxed))
            / (2 * threads);
        let (sum, tested) = join_bottom(table, middle, w, chunk, room, self.opts)?;
        let mut total = lock(&self.total);
        total.0.add(sum);
        total.1 += tested;
        Ok(())
    }

    /// Joins the bottom states held back, a block at a time.
    fn join_held(&self, table: &Table, middle: &Option<Middle>, w: usize) -> Result<()> {
        let held = std::mem::take(&mut *lock(&self.held));
        held.chunks(BLOCK)
            .try_for_each(|block| self.join(table, middle, w, block))
    }

    /// The sum of the join and the pairs tested.
    fn total(self) -> (ProductSum, u64) {
        self.total.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// The value behind a lock, even if a thread panicked holding it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The plan of a meet across a separator for a `rows x w` board (see
/// `separator.rs`), where one is found and its half's frontier is at least
/// two squares narrower than the row cut's top part's. Measured by
/// successors: 6x6 open 0.13 M against 0.68 M (9 squares against 13), 7x6
/// 1.7 M against 9.8 M (11 against 13), 7x5 52,000 against 222,000 (8
/// against 11); but 8x5, whose half's frontier is one square narrower
/// (10 against 11), 0.83 M against 0.23 M.
fn across(rows: usize, w: usize) -> Result<Option<Plan>> {
    let Some(plan) = Plan::find(rows, w) else {
        return Ok(None);
    };
    let ([top, _], _) = parts(rows, w);
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
    let gather = Gather::new(opts);
    let collect = |chunk: &[(u128, u128)]| -> Result<()> {
        let half = reader.boundaries(&engine, chunk);
        gather.table_in(&half, seps, mirror.as_ref())?;
        gather.hold_back(
            half.iter()
                .map(|(b, c)| (swap.of(b).packed(), *c))
                .collect(),
        )
    };
    let run = executor::run(
        &problem,
        &RunOptions {
            final_layer: Some(&collect),
            ..*opts
        },
    )?;
    let table = gather.table(seps);
    gather.join_held(&table, &None, plan.w)?;
    let (sum, pairs_tested) = gather.total();
    let done = MeetRun {
        count: sum.total(),
        top: run,
        bottom: executor::Run::default(),
        pairs_tested,
    };
    summary.finish(&done, opts)?;
    Ok(done)
}

/// Boards of at most this many squares run their two parts side by side.
const SIDE_BY_SIDE_SQUARES: usize = 42;

/// Boundaries with their counts as packed numbers (see [`Boundary::packed`]).
fn packed(states: &[(Boundary, u128)]) -> Vec<(u128, u128)> {
    states.iter().map(|(b, c)| (b.packed(), *c)).collect()
}

/// Two partial results of a join added.
fn plus(mut a: (ProductSum, u64), b: (ProductSum, u64)) -> (ProductSum, u64) {
    a.0.add(b.0);
    a.1 += b.1;
    a
}

/// How many states one parallel piece of a join takes: about four pieces
/// a thread, and at least 1024 states.
fn piece_size(states: usize) -> usize {
    (states / (4 * rayon::current_num_threads().max(1))).max(1 << 10)
}

/// Meets bottom states (packed boundaries with their counts) with the
/// table: the sum of the products of their counts, and the pairs tested.
fn meet_all(table: &Table, states: impl IntoIterator<Item = (u128, u128)>) -> (ProductSum, u64) {
    let (mut sum, mut tested) = (ProductSum::default(), 0u64);
    for (k, count) in states {
        tested += table.meet(&Boundary::unpacked(k), count, &mut sum);
    }
    (sum, tested)
}

/// Meets the bottom part's final states `chunk` (packed boundaries) with
/// the table, or with a middle, the bottom states that the lower part's
/// final states make with its edges, added up by state (and mirror image):
/// the sum of the products of their counts, and the pairs tested. Each
/// piece of the work first checks whether the count is to stop.
fn join_bottom(
    table: &Table,
    middle: &Option<Middle>,
    w: usize,
    chunk: &[(u128, u128)],
    room: u64,
    opts: &RunOptions<'_>,
) -> Result<(ProductSum, u64)> {
    let per = piece_size(chunk.len());
    let Some(middle) = middle else {
        return chunk
            .par_chunks(per)
            .map(|c| -> Result<(ProductSum, u64)> {
                opts.check_stop(executor::JOINING)?;
                Ok(meet_all(table, c.iter().copied()))
            })
            .try_reduce(|| (ProductSum::default(), 0), |a, b| Ok(plus(a, b)));
    };
    join_through(table, middle, w, chunk, room, opts)
}

/// [`join_bottom`] through the middle. The lower part's states expand
/// into many bottom states: a chunk whose expansion would pass `room`
/// bytes is joined in halves (the same sum, with less adding up of equal
/// states); a single state is joined whatever it takes.
fn join_through(
    table: &Table,
    middle: &Middle,
    w: usize,
    chunk: &[(u128, u128)],
    room: u64,
    opts: &RunOptions<'_>,
) -> Result<(ProductSum, u64)> {
    let room = if chunk.len() > 1 { room } else { u64::MAX };
    match join_middle(table, middle, w, chunk, room, opts) {
        Ok(done) => Ok(done),
        Err(Expansion::Err(e)) => Err(e),
        Err(Expansion::TooLarge) => {
            let (a, b) = chunk.split_at(chunk.len() / 2);
            let a = join_through(table, middle, w, a, room, opts)?;
            let b = join_through(table, middle, w, b, room, opts)?;
            Ok(plus(a, b))
        }
    }
}

/// Why a join through the middle stopped.
enum Expansion {
    /// The expanded states would pass the memory left for them.
    TooLarge,
    Err(Error),
}

impl From<Error> for Expansion {
    fn from(e: Error) -> Expansion {
        Expansion::Err(e)
    }
}

/// [`join_bottom`] through the middle for one chunk, whose expanded
/// states may take at most `room` bytes.
fn join_middle(
    table: &Table,
    middle: &Middle,
    w: usize,
    chunk: &[(u128, u128)],
    room: u64,
    opts: &RunOptions<'_>,
) -> std::result::Result<(ProductSum, u64), Expansion> {
    let per = piece_size(chunk.len());
    let entry = std::mem::size_of::<(u128, u128)>() as u64;
    let expanded = AtomicU64::new(0);
    // Expanded in parallel into shards by state; each shard is added up
    // and met on its own.
    const SHARDS: usize = 16;
    let mirror = Relabel::mirror(w);
    let pieces: Vec<Vec<Vec<(u128, u128)>>> = chunk
        .par_chunks(per)
        .map(
            |c| -> std::result::Result<Vec<Vec<(u128, u128)>>, Expansion> {
                opts.check_stop(executor::JOINING)?;
                let mut out: Vec<Vec<(u128, u128)>> = vec![Vec::new(); SHARDS];
                let mut added = 0u64;
                for (i, &(k, count)) in c.iter().enumerate() {
                    middle.expand(Boundary::unpacked(k), &mut |b| {
                        let k = b.packed().min(mirror.of(b).packed());
                        let h = (k as u64 ^ (k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        out[(h >> 60) as usize].push((k, count));
                        added += 1;
                    });
                    if i % 64 == 63 {
                        let total = expanded.fetch_add(added, Ordering::Relaxed) + added;
                        added = 0;
                        // Twice the entries: a vector's spare capacity.
                        if total.saturating_mul(2 * entry) > room {
                            return Err(Expansion::TooLarge);
                        }
                    }
                }
                Ok(out)
            },
        )
        .collect::<std::result::Result<_, Expansion>>()?;
    (0..SHARDS)
        .into_par_iter()
        .map(|j| -> Result<(ProductSum, u64)> {
            opts.check_stop(executor::JOINING)?;
            let mut v: Vec<(u128, u128)> =
                pieces.iter().flat_map(|p| p[j].iter().copied()).collect();
            executor::merge(&mut v).map_err(|stop| match stop {
                Stop::Err(e) => e,
                Stop::Overflow => executor::part_overflow(),
                Stop::OverMemory(_) => {
                    crate::Error::Internal("a merge passed a memory bound".into())
                }
            })?;
            Ok(meet_all(table, v))
        })
        .try_reduce(|| (ProductSum::default(), 0), |a, b| Ok(plus(a, b)))
        .map_err(Expansion::Err)
}

/// The top part's final states, unfolded from their mirror images, in
/// runs of one pattern (degrees and terminals) each, and each pattern's run.
struct Table {
    states: Vec<(Links, u128)>,
    runs: FxHashMap<u64, (usize, usize)>,
    /// The patterns with a run, a bit for each [`pattern_index`]: most
    /// patterns a bottom state looks up have none.
    present: Vec<u64>,
    seps: usize,
}

impl Table {
    /// The table of the top's states (from [`unfolded`], in any order).
    fn new(mut entries: Vec<(u64, Links, u128)>, seps: usize) -> Table {
        // In runs: the states a bottom state meets lie together in memory.
        entries.par_sort_unstable_by_key(|e| e.0);
        let mut runs: FxHashMap<u64, (usize, usize)> = FxHashMap::default();
        let mut present = vec![0u64; (3 * 3usize.pow(seps as u32)).div_ceil(64)];
        let mut start = 0;
        for i in 0..entries.len() {
            if i + 1 == entries.len() || entries[i + 1].0 != entries[i].0 {
                runs.insert(entries[i].0, (start, i + 1));
                let p = pattern_index(entries[i].0, seps);
                present[p / 64] |= 1 << (p % 64);
                start = i + 1;
            }
        }
        Table {
            states: entries.into_iter().map(|(_, l, c)| (l, c)).collect(),
            runs,
            present,
            seps,
        }
    }

    /// Adds to `sum` the products of `count` and the counts of the top
    /// states that the bottom state `b` makes paths with; returns the top
    /// states tested.
    fn meet(&self, b: &Boundary, count: u128, sum: &mut ProductSum) -> u64 {
        let mut tested = 0u64;
        let links = Links::of(b, self.seps);
        each_pattern(pattern_key(b.degrees, b.term), self.seps, |pattern, p| {
            if self.present[p / 64] >> (p % 64) & 1 == 0 {
                return;
            }
            let Some(&(from, to)) = self.runs.get(&pattern) else {
                return;
            };
            tested += (to - from) as u64;
            let run = &self.states[from..to];
            let walk = Walk::new(run[0].0.ends, &links);
            for (t, c) in run {
                if walk.one_path(t, &links) {
                    sum.add_product(count, *c);
                }
            }
        });
        tested
    }
}

/// The top's final states of `chunk` as table entries: pattern, links and
/// count. They are kept up to mirror image, each with the count of itself
/// and its image, which have the same count (the part is symmetric):
/// unfold them into the exact, symmetric table. (A state whose count is odd
/// has no completion, so the halves do not matter.)
fn unfolded(
    chunk: &[(Boundary, u128)],
    seps: usize,
    mirror: Option<&Relabel>,
) -> Vec<(u64, Links, u128)> {
    let entry = |b: &Boundary, c: u128| (pattern_key(b.degrees, b.term), Links::of(b, seps), c);
    let Some(mirror) = mirror else {
        return chunk.iter().map(|&(b, c)| entry(&b, c)).collect();
    };
    let mut out = Vec::with_capacity(2 * chunk.len());
    for &(b, c) in chunk {
        let m = mirror.of(&b);
        if m == b {
            out.push(entry(&b, c));
        } else {
            out.push(entry(&b, c / 2));
            out.push(entry(&m, c - c / 2));
        }
    }
    out
}

/// A symmetry of the separator: the square each separator square goes to,
/// looked up rather than computed (a boundary is relabelled once for every
/// state of a final layer and every bottom state a middle makes).
#[derive(Copy, Clone, Debug)]
struct Relabel {
    image: [u8; 2 * MAX_WIDTH],
    seps: usize,
}

impl Relabel {
    fn new(w: usize, image: impl Fn(usize) -> usize) -> Relabel {
        Relabel::of_image(&(0..2 * w).map(image).collect::<Vec<_>>())
    }

    /// The relabelling of a separator whose square `s` goes to `image[s]`.
    fn of_image(image: &[usize]) -> Relabel {
        let mut out = Relabel {
            image: [0; 2 * MAX_WIDTH],
            seps: image.len(),
        };
        for (s, &t) in image.iter().enumerate() {
            out.image[s] = t as u8;
        }
        out
    }

    /// Upside down: the two separator rows swapped.
    fn swap(w: usize) -> Relabel {
        Relabel::new(w, |s| (s + w) % (2 * w))
    }

    /// The mirror image: column `c` of each separator row becomes column
    /// `w - 1 - c`.
    fn mirror(w: usize) -> Relabel {
        Relabel::new(w, |s| s - s % w + (w - 1 - s % w))
    }

    /// The boundary `b` with each separator square moved to its image.
    #[inline]
    fn of(&self, b: &Boundary) -> Boundary {
        let mut out = Boundary {
            degrees: 0,
            term: b.term,
            mates: 0,
        };
        for s in 0..self.seps {
            let d = (b.degrees >> (2 * s)) & 3;
            let to = u32::from(self.image[s]);
            out.degrees |= d << (2 * to);
            if d == 1 {
                let m = ((b.mates >> (4 * s)) & 15) as usize;
                out.mates |= u64::from(self.image[m]) << (4 * to);
            }
        }
        out
    }
}

/// The edges between the two separator rows, added to the lower part's
/// final states one by one, and the bottom patterns that meet some top
/// pattern. The squares' degrees become final path by path of the middle
/// graph; a pattern's index is its degrees in base 3, the squares numbered
/// in that order (then its terminals), so that the squares final so far are
/// the low digits: after each edge, the state must agree on the squares
/// with no edge left with some pattern that meets a top one.
struct Middle {
    /// Edges in order, path by path.
    edges: Vec<(u8, u8)>,
    /// After how many edges which squares become final.
    checks: Vec<(usize, Vec<u8>)>,
    /// The base 3 digit weight of each square.
    weight: [u32; 2 * MAX_WIDTH],
    /// For each check, the bottom patterns on the squares final then, as a
    /// bitmap over the low digits and the terminals.
    bits: Vec<Vec<u64>>,
    /// For each check, 3 to the number of squares final then.
    planes: Vec<u32>,
}

impl Middle {
    fn new(w: usize, top_patterns: impl Iterator<Item = u64>) -> Middle {
        let seps = 2 * w;
        let nbrs = |s: usize| -> Vec<usize> {
            let (r, c) = (s / w, s % w);
            [c.wrapping_sub(2), c + 2]
                .into_iter()
                .filter(|&c2| c2 < w)
                .map(|c2| (1 - r) * w + c2)
                .collect()
        };
        let mut order = Vec::new();
        let mut edges = Vec::new();
        let mut checks = Vec::new();
        // Lone squares first, then each path from one of its ends.
        let lone: Vec<u8> = (0..seps)
            .filter(|&s| nbrs(s).is_empty())
            .map(|s| s as u8)
            .collect();
        order.extend(&lone);
        checks.push((0, lone));
        for s in 0..seps {
            if order.contains(&(s as u8)) || nbrs(s).len() != 1 {
                continue;
            }
            // A square's degree is final after its last edge: each square
            // of the path after the edge to the next, the last one with it.
            let (mut prev, mut at) = (usize::MAX, s);
            while let Some(next) = nbrs(at).into_iter().find(|&x| x != prev) {
                edges.push((at as u8, next as u8));
                let mut done = vec![at as u8];
                if nbrs(next).len() == 1 {
                    done.push(next as u8);
                }
                order.extend(&done);
                checks.push((edges.len(), done));
                (prev, at) = (at, next);
            }
        }
        let mut weight = [0u32; 2 * MAX_WIDTH];
        for (i, &s) in order.iter().enumerate() {
            weight[s as usize] = 3u32.pow(i as u32);
        }
        // The squares final at each check, as a prefix of `order`.
        let mut finals = Vec::new();
        let mut digits = 0usize;
        for (_, squares) in &checks {
            digits += squares.len();
            finals.push(digits);
        }
        let plane = |j: usize| 3usize.pow(finals[j] as u32);
        let mut bits: Vec<Vec<u64>> = (0..finals.len())
            .map(|j| vec![0u64; (3 * plane(j)).div_ceil(64)])
            .collect();
        // The last check from the patterns, each one before it from the
        // next: its low digits.
        let last = finals.len() - 1;
        for k in top_patterns {
            each_pattern(k, seps, |b, _| {
                let (degrees, term) = (b as u32, (b >> 32) as usize);
                let index: usize = order
                    .iter()
                    .map(|&s| ((degrees >> (2 * s)) & 3) as usize * weight[s as usize] as usize)
                    .sum();
                let i = index + term * plane(last);
                bits[last][i / 64] |= 1 << (i % 64);
            });
        }
        for j in (0..last).rev() {
            let (lower, upper) = bits.split_at_mut(j + 1);
            for (word, &set) in upper[0].iter().enumerate() {
                let mut set = set;
                while set != 0 {
                    let i = word * 64 + set.trailing_zeros() as usize;
                    set &= set - 1;
                    let (term, index) = (i / plane(j + 1), i % plane(j + 1));
                    let p = index % plane(j) + term * plane(j);
                    lower[j][p / 64] |= 1 << (p % 64);
                }
            }
        }
        let planes = finals.iter().map(|&d| 3u32.pow(d as u32)).collect();
        Middle {
            edges,
            checks,
            weight,
            bits,
            planes,
        }
    }

    /// Calls `f` with every bottom state that the lower part's state `b`
    /// makes with edges of the middle and that may meet a top state.
    fn expand(&self, b: Boundary, f: &mut impl FnMut(&Boundary)) {
        self.from(b, 0, 0, 0, f);
    }

    /// Goes on from edge `e` and check `check`, with `index` the base 3
    /// value of the squares final so far.
    fn from(&self, b: Boundary, e: usize, check: usize, index: u32, f: &mut impl FnMut(&Boundary)) {
        let (mut check, mut index) = (check, index);
        if check < self.checks.len() && self.checks[check].0 == e {
            for &s in &self.checks[check].1 {
                index += ((b.degrees >> (2 * s)) & 3) * self.weight[s as usize];
            }
            let i = (index + u32::from(b.term) * self.planes[check]) as usize;
            if self.bits[check][i / 64] >> (i % 64) & 1 == 0 {
                return;
            }
            check += 1;
        }
        match self.edges.get(e) {
            None => f(&b),
            Some(&(u, v)) => {
                self.from(b, e + 1, check, index, f);
                if let Some(j) = joined(&b, u as usize, v as usize) {
                    self.from(j, e + 1, check, index, f);
                }
            }
        }
    }
}

/// The boundary `b` with the edge between separator squares `u` and `v`
/// added: a new path, a path extended, or two paths joined into one (a
/// path to a terminal inside the part stays one), or `None` where a square
/// would get a third edge, a cycle would close, or two paths to terminals
/// would join (the whole path, leaving the top part's squares out).
fn joined(b: &Boundary, u: usize, v: usize) -> Option<Boundary> {
    let deg = |s: usize| (b.degrees >> (2 * s)) & 3;
    let mate = |s: usize| ((b.mates >> (4 * s)) & 15) as usize;
    let (du, dv) = (deg(u), deg(v));
    if du == 2 || dv == 2 {
        return None;
    }
    let mut out = *b;
    out.degrees += (1 << (2 * u)) + (1 << (2 * v));
    let set =
        |m: &mut u64, s: usize, t: usize| *m = (*m & !(15 << (4 * s))) | ((t as u64) << (4 * s));
    let m = &mut out.mates;
    match (du, dv) {
        (0, 0) => {
            set(m, u, v);
            set(m, v, u);
        }
        (0, _) | (_, 0) => {
            let (new, old) = if du == 0 { (u, v) } else { (v, u) };
            let p = mate(old);
            if p == old {
                set(m, new, new);
            } else {
                set(m, new, p);
                set(m, p, new);
            }
            set(m, old, 0);
        }
        _ => {
            let (mu, mv) = (mate(u), mate(v));
            if mu == v || (mu == u && mv == v) {
                return None;
            }
            if mu == u {
                set(m, mv, mv);
            } else if mv == v {
                set(m, mu, mu);
            } else {
                set(m, mu, mv);
                set(m, mv, mu);
            }
            set(m, u, 0);
            set(m, v, 0);
        }
    }
    Some(out)
}

/// The table's key of a bottom pattern: its degrees and its terminals.
fn pattern_key(degrees: u32, term: u8) -> u64 {
    u64::from(degrees) | (u64::from(term) << 32)
}

/// Calls `f` with the key of every pattern of the other part that a
/// state of one part with pattern `t` (degrees and terminals) can meet,
/// and with its [`pattern_index`]: degrees `2 - d` on every separator
/// square, less one on each of at most `2 - t.term` squares of degree 0 or
/// 1 (which become terminals), with the terminals left for the other part.
fn each_pattern(t: u64, seps: usize, mut f: impl FnMut(u64, usize)) {
    let (degrees, term) = (t as u32, (t >> 32) as u8);
    let deg = |s: usize| (degrees >> (2 * s)) & 3;
    let (mut base, mut index) = (0u32, 0usize);
    for s in (0..seps).rev() {
        base |= (2 - deg(s)) << (2 * s);
        index = 3 * index + (2 - deg(s)) as usize;
    }
    let free = 2 - term;
    let plane = 3usize.pow(seps as u32);
    f(pattern_key(base, free), index + usize::from(free) * plane);
    if free == 0 {
        return;
    }
    let mut weight_a = 1;
    for a in 0..seps {
        if deg(a) <= 1 {
            let one = base - (1 << (2 * a));
            let one_index = index - weight_a;
            f(
                pattern_key(one, free - 1),
                one_index + usize::from(free - 1) * plane,
            );
            if free == 2 {
                let mut weight_b = 3 * weight_a;
                for b in a + 1..seps {
                    if deg(b) <= 1 {
                        f(pattern_key(one - (1 << (2 * b)), 0), one_index - weight_b);
                    }
                    weight_b *= 3;
                }
            }
        }
        weight_a *= 3;
    }
}

/// A pattern's place among all patterns of `seps` squares: its degrees in
/// base 3, then its terminals.
fn pattern_index(k: u64, seps: usize) -> usize {
    let (degrees, term) = (k as u32, (k >> 32) as usize);
    let index = (0..seps)
        .rev()
        .fold(0, |i, s| 3 * i + ((degrees >> (2 * s)) & 3) as usize);
    index + term * 3usize.pow(seps as u32)
}

/// A boundary ready for a [`Walk`]: each separator square's link in its
/// part (the square at the other end of its path, or [`SINK`] for a square
/// of degree 0 or 2 and for a path to a terminal inside the part), and
/// masks of the squares of degree 1 and of those linked to a terminal.
#[derive(Copy, Clone, Debug)]
struct Links {
    link: [u8; 2 * MAX_WIDTH + 1],
    ends: u32,
    terminal: u32,
}

/// Where a walk over the links goes when its path ends; it stays there.
const SINK: u8 = 2 * MAX_WIDTH as u8;

impl Links {
    fn of(p: &Boundary, seps: usize) -> Links {
        let mut out = Links {
            link: [SINK; 2 * MAX_WIDTH + 1],
            ends: 0,
            terminal: 0,
        };
        for s in 0..seps {
            if (p.degrees >> (2 * s)) & 3 == 1 {
                let m = ((p.mates >> (4 * s)) & 15) as usize;
                out.ends |= 1 << s;
                if m == s {
                    out.terminal |= 1 << s;
                } else {
                    out.link[s] = m as u8;
                }
            }
        }
        out
    }
}

/// Whether a top and a bottom state whose degrees fit make one path (see
/// [`Walk`]).
#[cfg(test)]
fn one_path(t: &Links, b: &Links) -> bool {
    Walk::new(t.ends, b).one_path(t, b)
}

/// The test of the top states of one pattern against one bottom state.
///
/// The separator squares of degree 1 in either part are the *nodes*; in
/// each part a node's link is the node at the other end of its path, or
/// none at an end of the whole path: a path to a terminal inside the part,
/// or a terminal of the separator (degree 1 in one part, 0 in the other).
/// The two parts make one path when the walk from an end, leaving by its
/// one link and then taking the two parts' links in turn, meets every node:
/// since each node has one link in each part, the walk never comes back to
/// a node, so after `nodes - 1` steps it stands on the last node unless it
/// fell into [`SINK`] before. The top states of a pattern share their
/// nodes, so the node count and an end on the bottom's side are found once
/// for the run.
struct Walk {
    nodes: u32,
    /// The end the walk starts from when the bottom or the degrees give
    /// one (a square with a path to the bottom's terminal, or a terminal of
    /// the separator), and whether it leaves by its bottom link.
    start: Option<(usize, bool)>,
}

impl Walk {
    fn new(top_ends: u32, b: &Links) -> Walk {
        let bottom_only = b.ends & !top_ends;
        let ends = b.terminal | (top_ends ^ b.ends);
        let start = (ends != 0).then(|| {
            let s = ends.trailing_zeros() as usize;
            (s, bottom_only >> s & 1 == 1)
        });
        Walk {
            nodes: (top_ends | b.ends).count_ones(),
            start,
        }
    }

    #[inline]
    fn one_path(&self, t: &Links, b: &Links) -> bool {
        // Otherwise both ends of the path are the top's terminals.
        let (mut s, by_bottom) = match self.start {
            Some(start) => start,
            None if t.terminal != 0 => (t.terminal.trailing_zeros() as usize, true),
            None => return false,
        };
        let mut steps = self.nodes - 1;
        if by_bottom && steps > 0 {
            s = usize::from(b.link[s]);
            steps -= 1;
        }
        while steps >= 2 {
            s = usize::from(b.link[usize::from(t.link[s])]);
            steps -= 2;
        }
        if steps == 1 {
            s = usize::from(t.link[s]);
        }
        s != usize::from(SINK)
    }
}

/// Reads a part's final states as boundaries: the separator square of each
/// slot of the part's final frontier.
struct Reader {
    sep_of_slot: Vec<u8>,
    /// The separator squares that left the frontier (they have all their
    /// edges in the part).
    gone: u32,
}

impl Reader {
    fn new(part: &Part, engine: &Engine) -> Reader {
        Reader::of(&part.sep_of, 2 * part_width(part), engine)
    }

    /// The reader of a part with `seps` separator squares whose vertices
    /// have the separator indices `sep_of`.
    fn of(sep_of: &[Option<u8>], seps: usize, engine: &Engine) -> Reader {
        let sep_of_slot: Vec<u8> = engine
            .final_frontier
            .iter()
            .map(|&v| sep_of[v].expect("only separator squares stay in a part's frontier"))
            .collect();
        let all = (1u32 << seps) - 1;
        let seen = sep_of_slot.iter().fold(0u32, |m, &s| m | 1 << s);
        Reader {
            sep_of_slot,
            gone: all & !seen,
        }
    }

    /// The boundaries of the final states of `chunk`, with their counts.
    fn boundaries(&self, engine: &Engine, chunk: &[(u128, u128)]) -> Vec<(Boundary, u128)> {
        chunk
            .iter()
            .map(|&(key, c)| (self.boundary(engine, key), c))
            .collect()
    }

    /// The separator's degrees, terminals and mates in a final state.
    fn boundary(&self, engine: &Engine, key: u128) -> Boundary {
        let (st, mate) = engine.final_roles(key);
        let (mut degrees, mut term, mut mates) = (0u32, 0u8, 0u64);
        for (slot, &s) in self.sep_of_slot.iter().enumerate() {
            let d = match st[slot] {
                UNTOUCHED => 0,
                END => 1,
                DONE => 2,
                _ => unreachable!("a role is untouched, end or done"),
            };
            degrees |= d << (2 * s);
            if d == 1 {
                let m = mate[slot];
                let other = if m == super::frontier::FREE {
                    term += 1;
                    s
                } else {
                    self.sep_of_slot[m as usize]
                };
                mates |= u64::from(other) << (4 * s);
            }
        }
        let mut gone = self.gone;
        while gone != 0 {
            degrees |= 2 << (2 * gone.trailing_zeros());
            gone &= gone - 1;
        }
        Boundary {
            degrees,
            term,
            mates,
        }
    }
}

fn part_width(part: &Part) -> usize {
    part.sep_of.iter().flatten().count() / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(degrees: &[u32], mates: &[(usize, usize)]) -> Boundary {
        let mut out = Boundary {
            degrees: 0,
            term: 0,
            mates: 0,
        };
        for (s, &d) in degrees.iter().enumerate() {
            out.degrees |= d << (2 * s);
        }
        for &(s, m) in mates {
            out.mates |= (m as u64) << (4 * s);
            if s == m {
                out.term += 1;
            }
        }
        out
    }

    #[test]
    fn one_path_joins_the_parts_at_the_separator() {
        // Four squares. Top: 0-1 joined, 2 leads to a terminal, 3 done.
        let t = b(&[1, 1, 1, 2], &[(0, 1), (1, 0), (2, 2)]);
        // Bottom: 1-2 joined, 0 a terminal on the separator, 3 untouched.
        let good = b(&[0, 1, 1, 0], &[(1, 2), (2, 1)]);
        assert!(one_path(&Links::of(&t, 4), &Links::of(&good, 4)));
        // Bottom: 0 and 1 joined: a cycle 0-1-0 and a lone end.
        let bad = b(&[1, 1, 0, 0], &[(0, 1), (1, 0)]);
        assert!(!one_path(&Links::of(&t, 4), &Links::of(&bad, 4)));
    }

    /// Adding a middle edge follows the paths: a new path, a path
    /// extended (to a terminal too), two paths joined into one; never a
    /// third edge at a square, a cycle, or a path between two terminals.
    #[test]
    fn middle_edges_join_paths() {
        // Squares 0 1 2 / 3 4 5.
        let empty = b(&[0; 6], &[]);
        assert_eq!(
            joined(&empty, 0, 5),
            Some(b(&[1, 0, 0, 0, 0, 1], &[(0, 5), (5, 0)]))
        );
        // 0 leads to a terminal; 3 takes it over.
        let t = b(&[1, 2, 0, 0, 0, 0], &[(0, 0)]);
        assert_eq!(joined(&t, 0, 3), Some(b(&[2, 2, 0, 1, 0, 0], &[(3, 3)])));
        // 0-1 and 2-3 joined at 1 and 2: one path 0-3.
        let two = b(&[1, 1, 1, 1, 0, 0], &[(0, 1), (1, 0), (2, 3), (3, 2)]);
        assert_eq!(
            joined(&two, 1, 2),
            Some(b(&[1, 2, 2, 1, 0, 0], &[(0, 3), (3, 0)]))
        );
        // A path to a terminal joined to another path: it leads to the terminal.
        let mixed = b(&[1, 1, 1, 0, 0, 0], &[(0, 0), (1, 2), (2, 1)]);
        assert_eq!(
            joined(&mixed, 0, 1),
            Some(b(&[2, 2, 1, 0, 0, 0], &[(2, 2)]))
        );
        // Closing 0-1 into a cycle, two terminals' paths, a third edge.
        assert_eq!(joined(&two, 0, 1), None);
        assert_eq!(
            joined(&b(&[1, 1, 0, 0, 0, 0], &[(0, 0), (1, 1)]), 0, 1),
            None
        );
        assert_eq!(joined(&t, 1, 4), None);
    }

    /// The middle's edges, path by path: each separator square is checked
    /// once, after the last edge at it, and every knight's move between
    /// the two separator rows is there once.
    #[test]
    fn the_middle_is_taken_path_by_path() {
        for w in 3..=MAX_WIDTH {
            let m = Middle::new(w, std::iter::empty());
            assert_eq!(m.edges.len(), 2 * (w - 2), "{w}");
            let mut checked: Vec<u8> = m.checks.iter().flat_map(|c| c.1.clone()).collect();
            checked.sort_unstable();
            assert_eq!(checked, (0..2 * w as u8).collect::<Vec<_>>(), "{w}");
            for &(u, v) in &m.edges {
                let (u, v) = (usize::from(u.min(v)), usize::from(u.max(v)));
                assert!(
                    u < w && v >= w && (u % w).abs_diff(v % w) == 2,
                    "{w}: {u}-{v}"
                );
                let at = |s: usize| {
                    m.checks
                        .iter()
                        .find(|c| c.1.contains(&(s as u8)))
                        .unwrap()
                        .0
                };
                // Checked right after the last edge at it.
                for s in [u, v] {
                    let last = m
                        .edges
                        .iter()
                        .rposition(|&(x, y)| usize::from(x) == s || usize::from(y) == s);
                    assert_eq!(at(s), last.unwrap() + 1, "{w}: square {s}");
                }
            }
            // No pattern meets an empty table: every state is turned away.
            let mut seen = 0;
            m.expand(b(&vec![0; 2 * w], &[]), &mut |_| seen += 1);
            assert_eq!(seen, 0);
        }
    }

    /// The checks along the middle only turn away what the last one would:
    /// on 6x5 (5 wide, 6 edges), every lower state expands to exactly the
    /// bottom states, of all the ways to add middle edges, whose pattern
    /// meets one of the top's.
    #[test]
    fn the_middle_prunes_only_what_cannot_meet() {
        fn every(b: Boundary, edges: &[(u8, u8)], out: &mut Vec<u128>) {
            match edges.split_first() {
                None => out.push(b.packed()),
                Some((&(u, v), rest)) => {
                    every(b, rest, out);
                    if let Some(j) = joined(&b, usize::from(u), usize::from(v)) {
                        every(j, rest, out);
                    }
                }
            }
        }
        let (rows, w) = (6, 5);
        let ([top, bottom], shared) = parts(rows, w);
        assert!(shared);
        let engine = Engine::new(&top.problem).unwrap();
        let finals: Mutex<Vec<(u128, u128)>> = Mutex::new(Vec::new());
        let keep = |c: &[(u128, u128)]| -> Result<()> {
            finals.lock().unwrap().extend_from_slice(c);
            Ok(())
        };
        executor::run(
            &top.problem,
            &RunOptions {
                final_layer: Some(&keep),
                ..RunOptions::default()
            },
        )
        .unwrap();
        let finals = finals.into_inner().unwrap();
        let tops = Reader::new(&top, &engine).boundaries(&engine, &finals);
        let table = Table::new(unfolded(&tops, 2 * w, Some(&Relabel::mirror(w))), 2 * w);
        let middle = Middle::new(w, table.runs.keys().copied());
        let meets: std::collections::HashSet<u64> = table
            .runs
            .keys()
            .flat_map(|&k| {
                let mut v = Vec::new();
                each_pattern(k, 2 * w, |p, _| v.push(p));
                v
            })
            .collect();
        let reader = Reader::new(&bottom, &engine);
        let (mut kept, mut all) = (0, 0);
        for (&(key, _), (t, _)) in finals.iter().zip(&tops) {
            // The top state upside down is the lower part's.
            let b = reader.boundary(&engine, key);
            assert_eq!(Relabel::swap(w).of(t), b);
            let mut got = Vec::new();
            middle.expand(b, &mut |x| got.push(x.packed()));
            let mut want = Vec::new();
            every(b, &middle.edges, &mut want);
            all += want.len();
            want.retain(|&k| {
                let x = Boundary::unpacked(k);
                meets.contains(&pattern_key(x.degrees, x.term))
            });
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want);
            kept += got.len();
        }
        assert!(kept > 0 && kept < all, "{kept} of {all}");
    }

    /// The lower part is the top upside down exactly on even row counts.
    #[test]
    fn even_rows_run_the_top_alone() {
        for rows in 4..=9 {
            for w in 3..=MAX_WIDTH {
                assert_eq!(parts(rows, w).1, rows % 2 == 0, "{rows}x{w}");
                let runs = if across(rows, w).unwrap().is_some() {
                    1
                } else {
                    2 - usize::from(rows % 2 == 0)
                };
                assert_eq!(part_problems(rows, w).len(), runs, "{rows}x{w}");
            }
        }
    }

    /// Every board of 4 to 6 rows with a plan (whether or not it is used):
    /// the meet across its separator counts what the row cut counts.
    #[test]
    fn across_a_separator_counts_as_the_row_cut() {
        let mut planned = Vec::new();
        for rows in 4..=6 {
            for w in 3..=rows {
                let Some(plan) = Plan::find(rows, w) else {
                    continue;
                };
                let opts = RunOptions::default();
                let across = open_tours_across(&plan, &opts).unwrap();
                let by_rows = open_tours_by_rows(rows, w, &opts).unwrap();
                assert_eq!(across.count, by_rows.count, "{rows}x{w}");
                planned.push((rows, w, across.count.to_u128().unwrap()));
            }
        }
        // 5x5, 6x5 and 6x6 among them, with tours.
        for (rows, w, count) in [(5, 5, 864), (6, 5, 18784), (6, 6, 3318960)] {
            assert!(planned.contains(&(rows, w, count)), "{planned:?}");
        }
    }

    /// The plans are used where the half's frontier is two squares narrower
    /// than the row cut's top part's, and not on 8x5, where it is one.
    #[test]
    fn plans_are_used_where_their_frontier_is_narrower() {
        let used: Vec<(usize, usize)> = (4..=10)
            .flat_map(|rows| (3..=rows.min(MAX_WIDTH)).map(move |w| (rows, w)))
            .filter(|&(rows, w)| across(rows, w).unwrap().is_some())
            .collect();
        for board in [(6, 6), (7, 6), (7, 5), (6, 5), (7, 4)] {
            assert!(used.contains(&board), "{board:?} in {used:?}");
        }
        for board in [(9, 5), (8, 5), (8, 6), (7, 7), (8, 8)] {
            assert!(!used.contains(&board), "{board:?} in {used:?}");
        }
    }

    #[test]
    fn mirror_images_of_boundaries() {
        // Two rows of 3: squares 0 1 2 / 3 4 5.
        let t = b(&[1, 0, 2, 1, 1, 1], &[(0, 3), (3, 0), (4, 5), (5, 4)]);
        let m = Relabel::mirror(3).of(&t);
        assert_eq!(m, b(&[2, 0, 1, 1, 1, 1], &[(2, 5), (5, 2), (4, 3), (3, 4)]));
        assert_eq!(Relabel::mirror(3).of(&m), t);
    }

    /// The table is looked up from the bottom's side: a bottom pattern
    /// that a top state can meet must be one whose own patterns hold the
    /// top state's, and the other way round.
    #[test]
    fn patterns_meet_both_ways() {
        for t in [
            b(&[1, 1, 0, 2], &[(0, 1), (1, 0)]),
            b(&[1, 0, 0, 2], &[(0, 0)]),
            b(&[1, 0, 1, 2], &[(0, 0), (2, 2)]),
            b(&[0, 0, 0, 0], &[]),
        ] {
            let own = pattern_key(t.degrees, t.term);
            let mut n = 0;
            each_pattern(own, 4, |k, i| {
                n += 1;
                assert_eq!(i, pattern_index(k, 4));
                let mut back = false;
                each_pattern(k, 4, |j, _| back |= j == own);
                assert!(back, "{t:?} and {k:x}");
            });
            let m = (0..4).filter(|&s| (t.degrees >> (2 * s)) & 3 <= 1).count();
            let want = match t.term {
                2 => 1,
                1 => 1 + m,
                _ => 1 + m + m * (m - 1) / 2,
            };
            assert_eq!(n, want, "{t:?}");
        }
    }
}
