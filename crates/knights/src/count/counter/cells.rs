//! Every prefix of cells in one pass: the tours of the first `c` cells of a
//! `K`-wide strip taken row by row, for every `c` (Knuth's "first n cells"
//! tables, where the board's columns of `K` cells are this strip's rows).

use std::time::Instant;

use super::{forward_report, Counter};
use crate::count::plan::tours::{plan, Goal};
use crate::count::projection::project::Projection;
use crate::count::{Count, CountReport};
use crate::Result;

/// The counts of a sweep over cells: see [`Counter::all_cells`].
#[derive(Clone, Debug, Default)]
pub struct CellSweep {
    /// `(cells, count)` for every number of cells from 1 up, in order.
    pub counts: Vec<(usize, Count)>,
    /// The figures of the one pass (its `count` is the whole board's).
    pub report: CountReport,
}

impl Counter<'_> {
    /// For a board `KxN`, the tours of the first `c` cells for every `c`
    /// from 1 to `K N`, in one pass of the frontier program: the board is
    /// taken as `N` lines of `K` cells (never turned), each line in order,
    /// so the first `c` cells are `c / K` whole lines and the first
    /// `c mod K` cells of the next. Knuth (2025) tabulates these prefixes
    /// for `K` = 3 to 8 (closed tours at even `c`, open tours at every `c`).
    /// The lines' ends give the counts of
    /// [`all_lengths`](Counter::all_lengths).
    ///
    /// A prefix is counted as a graph of its own, so the states are not
    /// folded by the strip's mirror image (a partial line has none): up to
    /// twice the states of `all_lengths`. Taking each line from the
    /// outside in is refused, since it changes which cells come first.
    ///
    /// # Example
    /// ```
    /// use knights::count::Counter;
    /// let s = Counter::new("3x4".parse()?).kind(knights::Kind::Open).all_cells()?;
    /// assert_eq!(s.counts.len(), 12);
    /// // All 12 cells: the 8 open tours of 3x4.
    /// assert_eq!(s.counts[11], (12, 8u64.into()));
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn all_cells(&self) -> Result<CellSweep> {
        let t0 = Instant::now();
        let run = self.sweep(Goal::Cells)?;
        let n = self.on.squares();
        let one = self.one_square().count;
        let mut counts: Vec<(usize, Count)> = run
            .prefix_counts
            .iter()
            .map(|&(c, count)| (c, if c == 1 { one } else { count }))
            .collect();
        counts.push((n, run.count));
        let workers = self.shares(run.held_peak, run.sent_bytes)?;
        Ok(CellSweep {
            report: CountReport {
                count: run.count,
                workers,
                ..forward_report(run, t0)
            },
            counts,
        })
    }
}

impl Counter<'_> {
    /// The projection of [`all_cells`](Counter::all_cells): a trial run of
    /// its one pass (every prefix counted, no mirror folding), extended
    /// by the model of [`Counter::project`].
    ///
    /// # Example
    /// ```
    /// use knights::count::{Counter, Source};
    /// let p = Counter::new("3x6".parse()?).all_cells_projection()?;
    /// assert_eq!(p.source, Some(Source::Complete)); // small: counted in the trial
    /// assert_eq!(p.steps, 18);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn all_cells_projection(&self) -> Result<Projection> {
        self.projection(&plan(self.on, &self.options, Goal::Cells)?)
    }

    /// The projection of [`all_lengths`](Counter::all_lengths): a trial
    /// run of its one pass, extended by the model of [`Counter::project`].
    pub fn all_lengths_projection(&self) -> Result<Projection> {
        self.projection(&plan(self.on, &self.options, Goal::Lengths)?)
    }

    /// The projection of [`symmetric`](Counter::symmetric): a trial run of
    /// the half turn's quotient graph, extended by the model of
    /// [`Counter::project`].
    ///
    /// # Example
    /// ```
    /// use knights::count::{Counter, Source};
    /// let p = Counter::new("6x6".parse()?).symmetric_projection()?;
    /// assert_eq!(p.source, Some(Source::Complete)); // small: counted in the trial
    /// assert_eq!(p.steps, 18); // one square for each pair the half turn swaps
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn symmetric_projection(&self) -> Result<Projection> {
        self.projection(&plan(self.on, &self.options, Goal::HalfTurn)?)
    }
}
