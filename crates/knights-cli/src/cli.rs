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
    /// Encipher text with a tour as the key (a classical puzzle, not security).
    Encrypt(CipherArgs),
    /// Decipher text made by `knights encrypt` with the same key.
    Decrypt(CipherArgs),
    /// Make one tourney (a cycle cover of the knight graph).
    Tourney(TourneyArgs),
    /// Join a tourney (or closed tour) into one closed tour by switching rails.
    Join(JoinArgs),
    /// Shatter a closed tour or tourney: switch a random set of disjoint rails.
    Shatter(ShatterArgs),
    /// Obfuscate a closed tour or tourney: shatter it K times, then join it.
    Obfuscate(ObfuscateArgs),
    /// Run an experiment on an algorithm: success rates, node counts.
    Experiment(ExperimentArgs),
    /// Count the tours of a board exactly (closed by default).
    Count(CountArgs),
    /// Estimate the number of tours by Knuth's random probes.
    Estimate(EstimateArgs),
    /// Move and relative-move statistics over many tours or tourneys.
    Stats(StatsArgs),
    /// Regenerate the tables and figures of the tourney paper (seed 000)
    /// into a folder, with a report beside the paper's numbers.
    Paper(PaperArgs),
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
    /// Warnsdorff's rule with a tie-break (--tie) and restarts.
    Warnsdorff,
    /// Backtracking in a fixed move order (seed 002), under --max-nodes.
    Backtrack,
    /// Backtracking in Warnsdorff's order (seed 003), under --max-nodes.
    Hybrid,
    /// A Warnsdorff tourney joined into one closed tour.
    Tourney,
    /// A concentric braided tourney joined into one closed tour (sides even).
    Braid,
    /// A four-cover tourney joined into one closed tour (sides divisible by 4).
    FourCover,
    /// A Takefuji-Lee network tourney joined into one closed tour.
    Neural,
    /// The Takefuji-Lee network alone, restarted until it is one closed tour.
    TakefujiLee,
    /// The linear-time divide-and-conquer construction (every board, instantly).
    Construct,
    /// The construction's base tours as a tourney, joined by rails (seed 000).
    Divide,
}

/// Tie-breaks of Warnsdorff's rule.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieArg {
    /// Uniformly at random (from --seed).
    Random,
    /// Seed 003's fixed move order and, without --start, its start search.
    First,
    /// The square furthest from the centre, then at random.
    #[value(alias = "center")]
    Centre,
    /// Pohl's second-level rule, then furthest from the centre, then at random.
    Pohl,
}

/// Tourney generators for `tourney`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeneratorArg {
    /// Random Warnsdorff walks, each closed as soon as it can be (any board).
    Warnsdorff,
    /// The concentric braided tourney (both sides even, at least 4).
    Braid,
    /// Every 4x4 block covered by its four 4-cycles (sides divisible by 4).
    FourCover,
    /// The Takefuji-Lee neural network (any board).
    Neural,
    /// The divide-and-conquer base tours without their joins.
    Divide,
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
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_attempts: Option<u32>,
    /// Tie-break of Warnsdorff's rule.
    #[arg(long, value_enum)]
    pub tie: Option<TieArg>,
    /// Node budget of the backtracking searches (squares placed).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// Obfuscate the closed tour: shatter it 16 times and join it again.
    #[arg(long)]
    pub obfuscate: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights tourney`.
#[derive(Args, Debug)]
pub struct TourneyArgs {
    /// The board: ROWSxCOLS such as 8x8 or 6x10, or one number for a square board.
    pub board: String,
    /// The generator.
    #[arg(long, short = 'a', value_enum, default_value_t = GeneratorArg::Warnsdorff)]
    pub algorithm: GeneratorArg,
    /// Seed of the random choices.
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights join`.
#[derive(Args, Debug)]
pub struct JoinArgs {
    /// The tourney or closed tour file; `-` reads standard input.
    pub file: String,
    /// Seed of the random choices (used only when join must kick).
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights shatter`.
#[derive(Args, Debug)]
pub struct ShatterArgs {
    /// The closed tour or tourney file; `-` reads standard input.
    pub file: String,
    /// Seed of the random choices.
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights obfuscate`.
#[derive(Args, Debug)]
pub struct ObfuscateArgs {
    /// The closed tour or tourney file; `-` reads standard input.
    pub file: String,
    /// Seed of the random choices.
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    /// How many times to shatter before joining.
    #[arg(long, short = 'k', default_value_t = 16)]
    pub shatters: u32,
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
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which suite to run: `tours` (Warnsdorff and the construction on a
    /// ladder of boards), `warnsdorff`, `construct` (boards up to
    /// 10000x10000), `classic` (Warnsdorff's tie-breaks, backtracking and the
    /// hybrid) or `tourney` (tourney generators, join and obfuscate).
    #[arg(long, default_value = "tours")]
    pub suite: String,
}

/// `knights encrypt` and `knights decrypt`.
#[derive(Args, Debug)]
pub struct CipherArgs {
    /// The key: a tour file (JSON, grid or move list), or a description that
    /// regenerates a tour, BOARD[,algorithm=NAME][,seed=N][,start=ROW,COL][,open|closed|any],
    /// such as 8x8 or 8x8,seed=5,start=0,0.
    #[arg(long, short = 'k')]
    pub key: String,
    /// Read the text from this file instead of standard input (`-`).
    #[arg(long, short = 'i')]
    pub input: Option<String>,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// The article's form: letters A-Z only, padded with X, in groups of five.
    #[arg(long)]
    pub classic: bool,
}

/// `knights experiment`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// Which experiment.
    #[command(subcommand)]
    pub what: Experiment,
}

/// The experiments.
#[derive(Subcommand, Debug)]
pub enum Experiment {
    /// Closed / open-only / failed rates of single Warnsdorff walks per tie-break.
    Warnsdorff(ExperimentWarnsdorffArgs),
    /// Node counts of backtracking and the hybrid from every start of a small board.
    Backtrack(ExperimentBacktrackArgs),
    /// Time of each tourney generator and form (tourney, + join, + obfuscation)
    /// and of the plain Warnsdorff tour against board size.
    Timing(ExperimentTimingArgs),
}

/// Table formats of the experiments.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    /// Aligned columns for reading.
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON object.
    Json,
}

/// `knights experiment warnsdorff`.
#[derive(Args, Debug)]
pub struct ExperimentWarnsdorffArgs {
    /// The board.
    pub board: String,
    /// Walks per tie-break, each from a random start.
    #[arg(long, short = 'n', default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub trials: u64,
    /// Seed of the starts and random ties.
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
    /// Tie-breaks to compare (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub tie: Vec<TieArg>,
    /// Walk as for a closed tour: the start counts as free for its
    /// neighbours, so they tend to be left for the end.
    #[arg(long)]
    pub aim_closed: bool,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// `knights experiment backtrack`.
#[derive(Args, Debug)]
pub struct ExperimentBacktrackArgs {
    /// The board (small: every start square is searched).
    pub board: String,
    /// Node budget of each search.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Turn the prunings off (plain depth-first search, as in the seeds).
    #[arg(long)]
    pub no_prune: bool,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
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
    /// How to count: `meet` counts the two halves of the board apart and
    /// joins them (closed tours, shorter side at most 8); `forward` runs one
    /// frontier program over the whole board; `auto` meets in the middle
    /// where it can.
    #[arg(long, value_enum, default_value_t = CountMethod::Auto)]
    pub method: CountMethod,
    /// Keep the states in memory while they need less than this (bytes, or
    /// with a unit: 512M, 20G; default: the memory available), past it on
    /// disk; stop with an error if even that cannot fit.
    #[arg(long)]
    pub max_memory: Option<String>,
    /// Keep the states on disk in this directory, with a checkpoint after
    /// every square, so that `--resume` can continue a killed count.
    #[arg(long)]
    pub work_dir: Option<std::path::PathBuf>,
    /// Continue the count from the checkpoint in --work-dir.
    #[arg(long, requires = "work_dir")]
    pub resume: bool,
    /// Stop after this many squares (after the checkpoint); for tests.
    #[arg(long, hide = true)]
    pub stop_after: Option<usize>,
    /// Never draw the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Methods of `knights count`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountMethod {
    /// Meet in the middle where it applies, else forward.
    Auto,
    /// One frontier program over the whole board.
    Forward,
    /// The two halves counted apart and joined.
    Meet,
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
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub samples: u64,
    /// Seed of the probes (the same seed gives the same estimate everywhere).
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
    /// Print a JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Output formats of `knights stats`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatsFormat {
    /// Aligned columns for reading.
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON object.
    Json,
    /// An SVG bar chart with error bars.
    Svg,
}

/// `knights stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// The board.
    pub board: String,
    /// The generator of the tours.
    #[arg(long, short = 'a', value_enum, default_value_t = AlgorithmArg::Auto)]
    pub algorithm: AlgorithmArg,
    /// Number of tours (or tourneys).
    #[arg(long, short = 'n', default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Obfuscate every tour (16 shatters, then join) before counting.
    #[arg(long)]
    pub obfuscate: bool,
    /// Count the raw tourneys of the algorithm's tourney generator instead
    /// of tours (tourney, braid, four-cover, neural or divide).
    #[arg(long, conflicts_with = "obfuscate")]
    pub tourney: bool,
    /// Seed (tour i uses the i-th batch generator of this seed).
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
    /// Output format (default: from the --output file's extension, else table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<StatsFormat>,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// Options of the timing experiment, shared by `experiment timing` and `paper`.
#[derive(Args, Debug, Clone)]
pub struct TimingArgs {
    /// Board sides to time (square boards N x N).
    #[arg(long, value_delimiter = ',', num_args = 1.., default_values_t = [8u32, 16, 32, 64], value_parser = clap::value_parser!(u32).range(1..))]
    pub sizes: Vec<u32>,
    /// Runs per generator and size (the mean is reported).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Tourney generators to time (default: all five).
    #[arg(long, value_enum, value_delimiter = ',', num_args = 1..)]
    pub generators: Vec<GeneratorArg>,
    /// Leave out the plain Warnsdorff tour (Figure 3), which gives up on
    /// big boards after its attempts.
    #[arg(long)]
    pub no_tour: bool,
}

/// `knights experiment timing`.
#[derive(Args, Debug)]
pub struct ExperimentTimingArgs {
    #[command(flatten)]
    pub timing: TimingArgs,
    /// Seed (run i uses the i-th batch generator of this seed).
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
    /// Output format on standard output.
    #[arg(long, short = 'f', value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Also write the rows as CSV to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Also write a log-log SVG line plot of the times to this file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// `knights paper`.
#[derive(Args, Debug)]
pub struct PaperArgs {
    /// The folder to write the tables, figures and report.md into (made if missing).
    pub outdir: PathBuf,
    /// The board of Tables 1 and 2 and Figures 4 and 6 (the paper does not
    /// say; 48x48 is the even size nearest the reference program's 50x50
    /// that every generator takes, four-cover needing sides divisible by 4).
    #[arg(long, default_value = "48x48")]
    pub board: String,
    /// Tours per generator (the paper's figures use 1,000).
    #[arg(long, short = 'n', default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Seed: the same seed writes the same tables and charts.
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub timing: TimingArgs,
}
