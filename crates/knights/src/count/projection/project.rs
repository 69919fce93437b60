//! Projecting a count before and while it runs: its peak states, the disk
//! its states would take, and its time.
//!
//! **The model.** The frontier program processes a board row by row, `w`
//! squares a row. The states after square `t` are projected as those `w`
//! squares earlier (the same column a row up) times a row-to-row factor.
//! The first rows start from an empty frontier and grow by large factors
//! that fall quickly (7x7 open: 1,942 to 121 across its third row); later
//! rows grow by a steadier factor near the width (5 wide: 4.2 to 5.6; 6
//! wide: 5.4 to 9.3). So the factor starts at the last one measured, falls
//! column by column at the rate it fell over the last half row measured,
//! and stops at the smaller of their mean and `w + 2`. In the
//! second-to-last row fewer squares can still be reached from below and
//! the factor is taken 0.85 times (5x6 against 5x7 open, whose rows agree
//! until then: 0.72 to 0.94); in the last row the frontier closes and the
//! states collapse (1.3 to 1.6 times the square above for the first
//! square, 0.07 to 0.3 for the second, under 0.01 after; measured on 5x5,
//! 5x6 and 6x6). A long strip's states stop growing about three rows past
//! its width (6 x 24: by row 9), the factor falling to 1 on the way (6 x 16
//! open: 10.4, 5.8, 1.55 and 1.04 from its fourth row to its seventh), so
//! the model lets the factor fall to 1 by then, keeps the states level from
//! there on, and its second-to-last row at 0.85 of that level (6 x 16
//! open: 0.24 to 1.45 column by column). No projection passes the number
//! of keys the widest frontier can take (untouched, done or an end, the
//! ends matched in pairs): a factor measured on the first rows would
//! otherwise compound through every row up to the plateau and put a long
//! strip far beyond any disk. Checked against full counts cut after a row or more
//! (`BENCHMARKS.md`): the projected peak is within a factor of about 2 from
//! the third row on, and closer the more rows are measured; from the first
//! two rows alone it is far too high.
//!
//! Successors are generated at a measured ratio to the states they merge
//! into; the disk a step needs is the layer it reads plus the successors it
//! writes before they merge, and the time is the measured time per
//! successor times the successors still to come.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::count::engine::frontier::{Engine, Problem};

/// Where a projection's figures come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A short trial run of the first squares, extrapolated by the model.
    Trial,
    /// The trial run finished the count: the figures are the real ones.
    Complete,
    /// A table of counts measured in full (`BENCHMARKS.md`).
    Table,
    /// Nothing to count (no tour exists, or a 1-square board).
    Nothing,
}

impl Source {
    /// A phrase for the command line.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Trial => "from a trial run of the first squares",
            Source::Complete => "the trial run finished the count, so these are measured",
            Source::Table => "from a full count measured before (BENCHMARKS.md)",
            Source::Nothing => "nothing to count",
        }
    }
}

/// What a count is projected to need.
#[derive(Clone, Debug, Default)]
pub struct Projection {
    /// Squares the count processes (both parts when meeting in the middle).
    pub steps: usize,
    /// The most states held at once.
    pub peak_states: u64,
    /// The square after which the states peak (meeting in the middle: the
    /// top part's squares, then the bottom part's).
    pub peak_step: usize,
    /// Bytes the states would take on disk at the peak (the layer read and
    /// the successors written before they merge), if they went to disk, at
    /// the fixed width of a key and a count: an upper bound, since the state
    /// files are packed (a few bytes a state on large layers, see
    /// BENCHMARKS.md).
    pub disk_bytes: u64,
    /// Wall-clock time on this machine, at the speed of the trial.
    pub seconds: f64,
    /// The states after each square: measured by the trial, then projected
    /// (meeting in the middle: the top part's squares, then the bottom
    /// part's; empty from the table).
    pub states_per_step: Vec<u64>,
    /// Squares measured by the trial run (0 from the table).
    pub measured_steps: usize,
    /// Time the trial run took.
    pub trial: Duration,
    /// Where the figures come from.
    pub source: Option<Source>,
    /// Successors made per state they merge into, as the trial measured
    /// over its last row (0 from the table).
    pub successors_per_state: f64,
    /// Bytes a state takes in memory: its key and count (16, or 32 past
    /// 64 bits of key).
    pub state_bytes: u64,
    /// The states after each run's last square: the forward program's
    /// final layer, or a meet's parts' (the table's, then the bottom's).
    pub final_states: Vec<u64>,
    /// How a meet joins its parts, if it meets.
    pub join: Option<Join>,
}

/// How a meet in the middle joins its parts, for the projection across
/// workers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Join {
    /// Closed tours: the table and the bottom states split by pattern.
    Closed,
    /// Open tours: the table split by pattern, every bottom state held by
    /// every worker (it meets the patterns of several).
    Open,
}

/// What one worker of a count spread over workers is projected to hold
/// and send (see [`Projection::per_worker`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerProjection {
    /// The workers.
    pub workers: usize,
    /// The most states one worker holds: its share of the peak layer.
    pub peak_states: u64,
    /// Memory one worker takes at the peak for its share of the layer,
    /// its successors and their exchange.
    pub memory_bytes: u64,
    /// A meet's join on one worker: its part of the table, and the
    /// bottom states it holds (all of them for open tours).
    pub join_bytes: u64,
    /// Bytes one worker sends the others in the square after the peak.
    pub sent_per_square: u64,
    /// Bytes one worker sends over the whole count.
    pub sent_bytes: u64,
    /// Hours of the count if every worker is as fast as this machine,
    /// with the exchange's measured cost.
    pub hours_alike: f64,
}

/// Memory of a worker's share per byte of its states, at the peak: its
/// share, the successors bound for every worker, their encoding and what
/// it receives (7x8 `--all-lengths` on 2 to 3 workers: 134 bytes a state
/// of 16 bytes; BENCHMARKS.md, "Across processes").
const SPREAD_MEMORY_PER_STATE_BYTE: f64 = 8.4;

/// Bytes on the wire per successor that leaves its worker: keys as varint
/// differences and counts (measured 2.0 to 2.8 on 2 to 4 workers with
/// 64-bit keys); assumed twice that for wider keys, not measured.
const WIRE_BYTES_PER_SUCCESSOR: f64 = 2.8;

/// The CPU time spread over workers takes against one process: 20 % more
/// from 1 to 2 workers, 4 to 7 % per worker after that on 2 to 4 workers
/// of this machine; taken as 30 % at any number.
const SPREAD_CPU_FACTOR: f64 = 1.3;

/// Bytes a meet's table entry takes while built (as the meets charge it).
const TABLE_BYTES_PER_STATE: u64 = 48;

impl Projection {
    /// The projection spread over `workers` workers: each holds about a
    /// `1 / workers` share of every layer (keys are spread by a hash: the
    /// shares measured differ by under 0.1 %), sends the successors bound
    /// for the others, and joins its part of a meet's table.
    ///
    /// # Example
    /// ```
    /// use knights::count::Counter;
    /// let p = Counter::new("6x6".parse()?).project()?;
    /// let four = p.per_worker(4);
    /// assert!(four.peak_states * 4 >= p.peak_states);
    /// assert!(four.peak_states < p.peak_states);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn per_worker(&self, workers: usize) -> WorkerProjection {
        let n = workers.max(1) as f64;
        let share = |x: u64| (x as f64 / n).ceil() as u64;
        let state_bytes = self.state_bytes.max(16) as f64;
        let wire = WIRE_BYTES_PER_SUCCESSOR * state_bytes / 16.0;
        let leaving = (n - 1.0) / n / n * self.successors_per_state * wire;
        let step_after_peak = self.states_per_step.get(self.peak_step).copied();
        let sent_per_square = (step_after_peak.unwrap_or(self.peak_states) as f64 * leaving) as u64;
        let sent_bytes = self
            .states_per_step
            .iter()
            .map(|&x| x as f64 * leaving)
            .sum::<f64>() as u64;
        let table = self.final_states.first().copied().unwrap_or(0);
        let bottom = self.final_states.get(1).copied().unwrap_or(table);
        let join_bytes = match self.join {
            None => 0,
            Some(Join::Closed) => share(table) * TABLE_BYTES_PER_STATE,
            // The table unfolded from mirror images, and every bottom state.
            Some(Join::Open) => 2 * share(table) * TABLE_BYTES_PER_STATE + bottom * 32,
        };
        let factor = if workers > 1 { SPREAD_CPU_FACTOR } else { 1.0 };
        WorkerProjection {
            workers,
            peak_states: share(self.peak_states),
            memory_bytes: (share(self.peak_states) as f64
                * state_bytes
                * SPREAD_MEMORY_PER_STATE_BYTE) as u64,
            join_bytes,
            sent_per_square,
            sent_bytes,
            hours_alike: self.seconds * factor / n / 3600.0,
        }
    }
}

/// The squares a row of `p`: its own [`Problem::row`] if it has one, else
/// half of the farthest back edge less one (a knight's move spans `2w + 1`
/// squares in row-major order at most).
pub(crate) fn period(p: &Problem) -> usize {
    if p.row > 0 {
        return p.row;
    }
    let far = p
        .back
        .iter()
        .enumerate()
        .flat_map(|(v, e)| e.iter().map(move |&(u, _)| v.saturating_sub(u as usize)))
        .max()
        .unwrap_or(1);
    (far.saturating_sub(1) / 2).max(1)
}

/// Rows past the width after which a long strip's states stop growing:
/// their frontier has seen every pattern it can hold (6 x 24 forward: the
/// states after each row grow to 509,681 by row 9 and stay there).
const PLATEAU_ROWS_PAST_WIDTH: usize = 3;

/// How a problem's last row behaves (see [`LastRow::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LastRow {
    /// A whole board: the frontier closes and the states collapse.
    Closes,
    /// A part met in the middle whose last two rows are the separator,
    /// which stays in the frontier, so the states go on growing: `inner`
    /// when the part holds edges between the two separator rows (the
    /// bottom part on odd rows, both on even rows), which grow most.
    Separator { inner: bool },
}

impl LastRow {
    /// The last row of `p`: a part when some squares have external edges,
    /// the bottom part when an edge joins two of them.
    pub(crate) fn of(p: &Problem) -> LastRow {
        let ext = |u: usize| p.external.get(u).is_some_and(|&e| e > 0);
        if !(0..p.n).any(ext) {
            return LastRow::Closes;
        }
        let inner = (0..p.n).any(|v| ext(v) && p.back[v].iter().any(|&(u, _)| ext(u as usize)));
        LastRow::Separator { inner }
    }
}

/// What the model extends a run's states by (see [`extend`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Growth {
    /// The squares a row ([`period`]).
    pub w: usize,
    /// How the last row behaves.
    pub last_row: LastRow,
    /// The most states the frontier can hold ([`Engine::key_space`]): no
    /// projection goes past it, however fast the first rows grew.
    pub ceiling: f64,
}

impl Growth {
    /// The growth of `p`, whose program is `engine`.
    pub(crate) fn of(p: &Problem, engine: &Engine) -> Growth {
        Growth {
            w: period(p),
            last_row: LastRow::of(p),
            ceiling: engine.key_space(),
        }
    }
}

/// The states after each of `n` squares: `measured` as it is, then the
/// model's projection (see the module notes).
pub(crate) fn extend(measured: &[u64], n: usize, growth: Growth) -> Vec<u64> {
    let Growth {
        w,
        last_row,
        ceiling,
    } = growth;
    let mut s: Vec<f64> = measured.iter().map(|&x| x as f64).collect();
    let k = s.len();
    if k >= n {
        return measured[..n].to_vec();
    }
    // The row-to-row factors of the last half row measured, oldest first.
    let half = w.div_ceil(2);
    let ratios: Vec<f64> = (k.saturating_sub(half)..k)
        .filter(|&j| j >= w && s[j - w] > 0.0 && s[j] > 0.0)
        .map(|j| s[j] / s[j - w])
        .collect();
    let (mut g, decay, floor) = match (ratios.first(), ratios.last()) {
        (Some(&first), Some(&last)) => {
            let mean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
            let decay = if ratios.len() > 1 {
                (last / first)
                    .powf(1.0 / (ratios.len() - 1) as f64)
                    .clamp(0.3, 1.0)
            } else {
                1.0
            };
            (last, decay, mean.min(w as f64 + 2.0))
        }
        _ => (4.0, 1.0, 4.0),
    };
    let plateau = PLATEAU_ROWS_PAST_WIDTH.saturating_add(w) * w;
    // A long strip, whose plateau comes before its last two rows: the
    // factor falls to 1 on the way to the plateau.
    let strip = plateau.saturating_add(2 * w) <= n;
    for t in k..n {
        let left = n - 1 - t; // squares after this one
        let prev = s.last().copied().unwrap_or(1.0);
        g = (g * decay).max(floor).clamp(1.0, 64.0);
        // A long strip's states have stopped growing.
        let level = t >= plateau;
        let above = if t >= w { s[t - w] } else { prev * 2.0 };
        let separator = match last_row {
            LastRow::Separator { inner } if left < 2 * w => Some(inner),
            _ => None,
        };
        let x = if let Some(inner) = separator {
            // The separator's rows: the row factor, falling across the
            // last row to about a half of it in the bottom part and a
            // quarter in the top part (5x8, 5x9, 6x7 and 6x8 open: from
            // the row factor to 0.48-0.68 of it in the bottom part, to
            // 0.2-0.38 in the top part).
            let fall = if left < w {
                let col = (w - 1 - left) as f64 / (w - 1).max(1) as f64;
                1.0 - col * if inner { 0.45 } else { 0.75 }
            } else {
                1.0
            };
            above * g * fall
        } else if left < w {
            // The last row: the column from the end decides.
            let col = w - 1 - left;
            above
                * match col {
                    0 => 1.5,
                    1 => 0.3,
                    _ => 0.01 * 0.1f64.powi(col as i32 - 2),
                }
        } else if left < 2 * w {
            above * if level { 0.85 } else { g * 0.85 }
        } else if level {
            above
        } else if strip {
            above * g.powf((plateau - t) as f64 / (plateau - k) as f64)
        } else {
            above * g
        };
        s.push(x.min(ceiling).max(1.0));
    }
    s.into_iter()
        .map(|x| x.min(u64::MAX as f64) as u64)
        .collect()
}

/// Figures of a projected sequence of states: (peak, its step, peak disk
/// bytes, successors still to generate after step `from`).
pub(crate) fn figures(
    states: &[u64],
    from: usize,
    ratio: f64,
    entry_bytes: u64,
) -> (u64, usize, u64, f64) {
    let mut peak = (0u64, 0usize);
    let mut disk = 0f64;
    let mut left = 0f64;
    for (t, &x) in states.iter().enumerate() {
        if x > peak.0 {
            peak = (x, t + 1);
        }
        let read = if t == 0 { 1.0 } else { states[t - 1] as f64 };
        disk = disk.max((read + ratio * x as f64) * entry_bytes as f64);
        if t >= from {
            left += ratio * x as f64;
        }
    }
    (peak.0, peak.1, disk as u64, left)
}

/// Records a trial run's squares: (states, successors, time since start).
pub(crate) struct Trial {
    pub start: Instant,
    pub steps: Mutex<Vec<(u64, u64, f64)>>,
}

impl Trial {
    pub fn new() -> Trial {
        Trial {
            start: Instant::now(),
            steps: Mutex::new(Vec::new()),
        }
    }
}

/// The successors per merged state and the seconds per successor over
/// the last row measured (the first squares cost little and say little):
/// `steps` are (states, successors, seconds so far).
pub(crate) fn rates(steps: &[(u64, u64, f64)], w: usize) -> (f64, f64) {
    let k = steps.len();
    let from = k.saturating_sub(w.max(1));
    let (mut states, mut generated) = (0u64, 0u64);
    for &(s, g, _) in &steps[from..] {
        states += s;
        generated += g;
    }
    let ratio = if states > 0 {
        (generated as f64 / states as f64).clamp(1.0, 16.0)
    } else {
        2.0
    };
    let before = if from == 0 { 0.0 } else { steps[from - 1].2 };
    let secs = steps.last().map_or(0.0, |s| s.2) - before;
    let per = if generated > 0 {
        secs / generated as f64
    } else {
        0.0
    };
    (ratio, per)
}

/// A board measured in full: (rows, columns of the shorter side, open,
/// meet, peak states, its square (0: not recorded), seconds).
type Measured = (usize, usize, bool, bool, u64, usize, f64);

/// Counts measured in full on a quiet 2-core machine, release build
/// (`knights count BOARD --json --quiet`, `BENCHMARKS.md`); the seconds
/// are wall-clock time there.
const TABLE: &[Measured] = &[
    (8, 7, false, true, 5_706_722, 0, 14.5),
    (8, 8, false, true, 230_725_913, 0, 600.7),
];

/// The table's figures for a board oriented as (rows, w), if measured.
pub(crate) fn from_table(rows: usize, w: usize, open: bool, meet: bool) -> Option<Projection> {
    let &(_, _, _, _, peak, peak_step, seconds) = TABLE
        .iter()
        .find(|m| (m.0, m.1, m.2, m.3) == (rows, w, open, meet))?;
    Some(Projection {
        steps: if meet { 0 } else { rows * w },
        peak_states: peak,
        peak_step,
        // A layer read and about twice its successors written, 16 bytes each.
        disk_bytes: peak.saturating_mul(48),
        seconds,
        states_per_step: Vec::new(),
        measured_steps: 0,
        trial: Duration::ZERO,
        source: Some(Source::Table),
        state_bytes: 16,
        ..Projection::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{plan, Kind, SquareOrder};

    /// The growth of open tours of a board `rows` x `w`, taken by rows.
    fn open_strip(rows: usize, w: usize) -> Growth {
        let p = plan::strip_problem(rows, w, Kind::Open, SquareOrder::Rows);
        Growth::of(&p, &Engine::new(&p).unwrap())
    }

    /// 6x16 open, measured in full (`knights count 6x16 --open --json
    /// --method forward`): a long strip, whose states stop growing at
    /// 14,294,678 after its tenth row.
    const OPEN_6X16: [u64; 96] = [
        1, 1, 1, 1, 1, 1, 2, 4, 16, 64, 128, 136, 410, 1270, 5736, 17686, 25413, 30360, 66609,
        98441, 219303, 432631, 358163, 316996, 810086, 1133480, 2395196, 3821903, 2214692, 1851037,
        4758936, 5723447, 10092394, 11204186, 4115497, 2868577, 7327761, 8062589, 13660502,
        13292760, 4439928, 2996905, 7684870, 8375979, 14172360, 13613284, 4483099, 3014906,
        7736616, 8428067, 14263606, 13676633, 4491761, 3019341, 7750096, 8442334, 14288573,
        13696415, 4494286, 3020731, 7754313, 8446057, 14294258, 13700690, 4494560, 3020866,
        7754718, 8446411, 14294678, 13701035, 4494561, 3020866, 7754718, 8446411, 14294678,
        13701035, 4494561, 3020866, 7754718, 7364949, 12024080, 10808384, 3289741, 2248841,
        4375339, 4233798, 6352592, 4719436, 1557285, 1028294, 460286, 131414, 5937, 133, 6, 0,
    ];

    #[test]
    fn a_long_strip_judged_from_two_rows_stays_under_its_frontiers_keys() {
        // 6 x 33 open after its second row: the first rows' factors,
        // compounded through every row to the plateau, would pass by far
        // the 2.5 x 10^8 keys its frontier of 13 squares can hold, which is
        // the ceiling.
        let growth = open_strip(33, 6);
        assert!(
            (2.0e8..3.0e8).contains(&growth.ceiling),
            "{}",
            growth.ceiling
        );
        let s = extend(&OPEN_6X16[..12], 198, growth);
        let peak = s.iter().copied().max().unwrap();
        assert!(peak as f64 <= growth.ceiling, "{peak}");
        assert!(peak > 14_294_678, "{peak}");
    }

    #[test]
    fn no_count_holds_more_states_than_its_frontiers_keys() {
        for (rows, w, kind) in [
            (12, 4, Kind::Open),
            (10, 5, Kind::Open),
            (10, 5, Kind::Closed),
        ] {
            let p = plan::strip_problem(rows, w, kind, SquareOrder::Rows);
            let ceiling = Engine::new(&p).unwrap().key_space();
            let run = crate::count::engine::executor::run(&p, &Default::default()).unwrap();
            let peak = run.states_per_step.iter().copied().max().unwrap();
            assert!(
                peak > 1000 && (peak as f64) < ceiling,
                "{rows}x{w}: {peak} {ceiling}"
            );
        }
    }

    #[test]
    fn a_long_strip_stays_level_to_its_last_rows() {
        // 6 x 16 open from its first six rows, before the plateau: the
        // measured factor (2.0), falling to 1 by the plateau's row, carries
        // the states 2.3 times past the level they reach (held at 2.0, 6.6
        // times), from where they stay level; no row after grows by that
        // factor again, the second-to-last row included.
        let s = extend(&OPEN_6X16[..36], 96, open_strip(16, 6));
        let (peak, _, _, _) = figures(&s, 36, 2.0, 16);
        let real = 14_294_678f64;
        assert!(peak as f64 > real && (peak as f64) < real * 3.0, "{peak}");
        let plateau = s[60..66].iter().copied().max().unwrap();
        assert!(s[66..].iter().all(|&x| x <= plateau), "{s:?}");
    }

    /// 6x6 open, measured in full: the states after each square (with
    /// ranked keys: within a row the counts depend on which of a state and
    /// its mirror image the keys keep).
    const OPEN_6X6: [u64; 36] = [
        1, 1, 1, 1, 1, 1, 2, 4, 16, 64, 128, 256, 896, 3400, 22088, 111343, 130205, 140092, 308764,
        367572, 636710, 1302706, 944400, 1078438, 1951832, 2679676, 5477337, 9891600, 5150990,
        5841897, 3072332, 802540, 20525, 290, 6, 0,
    ];

    #[test]
    fn the_model_projects_6x6_open_from_four_rows_within_a_fifth() {
        let s = extend(&OPEN_6X6[..24], 36, open_strip(6, 6));
        assert_eq!(&s[..24], &OPEN_6X6[..24]);
        let (peak, at, _, _) = figures(&s, 24, 2.0, 16);
        let real = 9_891_600f64;
        assert!((peak as f64 - real).abs() / real < 0.2, "{peak}");
        assert!((26..=30).contains(&at), "{at}");
    }

    /// 6x8 open met in the middle, measured in full: the bottom part's
    /// states after each square (its last two rows are the separator;
    /// ranked keys, as above).
    const OPEN_6X8_BOTTOM: [u64; 30] = [
        1, 1, 1, 1, 1, 1, 2, 4, 16, 64, 128, 136, 412, 1363, 5902, 17653, 25678, 30360, 65947,
        100848, 211222, 441941, 377861, 316996, 800883, 1236392, 2447418, 4201930, 2472052,
        1851037,
    ];

    #[test]
    fn a_part_grows_through_its_separator_rows() {
        let part = Growth {
            last_row: LastRow::Separator { inner: true },
            ..open_strip(5, 6)
        };
        let s = extend(&OPEN_6X8_BOTTOM[..24], 30, part);
        let (peak, at, _, _) = figures(&s, 24, 2.0, 16);
        let real = 4_201_930f64;
        assert!(
            peak as f64 > real / 2.0 && (peak as f64) < real * 2.0,
            "{peak}"
        );
        assert!(at > 24, "{at}");
        // As a whole board, the last row would collapse far below.
        let closing = extend(&OPEN_6X8_BOTTOM[..24], 30, open_strip(5, 6));
        assert!(closing[29] < OPEN_6X8_BOTTOM[29] / 10);
    }

    #[test]
    fn the_parts_of_a_meet_are_told_apart() {
        // Odd rows: a top part and a bottom one with the middle's edges.
        let [top, bottom] =
            &crate::count::strategy::meet_paths::part_problems(9, 6, Default::default())[..]
        else {
            panic!("7 rows run two parts");
        };
        assert_eq!(LastRow::of(top), LastRow::Separator { inner: false });
        assert_eq!(LastRow::of(bottom), LastRow::Separator { inner: true });
        // Even rows: the top alone, with half the middle's edges.
        let parts = crate::count::strategy::meet_paths::part_problems(8, 6, Default::default());
        assert_eq!(parts.len(), 1);
        assert_eq!(LastRow::of(&parts[0]), LastRow::Separator { inner: true });
        let whole = crate::count::plan::strip_problem(
            6,
            6,
            crate::count::Kind::Open,
            crate::count::SquareOrder::Rows,
        );
        assert_eq!(LastRow::of(&whole), LastRow::Closes);
    }

    #[test]
    fn a_projection_spreads_its_states_bytes_and_table_over_workers() {
        let p = Projection {
            peak_states: 1000,
            peak_step: 2,
            states_per_step: vec![10, 1000, 400],
            successors_per_state: 2.0,
            state_bytes: 16,
            final_states: vec![400, 40],
            join: Some(Join::Closed),
            seconds: 3600.0,
            ..Projection::default()
        };
        let one = p.per_worker(1);
        assert_eq!(
            (one.peak_states, one.sent_bytes, one.sent_per_square),
            (1000, 0, 0)
        );
        assert_eq!(one.join_bytes, 400 * TABLE_BYTES_PER_STATE);
        assert_eq!(one.hours_alike, 1.0);
        let four = p.per_worker(4);
        assert_eq!(four.peak_states, 250);
        assert_eq!(four.join_bytes, 100 * TABLE_BYTES_PER_STATE);
        // A quarter of the 800 successors of the square after the peak
        // leave for the three others: 150 of them.
        let near = |x: u64, want: f64| (x as f64 - want).abs() <= 1.0;
        assert!(near(four.sent_per_square, 150.0 * WIRE_BYTES_PER_SUCCESSOR));
        // Of the 2,820 successors in all, 3/16 leave each worker.
        assert!(near(
            four.sent_bytes,
            2820.0 * 3.0 / 16.0 * WIRE_BYTES_PER_SUCCESSOR
        ));
        assert!(four.memory_bytes * 4 == one.memory_bytes);
        assert!((four.hours_alike - SPREAD_CPU_FACTOR / 4.0).abs() < 1e-9);
        // Open tours: every worker holds every bottom state.
        let open = Projection {
            join: Some(Join::Open),
            ..p
        }
        .per_worker(4);
        assert_eq!(open.join_bytes, 2 * 100 * TABLE_BYTES_PER_STATE + 40 * 32);
    }

    #[test]
    fn measured_sequences_stay_as_they_are() {
        assert_eq!(extend(&OPEN_6X6, 36, open_strip(6, 6)), OPEN_6X6.to_vec());
    }
}
