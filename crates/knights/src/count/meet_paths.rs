//! Meet in the middle for open tours: the Hamiltonian paths of a board from
//! its two parts.
//!
//! The parts are those of closed tours (`meet.rs`): the board, `w` wide, is
//! cut above row `h`; the *top part* holds the edges with an end above row
//! `h`, the *bottom part* the edges with both ends in rows `h..`, and the
//! separator rows `h` and `h + 1` are the squares both touch. A Hamiltonian
//! path splits in one way into its top edges and its bottom edges. The
//! frontier program counts each part's edge sets as paths (`Shape::Path`):
//! every square of the part that is not a separator square has degree 2 or
//! is one of the path's two *terminals* (degree 1), and a final state gives
//! each separator square its degree in the part (0, 1 or 2), pairs the
//! degree-1 squares joined by a path of the part, and marks those whose path
//! leads to a terminal inside the part (as many as the part holds
//! terminals: a path of a part never runs from terminal to terminal).
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
//! run. The bottom part's final states then stream past it in parallel,
//! each looking up every top pattern it can meet: the complement `2 - d` of
//! its degrees, less one at each of at most `2 - t` separator squares of
//! degree 0 or 1 that become terminals (`t`: the terminals inside the
//! bottom part); every top state of the run is walked with it once.
//! (Entering each top state under every bottom pattern it meets instead
//! made the table 5 to 8 times larger and its build a third of the time
//! of 5x7 open; a run in order keeps the states a bottom state meets
//! together in memory, which took 6x7 open from 1.17 s to 0.78 s.)
//!
//! **Small boards** (at most 42 squares) run their two parts side by side,
//! since their layers are too small to keep both cores busy, and join the
//! bottom's final states, held, once the table is built: 5x7 open from 28 ms
//! to 16 ms.
//!
//! **The cut** is McKay's, above row `(rows - 1) / 2`, so that on odd row
//! counts the top part is the larger one. Measured on 6x7 open (`w = 6`,
//! 7 rows): 10.2 M successors and 0.49 M table states with this cut
//! against 31.8 M and 0.10 M with the cut a row higher, whose bottom part
//! piles up states the way the forward program's second half does.
//!
//! **Mirror images.** Both parts keep their states up to the left-right
//! mirror image (see `frontier.rs`), their final layers too: a bottom state
//! stands for itself and its image, which meet the symmetric table equally
//! often; the top's states are unfolded into both images, each with half
//! the count, before the table is built.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::frontier::{Engine, Shape, DONE, END, UNTOUCHED};
use super::layers::{self, RunOptions};
use super::meet::{shifted, MeetRun, Part, Side, Summary, MAX_WIDTH};
use super::number::ProductSum;
use crate::{Error, Result};

/// Bytes of memory a top state takes in the table, with its entry.
const TABLE_BYTES_PER_STATE: u64 = 72;

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

/// The row above which [`open_tours`] cuts a board of `rows` rows (see
/// the module notes).
pub(crate) fn cut(rows: usize) -> usize {
    (rows - 1) / 2
}

/// The two parts of a `rows x w` board as path problems.
pub(crate) fn part_problems(rows: usize, w: usize) -> [super::frontier::Problem; 2] {
    let [top, bottom] = parts(rows, w);
    [top.problem, bottom.problem]
}

fn parts(rows: usize, w: usize) -> [Part; 2] {
    let h = cut(rows);
    [Side::Top, Side::Bottom].map(|side| {
        let mut part = Part::new(rows, w, h, side);
        part.problem.shape = Shape::Path;
        // Both parts keep their states up to the mirror image, the last
        // layer too: the top's table is unfolded again (see `open_tours`).
        part.problem.mirror = (0..part.problem.n)
            .map(|v| (v - v % w + (w - 1 - v % w)) as u32)
            .collect();
        part
    })
}

/// Counts the open tours (undirected Hamiltonian paths) of a `rows x w`
/// board (`rows >= 4`, `w <= 8`).
pub(crate) fn open_tours(rows: usize, w: usize, opts: &RunOptions<'_>) -> Result<MeetRun> {
    if rows < 4 || !(3..=MAX_WIDTH).contains(&w) {
        return Err(Error::Unsupported(format!(
            "meeting in the middle counts open tours of boards with at least 4 rows and 3 to {MAX_WIDTH} columns, not {rows}x{w}"
        )));
    }
    let [top, bottom] = parts(rows, w);
    let summary = Summary::new(&top.problem, &bottom.problem, opts);
    if let Some(done) = summary.begin(opts)? {
        return Ok(done);
    }
    let top_engine = Engine::new(&top.problem)?;
    let bottom_engine = Engine::new(&bottom.problem)?;
    let budget = opts.budget();
    let seps = 2 * w;
    let top_reader = Reader::new(&top, &top_engine);
    let bottom_reader = Reader::new(&bottom, &bottom_engine);

    // The top part's final states as table entries (see `unfolded`).
    let states: Mutex<Vec<(u64, Links, u128)>> = Mutex::new(Vec::new());
    let bytes = AtomicU64::new(0);
    let collect = |chunk: &[(u128, u128)]| -> Result<()> {
        let local = unfolded(chunk, &top_reader, &top_engine, w);
        let held = bytes.fetch_add(
            local.len() as u64 * TABLE_BYTES_PER_STATE,
            Ordering::Relaxed,
        );
        if held > budget {
            return Err(Error::GaveUp(format!(
                "the count stopped: the top part's states need more than the memory bound of {}; use --method forward",
                crate::memory::human_bytes(budget),
            )));
        }
        states
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(local);
        Ok(())
    };
    let (nt, nb) = (top.problem.n, bottom.problem.n);
    let top_progress = shifted(opts, 0, nt + nb);
    let bottom_progress = shifted(opts, nt, nt + nb);
    let top_opts = RunOptions {
        final_layer: Some(&collect),
        progress: Some(&top_progress),
        ..*opts
    };
    let table = || {
        let entries = std::mem::take(&mut *states.lock().unwrap_or_else(|e| e.into_inner()));
        Table::new(entries, seps)
    };
    let total: Mutex<(ProductSum, u64)> = Mutex::new((ProductSum::default(), 0));
    let join = |table: &Table, chunk: &[(u128, u128)]| {
        let (sum, tested) = table.join(&bottom_reader, &bottom_engine, chunk);
        let mut total = total.lock().unwrap_or_else(|e| e.into_inner());
        total.0.add(sum);
        total.1 += tested;
    };
    let (top_run, bottom_run) =
        if opts.work_dir.is_none() && opts.stop_after.is_none() && rows * w <= SIDE_BY_SIDE_SQUARES
        {
            // A small board: its layers are too small to keep both cores
            // busy, so the parts run side by side, and the bottom's final
            // states wait for the table.
            let held: Mutex<Vec<(u128, u128)>> = Mutex::new(Vec::new());
            let hold = |chunk: &[(u128, u128)]| -> Result<()> {
                held.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(chunk);
                Ok(())
            };
            let (top_run, bottom_run) = rayon::join(
                || layers::run(&top.problem, &top_opts),
                || {
                    layers::run(
                        &bottom.problem,
                        &RunOptions {
                            final_layer: Some(&hold),
                            progress: Some(&bottom_progress),
                            ..*opts
                        },
                    )
                },
            );
            let (top_run, bottom_run) = (top_run?, bottom_run?);
            let held = held.into_inner().unwrap_or_else(|e| e.into_inner());
            let table = table();
            let chunk = (held.len() / (4 * rayon::current_num_threads().max(1))).max(1 << 10);
            held.par_chunks(chunk).for_each(|c| join(&table, c));
            (top_run, bottom_run)
        } else {
            let top_run = layers::run(&top.problem, &top_opts)?;
            let table = table();
            let bottom_run = layers::run(
                &bottom.problem,
                &RunOptions {
                    final_layer: Some(&|chunk: &[(u128, u128)]| {
                        join(&table, chunk);
                        Ok(())
                    }),
                    progress: Some(&bottom_progress),
                    stop_after: opts.stop_after.and_then(|s| s.checked_sub(nt)),
                    ..*opts
                },
            )?;
            (top_run, bottom_run)
        };
    let (sum, pairs_tested) = total.into_inner().unwrap_or_else(|e| e.into_inner());
    let done = MeetRun {
        count: sum.total(),
        top: top_run,
        bottom: bottom_run,
        pairs_tested,
    };
    summary.finish(&done, opts)?;
    Ok(done)
}

/// Boards of at most this many squares run their two parts side by side.
const SIDE_BY_SIDE_SQUARES: usize = 42;

/// The top part's final states, unfolded from their mirror images, in
/// runs of one pattern (degrees and terminals) each, and each pattern's run.
struct Table {
    states: Vec<(Links, u128)>,
    runs: FxHashMap<u64, (usize, usize)>,
    seps: usize,
}

impl Table {
    /// The table of the top's states (from [`unfolded`], in any order).
    fn new(mut entries: Vec<(u64, Links, u128)>, seps: usize) -> Table {
        // In runs: the states a bottom state meets lie together in memory.
        entries.par_sort_unstable_by_key(|e| e.0);
        let mut runs: FxHashMap<u64, (usize, usize)> = FxHashMap::default();
        let mut start = 0;
        for i in 0..entries.len() {
            if i + 1 == entries.len() || entries[i + 1].0 != entries[i].0 {
                runs.insert(entries[i].0, (start, i + 1));
                start = i + 1;
            }
        }
        Table {
            states: entries.into_iter().map(|(_, l, c)| (l, c)).collect(),
            runs,
            seps,
        }
    }

    /// The sum of the products of the counts of the bottom states of
    /// `chunk` and the top states they make paths with, and the pairs
    /// tested.
    fn join(&self, reader: &Reader, engine: &Engine, chunk: &[(u128, u128)]) -> (ProductSum, u64) {
        let (mut sum, mut tested) = (ProductSum::default(), 0u64);
        for &(key, count) in chunk {
            let b = reader.boundary(engine, key);
            let links = Links::of(&b, self.seps);
            each_pattern(pattern_key(b.degrees, b.term), self.seps, |pattern| {
                let Some(&(from, to)) = self.runs.get(&pattern) else {
                    return;
                };
                tested += (to - from) as u64;
                for (t, c) in &self.states[from..to] {
                    if one_path(t, &links) {
                        sum.add_product(count, *c);
                    }
                }
            });
        }
        (sum, tested)
    }
}

/// The top's final states of `chunk` as table entries: pattern, links and
/// count. They are kept up to mirror image, each with the count of itself
/// and its image, which have the same count (the part is symmetric):
/// unfold them into the exact, symmetric table. (A state whose count is odd
/// has no completion, so the halves do not matter.)
fn unfolded(
    chunk: &[(u128, u128)],
    reader: &Reader,
    engine: &Engine,
    w: usize,
) -> Vec<(u64, Links, u128)> {
    let entry = |b: &Boundary, c: u128| (pattern_key(b.degrees, b.term), Links::of(b, 2 * w), c);
    let mut out = Vec::with_capacity(2 * chunk.len());
    for &(key, c) in chunk {
        let b = reader.boundary(engine, key);
        let m = mirrored(&b, w);
        if m == b {
            out.push(entry(&b, c));
        } else {
            out.push(entry(&b, c / 2));
            out.push(entry(&m, c - c / 2));
        }
    }
    out
}

/// The mirror image of a boundary: column `c` of each separator row
/// becomes column `w - 1 - c`.
fn mirrored(b: &Boundary, w: usize) -> Boundary {
    let image = |s: usize| s - s % w + (w - 1 - s % w);
    let mut out = Boundary {
        degrees: 0,
        term: b.term,
        mates: 0,
    };
    for s in 0..2 * w {
        let d = (b.degrees >> (2 * s)) & 3;
        out.degrees |= d << (2 * image(s));
        if d == 1 {
            let m = ((b.mates >> (4 * s)) & 15) as usize;
            out.mates |= (image(m) as u64) << (4 * image(s));
        }
    }
    out
}

/// The table's key of a bottom pattern: its degrees and its terminals.
fn pattern_key(degrees: u32, term: u8) -> u64 {
    u64::from(degrees) | (u64::from(term) << 32)
}

/// Calls `f` with the key of every pattern of the other part that a
/// state of one part with pattern `t` (degrees and terminals) can meet: degrees `2 - d` on every separator
/// square, less one on each of at most `2 - t.term` squares of degree 0 or
/// 1 (which become terminals), with the terminals left for the other part.
fn each_pattern(t: u64, seps: usize, mut f: impl FnMut(u64)) {
    let (degrees, term) = (t as u32, (t >> 32) as u8);
    let deg = |s: usize| (degrees >> (2 * s)) & 3;
    let mut base = 0u32;
    for s in 0..seps {
        base |= (2 - deg(s)) << (2 * s);
    }
    let free = 2 - term;
    f(pattern_key(base, free));
    if free == 0 {
        return;
    }
    for a in (0..seps).filter(|&a| deg(a) <= 1) {
        let one = base - (1 << (2 * a));
        f(pattern_key(one, free - 1));
        if free == 2 {
            for b in (a + 1..seps).filter(|&b| deg(b) <= 1) {
                f(pattern_key(one - (1 << (2 * b)), 0));
            }
        }
    }
}

/// A boundary ready for [`one_path`]: each separator square's link in its
/// part (the square at the other end of its path, [`TERMINAL`] for a path
/// to a terminal inside the part, [`NONE`] unless the square has degree
/// 1), and masks of the squares of degree 1 and of those linked to a
/// terminal.
#[derive(Copy, Clone, Debug)]
struct Links {
    link: [u8; 2 * MAX_WIDTH],
    ends: u32,
    terminal: u32,
}

const NONE: u8 = 255;
const TERMINAL: u8 = 254;

impl Links {
    fn of(p: &Boundary, seps: usize) -> Links {
        let mut out = Links {
            link: [NONE; 2 * MAX_WIDTH],
            ends: 0,
            terminal: 0,
        };
        for s in 0..seps {
            if (p.degrees >> (2 * s)) & 3 == 1 {
                let m = ((p.mates >> (4 * s)) & 15) as usize;
                out.ends |= 1 << s;
                if m == s {
                    out.link[s] = TERMINAL;
                    out.terminal |= 1 << s;
                } else {
                    out.link[s] = m as u8;
                }
            }
        }
        out
    }
}

/// Whether a top and a bottom state whose degrees fit make one path: the
/// separator squares of degree 1 in both parts join a path of the top to
/// one of the bottom; walking from one terminal end (a square whose path
/// in a part leads to a terminal inside it, or a terminal square of the
/// separator, of degree 1 in one part and 0 in the other) must reach the
/// other through every square of degree 1 in either part.
fn one_path(t: &Links, b: &Links) -> bool {
    let nodes = (t.ends | b.ends).count_ones();
    let starts = t.terminal | b.terminal | (t.ends ^ b.ends);
    if starts == 0 {
        return false;
    }
    let mut s = starts.trailing_zeros() as usize;
    // Leave the start by its other link, then alternate parts; a square
    // without a link on a side is a terminal of the separator.
    let mut side = usize::from(t.link[s] >= TERMINAL);
    let mut walked = 1u32;
    loop {
        let next = if side == 0 { t.link[s] } else { b.link[s] };
        if next >= TERMINAL {
            return walked == nodes;
        }
        s = next as usize;
        walked += 1;
        if walked > nodes {
            return false;
        }
        side = 1 - side;
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
        let sep_of_slot: Vec<u8> = engine
            .final_frontier
            .iter()
            .map(|&v| part.sep_of[v].expect("only separator squares stay in a part's frontier"))
            .collect();
        let all = (1u32 << (2 * part_width(part))) - 1;
        let seen = sep_of_slot.iter().fold(0u32, |m, &s| m | 1 << s);
        Reader {
            sep_of_slot,
            gone: all & !seen,
        }
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

    #[test]
    fn mirror_images_of_boundaries() {
        // Two rows of 3: squares 0 1 2 / 3 4 5.
        let t = b(&[1, 0, 2, 1, 1, 1], &[(0, 3), (3, 0), (4, 5), (5, 4)]);
        let m = mirrored(&t, 3);
        assert_eq!(m, b(&[2, 0, 1, 1, 1, 1], &[(2, 5), (5, 2), (4, 3), (3, 4)]));
        assert_eq!(mirrored(&m, 3), t);
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
            each_pattern(own, 4, |k| {
                n += 1;
                let mut back = false;
                each_pattern(k, 4, |j| back |= j == own);
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
