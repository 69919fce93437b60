//! The plan of a count: the one answer that every count of
//! [`Counter`](crate::count::Counter) (of tours, over lengths, over
//! cells, of symmetric tours), its dry run and its progress take, so that
//! they agree on the method, the turn of the board and the problems that
//! run.

use crate::count::engine::frontier::Problem;
use crate::count::plan::options::CountOptions;
use crate::count::plan::{
    expected_bits, meets, oriented, strip_problem, Method, SquareOrder, PROBLEM_BYTES_PER_SQUARE,
};
use crate::count::projection::project::Join;
use crate::count::projection::time_left::Stage;
use crate::count::strategy::halves::MiddleEdges;
use crate::count::strategy::{meet, meet_paths, symmetry};
use crate::{Board, Kind, Result};

/// What a count is asked to give: each of [`Counter`]'s counts and
/// their dry runs plan one of these.
///
/// [`Counter`]: crate::count::Counter
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(in crate::count) enum Goal {
    /// The tours of the board.
    Tours,
    /// The tours of every length `W x L`, in one forward pass.
    Lengths,
    /// The tours of every prefix of cells, in one forward pass.
    Cells,
    /// The closed tours a half turn keeps, on the quotient graph.
    HalfTurn,
}

/// What a count of tours runs.
pub(in crate::count) enum Plan {
    /// A board of one square: one tour, nothing to run.
    OneSquare,
    /// A theorem forbids every tour (the method left to the plan).
    NoTour,
    /// The strategy and its figures.
    Run(Strategy),
}

/// A count to run: forward over the board turned `rows x w` (`w` the
/// shorter side; for a sweep, the board as written, `w` its rows), a
/// meeting of its parts, or the quotient graph of a symmetry.
pub(in crate::count) struct Strategy {
    pub(in crate::count) goal: Goal,
    pub(in crate::count) rows: usize,
    pub(in crate::count) w: usize,
    pub(in crate::count) meet: bool,
    /// The bits the count is expected to need (0: the narrowest, widened
    /// when it overflows).
    pub(in crate::count) bits: u32,
    options: CountOptions,
}

/// The strategy of the count `goal` of `board` asked with `options`:
/// every check once (a board too large to count, options that do not
/// apply to the goal or the method chosen), so that the count, its dry run
/// and its progress agree.
pub(in crate::count) fn plan(board: Board, options: &CountOptions, goal: Goal) -> Result<Strategy> {
    let strategy = |rows, w, meet, bits| Strategy {
        goal,
        rows,
        w,
        meet,
        bits,
        options: options.clone(),
    };
    match goal {
        Goal::Tours => {
            let bits = expected_bits(board, options.kind)?;
            crate::memory::ensure_fits(board, "count", PROBLEM_BYTES_PER_SQUARE)?;
            let (rows, w) = oriented(board);
            let meet = meets(board, options.kind, options.method, options.order)?;
            if options.middle != MiddleEdges::Outer && !(meet && options.kind == Kind::Open) {
                return Err(crate::Error::Unsupported(
                    "the middle's edges are shared out only in a meet in the middle of open tours; leave the share at outer".into(),
                ));
            }
            Ok(strategy(rows, w, meet, bits))
        }
        Goal::Lengths | Goal::Cells => {
            sweep_applies(options, goal)?;
            let bits = expected_bits(board, options.kind)?;
            crate::memory::ensure_fits(board, "count", PROBLEM_BYTES_PER_SQUARE)?;
            // The board as written: its rows are the strip's width.
            Ok(strategy(
                board.cols() as usize,
                board.rows() as usize,
                false,
                bits,
            ))
        }
        Goal::HalfTurn => {
            symmetry::closed_only(options.kind)?;
            let (rows, w) = oriented(board);
            Ok(strategy(rows, w, false, 0))
        }
    }
}

/// The plan of a count of the tours of `board`: nothing to run on one
/// square or where a theorem forbids every tour, else [`plan`]'s strategy.
pub(in crate::count) fn plan_tours(board: Board, options: &CountOptions) -> Result<Plan> {
    if board.squares() == 1 {
        return Ok(Plan::OneSquare);
    }
    // An explicit method still runs (the tests check the theorems with it).
    if options.method == Method::Auto && !crate::exists::tour_exists(board, options.kind) {
        return Ok(Plan::NoTour);
    }
    plan(board, options, Goal::Tours).map(Plan::Run)
}

/// Refuses the options a sweep cannot take: it runs forward, after each
/// whole row (never staggered); over cells, each line's cells in order.
fn sweep_applies(options: &CountOptions, goal: Goal) -> Result<()> {
    let forward = crate::Hint::UseMethod(Method::Forward);
    if goal == Goal::Cells && (options.method == Method::Meet || options.order != SquareOrder::Rows)
    {
        return Err(crate::Error::Unsupported(
            "a sweep over cells runs forward and takes each line's cells in order: neither meeting in the middle nor taking the lines from the outside in applies".into(),
        )
        .with_hint(forward));
    }
    if options.method == Method::Meet {
        return Err(
            crate::Error::Unsupported("a sweep over lengths runs forward".into())
                .with_hint(forward),
        );
    }
    if options.order == SquareOrder::Staggered {
        return Err(crate::Error::Unsupported(
            "a sweep over lengths counts the tours after each whole row, which a staggered count never takes".into(),
        ));
    }
    Ok(())
}

impl Strategy {
    /// The frontier problems that run: the board's, a meeting's parts
    /// (one, when the lower part is the top turned over), a sweep's strip
    /// with the prefixes it counts, or the quotient graph's.
    pub(in crate::count) fn problems(&self) -> Result<Vec<Problem>> {
        let (rows, w, kind) = (self.rows, self.w, self.options.kind);
        let strip = || strip_problem(rows, w, kind, self.options.order);
        Ok(match (self.goal, self.meet, kind) {
            (Goal::HalfTurn, ..) => symmetry::half_turn_problems(rows, w)?,
            (Goal::Lengths, ..) => {
                let mut problem = strip();
                problem.prefixes = (1..rows).map(|l| l * w).collect();
                vec![problem]
            }
            (Goal::Cells, ..) => {
                // Every prefix, each a graph of its own: no mirror folding.
                let mut problem = strip();
                problem.prefixes = (1..problem.n).collect();
                problem.mirror = Vec::new();
                vec![problem]
            }
            (Goal::Tours, false, _) => vec![strip()],
            (Goal::Tours, true, Kind::Closed) => meet::part_problems(rows, w).to_vec(),
            (Goal::Tours, true, Kind::Open) => {
                meet_paths::part_problems(rows, w, self.options.middle)
            }
        })
    }

    /// The phases of the count and their squares: one forward program's,
    /// or a meeting's parts and their join.
    /// The quotient graph's squares are not counted ahead (0).
    pub(in crate::count) fn layout(&self) -> Result<Vec<(Stage, usize)>> {
        if self.goal == Goal::HalfTurn {
            return Ok(vec![(Stage::Squares, 0)]);
        }
        if !self.meet {
            return Ok(vec![(Stage::Squares, self.rows * self.w)]);
        }
        Ok([Stage::TopPart, Stage::BottomPart]
            .into_iter()
            .zip(self.problems()?.iter().map(|p| p.n))
            .chain([(Stage::Join, 0)])
            .collect())
    }

    /// The join of a meeting, none for a forward count.
    pub(in crate::count) fn join(&self) -> Option<Join> {
        self.meet.then_some(match self.options.kind {
            Kind::Open => Join::Open,
            Kind::Closed => Join::Closed,
        })
    }

    /// Whether the projection's table of boards counted in full applies:
    /// they were counted as whole boards, by rows, with the middle's
    /// default share.
    pub(in crate::count) fn tabled(&self) -> bool {
        self.goal == Goal::Tours
            && self.options.order == SquareOrder::Rows
            && self.options.middle == MiddleEdges::Outer
    }
}
