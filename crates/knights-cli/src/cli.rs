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
    /// Count the tours of a board exactly (closed by default).
    Count(CountArgs),
    /// Estimate the number of tours by Knuth's random probes.
    Estimate(EstimateArgs),
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
}

/// Algorithms for `tour`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlgorithmArg {
    /// The best method for the board.
    Auto,
    /// Warnsdorff's rule with random ties and restarts.
    Warnsdorff,
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
}

/// `knights count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// The board.
    pub board: String,
    #[command(flatten)]
    pub kind: KindArgs,
    /// Count directed tours: twice the undirected count (a closed tour runs
    /// in 2 directions, an open one from either end; no fixed start square).
    #[arg(long)]
    pub directed: bool,
    /// Count only the closed tours that a half turn (180 degrees) leaves unchanged.
    #[arg(long, conflicts_with = "classes")]
    pub symmetric: bool,
    /// Count the closed tours up to rotation and reflection (Burnside's lemma).
    #[arg(long)]
    pub classes: bool,
    /// Print a JSON object with the count and the figures of the run.
    #[arg(long)]
    pub json: bool,
    /// Stop with an error before the states need more memory than this
    /// (bytes, or with a unit: 512M, 20G; default: the memory available).
    #[arg(long)]
    pub max_memory: Option<String>,
    /// Never draw the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `knights estimate`.
#[derive(Args, Debug)]
pub struct EstimateArgs {
    /// The board.
    pub board: String,
    /// Estimate open tours instead of closed ones.
    #[arg(long)]
    pub open: bool,
    /// Number of random probes.
    #[arg(long, default_value_t = 100_000)]
    pub samples: u64,
    /// Seed of the probes (the same seed gives the same estimate everywhere).
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    /// Print a JSON object.
    #[arg(long)]
    pub json: bool,
}
