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
//! **The table.** The top part's states are entered in a hash map under
//! every bottom degree pattern they can meet: the complement `2 - d` of
//! their degrees, less one at each of at most `2 - t` separator squares of
//! degree 0 or 1 that become terminals (`t`: the terminals inside the top
//! part). The bottom part's final states then stream past it in parallel,
//! one lookup each, and every top state found is walked with it once.
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

use rustc_hash::FxHashMap;

use super::frontier::{Engine, Shape, DONE, END, UNTOUCHED};
use super::layers::{self, RunOptions};
use super::meet::{shifted, MeetRun, Part, Side, Summary, MAX_WIDTH};
use super::number::ProductSum;
use crate::{Error, Result};

/// Bytes of memory a top state takes in the table, with its entries.
const TABLE_BYTES_PER_STATE: u64 = 64;
/// Bytes of an entry of the table (a top state's index under one pattern).
const TABLE_BYTES_PER_ENTRY: u64 = 8;

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

    // The top part's states, and their indices by the bottom pattern
    // (degrees and terminals) that meets them.
    let states: Mutex<Vec<(Boundary, u128)>> = Mutex::new(Vec::new());
    let bytes = AtomicU64::new(0);
    let collect = |chunk: &[(u128, u128)]| -> Result<()> {
        let local: Vec<(Boundary, u128)> = chunk
            .iter()
            .map(|&(key, count)| (boundary(&top, &top_engine, key), count))
            .collect();
        let entries: u64 = local.iter().map(|(b, _)| patterns(b, seps)).sum();
        let held = bytes.fetch_add(
            local.len() as u64 * TABLE_BYTES_PER_STATE + entries * TABLE_BYTES_PER_ENTRY,
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
    let top_run = layers::run(
        &top.problem,
        &RunOptions {
            final_layer: Some(&collect),
            progress: Some(&top_progress),
            ..*opts
        },
    )?;
    // The top's final states are kept up to mirror image, each with the
    // count of itself and its image, which have the same count (the part is
    // symmetric): unfold them into the exact, symmetric table. (A state
    // whose count is odd has no completion, so the halves do not matter.)
    let mut states: Vec<(Boundary, u128)> = states
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flat_map(|(b, c)| {
            let m = mirrored(&b, w);
            if m == b {
                vec![(b, c)]
            } else {
                vec![(b, c / 2), (m, c - c / 2)]
            }
        })
        .collect();
    // Chunks arrive in an order that varies with the threads.
    states.sort_unstable_by_key(|&(b, c)| (b.degrees, b.term, b.mates, c));
    let mut table: FxHashMap<u64, Vec<u32>> = FxHashMap::default();
    for (i, (b, _)) in states.iter().enumerate() {
        each_pattern(b, seps, |key| table.entry(key).or_default().push(i as u32));
    }

    let total: Mutex<(ProductSum, u64)> = Mutex::new((ProductSum::default(), 0));
    let join = |chunk: &[(u128, u128)]| -> Result<()> {
        let (mut sum, mut tested) = (ProductSum::default(), 0u64);
        for &(key, count) in chunk {
            let b = boundary(&bottom, &bottom_engine, key);
            let Some(partners) = table.get(&pattern_key(b.degrees, b.term)) else {
                continue;
            };
            tested += partners.len() as u64;
            for &i in partners {
                let (t, c) = states[i as usize];
                if one_path(&t, &b, seps) {
                    sum.add_product(count, c);
                }
            }
        }
        let mut total = total.lock().unwrap_or_else(|e| e.into_inner());
        total.0.add(sum);
        total.1 += tested;
        Ok(())
    };
    let bottom_progress = shifted(opts, nt, nt + nb);
    let bottom_run = layers::run(
        &bottom.problem,
        &RunOptions {
            final_layer: Some(&join),
            progress: Some(&bottom_progress),
            stop_after: opts.stop_after.and_then(|s| s.checked_sub(nt)),
            ..*opts
        },
    )?;
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

/// Calls `f` with the key of every bottom pattern that the top state `t`
/// can meet: degrees `2 - d` on every separator square, less one on each
/// of at most `2 - t.term` squares of degree 0 or 1 (which become
/// terminals), with the terminals left for the bottom part.
fn each_pattern(t: &Boundary, seps: usize, mut f: impl FnMut(u64)) {
    let deg = |s: usize| (t.degrees >> (2 * s)) & 3;
    let mut base = 0u32;
    for s in 0..seps {
        base |= (2 - deg(s)) << (2 * s);
    }
    let free = 2 - t.term;
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

/// How many patterns [`each_pattern`] gives for `t`.
fn patterns(t: &Boundary, seps: usize) -> u64 {
    let m = (0..seps)
        .filter(|&s| (t.degrees >> (2 * s)) & 3 <= 1)
        .count() as u64;
    match t.term {
        2 => 1,
        1 => 1 + m,
        _ => 1 + m + m * m.saturating_sub(1) / 2,
    }
}

/// Whether a top and a bottom state whose degrees fit make one path: the
/// separator squares of degree 1 in both parts join a path of the top to
/// one of the bottom; walking from one terminal end (a square whose path
/// in a part leads to a terminal inside it, or a terminal square of the
/// separator) must reach the other through every such square.
#[allow(clippy::needless_range_loop)] // `s` indexes both parts' links
fn one_path(t: &Boundary, b: &Boundary, seps: usize) -> bool {
    const NONE: u8 = 255;
    const TERMINAL: u8 = 254;
    // For each square, its link in each part: the mate, TERMINAL or NONE.
    let mut link = [[NONE; 2 * MAX_WIDTH]; 2];
    let mut nodes = 0u32;
    let mut start = NONE;
    for s in 0..seps {
        let mut any = false;
        for (side, p) in [t, b].into_iter().enumerate() {
            if (p.degrees >> (2 * s)) & 3 == 1 {
                let m = ((p.mates >> (4 * s)) & 15) as u8;
                link[side][s] = if m as usize == s { TERMINAL } else { m };
                any = true;
            }
        }
        if any {
            nodes += 1;
            // A terminal on the separator has a link in one part only.
            if link[0][s] == NONE || link[1][s] == NONE {
                let side = if link[0][s] == NONE { 0 } else { 1 };
                link[side][s] = TERMINAL;
            }
            if start == NONE && (link[0][s] == TERMINAL || link[1][s] == TERMINAL) {
                start = s as u8;
            }
        }
    }
    if start == NONE {
        return false;
    }
    // Leave the start by its other link, then alternate parts.
    let mut s = start as usize;
    let mut side = usize::from(link[0][s] == TERMINAL);
    let mut walked = 1u32;
    loop {
        let next = link[side][s];
        if next == TERMINAL {
            return walked == nodes;
        }
        if next == NONE {
            return false;
        }
        s = next as usize;
        walked += 1;
        if walked > nodes {
            return false;
        }
        side = 1 - side;
    }
}

/// The separator's degrees, terminals and mates in a final state of `part`.
fn boundary(part: &Part, engine: &Engine, key: u128) -> Boundary {
    let (st, mate) = engine.final_roles(key);
    let mut sep_of_slot = [0u8; 64];
    for (slot, &v) in engine.final_frontier.iter().enumerate() {
        sep_of_slot[slot] =
            part.sep_of[v].expect("only separator squares stay in a part's frontier");
    }
    let (mut degrees, mut term, mut mates) = (0u32, 0u8, 0u64);
    let mut seen = 0u32;
    for slot in 0..engine.final_frontier.len() {
        let s = sep_of_slot[slot];
        seen |= 1 << s;
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
                sep_of_slot[m as usize]
            };
            mates |= u64::from(other) << (4 * s);
        }
    }
    // Separator squares that left the frontier have all their edges here.
    for s in 0..2 * part_width(part) {
        if seen & (1 << s) == 0 {
            degrees |= 2 << (2 * s);
        }
    }
    Boundary {
        degrees,
        term,
        mates,
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
        assert!(one_path(&t, &good, 4));
        // Bottom: 0 and 1 joined: a cycle 0-1-0 and a lone end.
        let bad = b(&[1, 1, 0, 0], &[(0, 1), (1, 0)]);
        assert!(!one_path(&t, &bad, 4));
    }

    #[test]
    fn mirror_images_of_boundaries() {
        // Two rows of 3: squares 0 1 2 / 3 4 5.
        let t = b(&[1, 0, 2, 1, 1, 1], &[(0, 3), (3, 0), (4, 5), (5, 4)]);
        let m = mirrored(&t, 3);
        assert_eq!(m, b(&[2, 0, 1, 1, 1, 1], &[(2, 5), (5, 2), (4, 3), (3, 4)]));
        assert_eq!(mirrored(&m, 3), t);
    }

    #[test]
    fn patterns_counts_each_pattern() {
        for t in [
            b(&[1, 1, 0, 2], &[(0, 1), (1, 0)]),
            b(&[1, 0, 0, 2], &[(0, 0)]),
            b(&[1, 0, 1, 2], &[(0, 0), (2, 2)]),
        ] {
            let mut n = 0;
            each_pattern(&t, 4, |_| n += 1);
            assert_eq!(n, patterns(&t, 4));
        }
    }
}
