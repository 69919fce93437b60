//! The exhaustive enumeration of semimagic tours in ranges (one range: a
//! first square in the board's fundamental region and a last square), run
//! on the rayon pool, reported in range order, with a checkpoint rewritten
//! after each range; and Knuth's estimate of the size of its tree.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use rand::Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::engine::Geometry;
use super::search::{
    check_side, check_symmetric, ends, found_tour, Enumeration, EnumerationReport, Found, Unit,
};
use super::walk::{dfs, Flow, Walker};
use crate::{Board, Control, Error, Phase, Progress, Result, Square, Wanted};

/// The version of the checkpoint format.
const VERSION: u32 = 1;

/// The ranges of the `n` x `n` board: every first square with
/// `row <= col < n/2`, with every last square a tour of `kind` may have
/// (or, for tours symmetric under the half turn, alone).
pub(crate) fn ranges(g: &Geometry, kind: Wanted, symmetric: bool) -> Vec<Unit> {
    let h = g.n / 2;
    let firsts = (0..h).flat_map(|r| (r..h).map(move |c| r * g.n + c));
    if symmetric {
        return firsts.map(Unit::HalfTurn).collect();
    }
    firsts
        .flat_map(|s| ends(g, s, kind).into_iter().map(move |e| Unit::Ends(s, e)))
        .collect()
}

/// One of the 8 symmetries of the board: `(m, r, c)` to the image of
/// `(r, c)`, `m` the last row.
type Symmetry = fn(u32, u32, u32) -> (u32, u32);

/// The least of the 16 numberings of a tour (8 board symmetries, and
/// reversal): the same for every tour of one class.
pub fn canonical(n: usize, squares: &[Square]) -> Vec<Square> {
    let m = n as u32 - 1;
    let maps: [Symmetry; 8] = [
        |_, r, c| (r, c),
        |m, r, c| (c, m - r),
        |m, r, c| (m - r, m - c),
        |m, r, c| (m - c, r),
        |m, r, c| (r, m - c),
        |m, r, c| (m - r, c),
        |_, r, c| (c, r),
        |m, r, c| (m - c, m - r),
    ];
    let n32 = n as u32;
    let mut best: Option<Vec<Square>> = None;
    for f in maps {
        let image: Vec<Square> = squares
            .iter()
            .map(|&s| {
                let (r, c) = f(m, s / n32, s % n32);
                r * n32 + c
            })
            .collect();
        let reversed: Vec<Square> = image.iter().rev().copied().collect();
        for v in [image, reversed] {
            if best.as_ref().is_none_or(|b| v < *b) {
                best = Some(v);
            }
        }
    }
    best.unwrap_or_default()
}

/// What the checkpoint file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Checkpoint {
    version: u32,
    side: u32,
    kind: String,
    ranges: u64,
    done: BTreeSet<u64>,
    tours: Vec<Vec<Square>>,
    nodes: u64,
}

/// The checkpoint's name for the tours enumerated.
fn kind_name(kind: Wanted, symmetric: bool) -> &'static str {
    match (symmetric, kind) {
        (true, _) => "half-turn",
        (false, Wanted::Closed) => "closed",
        (false, Wanted::Open) => "open",
        (false, Wanted::Either) => "either",
    }
}

impl Checkpoint {
    /// Reads the checkpoint at `path` (a fresh one if there is no file),
    /// refusing one of another board, kind or version.
    fn read(path: Option<&Path>, fresh: Checkpoint) -> Result<Checkpoint> {
        let Some(path) = path.filter(|p| p.exists()) else {
            return Ok(fresh);
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::io(format!("read the checkpoint {}", path.display()), e))?;
        let old: Checkpoint = serde_json::from_str(&text).map_err(|e| {
            Error::Refused(format!("{} is not a magic enumeration checkpoint ({e}); remove it or name another file", path.display()).into())
        })?;
        let differs = if old.version != fresh.version {
            Some(format!("version {}, not {}", old.version, fresh.version))
        } else if old.side != fresh.side {
            Some(format!("the {s}x{s} board", s = old.side))
        } else if old.kind != fresh.kind {
            Some(format!("{} tours, not {}", old.kind, fresh.kind))
        } else if old.ranges != fresh.ranges || old.done.iter().any(|&r| r >= fresh.ranges) {
            Some(format!("{} ranges, not {}", old.ranges, fresh.ranges))
        } else {
            None
        };
        match differs {
            Some(what) => Err(Error::Refused(
                format!(
                    "the checkpoint {} is of another enumeration: {what}",
                    path.display()
                )
                .into(),
            )),
            None => Ok(old),
        }
    }

    /// Rewrites the checkpoint whole: a temporary file beside it, synced,
    /// renamed over it.
    fn write(&self, path: &Path) -> Result<()> {
        use std::io::Write;
        let tmp = path.with_extension("tmp");
        let io = |e| Error::io(format!("write the checkpoint {}", path.display()), e);
        let text = serde_json::to_vec(self).map_err(|e| Error::Internal(e.to_string().into()))?;
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(&text).and_then(|()| f.sync_all()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

/// The tours of one range, or `None` when it was stopped before its end.
type RangeResult = Result<Option<Vec<Vec<Square>>>>;

/// Searches range `unit` through, within the shared budget.
fn run_range(
    g: &Geometry,
    unit: Unit,
    control: &Control,
    total: &AtomicU64,
    budget: Option<u64>,
    abort: &AtomicBool,
) -> RangeResult {
    if control.is_stopped()
        || abort.load(Ordering::Relaxed)
        || budget.is_some_and(|b| total.load(Ordering::Relaxed) >= b)
    {
        return Ok(None);
    }
    let mut tours = Vec::new();
    let Some(mut e) = unit.root(g, &[]) else {
        return Ok(Some(tours));
    };
    let mut w = Walker::new(control, budget, None)
        .shared(total)
        .abort(abort);
    let flow = dfs(&mut e, &mut w, &mut |path, _| {
        tours.push(path.to_vec());
        Ok(true)
    })?;
    w.flush(total);
    Ok((flow == Flow::Go).then_some(tours))
}

impl Enumeration {
    /// Runs (or resumes) the enumeration, giving each new tour to
    /// `on_found`, in range order whatever the number of threads.
    ///
    /// # Errors
    /// [`Error::Refused`] for a side the search does not take or a
    /// checkpoint of another enumeration (or not one at all); an I/O error
    /// when the checkpoint cannot be read or written.
    pub fn run(
        &self,
        control: &Control,
        on_found: &mut dyn FnMut(&Found) -> Result<()>,
    ) -> Result<EnumerationReport> {
        let n = check_side(self.side)?;
        let board = Board::new(n as u64, n as u64)?;
        let g = Geometry::new(n);
        check_symmetric(self.kind, self.symmetric)?;
        let ranges = ranges(&g, self.kind, self.symmetric);
        let fresh = Checkpoint {
            version: VERSION,
            side: self.side,
            kind: kind_name(self.kind, self.symmetric).into(),
            ranges: ranges.len() as u64,
            ..Checkpoint::default()
        };
        let mut ck = Checkpoint::read(self.checkpoint.as_deref(), fresh)?;
        let base = ck.nodes;
        let pending: Vec<usize> = (0..ranges.len())
            .filter(|r| !ck.done.contains(&(*r as u64)))
            .collect();
        let (total, abort) = (AtomicU64::new(0), AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<(usize, RangeResult)>();
        let mut failure = None;
        std::thread::scope(|scope| {
            let (g, ranges, pending, total, abort) = (&g, &ranges, &pending, &total, &abort);
            let budget = self.max_nodes;
            scope.spawn(move || {
                pending.par_iter().for_each_with(tx, |tx, &r| {
                    let _ = tx.send((r, run_range(g, ranges[r], control, total, budget, abort)));
                });
            });
            let mut waiting: Vec<Option<Option<Vec<Vec<Square>>>>> = vec![None; ranges.len()];
            let mut next = 0;
            for (r, result) in rx {
                let tours = match result {
                    Err(e) => {
                        abort.store(true, Ordering::Relaxed);
                        failure.get_or_insert(e);
                        continue;
                    }
                    Ok(t) => t,
                };
                if let Some(t) = &tours {
                    ck.done.insert(r as u64);
                    ck.tours.extend(t.iter().cloned());
                    control.report(&Progress::new(
                        Phase::Searching,
                        ck.done.len() as u64,
                        Some(ck.ranges),
                    ));
                    if let Some(path) = &self.checkpoint {
                        ck.nodes = base + total.load(Ordering::Relaxed);
                        if let Err(e) = ck.write(path) {
                            abort.store(true, Ordering::Relaxed);
                            failure.get_or_insert(e);
                        }
                    }
                }
                waiting[r] = Some(tours);
                while next < pending.len() && waiting[pending[next]].is_some() {
                    if failure.is_none() {
                        if let Some(Some(t)) = &waiting[pending[next]] {
                            for squares in t {
                                if let Err(e) =
                                    found_tour(board, squares, 0).and_then(|f| on_found(&f))
                                {
                                    abort.store(true, Ordering::Relaxed);
                                    failure.get_or_insert(e);
                                    break;
                                }
                            }
                        }
                    }
                    next += 1;
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        ck.nodes = base + total.load(Ordering::Relaxed);
        if let Some(path) = &self.checkpoint {
            ck.write(path)?;
        }
        let classes: BTreeSet<Vec<Square>> = ck.tours.iter().map(|t| canonical(n, t)).collect();
        Ok(EnumerationReport {
            ranges_done: ck.done.len() as u64,
            ranges: ck.ranges,
            tours: ck.tours.len() as u64,
            classes: classes.len() as u64,
            nodes: ck.nodes,
            complete: ck.done.len() as u64 == ck.ranges,
        })
    }
}

/// Knuth's estimate (1975) of the nodes of the whole enumeration's tree
/// (every range, the same pruning): `probes` random walks from the roots,
/// each giving `R (1 + d1 + d1 d2 + ...)` with `d_i` the children of the
/// i-th node walked and `R` the number of ranges. The mean and its standard
/// error.
///
/// # Errors
/// [`Error::Refused`] for a side the search does not take;
/// [`Error::Interrupted`] when the control stops it.
pub fn estimate_nodes(
    side: u32,
    kind: Wanted,
    probes: u64,
    seed: u64,
    control: &Control,
) -> Result<(f64, f64)> {
    let n = check_side(side)?;
    let g = Geometry::new(n);
    let ranges = ranges(&g, kind, false);
    let mut values = Vec::with_capacity(probes as usize);
    for probe in 0..probes {
        control.check("the magic estimate")?;
        let mut rng = crate::rng::for_batch(seed, probe);
        let unit = ranges[rng.random_range(0..ranges.len())];
        let mut value = 0.0;
        let mut weight = ranges.len() as f64;
        if let Some(mut e) = unit.root(&g, &[]) {
            loop {
                value += weight;
                let (moves, len) = e.moves();
                let children: Vec<usize> = moves[..len]
                    .iter()
                    .filter(|&&(_, s)| {
                        let ok = e.try_step(s);
                        if ok {
                            e.undo();
                        }
                        ok
                    })
                    .map(|&(_, s)| s)
                    .collect();
                if children.is_empty() {
                    break;
                }
                weight *= children.len() as f64;
                e.try_step(children[rng.random_range(0..children.len())]);
            }
        }
        values.push(value);
        control.report(&Progress::new(Phase::Estimating, probe + 1, Some(probes)));
    }
    let k = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / k;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1.0).max(1.0);
    Ok((mean, (var / k).sqrt()))
}
