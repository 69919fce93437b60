//! Every prefix of cells in one pass: the tours of the first `c` cells of a
//! `K`-wide strip taken row by row, for every `c` (Knuth's "first n cells"
//! tables, where the board's columns of `K` cells are this strip's rows).

use std::time::Instant;

use super::{forward_report, length_prefixes, Counter};
use crate::count::engine::frontier::Problem;
use crate::count::plan::{expected_bits, strip_problem, PROBLEM_BYTES_PER_SQUARE};
use crate::count::projection::project::Projection;
use crate::count::{projection::trial, Count, CountReport, Method, SquareOrder};
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
        self.prepare()?;
        let t0 = Instant::now();
        if self.options.method == Method::Meet || self.options.order != SquareOrder::Rows {
            return Err(crate::Error::Unsupported(
                "a sweep over cells runs forward and takes each line's cells in order: neither meeting in the middle nor taking the lines from the outside in applies".into(),
            )
            .with_hint(crate::Hint::UseMethod(crate::count::Method::Forward)));
        }
        let run = self.sweep(cell_prefixes)?;
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

/// A sweep over cells counts every prefix, each a graph of its own (no
/// mirror folding).
fn cell_prefixes(problem: &mut Problem) {
    problem.prefixes = (1..problem.n).collect();
    problem.mirror = Vec::new();
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
        if self.options.method == Method::Meet || self.options.order != SquareOrder::Rows {
            return Err(crate::Error::Unsupported(
                "a sweep over cells runs forward and takes each line's cells in order: neither meeting in the middle nor taking the lines from the outside in applies".into(),
            )
            .with_hint(crate::Hint::UseMethod(crate::count::Method::Forward)));
        }
        self.sweep_projection(cell_prefixes)
    }

    /// The projection of [`all_lengths`](Counter::all_lengths): a trial
    /// run of its one pass, extended by the model of [`Counter::project`].
    pub fn all_lengths_projection(&self) -> Result<Projection> {
        if self.options.method == Method::Meet || self.options.order == SquareOrder::Staggered {
            return Err(crate::Error::Unsupported(
                "a sweep over lengths runs forward and counts the tours after each whole row"
                    .into(),
            ));
        }
        let w = self.on.rows() as usize;
        self.sweep_projection(|problem| length_prefixes(problem, w))
    }

    /// The projection of a sweep whose problem `prefixes` sets up.
    fn sweep_projection(&self, prefixes: impl FnOnce(&mut Problem)) -> Result<Projection> {
        let board = self.on;
        expected_bits(board, self.options.kind)?;
        crate::memory::ensure_fits(board, "count", PROBLEM_BYTES_PER_SQUARE)?;
        let (w, rows) = (board.rows() as usize, board.cols() as usize);
        let mut problem = strip_problem(rows, w, self.options.kind, self.options.order);
        prefixes(&mut problem);
        trial::project(&[problem], self.control.map(crate::Control::stop_flag))
    }
}
