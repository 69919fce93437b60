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
//! where states that no remaining rows can complete pile up (BENCHMARKS.md,
//! "Exact counting").

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::halves::{shifted, MeetRun, Part, Side, Summary, MAX_WIDTH};
use crate::count::engine::executor::{self, FrontierProgress, Joining, RunOptions};
use crate::count::engine::frontier::{Engine, Problem, DONE, END, UNTOUCHED};
use crate::count::engine::number::ProductSum;
use crate::{Error, Result};

/// Bytes of memory a top state takes in the table, with the map's share.
const TABLE_BYTES_PER_STATE: u64 = 48;

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
        ).into()));
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
        let local: Vec<(u32, u64, u128)> = states
            .iter()
            .map(|&(key, count)| {
                let t = top.boundary(&top_engine, key);
                (complement(t.degrees, w), t.mates, count)
            })
            .filter(|t| opts.owns(u64::from(t.0)))
            .collect();
        let held = kept.fetch_add(local.len() as u64, Ordering::Relaxed) + local.len() as u64;
        if held.saturating_mul(TABLE_BYTES_PER_STATE) > budget {
            return Err(Error::OverBudget(format!(
                "the count stopped: the top part's states need more than the memory bound of {} (about {} bytes each)",
                crate::memory::human_bytes(budget),
                TABLE_BYTES_PER_STATE
            ).into())
            .with_hint(crate::Hint::UseMethod(crate::count::Method::Forward)));
        }
        let mut table = table.lock().unwrap_or_else(|e| e.into_inner());
        for (degrees, mates, count) in local {
            table.entry(degrees).or_default().push((mates, count));
        }
        Ok(())
    };
    // Progress and stops count the squares of both runs, top first.
    let (nt, nb) = (top.problem.n, bottom.problem.n);
    let top_progress = shifted(opts, 0, nt + nb);
    // Spread over workers, the table is split by the degrees a bottom
    // state needs: each worker gets the top and bottom states of its own.
    let top_route = |key| u64::from(complement(top.boundary(&top_engine, key).degrees, w));
    let top_run = executor::run(
        &top.problem,
        &RunOptions {
            final_layer: Some(&collect),
            progress: Some(&top_progress),
            route: Some(&top_route),
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
    let joined = JoinWatch::new(opts, nt + nb);
    let join = |states: &[(u128, u128)]| -> Result<()> {
        joined.add(0);
        let (mut sum, mut tested) = (ProductSum::default(), 0u64);
        for &(key, count) in states {
            let b = bottom.boundary(&bottom_engine, key);
            let Some(partners) = table
                .get(&b.degrees)
                .filter(|_| opts.owns(b.degrees.into()))
            else {
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
        drop(total);
        joined.add(states.len() as u64);
        Ok(())
    };
    let bottom_progress = joined.watch(shifted(opts, nt, nt + nb));
    let bottom_route = |key| u64::from(bottom.boundary(&bottom_engine, key).degrees);
    let bottom_run = executor::run(
        &bottom.problem,
        &RunOptions {
            final_layer: Some(&join),
            later: true,
            progress: Some(&bottom_progress),
            route: Some(&bottom_route),
            ..*opts
        },
    )?;
    let (sum, pairs_tested) = total.into_inner().unwrap_or_else(|e| e.into_inner());
    // Spread over workers, each joined its own part of the table.
    let done = MeetRun {
        count: opts.summed(sum.total())?,
        top: top_run,
        bottom: bottom_run,
        pairs_tested: opts.summed_u64(pairs_tested)?,
        held_disk: 0,
    };
    summary.finish(&done, opts)?;
    Ok(done)
}

/// The progress of a closed meeting's join: the bottom part's final
/// states (the last square's) streamed past the table so far, told at the
/// join's start and then every second, so that the join shows after the
/// last square.
struct JoinWatch<'a> {
    opts: &'a RunOptions<'a>,
    squares: usize,
    /// The bottom part's states after its last square reported.
    finals: AtomicU64,
    joined: AtomicU64,
    /// When the join was last told (`None`: not yet).
    told: Mutex<Option<Instant>>,
}

impl<'a> JoinWatch<'a> {
    fn new(opts: &'a RunOptions<'a>, squares: usize) -> JoinWatch<'a> {
        JoinWatch {
            opts,
            squares,
            finals: AtomicU64::new(0),
            joined: AtomicU64::new(0),
            told: Mutex::new(None),
        }
    }

    /// `progress`, noting the states of each square's end.
    fn watch<'b>(
        &'b self,
        progress: impl Fn(&FrontierProgress) + Sync + 'b,
    ) -> impl Fn(&FrontierProgress) + Sync + 'b {
        move |p: &FrontierProgress| {
            if p.within.is_none() {
                self.finals.store(p.states as u64, Ordering::Relaxed);
            }
            progress(p);
        }
    }

    /// `states` more joined; tells the join's progress if a second has
    /// passed since it last did (or it never did).
    fn add(&self, states: u64) {
        let done = self.joined.fetch_add(states, Ordering::Relaxed) + states;
        let Some(f) = self.opts.progress else {
            return;
        };
        let Ok(mut told) = self.told.try_lock() else {
            return;
        };
        if told.is_some_and(|t| t.elapsed().as_secs_f64() < 1.0) {
            return;
        }
        *told = Some(Instant::now());
        drop(told);
        let finals = self.finals.load(Ordering::Relaxed);
        f(&FrontierProgress {
            step: self.squares,
            steps: self.squares,
            states: finals as usize,
            peak: finals as usize,
            on_disk: false,
            generated: 0,
            disk_bytes: 0,
            projected_peak: finals,
            seconds_left: None,
            stage: None,
            joining: Some(Joining {
                part: 1,
                parts: 1,
                done: done.min(finals),
                total: finals,
                seconds_left: None,
            }),
            within: None,
        });
    }
}

/// The top and bottom parts of a `rows x w` board as frontier problems.
pub(crate) fn part_problems(rows: usize, w: usize) -> [Problem; 2] {
    let h = (rows - 1) / 2;
    [
        Part::new(rows, w, h, Side::Top).problem,
        Part::new(rows, w, h, Side::Bottom).problem,
    ]
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

// What the closed strategy reads off a part's final states.
impl Part {
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
