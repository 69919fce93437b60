//! Counts of shapes: boards with holes, wrapped edges or another leaper,
//! whose tours one forward program counts over the move graph.

use std::time::Instant;

use super::{forward_report, Counter};
use crate::count::engine::executor::{self, RunOptions};
use crate::count::plan::bound::{refuse_before_building, shape_expected_bits};
use crate::count::plan::shape_problem;
use crate::count::projection::project::{Projection, Source};
use crate::count::projection::time_left::Stage;
use crate::count::{projection::trial, CountReport};
use crate::{Control, Result, Shape};

impl Counter<'_, &Shape> {
    /// The number of undirected closed or open tours of the shape: one
    /// frontier program over the move graph, the squares taken in the
    /// counter's [`order`](Counter::order) (by default row by row along
    /// the longer side), holes skipped, its states in memory and past
    /// the memory bound on disk, with a checkpoint in a work directory, as
    /// a board's (a plain shape is counted as its board, by
    /// [`Counter::tours`]). It runs where
    /// the frontier stays within the counter's limit: small boards, and
    /// cylinders whose wrap joins the two long edges (the frontier then
    /// spans the short side once).
    ///
    /// # Errors
    /// [`crate::Error::Unsupported`] when the frontier would be too wide (a
    /// torus or a wrap along the long side, except on small boards).
    ///
    /// # Example
    /// ```
    /// use knights::count::Counter;
    /// use knights::shape::{Shape, Wrap};
    /// use knights::Kind;
    /// let torus = Shape::new("4x4".parse()?).with_wrap(Wrap::Both);
    /// assert_eq!(Counter::on_shape(&torus).tours()?.count, 1344);
    /// let plain = Shape::new("3x4".parse()?);
    /// assert_eq!(Counter::on_shape(&plain).kind(Kind::Open).tours()?.count, 8);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn tours(&self) -> Result<CountReport> {
        let shape = self.on;
        let board = shape.board();
        if shape.is_plain() {
            return self.same_for(board).tours();
        }
        self.prepare()?;
        let t0 = Instant::now();
        if shape.squares() == 1 {
            return Ok(self.one_square());
        }
        refuse_before_building(shape, self.options.kind, self.options.order)?;
        let problem = shape_problem(shape, self.options.kind, None, self.options.order)?;
        let forward = self.forward(&[(Stage::Squares, problem.n)]);
        let run_opts = RunOptions {
            count_bits: shape_expected_bits(shape, self.options.kind),
            judge_reach: false,
            ..self.run_options(board, &forward)
        };
        let run = executor::run(&problem, &run_opts)?;
        let workers = self.shares(run.held_peak, run.sent_bytes)?;
        Ok(CountReport {
            workers,
            ..forward_report(run, t0)
        })
    }
}

impl Counter<'_, &Shape> {
    /// The projection of [`tours`](Counter::tours) on the shape: a plain
    /// shape's is its board's ([`Counter::project`]); another's comes from a
    /// trial run of its one forward program's first squares, extended by
    /// the same model (its rows are the shape's rows along the longer
    /// side, holes skipped; a torus keeps its first rows in the frontier,
    /// which the model does not know, so its figures are rougher).
    ///
    /// # Example
    /// ```
    /// use knights::count::{Counter, Source};
    /// use knights::shape::{Shape, Wrap};
    /// let torus = Shape::new("4x4".parse()?).with_wrap(Wrap::Both);
    /// let p = Counter::on_shape(&torus).project()?;
    /// assert_eq!(p.source, Some(Source::Complete)); // small: counted in the trial
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn project(&self) -> Result<Projection> {
        let shape = self.on;
        if shape.is_plain() {
            return self.same_for(shape.board()).project();
        }
        if shape.squares() == 1 {
            return Ok(Projection {
                source: Some(Source::Nothing),
                ..Projection::default()
            });
        }
        refuse_before_building(shape, self.options.kind, self.options.order)?;
        let problem = shape_problem(shape, self.options.kind, None, self.options.order)?;
        trial::project(&[problem], self.control.map(Control::stop_flag))
    }
}
