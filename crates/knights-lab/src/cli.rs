//! The raw command-line arguments of `knights-lab` (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use knights::algorithms::{Tie, TourneyMethod};

/// The research harness of knights: the tourney paper's tables, the
/// experiments on the algorithms and the research benchmarks.
#[derive(Parser, Debug)]
#[command(name = "knights-lab", version, about, long_about = None)]
pub struct Lab {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Regenerate the tables and figures of the tourney paper (Parberry 2020)
    /// into a folder, with a report beside the paper's numbers.
    #[command(after_help = "Examples:\n  knights-lab paper docs/paper")]
    Paper(PaperArgs),
    /// Run an experiment on an algorithm: success rates, node counts.
    #[command(
        after_help = "Examples:\n  knights-lab experiment warnsdorff 8x8 --trials 10000 --seed 1\n  knights-lab experiment backtrack 5x5\n  knights-lab experiment timing --sizes 8,16,32 --runs 5"
    )]
    Experiment(ExperimentArgs),
    /// Measure the research suites: Warnsdorff's tie-breaks, backtracking
    /// and the hybrid (`classic`), or the tourney generators, join and
    /// obfuscate (`tourney`).
    #[command(
        after_help = "Examples:\n  knights-lab bench classic\n  knights-lab bench tourney 100x100 200x200 --repeat 2"
    )]
    Bench(BenchArgs),
}

/// A board: ROWSxCOLS such as 8x8 or 6x10, or one number for a square board.
#[derive(Args, Debug, Clone)]
pub struct BoardArg {
    /// The board: ROWSxCOLS such as 8x8 or 6x10, or one number for a square
    /// board.
    #[arg(value_name = "BOARD")]
    pub board: String,
}

impl BoardArg {
    /// The board it names.
    pub fn parse(&self) -> Result<knights::Board, knights::Error> {
        self.board.parse()
    }
}

/// The seed of a command that samples many things.
#[derive(Args, Debug, Clone, Copy)]
pub struct SampleSeedArg {
    /// Seed (sample i uses the i-th batch generator of this seed, so any
    /// number of threads gives the same result).
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
}

/// The research benchmark suites.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// Warnsdorff's tie-breaks, backtracking and the hybrid.
    Classic,
    /// The tourney generators, join and obfuscate.
    Tourney,
}

/// `knights-lab bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Which suite to run.
    #[arg(value_enum)]
    pub suite: Suite,
    /// Board sizes to measure (default: the suite's ladder).
    pub boards: Vec<String>,
    /// Repetitions per board (the best time is kept).
    #[arg(long, default_value_t = 3, value_parser = crate::support::at_least_one::<u32>)]
    pub repeat: u32,
    #[command(flatten)]
    pub seed: SampleSeedArg,
}

/// `knights-lab experiment`.
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

/// `knights-lab experiment warnsdorff`.
#[derive(Args, Debug)]
pub struct ExperimentWarnsdorffArgs {
    #[command(flatten)]
    pub board: BoardArg,
    /// Walks per tie-break, each from a random start.
    #[arg(long, short = 'n', default_value_t = 10_000, value_parser = crate::support::at_least_one::<u64>)]
    pub trials: u64,
    #[command(flatten)]
    pub seed: SampleSeedArg,
    /// Tie-breaks to compare (default: all).
    #[arg(long, value_delimiter = ',', value_parser = crate::support::tie_parser())]
    pub tie: Vec<Tie>,
    /// Walk as for a closed tour: the start counts as free for its
    /// neighbours, so they tend to be left for the end.
    #[arg(long)]
    pub aim_closed: bool,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// `knights-lab experiment backtrack`.
#[derive(Args, Debug)]
pub struct ExperimentBacktrackArgs {
    #[command(flatten)]
    pub board: BoardArg,
    /// Node budget of each search.
    #[arg(long, default_value_t = 300_000, value_parser = crate::support::at_least_one::<u64>)]
    pub max_nodes: u64,
    /// Turn the prunings off (plain depth-first search, as in Practical Algorithms and Data Structures and Mahmoud n.d.).
    #[arg(long)]
    pub no_prune: bool,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// Options of the timing experiment, shared by `experiment timing` and `paper`.
#[derive(Args, Debug, Clone)]
pub struct TimingArgs {
    /// Board sides to time (square boards N x N).
    #[arg(long, value_delimiter = ',', num_args = 1.., default_values_t = [8u32, 16, 32, 64], value_parser = crate::support::at_least_one::<u32>)]
    pub sizes: Vec<u32>,
    /// Runs per generator and size (the mean is reported).
    #[arg(long, default_value_t = 5, value_parser = crate::support::at_least_one::<u32>)]
    pub runs: u32,
    /// Tourney generators to time (default: all five).
    #[arg(long, value_delimiter = ',', num_args = 1.., value_parser = crate::support::generator_parser())]
    pub generators: Vec<TourneyMethod>,
    /// Leave out the plain Warnsdorff tour (Figure 3), which gives up on
    /// big boards after its attempts.
    #[arg(long)]
    pub no_tour: bool,
}

/// `knights-lab experiment timing`.
#[derive(Args, Debug)]
pub struct ExperimentTimingArgs {
    #[command(flatten)]
    pub timing: TimingArgs,
    #[command(flatten)]
    pub seed: SampleSeedArg,
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

/// `knights-lab paper`.
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
    #[arg(long, short = 'n', default_value_t = 1000, value_parser = crate::support::at_least_one::<u64>)]
    pub count: u64,
    #[command(flatten)]
    pub seed: SampleSeedArg,
    #[command(flatten)]
    pub timing: TimingArgs,
}
