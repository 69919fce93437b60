//! Semimagic tours through the request model: look for them
//! ([`MagicRequest`], `knights magic`), the same for every door.
//! (Foundation: the wire forms; the `doors` work fills the plan's checks.)

use serde::{Deserialize, Serialize, Serializer};

use super::Job;
use crate::magic::search::{Enumeration, EnumerationReport, Found, MagicSearch, SearchReport};
use crate::magic::LineSums;
use crate::{Control, Result, Tour, Wanted};

/// A search for semimagic tours of a square board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct MagicRequest {
    /// The board, `NxN` or one number.
    pub board: String,
    /// Closed, open or either (default either).
    #[serde(default)]
    pub kind: Wanted,
    /// The square numbered 1, `ROW,COL` or a name such as `a8`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// A partial path to extend, in any tour format (docs/formats.md,
    /// "Partial paths").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The seed of the order of the choices.
    #[serde(default)]
    pub seed: u64,
    /// The node budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u64>,
    /// Stop after this many tours (default 1; not with `all`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Enumerate exhaustively, in ranges.
    #[serde(default)]
    pub all: bool,
    /// With `all`, the checkpoint file to resume from and rewrite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
}

impl MagicRequest {
    /// A search of `board`, every default.
    pub fn new(board: &str) -> MagicRequest {
        MagicRequest {
            board: board.into(),
            kind: Wanted::Either,
            start: None,
            from: None,
            seed: 0,
            max_nodes: None,
            limit: None,
            all: false,
            checkpoint: None,
        }
    }
}

/// A magic request read: a search or an enumeration.
#[derive(Clone, Debug)]
pub enum MagicPlan {
    /// Look for tours from a seed.
    Search(MagicSearch),
    /// Enumerate them all, in ranges.
    Enumerate(Enumeration),
}

/// One tour of a [`MagicAnswer`]; it serialises as `{"rows", "cols",
/// "closed", "squares", "sums"}` (squares as indices, row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MagicTour {
    /// The tour.
    pub tour: Tour,
    /// Its line sums.
    pub sums: LineSums,
}

impl Serialize for MagicTour {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        /// The tour's JSON.
        #[derive(Serialize)]
        struct Wire<'a> {
            rows: u32,
            cols: u32,
            closed: bool,
            squares: &'a [crate::Square],
            sums: &'a LineSums,
        }
        let board = self.tour.board();
        Wire {
            rows: board.rows(),
            cols: board.cols(),
            closed: self.tour.is_closed(),
            squares: self.tour.squares(),
            sums: &self.sums,
        }
        .serialize(serializer)
    }
}

/// The tours found and how the search ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MagicAnswer {
    /// The tours found, in the order found.
    pub tours: Vec<MagicTour>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the search's whole space was searched.
    pub complete: bool,
    /// With `all`: ranges, tours and classes so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enumeration: Option<EnumerationSummary>,
}

/// An enumeration's figures, for the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EnumerationSummary {
    /// Ranges finished.
    pub ranges_done: u64,
    /// Ranges in all.
    pub ranges: u64,
    /// Tours found (start in the fundamental region).
    pub tours: u64,
    /// Classes up to the 16 symmetries.
    pub classes: u64,
}

impl MagicPlan {
    /// Runs the plan, giving each tour to `on_found` as it is found (the
    /// CLI prints it at once); the answer lists them all.
    pub fn run_watched(
        self,
        control: &Control,
        on_found: &mut dyn FnMut(&Found) -> Result<()>,
    ) -> Result<MagicAnswer> {
        let mut tours = Vec::new();
        let mut keep = |f: &Found| {
            tours.push(MagicTour {
                tour: f.tour.clone(),
                sums: f.sums.clone(),
            });
            on_found(f)
        };
        match self {
            MagicPlan::Search(search) => {
                let SearchReport {
                    nodes, complete, ..
                } = search.run(control, &mut keep)?;
                Ok(MagicAnswer {
                    tours,
                    nodes,
                    complete,
                    enumeration: None,
                })
            }
            MagicPlan::Enumerate(e) => {
                let r: EnumerationReport = e.run(control, &mut keep)?;
                Ok(MagicAnswer {
                    tours,
                    nodes: r.nodes,
                    complete: r.complete,
                    enumeration: Some(EnumerationSummary {
                        ranges_done: r.ranges_done,
                        ranges: r.ranges,
                        tours: r.tours,
                        classes: r.classes,
                    }),
                })
            }
        }
    }
}

impl Job for MagicRequest {
    type Plan = MagicPlan;
    type Answer = MagicAnswer;

    fn plan(&self) -> Result<MagicPlan> {
        let side: u32 = self.board.trim().parse().unwrap_or(8);
        Ok(MagicPlan::Search(MagicSearch {
            seed: self.seed,
            ..MagicSearch::new(side)
        }))
    }

    fn run_plan(plan: MagicPlan, control: &Control) -> Result<MagicAnswer> {
        plan.run_watched(control, &mut |_| Ok(()))
    }
}
