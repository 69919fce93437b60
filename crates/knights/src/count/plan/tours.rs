//! The plan of a count of tours: the one answer that the count
//! ([`Counter::tours`](crate::count::Counter::tours)), its dry run
//! ([`Counter::project`](crate::count::Counter::project)) and its
//! progress all take, so that they agree on the method, the turn of the
//! board and the parts that run.

use crate::count::engine::frontier::Problem;
use crate::count::plan::options::CountOptions;
use crate::count::plan::{
    expected_bits, meets, oriented, strip_problem, Method, SquareOrder, PROBLEM_BYTES_PER_SQUARE,
};
use crate::count::projection::project::Join;
use crate::count::projection::time_left::Stage;
use crate::count::strategy::halves::MiddleEdges;
use crate::count::strategy::{meet, meet_paths};
use crate::{Board, Kind, Result};

/// What a count of the tours of a board runs.
pub(in crate::count) enum TourPlan {
    /// A board of one square: one tour, nothing to run.
    OneSquare,
    /// A theorem forbids every tour (the method left to the plan).
    NoTour,
    /// The strategy and its figures.
    Run(Strategy),
}

/// A count to run: forward over the board turned `rows x w` (`w` the
/// shorter side), or a meeting of its parts.
pub(in crate::count) struct Strategy {
    pub(in crate::count) rows: usize,
    pub(in crate::count) w: usize,
    pub(in crate::count) meet: bool,
    /// The bits the count is expected to need.
    pub(in crate::count) bits: u32,
    options: CountOptions,
}

/// The plan of a count of the tours of `board` asked with `options`;
/// refuses a board too large to count and options that do not apply to
/// the method chosen.
pub(in crate::count) fn plan_tours(board: Board, options: &CountOptions) -> Result<TourPlan> {
    if board.squares() == 1 {
        return Ok(TourPlan::OneSquare);
    }
    // An explicit method still runs (the tests check the theorems with it).
    if options.method == Method::Auto && !crate::exists::tour_exists(board, options.kind) {
        return Ok(TourPlan::NoTour);
    }
    let bits = expected_bits(board, options.kind)?;
    crate::memory::ensure_fits(board, "count", PROBLEM_BYTES_PER_SQUARE)?;
    let (rows, w) = oriented(board);
    let meet = meets(board, options.kind, options.method, options.order)?;
    if options.middle != MiddleEdges::Outer && !(meet && options.kind == Kind::Open) {
        return Err(crate::Error::Unsupported(
            "the middle's edges are shared out only in a meet in the middle of open tours; leave the share at outer".into(),
        ));
    }
    Ok(TourPlan::Run(Strategy {
        rows,
        w,
        meet,
        bits,
        options: options.clone(),
    }))
}

impl Strategy {
    /// The frontier problems that run: the board's, or a meeting's parts
    /// (one, when the lower part is the top turned over).
    pub(in crate::count) fn problems(&self) -> Vec<Problem> {
        let (rows, w) = (self.rows, self.w);
        match (self.meet, self.options.kind) {
            (false, kind) => vec![strip_problem(rows, w, kind, self.options.order)],
            (true, Kind::Closed) => meet::part_problems(rows, w).to_vec(),
            (true, Kind::Open) => meet_paths::part_problems(rows, w, self.options.middle),
        }
    }

    /// The phases of the count and their squares: one forward program's,
    /// or a meeting's parts and their join.
    pub(in crate::count) fn layout(&self) -> Vec<(Stage, usize)> {
        if !self.meet {
            return vec![(Stage::Squares, self.rows * self.w)];
        }
        [Stage::TopPart, Stage::BottomPart]
            .into_iter()
            .zip(self.problems().iter().map(|p| p.n))
            .chain([(Stage::Join, 0)])
            .collect()
    }

    /// The join of a meeting, none for a forward count.
    pub(in crate::count) fn join(&self) -> Option<Join> {
        self.meet.then_some(match self.options.kind {
            Kind::Open => Join::Open,
            Kind::Closed => Join::Closed,
        })
    }

    /// Whether the projection's table of boards counted in full applies:
    /// they were counted by rows, with the middle's default share.
    pub(in crate::count) fn tabled(&self) -> bool {
        self.options.order == SquareOrder::Rows && self.options.middle == MiddleEdges::Outer
    }
}
