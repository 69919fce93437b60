//! The raw command-line arguments (clap derive). They are turned into
//! library options in `commands`, in one place per command.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Knight's tours on any board: generate, check, draw and study them.
#[derive(Parser, Debug)]
#[command(name = "knights", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Make one knight's tour: closed where the board has one, else open.
    Tour(TourArgs),
    /// Check a tour or tourney file (JSON, grid or move list; `-` for stdin).
    Check(CheckArgs),
    /// Say whether a closed or open tour exists on a board, and why.
    Exists(ExistsArgs),
    /// Convert a tour or tourney file to another format (grid, JSON, moves, SVG).
    Render(RenderArgs),
    /// Facts about a board's knight graph: squares, edges, degrees.
    Graph(GraphArgs),
    /// Measure the generators: squares per second across board sizes.
    Bench(BenchArgs),
}

/// Closed or open.
#[derive(Args, Debug, Default, Clone, Copy)]
#[group(multiple = false)]
pub struct KindArgs {
    /// Insist on a closed tour.
    #[arg(long)]
    pub closed: bool,
    /// Insist on an open tour (ends not a knight's move apart).
    #[arg(long)]
    pub open: bool,
}

/// Output formats.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    /// Step numbers, one row per line.
    Grid,
    /// JSON as FORMATS.md fixes it.
    Json,
    /// Start square and move numbers.
    Moves,
    /// An SVG picture.
    Svg,
    /// An SVG picture that draws itself step by step.
    AnimatedSvg,
    /// One line instead of the tour: board, kind, algorithm and time.
    Summary,
}

/// Algorithms for `tour`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlgorithmArg {
    /// The best method for the board.
    Auto,
    /// Warnsdorff's rule with random ties and restarts.
    Warnsdorff,
    /// The linear-time divide-and-conquer construction (every board, instantly).
    Construct,
}

/// Output options shared by the commands that write a tour or tourney.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Output format (default: from the --output file's extension, else grid).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<FormatArg>,
    /// First step number of a grid: 0 or 1.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1))]
    pub base: u32,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// `knights tour`.
#[derive(Args, Debug)]
pub struct TourArgs {
    /// The board: ROWSxCOLS such as 8x8 or 6x10, or one number for a square board.
    pub board: String,
    #[command(flatten)]
    pub kind: KindArgs,
    /// The algorithm.
    #[arg(long, short = 'a', value_enum, default_value_t = AlgorithmArg::Auto)]
    pub algorithm: AlgorithmArg,
    /// Seed of the random choices (the same seed gives the same tour everywhere).
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    /// The start square as ROW,COL (0-based).
    #[arg(long)]
    pub start: Option<String>,
    /// Attempts allowed to the methods that restart.
    #[arg(long)]
    pub max_attempts: Option<u32>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The file to check; `-` reads standard input.
    pub file: String,
}

/// `knights exists`.
#[derive(Args, Debug)]
pub struct ExistsArgs {
    /// The board.
    pub board: String,
    #[command(flatten)]
    pub kind: KindArgs,
}

/// `knights render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The tour or tourney file; `-` reads standard input.
    pub file: String,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights graph`.
#[derive(Args, Debug)]
pub struct GraphArgs {
    /// The board.
    pub board: String,
    /// Print the degree of every square as a grid.
    #[arg(long)]
    pub degrees: bool,
    /// Print the facts as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `knights bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Board sizes to measure (default: a ladder from 8x8 up).
    pub boards: Vec<String>,
    /// Repetitions per board (the best time is kept).
    #[arg(long, default_value_t = 3)]
    pub repeat: u32,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which generators to measure: `all` (default), `warnsdorff` or
    /// `construct` (whose default boards go up to 10000x10000).
    #[arg(long, default_value = "all")]
    pub suite: String,
}
