//! The board cut in two for meeting in the middle, shared by the closed
//! strategy (`meet.rs`) and the open one (`meet_paths.rs`) so that neither
//! imports the other: the widest board they take, the parts as frontier
//! problems, the summary a finished meeting keeps, and the progress of two
//! runs told as one.

use crate::count::engine::executor::{self, FrontierProgress, Run, RunOptions};
use crate::count::engine::frontier::{Problem, Route};
use crate::count::engine::number::Count;
use crate::{Error, Result};

/// The widest board this method takes (two separator rows of at most 16
/// squares in all, so an end's mate fits in 4 bits).
pub(crate) const MAX_WIDTH: usize = 8;

/// The figures of the two parts' runs and the count.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct MeetRun {
    pub count: Count,
    pub top: Run,
    pub bottom: Run,
    /// Top and bottom states whose degrees fit, tested for one cycle.
    pub pairs_tested: u64,
    /// Bytes of the parts' final states held on disk for the join (open
    /// tours; see the `meet_paths` shelf). Left out of the summary file
    /// when 0, so that the summaries of counts that held nothing on disk
    /// keep their checksums.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub held_disk: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
        let path = opts.count.work_dir.as_deref().map(|dir| {
            dir.join(format!(
                "count-meet-{:016x}.json",
                executor::problem_hash(top) ^ executor::problem_hash(bottom).rotate_left(1)
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
        // Workers keep checkpoints of their own, decided together (see
        // `executor/spread_checkpoint.rs`); no summary.
        if opts.workers.is_some() {
            return Ok(None);
        }
        if let (Some(dir), false) = (opts.count.work_dir.as_deref(), opts.count.resume) {
            let finished = self.path.as_deref().is_some_and(std::path::Path::exists);
            let parts = [self.top, self.bottom].map(|p| executor::manifests(p, dir).len());
            if !opts.count.fresh && !finished && parts.iter().sum::<usize>() > 0 {
                return Err(executor::unfinished(dir));
            }
            executor::clear_checkpoints(self.top, dir)?;
            executor::clear_checkpoints(self.bottom, dir)?;
            if let Some(path) = self.path.as_deref().filter(|p| p.exists()) {
                let (work, name) = summary_folder(dir, path)?;
                work.remove(name)
                    .map_err(|e| executor::io_error("clear", path, e))?;
            }
        }
        match (self.path.as_deref(), opts.count.resume) {
            (Some(path), true) if path.exists() => read_summary(path).map(Some),
            _ => Ok(None),
        }
    }

    /// After the runs: the summary replaces the parts' state files, unless
    /// they are to be kept.
    pub fn finish(&self, done: &MeetRun, opts: &RunOptions<'_>) -> Result<()> {
        if opts.workers.is_some() {
            return Ok(());
        }
        if let (Some(dir), Some(path), false) = (
            opts.count.work_dir.as_deref(),
            self.path.as_deref(),
            opts.count.keep,
        ) {
            let file = SummaryFile {
                checksum: executor::crc_of(done),
                run: done,
            };
            let text = serde_json::to_string(&file)
                .map_err(|e| Error::Internal(format!("a count's summary: {e}").into()))?;
            // Written through the work directory's handle, never through
            // a link planted at its predictable name.
            let (work, name) = summary_folder(dir, path)?;
            work.write_atomic(name, text.as_bytes())
                .map_err(|e| executor::io_error("write", path, e))?;
            executor::clear_checkpoints(self.top, dir)?;
            executor::clear_checkpoints(self.bottom, dir)?;
        }
        Ok(())
    }
}

/// The work directory `dir`, open, and the name of the summary at `path`
/// in it.
fn summary_folder<'p>(
    dir: &std::path::Path,
    path: &'p std::path::Path,
) -> Result<(executor::Folder, &'p str)> {
    let work = executor::Folder::open(dir).map_err(|e| executor::io_error("open", dir, e))?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Error::Internal(format!("{} has no name", path.display()).into()))?;
    Ok((work, name))
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
    let text = executor::read_small(path)?;
    let file: SummaryFile<MeetRun> = serde_json::from_str(&text).map_err(|e| {
        Error::Parse(format!("{} is not a count's summary: {e}", path.display()).into())
    })?;
    if executor::crc_of(&file.run) != file.checksum {
        return Err(executor::edited(path));
    }
    Ok(file.run)
}

/// The caller's progress callback, told of `before + step` of `steps` squares.
pub(in crate::count) fn shifted<'a>(
    opts: &'a RunOptions<'_>,
    before: usize,
    steps: usize,
) -> impl Fn(&FrontierProgress) + Sync + 'a {
    move |p: &FrontierProgress| {
        if let Some(f) = opts.progress {
            f(&FrontierProgress {
                step: before + p.step,
                steps,
                ..*p
            });
        }
    }
}

/// Which part holds which edges between the two middle rows when a meet
/// in the middle cuts open tours of a board of an even number of rows
/// (see `meet_paths`): the top part takes those whose end in the upper
/// middle row lies farther from the centre column than their other end
/// (`Outer`, the default) or nearer (`Inner`), the bottom part the others,
/// so that it is the top upside down. The count is the same, reached
/// through other states, so a run with one checks a run with the other.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MiddleEdges {
    /// The top part takes the middle's edges whose upper end lies farther out.
    #[default]
    Outer,
    /// The top part takes the middle's edges whose upper end lies nearer the centre.
    Inner,
}

impl std::str::FromStr for MiddleEdges {
    type Err = crate::Error;

    /// `outer` or `inner` (spaces around are ignored); any other text is
    /// refused, saying which names there are.
    fn from_str(text: &str) -> crate::Result<Self> {
        match text.trim() {
            "outer" => Ok(MiddleEdges::Outer),
            "inner" => Ok(MiddleEdges::Inner),
            other => Err(crate::Error::Unsupported(
                format!(
                    "'{}' is not a share of the middle's edges; it is outer or inner",
                    crate::excerpt(other)
                )
                .into(),
            )),
        }
    }
}

impl<'de> serde::Deserialize<'de> for MiddleEdges {
    /// Read by its name (see [`MiddleEdges::from_str`](std::str::FromStr)).
    fn deserialize<D: serde::Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<MiddleEdges, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(in crate::count) enum Side {
    Top,
    Bottom,
    /// The top part with the edges between the two separator rows (the
    /// *middle*) that [`MiddleEdges`] gives it.
    TopWith(MiddleEdges),
    /// The bottom part with the middle's edges that the same share gives
    /// it: [`Side::TopWith`] upside down.
    LowerWith(MiddleEdges),
}

impl Side {
    /// Whether the edge between squares `a` and `b` (row, column) of a
    /// board `w` wide cut above row `h` belongs to this part.
    pub(in crate::count) fn holds(
        self,
        a: (usize, usize),
        b: (usize, usize),
        w: usize,
        h: usize,
    ) -> bool {
        let (upper, lower) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        let middle = upper.0 == h && lower.0 == h + 1;
        // Twice the distance from the centre column.
        let out = |c: usize| (2 * c).abs_diff(w - 1);
        // Whether a share gives the part the middle's edge whose end on the
        // part's side is `near` and the other `far`.
        let takes = |share: MiddleEdges, near: usize, far: usize| match share {
            MiddleEdges::Outer => out(near) > out(far),
            MiddleEdges::Inner => out(near) < out(far),
        };
        match self {
            Side::Top => upper.0 < h,
            Side::Bottom => upper.0 >= h,
            Side::TopWith(share) => upper.0 < h || (middle && takes(share, upper.1, lower.1)),
            Side::LowerWith(share) => {
                (upper.0 >= h && lower.0 >= h + 2) || (middle && takes(share, lower.1, upper.1))
            }
        }
    }
}

/// One part of the board as a frontier problem.
pub(in crate::count) struct Part {
    pub problem: Problem,
    /// Separator index (`(row - h) * w + col`) of each vertex, or `None`.
    pub sep_of: Vec<Option<u8>>,
    pub w: usize,
}

impl Part {
    pub fn new(rows: usize, w: usize, h: usize, side: Side) -> Part {
        // The part's squares in processing order: the top from row 0 down to
        // row h + 1, the bottom from the last row up to row h (its mirror
        // image, so its frontier moves like the top's).
        let order: Vec<usize> = match side {
            Side::Top | Side::TopWith(_) => (0..(h + 2).min(rows)).collect(),
            Side::Bottom | Side::LowerWith(_) => (h..rows).rev().collect(),
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
                if !side.holds((r, c), (rr, cc), w, h) {
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
                colour: squares.iter().map(|&(r, c)| square_colour(r, c)).collect(),
                twice_colour_total: if (rows * w).is_multiple_of(2) { 0 } else { 2 },
                // The bottom part's states may be kept up to mirror image
                // (their sum against the top's exact, symmetric table is
                // the same); the top's table must be exact.
                mirror: match side {
                    Side::Top | Side::TopWith(_) => Vec::new(),
                    Side::Bottom | Side::LowerWith(_) => (0..n)
                        .map(|v| (v - v % w + (w - 1 - v % w)) as u32)
                        .collect(),
                },
                prefixes: Vec::new(),
                row: 0,
            },
            sep_of,
            w,
        }
    }
}

/// The colour of a square (+1 or -1): every knight's move changes it.
pub(in crate::count) fn square_colour(row: usize, col: usize) -> i8 {
    if (row + col).is_multiple_of(2) {
        1
    } else {
        -1
    }
}
