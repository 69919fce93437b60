//! The raw arguments of `knights magic` (clap derive), which become the
//! library's magic request in `commands::magic`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{BoardArg, KindArgs};

/// `knights magic`.
#[derive(Args, Debug)]
pub struct MagicArgs {
    #[command(flatten)]
    pub board: BoardArg,
    #[command(flatten)]
    pub kind: KindArgs,
    /// The square numbered 1, as ROW,COL (0-based) or by its name, such as
    /// c1.
    #[arg(long)]
    pub start: Option<String>,
    /// A partial path to extend, in any tour format (a numbered grid with
    /// '.' for the squares not yet visited, JSON, a move list); `-` reads
    /// standard input.
    #[arg(long, value_name = "FILE")]
    pub from: Option<String>,
    /// Seed of the order of the choices (the same seed gives the same
    /// tours on every machine).
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    /// Stop after this many tours [default: 1].
    #[arg(long)]
    pub limit: Option<u64>,
    /// Node budget of the search (default: none; Ctrl-C stops it with
    /// what it found).
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Only tours symmetric under the half turn (number k + N/2 on the
    /// square opposite k), which are closed: a search of half the depth.
    /// Without it a search looks at these first, then at every tour.
    #[arg(long)]
    pub symmetric: bool,
    /// Enumerate every semimagic tour, range by range, instead of looking
    /// for some.
    #[arg(long)]
    pub all: bool,
    /// With --all: the checkpoint file, read to resume and rewritten after
    /// every range (and on Ctrl-C).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Output format (default: from the --output file's extension: .txt or
    /// .json; else text).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<MagicFormat>,
    /// Write to this file instead of standard output (whole, once the
    /// search ends).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Also append a status line to this file every status interval (30
    /// seconds) and at the end, to watch a long run.
    #[arg(long, value_name = "FILE")]
    pub progress: Option<PathBuf>,
}

/// The formats of `knights magic`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum MagicFormat {
    /// Each tour as it is found, a numbered grid from 1 and its sums, then
    /// a summary line.
    Text,
    /// The answer as JSON at the end (docs/formats.md, "Magic tours").
    Json,
}
