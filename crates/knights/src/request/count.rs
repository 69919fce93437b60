//! Exact counts: of tours, of the tours a half turn keeps, of classes under
//! the board's symmetries, or of every length of a strip.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{place, refuse, JobRequest};
use crate::count::{Count, CountOptions, CountReport, Counter, Exchange, Method, SquareOrder};
use crate::{Control, Kind, Result, Shape};

/// `max-memory` of a request: a number of bytes or an amount ("1.5G").
fn max_memory<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<u64>, D::Error> {
    crate::memory::deserialize_amount(d, "memory")
}

/// `max-disk` of a request, read as `max-memory`.
fn max_disk<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<u64>, D::Error> {
    crate::memory::deserialize_amount(d, "disk")
}

/// What a count counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CountOf {
    /// Every tour.
    #[default]
    Tours,
    /// The closed tours a half turn (180 degrees) leaves unchanged.
    Symmetric,
    /// The closed tours up to rotation and reflection (Burnside's lemma).
    Classes,
    /// For a board WxN, the tours of every length WxL, L = 1..N.
    AllLengths,
    /// For a board KxN, the tours of the first c cells, c = 1..KN, the
    /// board taken as N lines of K cells (Knuth's "first n cells").
    AllCells,
}

/// An exact count (`knights count`, `GET /api/count`, `knights.count`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CountRequest {
    /// The board.
    pub board: String,
    /// Holes: the rows of a board file, separated by newlines or `/`.
    #[serde(default)]
    pub holes: Option<String>,
    /// Wrapped edges: none, rows, cols or both.
    #[serde(default)]
    pub wrap: Option<String>,
    /// Another leaper than the knight, `A,B`.
    #[serde(default)]
    pub leaper: Option<String>,
    /// Closed (the default) or open tours.
    #[serde(default)]
    pub kind: Kind,
    /// What to count.
    #[serde(default)]
    pub of: CountOf,
    /// Count directed tours: twice the undirected count (not for classes).
    #[serde(default)]
    pub directed: bool,
    /// Auto, forward or meet (read by its name: `"auto"`, `"forward"`,
    /// `"meet"`).
    #[serde(default)]
    pub method: Method,
    /// Take each row from the outside in (not for symmetric tours or classes).
    #[serde(default)]
    pub outside_in: bool,
    /// Take each row's last square after the next row's others, never whole
    /// rows (not for symmetric tours, classes or sweeps).
    #[serde(default)]
    pub staggered: bool,
    /// Which part of a meet of open tours on a board of even rows takes
    /// which edges between its middle rows: `"outer"` (default) or
    /// `"inner"` (see [`MiddleEdges`](crate::count::MiddleEdges)).
    #[serde(default)]
    pub middle: crate::count::MiddleEdges,
    /// Keep the states in memory while they need fewer bytes than this
    /// (read as a number or as text such as "1.5G", see
    /// [`crate::memory::parse_amount`]).
    #[serde(default, deserialize_with = "max_memory")]
    pub max_memory: Option<u64>,
    /// The most bytes the states may take on disk (read as `max_memory`).
    #[serde(default, deserialize_with = "max_disk")]
    pub max_disk: Option<u64>,
    /// Never put the states on disk (unless in a work directory).
    #[serde(default)]
    pub memory_only: bool,
    /// Keep the states in this directory, with a checkpoint every square.
    #[serde(default)]
    pub work_dir: Option<PathBuf>,
    /// Continue from the checkpoint in the work directory.
    #[serde(default)]
    pub resume: bool,
    /// Discard the checkpoint in the work directory and start afresh.
    #[serde(default)]
    pub fresh: bool,
    /// Keep the state files of a finished count in the work directory.
    #[serde(default)]
    pub keep: bool,
}

/// One length's count of an all-lengths sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LengthCount {
    /// The board of that length.
    pub board: String,
    /// Its count.
    pub count: Count,
}

/// One prefix's count of an all-cells sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellCount {
    /// The cells of the prefix.
    pub cells: usize,
    /// Its count.
    pub count: Count,
}

/// A count and the figures of its run.
///
/// Serialised as one object, the same through every door (`knights count
/// --json`, the server's count job, `docs/formats.md`): `board`, `kind`,
/// `of`, `directed`, `count`; for tours and symmetric tours `symmetric`;
/// for classes `classes` (the count), `tours` and `fixed` (by symmetry);
/// for all lengths `all_lengths`; for all cells `all_cells`; `seconds`;
/// then the run's figures
/// ([`CountReport`]), none for classes.
#[derive(Clone, Debug)]
pub struct CountAnswer {
    /// The board (with its holes, wrapping and leaper).
    pub board: String,
    /// Closed or open.
    pub kind: Kind,
    /// What was counted.
    pub of: CountOf,
    /// Whether the count is of directed tours.
    pub directed: bool,
    /// The count: tours, symmetric tours or classes (for all lengths, the
    /// longest's).
    pub count: Count,
    /// For classes, all the closed tours.
    pub tours: Option<Count>,
    /// For classes, for each symmetry, the tours it leaves unchanged.
    pub fixed: Vec<(String, Count)>,
    /// For all lengths, each length's count.
    pub lengths: Vec<LengthCount>,
    /// For all cells, each prefix's count.
    pub cells: Vec<CellCount>,
    /// Wall-clock time of the count.
    pub elapsed: Duration,
    /// The run's figures (none for classes).
    pub report: Option<CountReport>,
}

/// The shape of a [`CountAnswer`] in JSON.
#[derive(Serialize)]
struct AnswerJson<'a> {
    board: &'a str,
    kind: Kind,
    of: CountOf,
    directed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    symmetric: Option<bool>,
    count: Count,
    #[serde(skip_serializing_if = "Option::is_none")]
    classes: Option<Count>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tours: Option<Count>,
    #[serde(skip_serializing_if = "<[_]>::is_empty", serialize_with = "by_name")]
    fixed: &'a [(String, Count)],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    all_lengths: &'a [LengthCount],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    all_cells: &'a [CellCount],
    seconds: f64,
    #[serde(flatten)]
    report: Option<&'a CountReport>,
}

/// Each symmetry's fixed tours as an object keyed by its name, for serde.
fn by_name<S: serde::Serializer>(
    fixed: &&[(String, Count)],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_map(fixed.iter().map(|(name, n)| (name, n)))
}

impl Serialize for CountAnswer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let classes = self.of == CountOf::Classes;
        AnswerJson {
            board: &self.board,
            kind: self.kind,
            of: self.of,
            directed: self.directed,
            symmetric: matches!(self.of, CountOf::Tours | CountOf::Symmetric)
                .then_some(self.of == CountOf::Symmetric),
            count: self.count,
            classes: classes.then_some(self.count),
            tours: self.tours,
            fixed: &self.fixed,
            all_lengths: &self.lengths,
            all_cells: &self.cells,
            seconds: self.elapsed.as_secs_f64(),
            report: self.report.as_ref(),
        }
        .serialize(s)
    }
}

impl PartialEq for CountAnswer {
    /// Answers are equal when they count the same; the run's figures
    /// (times, states) may differ.
    fn eq(&self, other: &CountAnswer) -> bool {
        let key = |a: &CountAnswer| (a.board.clone(), a.kind, a.of, a.directed, a.count, a.tours);
        key(self) == key(other)
            && self.fixed == other.fixed
            && self.lengths == other.lengths
            && self.cells == other.cells
    }
}

/// A count request checked and read: the shape counted on, what is
/// counted, and the one [`CountOptions`] the [`Counter`] and the executor
/// share (see [`JobRequest`]).
#[derive(Clone, Debug)]
pub struct CountPlan {
    shape: Shape,
    of: CountOf,
    directed: bool,
    options: CountOptions,
}

impl CountPlan {
    /// The shape counted on: the board with its holes, wrapped edges and
    /// leaper.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// What is counted.
    pub fn of(&self) -> CountOf {
        self.of
    }

    /// Whether the count is of directed tours.
    pub fn directed(&self) -> bool {
        self.directed
    }

    /// The count's options.
    pub fn options(&self) -> &CountOptions {
        &self.options
    }

    /// The counter of this plan's board (or, off the plain board, of its
    /// shape) under `control`, spread over `workers` if given.
    pub(super) fn counter<'a, On>(
        &'a self,
        counter: Counter<'a, On>,
        control: &'a Control,
        workers: Option<&'a dyn Exchange>,
    ) -> Counter<'a, On> {
        let counter = counter.options(self.options.clone()).control(control);
        match workers {
            Some(exchange) => counter.workers(exchange),
            None => counter,
        }
    }
}

impl CountRequest {
    /// Count the tours of `board`, closed, with every default.
    pub fn new(board: &str) -> CountRequest {
        CountRequest {
            board: board.into(),
            holes: None,
            wrap: None,
            leaper: None,
            kind: Kind::Closed,
            of: CountOf::Tours,
            directed: false,
            method: Method::Auto,
            outside_in: false,
            staggered: false,
            middle: crate::count::MiddleEdges::Outer,
            max_memory: None,
            max_disk: None,
            memory_only: false,
            work_dir: None,
            resume: false,
            fresh: false,
            keep: false,
        }
    }

    /// Count the classes of closed tours of `board`.
    pub fn classes(board: &str) -> CountRequest {
        CountRequest {
            of: CountOf::Classes,
            ..CountRequest::new(board)
        }
    }

    /// Every check of the request, into its plan (see [`JobRequest::plan`]).
    fn checked(&self) -> Result<CountPlan> {
        let shape = place::shape(
            &self.board,
            self.holes.as_deref(),
            self.wrap.as_deref(),
            self.leaper.as_deref(),
        )?;
        let method = self.method;
        if self.of == CountOf::Classes && self.directed {
            return refuse(
                "directed does not apply to classes; classes are of undirected tours".into(),
            );
        }
        let order = match (self.outside_in, self.staggered) {
            (true, true) => return refuse(
                "outside-in and staggered are two orders of the squares; give one of them at most"
                    .into(),
            ),
            (true, false) => SquareOrder::OutsideIn,
            (false, true) => SquareOrder::Staggered,
            (false, false) => SquareOrder::Rows,
        };
        if order != SquareOrder::Rows && matches!(self.of, CountOf::Symmetric | CountOf::Classes) {
            return refuse(
                "outside-in and staggered do not apply to symmetric tours or classes, which run their own programs".into(),
            );
        }
        if self.of == CountOf::AllCells && (order != SquareOrder::Rows || method == Method::Meet) {
            return refuse(
                "all cells takes each line's cells in order by the forward program: outside-in, staggered and the meet method do not apply".into(),
            );
        }
        if self.of == CountOf::AllLengths && order == SquareOrder::Staggered {
            return refuse(
                "all lengths counts the tours after each whole row, which a staggered order never takes; count each length alone, or use outside-in".into(),
            );
        }
        if self.work_dir.is_none() && (self.resume || self.fresh || self.keep) {
            return refuse("resume, fresh and keep need a work directory (work-dir)".into());
        }
        if self.resume && self.fresh {
            return refuse(
                "resume and fresh exclude each other: continue the checkpoint, or start afresh"
                    .into(),
            );
        }
        if !shape.is_plain() && (self.of != CountOf::Tours || method == Method::Meet) {
            return refuse(
                "on a board with holes, wrapping or another leaper, a count runs one forward program: symmetric tours, classes, all lengths or cells and the meet method do not apply".into(),
            );
        }
        Ok(CountPlan {
            shape,
            of: self.of,
            directed: self.directed,
            options: CountOptions {
                kind: self.kind,
                method,
                order,
                middle: self.middle,
                max_memory: self.max_memory,
                max_disk: self.max_disk,
                work_dir: self.work_dir.clone(),
                resume: self.resume,
                fresh: self.fresh,
                keep: self.keep,
                memory_only: self.memory_only,
            },
        })
    }

    /// The count spread over workers: this process is one of the workers
    /// of `exchange`, all of which run this request (see
    /// [`Counter::workers`]); every worker gets the same answer.
    pub fn run_across(&self, control: &Control, exchange: &dyn Exchange) -> Result<CountAnswer> {
        CountRequest::run_plan_across(self.plan()?, control, exchange)
    }

    /// [`CountRequest::run_across`] of a plan made before.
    pub fn run_plan_across(
        plan: CountPlan,
        control: &Control,
        exchange: &dyn Exchange,
    ) -> Result<CountAnswer> {
        run_on(&plan, control, Some(exchange))
    }
}

impl JobRequest for CountRequest {
    type Plan = CountPlan;
    type Answer = CountAnswer;

    fn plan(&self) -> Result<CountPlan> {
        self.checked()
    }

    fn run_plan(plan: CountPlan, control: &Control) -> Result<CountAnswer> {
        run_on(&plan, control, None)
    }
}

/// Runs `plan` under `control`, spread over `workers` if given.
fn run_on(
    plan: &CountPlan,
    control: &Control,
    workers: Option<&dyn Exchange>,
) -> Result<CountAnswer> {
    let mut answer = CountAnswer {
        board: plan.shape.to_string(),
        kind: plan.options.kind,
        of: plan.of,
        directed: plan.directed,
        count: Count::ZERO,
        tours: None,
        fixed: Vec::new(),
        lengths: Vec::new(),
        cells: Vec::new(),
        elapsed: Duration::ZERO,
        report: None,
    };
    let counter = plan.counter(Counter::new(plan.shape.board()), control, workers);
    match plan.of {
        _ if !plan.shape.is_plain() => {
            // One forward program, whatever the method.
            let on_shape = plan.counter(Counter::on_shape(&plan.shape), control, workers);
            answer.report = Some(on_shape.tours()?);
        }
        CountOf::Tours => answer.report = Some(counter.tours()?),
        CountOf::Symmetric => answer.report = Some(counter.symmetric()?),
        CountOf::Classes => {
            let c = counter.classes()?;
            answer.count = c.classes;
            answer.fixed = c.fixed.iter().map(|(n, k)| (n.to_string(), *k)).collect();
            answer.tours = Some(c.tours);
            answer.elapsed = c.elapsed;
        }
        CountOf::AllLengths => {
            let sweep = counter.all_lengths()?;
            for (b, n) in &sweep.counts {
                answer.lengths.push(LengthCount {
                    board: b.to_string(),
                    count: directed(*n, plan.directed)?,
                });
            }
            answer.report = Some(sweep.report);
        }
        CountOf::AllCells => {
            let sweep = counter.all_cells()?;
            for &(cells, n) in &sweep.counts {
                answer.cells.push(CellCount {
                    cells,
                    count: directed(n, plan.directed)?,
                });
            }
            answer.report = Some(sweep.report);
        }
    }
    if let Some(r) = &answer.report {
        answer.count = directed(r.count, plan.directed)?;
        answer.elapsed = r.elapsed;
    }
    if let Some(last) = answer.lengths.last() {
        answer.count = last.count;
    }
    Ok(answer)
}

/// The count doubled for directed tours (a closed tour runs in two
/// directions, an open one from either end).
fn directed(n: Count, directed: bool) -> Result<Count> {
    if !directed {
        return Ok(n);
    }
    n.times(2)
        .ok_or_else(|| crate::Error::Unsupported("the directed count passes 2^4096".into()))
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;

    #[test]
    fn counts_directed_symmetric_classes_and_lengths() {
        let a = round_trip(Request::Count(CountRequest {
            directed: true,
            ..CountRequest::new("6x6")
        }));
        assert_eq!(a["count"]["count"], serde_json::json!(19724));
        let a = round_trip(Request::Count(CountRequest::classes("6x6")));
        assert_eq!(a["count"]["count"], serde_json::json!(1245));
        assert_eq!(a["count"]["classes"], serde_json::json!(1245));
        assert_eq!(a["count"]["fixed"]["quarter turn"], serde_json::json!(10));
        let a = round_trip(Request::Count(CountRequest::new("5x6")));
        assert_eq!(a["count"]["symmetric"], serde_json::json!(false));
        assert!(a["count"]["meet"]["pairs_tested"].as_u64().unwrap() > 0);
        assert!(a["count"]["frontier_squares"].as_u64().unwrap() > 0);
        let a = round_trip(Request::Count(CountRequest {
            of: CountOf::AllLengths,
            ..CountRequest::new("3x8")
        }));
        assert_eq!(a["count"]["all_lengths"].as_array().unwrap().len(), 8);
        let a = round_trip(Request::Count(CountRequest {
            kind: Kind::Open,
            wrap: Some("both".into()),
            ..CountRequest::new("3x3")
        }));
        assert!(a["count"]["count"].as_u64().unwrap() > 0);
    }

    #[test]
    fn refuses_directed_classes_and_what_a_shape_cannot_count() {
        let e = CountRequest {
            directed: true,
            ..CountRequest::classes("6x6")
        }
        .validate();
        assert!(e
            .unwrap_err()
            .to_string()
            .starts_with("directed does not apply to classes"));
        let e = CountRequest {
            wrap: Some("rows".into()),
            of: CountOf::Symmetric,
            ..CountRequest::new("6x6")
        };
        assert!(e
            .validate()
            .unwrap_err()
            .to_string()
            .contains("holes, wrapping"));
        let e = CountRequest {
            resume: true,
            ..CountRequest::new("6x6")
        };
        assert!(e
            .validate()
            .unwrap_err()
            .to_string()
            .contains("work directory"));
        let e = serde_json::from_str::<CountRequest>(r#"{"board": "6x6", "method": "sideways"}"#);
        let said = e.unwrap_err().to_string();
        assert!(
            said.starts_with(
                "'sideways' is not a counting method; the method is auto, forward or meet"
            ),
            "{said}"
        );
        for (outside_in, of, said) in [
            (true, CountOf::Tours, "two orders"),
            (false, CountOf::AllLengths, "whole row"),
            (false, CountOf::AllCells, "staggered and the meet method"),
            (false, CountOf::Classes, "symmetric tours or classes"),
        ] {
            let e = CountRequest {
                outside_in,
                staggered: true,
                of,
                ..CountRequest::new("6x6")
            };
            let said_back = e.validate().unwrap_err().to_string();
            assert!(said_back.contains(said), "{said_back}");
        }
    }
}
