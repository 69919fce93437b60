//! Meet in the middle: the closed tours of a board from its two parts.
//!
//! Cut the board (turned so that its `rows` are the longer side, `w` wide)
//! above row `h = (rows - 1) / 2`. Every edge of the knight graph lies in the
//! *top part* (edges with an end above row `h`) or in the *bottom part*
//! (edges with both ends in rows `h..`), and a Hamiltonian cycle splits in
//! exactly one way into its top edges and its bottom edges. The squares both
//! parts touch are rows `h` and `h + 1`, the *separator* (`2w` squares).
//!
//! The frontier program runs on each part alone (`Problem::external` keeps
//! the separator in its frontier). A final state of a part gives each
//! separator square its degree in that part (0, 1 or 2) and pairs the
//! degree-1 squares (the ends) joined by a path of the part; its count is the
//! number of edge sets of the part with that state (every other square of
//! the part has degree 2, and no cycle closes inside a part). A top state and
//! a bottom state make Hamiltonian cycles exactly when the degrees add up to
//! 2 on every separator square and the two pairings of the common ends form
//! one cycle; the count is the sum of the products of their counts.
//!
//! The top part (`h` rows and the separator's edges up to them, so few
//! states) is kept in a hash map from degree pattern to its pairings; the
//! bottom part's final states (`rows - h` rows) stream past it in parallel.
//! This is the method of McKay's 8x8 count (McKay 1997), with the cut placed
//! so that the two frontier programs cost about the same as the first half
//! of the forward one: it never meets the forward program's second half,
//! where states that no remaining rows can complete pile up (about 4 x 10^8
//! at square 42 of 8x8).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rustc_hash::FxHashMap;

use super::frontier::{Engine, Problem, Route, DONE, END, UNTOUCHED};
use super::layers::{self, Progress, Run, RunOptions};
use super::number::{Count, ProductSum};
use crate::{Error, Result};

/// The widest board this method takes (two separator rows of at most 16
/// squares in all, so an end's mate fits in 4 bits).
pub(crate) const MAX_WIDTH: usize = 8;

/// Bytes of memory a top state takes in the table, with the map's share.
const TABLE_BYTES_PER_STATE: u64 = 48;

/// The figures of the two parts' runs and the count.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct MeetRun {
    pub count: Count,
    pub top: Run,
    pub bottom: Run,
    /// Top and bottom states whose degrees fit, tested for one cycle.
    pub pairs_tested: u64,
}

/// Degrees of the separator squares (2 bits each) and the mates of its ends
/// (4 bits each, ends numbered in separator order).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Boundary {
    degrees: u32,
    ends: u32,
    mates: u64,
}

/// Counts the closed tours of a `rows x w` board (`rows >= 4`, `w <= 8`).
pub(crate) fn closed_tours(rows: usize, w: usize, opts: &RunOptions<'_>) -> Result<MeetRun> {
    if rows < 4 || w > MAX_WIDTH || w == 0 {
        return Err(Error::Unsupported(format!(
            "meeting in the middle needs at least 4 rows and at most {MAX_WIDTH} columns, not {rows}x{w}"
        )));
    }
    let h = (rows - 1) / 2;
    let top = Part::new(rows, w, h, Side::Top);
    let bottom = Part::new(rows, w, h, Side::Bottom);
    let summary = Summary::new(&top.problem, &bottom.problem, opts);
    if let Some(done) = summary.begin(opts)? {
        return Ok(done);
    }
    let top_engine = Engine::new(&top.problem)?;
    let bottom_engine = Engine::new(&bottom.problem)?;
    let budget = opts.budget();

    // The top part's states, by the degrees a bottom state needs to meet them.
    let table: Mutex<FxHashMap<u32, Vec<(u64, u128)>>> = Mutex::new(FxHashMap::default());
    let kept = AtomicU64::new(0);
    let collect = |states: &[(u128, u128)]| -> Result<()> {
        let held = kept.fetch_add(states.len() as u64, Ordering::Relaxed) + states.len() as u64;
        if held.saturating_mul(TABLE_BYTES_PER_STATE) > budget {
            return Err(Error::GaveUp(format!(
                "the count stopped: the top part's states need more than the memory bound of {} (about {} bytes each)",
                crate::memory::human_bytes(budget),
                TABLE_BYTES_PER_STATE
            ))
            .with_hint(crate::Hint::UseMethod("forward")));
        }
        let local: Vec<(u32, u64, u128)> = states
            .iter()
            .map(|&(key, count)| {
                let t = top.boundary(&top_engine, key);
                (complement(t.degrees, w), t.mates, count)
            })
            .collect();
        let mut table = table.lock().unwrap_or_else(|e| e.into_inner());
        for (degrees, mates, count) in local {
            table.entry(degrees).or_default().push((mates, count));
        }
        Ok(())
    };
    // Progress and stops count the squares of both runs, top first.
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
    let mut table = table.into_inner().unwrap_or_else(|e| e.into_inner());
    // Chunks arrive in an order that varies with the threads: sort, so that
    // the work below does not.
    for v in table.values_mut() {
        v.sort_unstable();
    }

    let total: Mutex<(ProductSum, u64)> = Mutex::new((ProductSum::default(), 0));
    let join = |states: &[(u128, u128)]| -> Result<()> {
        let (mut sum, mut tested) = (ProductSum::default(), 0u64);
        for &(key, count) in states {
            let b = bottom.boundary(&bottom_engine, key);
            let Some(partners) = table.get(&b.degrees) else {
                continue;
            };
            tested += partners.len() as u64;
            for &(mates, c) in partners {
                if one_cycle(mates, b.mates, b.ends) {
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
            later: true,
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

/// What a finished meeting keeps in its work directory: one file with the
/// count and the figures of both runs, which replaces the parts' state
/// files, and from which `resume` answers at once.
pub(crate) struct Summary<'a> {
    path: Option<std::path::PathBuf>,
    top: &'a Problem,
    bottom: &'a Problem,
}

impl<'a> Summary<'a> {
    pub fn new(top: &'a Problem, bottom: &'a Problem, opts: &RunOptions<'_>) -> Summary<'a> {
        let path = opts.work_dir.map(|dir| {
            dir.join(format!(
                "count-meet-{:016x}.json",
                layers::problem_hash(top) ^ layers::problem_hash(bottom).rotate_left(1)
            ))
        });
        Summary { path, top, bottom }
    }

    /// Before the runs: a count that does not resume refuses a checkpoint
    /// of either part without a summary (the count is unfinished, even where
    /// a part is done) unless it starts afresh, then clears what an older
    /// one left (neither part may resume its checkpoint, a finished count is
    /// counted again); a resumed count that finished before answers from
    /// its summary.
    pub fn begin(&self, opts: &RunOptions<'_>) -> Result<Option<MeetRun>> {
        if let (Some(dir), false) = (opts.work_dir, opts.resume) {
            let finished = self.path.as_deref().is_some_and(std::path::Path::exists);
            let parts = [self.top, self.bottom].map(|p| layers::manifests(p, dir).len());
            if !opts.fresh && !finished && parts.iter().sum::<usize>() > 0 {
                return Err(layers::unfinished(dir));
            }
            layers::clear_checkpoints(self.top, dir)?;
            layers::clear_checkpoints(self.bottom, dir)?;
            if let Some(path) = self.path.as_deref().filter(|p| p.exists()) {
                std::fs::remove_file(path).map_err(|e| super::disk::io_error("clear", path, e))?;
            }
        }
        match (self.path.as_deref(), opts.resume) {
            (Some(path), true) if path.exists() => read_summary(path).map(Some),
            _ => Ok(None),
        }
    }

    /// After the runs: the summary replaces the parts' state files, unless
    /// they are to be kept.
    pub fn finish(&self, done: &MeetRun, opts: &RunOptions<'_>) -> Result<()> {
        if let (Some(dir), Some(path), false) = (opts.work_dir, self.path.as_deref(), opts.keep) {
            let file = SummaryFile {
                checksum: super::disk::crc_of(done),
                run: done,
            };
            let text = serde_json::to_string(&file)
                .map_err(|e| Error::Internal(format!("a count's summary: {e}")))?;
            let tmp = path.with_extension("json.tmp");
            std::fs::write(&tmp, text)
                .and_then(|()| std::fs::rename(&tmp, path))
                .map_err(|e| super::disk::io_error("write", path, e))?;
            layers::clear_checkpoints(self.top, dir)?;
            layers::clear_checkpoints(self.bottom, dir)?;
        }
        Ok(())
    }
}

/// A meeting's summary as written: the figures and their CRC-32 (see
/// `disk::crc_of`), so that an edited or damaged count is refused.
#[derive(serde::Serialize, serde::Deserialize)]
struct SummaryFile<R> {
    run: R,
    checksum: u32,
}

/// Reads and checks the summary at `path`.
fn read_summary(path: &std::path::Path) -> Result<MeetRun> {
    let text = super::disk::read_small(path)?;
    let file: SummaryFile<MeetRun> = serde_json::from_str(&text)
        .map_err(|e| Error::Parse(format!("{} is not a count's summary: {e}", path.display())))?;
    if super::disk::crc_of(&file.run) != file.checksum {
        return Err(super::disk::edited(path));
    }
    Ok(file.run)
}

/// The top and bottom parts of a `rows x w` board as frontier problems.
pub(crate) fn part_problems(rows: usize, w: usize) -> [Problem; 2] {
    let h = (rows - 1) / 2;
    [
        Part::new(rows, w, h, Side::Top).problem,
        Part::new(rows, w, h, Side::Bottom).problem,
    ]
}

/// The caller's progress callback, told of `before + step` of `steps` squares.
pub(super) fn shifted<'a>(
    opts: &'a RunOptions<'_>,
    before: usize,
    steps: usize,
) -> impl Fn(&Progress) + Sync + 'a {
    move |p: &Progress| {
        if let Some(f) = opts.progress {
            f(&Progress {
                step: before + p.step,
                steps,
                ..*p
            });
        }
    }
}

/// The degrees `2 - d` of each separator square.
fn complement(degrees: u32, w: usize) -> u32 {
    let mut out = 0;
    for s in 0..2 * w {
        let d = (degrees >> (2 * s)) & 3;
        out |= (2 - d) << (2 * s);
    }
    out
}

/// Whether the two pairings of the same `ends` ends make one cycle.
#[inline]
fn one_cycle(top: u64, bottom: u64, ends: u32) -> bool {
    if ends == 0 {
        // No path crosses the cut, so the parts would have to close cycles
        // of their own, which no state does.
        return false;
    }
    let mate = |m: u64, e: u32| ((m >> (4 * e)) & 15) as u32;
    let mut e = 0u32;
    let mut walked = 0u32;
    loop {
        e = mate(bottom, mate(top, e));
        walked += 2;
        if e == 0 {
            return walked == ends;
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Side {
    Top,
    Bottom,
    /// The bottom part without the edges between the two separator rows.
    Lower,
}

/// One part of the board as a frontier problem.
pub(super) struct Part {
    pub problem: Problem,
    /// Separator index (`(row - h) * w + col`) of each vertex, or `None`.
    pub sep_of: Vec<Option<u8>>,
    w: usize,
}

impl Part {
    pub fn new(rows: usize, w: usize, h: usize, side: Side) -> Part {
        // The part's squares in processing order: the top from row 0 down to
        // row h + 1, the bottom from the last row up to row h (its mirror
        // image, so its frontier moves like the top's).
        let order: Vec<usize> = match side {
            Side::Top => (0..(h + 2).min(rows)).collect(),
            Side::Bottom | Side::Lower => (h..rows).rev().collect(),
        };
        let squares: Vec<(usize, usize)> = order
            .iter()
            .flat_map(|&r| (0..w).map(move |c| (r, c)))
            .collect();
        let index = |r: usize, c: usize| {
            order
                .iter()
                .position(|&x| x == r)
                .map(|i| i * w + c)
                .expect("a part's edge stays in the part")
        };
        let in_part = |a: usize, b: usize| match side {
            Side::Top => a.min(b) < h,
            Side::Bottom => a.min(b) >= h,
            Side::Lower => a.min(b) >= h && a.max(b) >= h + 2,
        };
        let n = squares.len();
        let mut back = vec![Vec::new(); n];
        let mut external = vec![0u8; n];
        for (v, &(r, c)) in squares.iter().enumerate() {
            for (dc, dr) in crate::board::MOVES {
                let (rr, cc) = (r as i64 + i64::from(dr), c as i64 + i64::from(dc));
                if rr < 0 || cc < 0 || rr as usize >= rows || cc as usize >= w {
                    continue;
                }
                let (rr, cc) = (rr as usize, cc as usize);
                if !in_part(r, rr) {
                    external[v] += 1;
                } else if index(rr, cc) < v {
                    back[v].push((index(rr, cc) as u32, 0));
                }
            }
        }
        let sep_of = squares
            .iter()
            .map(|&(r, c)| (r == h || r == h + 1).then(|| ((r - h) * w + c) as u8))
            .collect();
        Part {
            problem: Problem {
                n,
                back,
                modulus: 1,
                shape: Route::Cycle,
                terminal_ok: vec![true; n],
                external,
                colour: squares
                    .iter()
                    .map(|&(r, c)| super::square_colour(r, c))
                    .collect(),
                twice_colour_total: if (rows * w).is_multiple_of(2) { 0 } else { 2 },
                // The bottom part's states may be kept up to mirror image
                // (their sum against the top's exact, symmetric table is
                // the same); the top's table must be exact.
                mirror: match side {
                    Side::Top => Vec::new(),
                    Side::Bottom | Side::Lower => (0..n)
                        .map(|v| (v - v % w + (w - 1 - v % w)) as u32)
                        .collect(),
                },
                prefixes: Vec::new(),
            },
            sep_of,
            w,
        }
    }

    /// The separator's degrees and pairing in a final state of this part.
    /// Separator squares that left the frontier have all their edges here,
    /// so degree 2.
    fn boundary(&self, engine: &Engine, key: u128) -> Boundary {
        let (st, mate) = engine.final_roles(key);
        let slots = 2 * self.w;
        let mut degree = [2u8; 2 * MAX_WIDTH];
        let mut sep_slot = [0u8; 2 * MAX_WIDTH];
        let mut slot_sep = [0u8; 64];
        for (slot, &v) in engine.final_frontier.iter().enumerate() {
            let s = self.sep_of[v].expect("only separator squares stay in a part's frontier");
            degree[s as usize] = match st[slot] {
                UNTOUCHED => 0,
                END => 1,
                DONE => 2,
                _ => unreachable!("a role is untouched, end or done"),
            };
            sep_slot[s as usize] = slot as u8;
            slot_sep[slot] = s;
        }
        let mut degrees = 0u32;
        let mut end_of = [0u8; 2 * MAX_WIDTH];
        let mut ends = 0u32;
        for s in 0..slots {
            degrees |= u32::from(degree[s]) << (2 * s);
            if degree[s] == 1 {
                end_of[s] = ends as u8;
                ends += 1;
            }
        }
        let mut mates = 0u64;
        for s in 0..slots {
            if degree[s] == 1 {
                let other = slot_sep[mate[sep_slot[s] as usize] as usize];
                mates |= u64::from(end_of[other as usize]) << (4 * u64::from(end_of[s]));
            }
        }
        Boundary {
            degrees,
            ends,
            mates,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cycle_tells_one_cycle_from_two() {
        // Ends 0..4: top pairs (0 1)(2 3).
        let top = 1 | (3 << 8) | (2 << 12);
        // Bottom (1 2)(3 0): one cycle 0-1-2-3-0.
        let one = 3 | (2 << 4) | (1 << 8);
        // Bottom (0 1)(2 3): two cycles.
        let two = 1 | (3 << 8) | (2 << 12);
        assert!(one_cycle(top, one, 4));
        assert!(!one_cycle(top, two, 4));
        assert!(one_cycle(1, 1, 2));
        assert!(!one_cycle(0, 0, 0));
    }

    #[test]
    fn complement_swaps_untouched_and_done() {
        let d = 0b10_01_00; // degrees 0, 1, 2 on a 2-wide separator's first three squares
        let c = complement(d, 2);
        assert_eq!(c & 0b11_11_11, 0b00_01_10);
        assert_eq!(c >> 6, 0b10); // the fourth square: 0 -> 2
    }
}
