//! Statistics of tours and tourneys: the move and relative-move
//! distributions of the tourney paper (Parberry 2020, Section 3), their means and
//! standard deviations over many tours, an SVG bar chart like Figure 4, the
//! time of the generators against board size (Figures 3, 20, 21) with a
//! log-log line plot, and the paper's own numbers to compare with.
//!
//! The frequency of move k in a tour is the number of its moves that are
//! move k divided by the number of its moves. The relative move of move b
//! after move a is (b - a) mod 8; in a tour it is never 4 (a knight never
//! goes straight back). A closed tour (and every cycle of a tourney) has as
//! many moves and relative moves as squares, wrapping round; an open tour of
//! n squares has n - 1 moves and n - 2 relative moves.

mod chart;
mod distribution;
mod jobs;
mod paper;
pub mod rates;
mod sample;

pub use chart::{bar_chart, line_plot, BarChart, LinePlot, Series};
pub use distribution::{FigureSummary, MoveCounts, RunningSummary, Summary};
pub use jobs::{Sampled, SummaryBuilder, CLOSED_FIGURE};
pub use paper::{PaperRow, PAPER_TABLES, PAPER_WARNSDORFF_RELATIVE};
pub use sample::sample;
