//! The raw command-line arguments (clap derive). They are turned into
//! library options in `commands`, in one place per command.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use knights::algorithms::{Algorithm, Tie, TourneyMethod};

mod magic;
mod puzzle;
mod serve;
mod sheet;

pub use magic::{MagicArgs, MagicFormat};
pub use puzzle::{DifficultyArg, PuzzleArgs, PuzzleFormat, SolveArgs, SolveFormat};
pub use serve::ServeArgs;
pub use sheet::{PaperArg, SheetArgs, SheetFormat};

/// Knight's tours on any board: generate, check, draw and study them.
#[derive(Parser, Debug)]
#[command(name = "knights", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

#[cfg(feature = "distributed")]
impl Cli {
    /// Whether the command starts workers (`count --processes N`, not a
    /// dry run), which takes the signals that stop it to forward them.
    pub fn launches_workers(&self) -> bool {
        matches!(&self.command, Command::Count(a) if a.processes.is_some() && !a.dry_run)
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Make one knight's tour: closed where the board has one, else open.
    #[command(
        after_help = "Examples:\n  knights tour 8x8\n  knights tour 12x12 --open --start 0,0 -f svg -o tour.svg\n  knights tour 8x8 -o tour.gif\n  knights tour 200x200 -a warnsdorff --tie pohl -f summary\n  knights tour 8x8 --closed -a warnsdorff --tie first --base 1"
    )]
    Tour(TourArgs),
    /// Check a tour or tourney file (JSON, grid or move list; `-` for
    /// stdin), a puzzle file (its solution unique), or with --puzzle a
    /// filled grid against a puzzle.
    #[command(
        after_help = "Examples:\n  knights tour 8x8 -f json | knights check -\n  knights check tour.json\n  knights check puzzle.txt\n  knights check filled.txt --puzzle puzzle.txt"
    )]
    Check(CheckArgs),
    /// Judge a partial path (a tour file that stops early; `-` for stdin):
    /// whether it can still be finished, why not, and the safe next moves.
    #[command(
        after_help = "Examples:\n  knights hint path.txt\n  printf ' 0 . .\\n . . 1\\n . . .\\n' | knights hint -\n  knights hint path.json --kind closed -f json"
    )]
    Hint(HintArgs),
    /// Make a knight's-tour puzzle with exactly one solution: some squares
    /// numbered, the rest to number so that each number is a knight's move
    /// from the next.
    #[command(
        after_help = "Examples:\n  knights puzzle 8x8 > p.txt\n  knights puzzle 8x8 --difficulty hard --seed 3 --symmetric\n  knights puzzle 8x8 --kind closed -o p.png\n  knights puzzle 6x6 --copies 6 --seed 1 -o class.svg\n  knights puzzle 8x8 --solution"
    )]
    Puzzle(PuzzleArgs),
    /// Solve a puzzle file (`-` for stdin): its solutions up to a limit, so
    /// that one solution is proved unique, or with --step one deduction.
    #[command(
        after_help = "Examples:\n  knights puzzle 8x8 | knights solve -\n  knights solve p.txt --limit 10\n  knights solve p.txt --step --progress mine.txt"
    )]
    Solve(SolveArgs),
    /// Look for semimagic tours (every row and every column summing alike)
    /// of an even square board, printing each as it is found; with --all,
    /// enumerate them all, with a checkpoint to resume.
    #[command(
        after_help = "Examples:\n  knights magic 8x8 --seed 3\n  knights magic 8x8 --from start.txt --limit 5\n  knights magic 8x8 --all --checkpoint magic.ckpt --progress magic.log\n  knights magic 12x12 --max-nodes 100000000 -f json -o magic.json"
    )]
    Magic(MagicArgs),
    /// Say whether a closed or open tour exists on a board, and why.
    #[command(after_help = "Examples:\n  knights exists 4x7\n  knights exists 3x7 --open")]
    Exists(ExistsArgs),
    /// Convert a tour or tourney file to another format (grid, JSON, moves, SVG, PNG, GIF).
    #[command(
        after_help = "Examples:\n  knights render tour.json -f svg -o tour.svg\n  knights render tour.json -o tour.png\n  knights tour 6x6 -f json | knights render - -f moves"
    )]
    Render(RenderArgs),
    /// Facts about a board's knight graph: squares, edges, degrees.
    #[command(after_help = "Examples:\n  knights graph 8x8\n  knights graph 5x5 --degrees")]
    Graph(GraphArgs),
    /// Measure the generators: squares per second across board sizes.
    #[command(
        after_help = "Examples:\n  knights bench\n  knights bench --suite construct 1000x1000 --repeat 3"
    )]
    Bench(BenchArgs),
    /// Encipher text with a tour as the key (a classical puzzle, not security).
    #[command(
        after_help = "Examples:\n  echo \"Meet me at the old mill.\" | knights encrypt --key 8x8,seed=5\n  knights encrypt --key tour.txt --classic -i plaintext.txt"
    )]
    Encrypt(CipherArgs),
    /// Decipher text made by `knights encrypt` with the same key.
    #[command(after_help = "Examples:\n  knights decrypt --key 8x8,seed=5 -i ciphertext.txt")]
    Decrypt(CipherArgs),
    /// Make one tourney (a cycle cover of the knight graph).
    #[command(
        after_help = "Examples:\n  knights tourney 8x8 -a braid -f json -o t.json\n  knights tourney 12x12 -a four-cover -f svg -o t.svg"
    )]
    Tourney(TourneyArgs),
    /// A printable page of boards to find a tour on by hand, or its solutions.
    #[command(
        after_help = "Examples:\n  knights sheet 6x6 --copies 6 --seed 1 -o class.svg\n  knights sheet 6x6 --copies 6 --seed 1 --solution --path -o answers.png\n  knights sheet tour1.json tour2.json --show-end"
    )]
    Sheet(SheetArgs),
    /// Join a tourney (or closed tour) into one closed tour by switching rails.
    #[command(
        after_help = "Examples:\n  knights tourney 8x8 -a warnsdorff --seed 3 -f json | knights join -"
    )]
    Join(CoverArgs),
    /// Shatter a closed tour or tourney: switch a random set of disjoint rails.
    #[command(after_help = "Examples:\n  knights tour 8x8 -f json | knights shatter - -f json")]
    Shatter(CoverArgs),
    /// Obfuscate a closed tour or tourney: shatter it K times, then join it.
    #[command(
        after_help = "Examples:\n  knights tour 16x16 -a braid -f json | knights obfuscate - --seed 5"
    )]
    Obfuscate(ObfuscateArgs),
    /// Count the tours of a board exactly (closed by default).
    #[command(
        after_help = "Examples:\n  knights count 6x6\n  knights count 3x8 --open\n  knights count 8x8 --max-memory 20G --work-dir /tmp/knights-count"
    )]
    Count(CountArgs),
    /// Estimate the number of tours of a board too big to count: sampled runs
    /// of the exact counter's frontier program (closed tours), or weighted
    /// Warnsdorff-like walks (open tours, wide boards).
    #[command(
        after_help = "Examples:\n  knights estimate 8x8 --seed 2\n  knights estimate 7x7 --open --samples 1000000\n  knights estimate 12x12 --seconds 60"
    )]
    Estimate(EstimateArgs),
    /// Move and relative-move statistics over many tours or tourneys.
    #[command(
        after_help = "Examples:\n  knights stats 16x16 -a warnsdorff -n 200\n  knights stats 48x48 -a braid -n 1000 --obfuscate -f svg -o braid.svg"
    )]
    Stats(StatsArgs),
    /// Serve the interactive web page and its JSON API (docs/http-api.md).
    #[command(
        after_help = "Examples:\n  knights serve\n  knights serve --port 9000 --open\n  curl 'http://127.0.0.1:8080/api/tour?board=8x8&kind=closed&seed=1'"
    )]
    Serve(ServeArgs),
}

/// The board argument, defined once for every command that takes one.
#[derive(Args, Debug, Clone)]
pub struct BoardArg {
    /// The board: ROWSxCOLS such as 8x8 or 6x10, or one number for a square
    /// board; where the command takes holes, also a board file ('.' a
    /// square, '#' a hole, one line a row).
    #[arg(value_name = "BOARD")]
    pub board: String,
}

/// The board options beyond the rectangle: wrapped edges and the leaper.
#[derive(Args, Debug, Clone, Default)]
pub struct ShapeArgs {
    /// Join the board's edges: rows (top and bottom), cols (left and
    /// right) or both (the torus).
    #[arg(long, value_parser = ["none", "rows", "cols", "both"])]
    pub wrap: Option<String>,
    /// Another leaper than the knight (1,2): A,B such as 1,3 (camel),
    /// 2,3 (zebra) or 1,4 (giraffe).
    #[arg(long, value_name = "A,B")]
    pub leaper: Option<String>,
}

/// The seed of a command that makes one thing.
#[derive(Args, Debug, Clone, Copy)]
pub struct SeedArg {
    /// Seed of the random choices (the same seed gives the same result on every machine).
    #[arg(long, short = 's', default_value_t = 0)]
    pub seed: u64,
}

/// The seed of a command that samples many things.
#[derive(Args, Debug, Clone, Copy)]
pub struct SampleSeedArg {
    /// Seed (sample i uses the i-th batch generator of this seed, so any
    /// number of threads gives the same result).
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
}

/// A tour or tourney file to read.
#[derive(Args, Debug, Clone)]
pub struct FileArg {
    /// The file; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: String,
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

impl KindArgs {
    /// The kind asked for: either when neither flag is given.
    pub fn wanted(&self) -> knights::Wanted {
        match (self.closed, self.open) {
            (true, _) => knights::Wanted::Closed,
            (_, true) => knights::Wanted::Open,
            _ => knights::Wanted::Either,
        }
    }
}

/// Output formats.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatArg {
    /// Step numbers, one row per line.
    Grid,
    /// JSON as docs/formats.md fixes it.
    Json,
    /// Start square and move numbers.
    Moves,
    /// An SVG picture.
    Svg,
    /// An SVG picture that draws itself step by step.
    AnimatedSvg,
    /// A PNG picture, as the SVG draws it (at most 4000 pixels a side).
    Png,
    /// An animated GIF of a tour drawn step by step (not of a tourney; its
    /// limits are in docs/formats.md, "Pictures").
    Gif,
    /// One line instead of the tour: board, kind, algorithm and time.
    Summary,
}

/// Output options shared by the commands that write a tour or tourney.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Output format (default: from the --output file's extension: .txt,
    /// .json, .moves, .svg, .png or .gif; else grid).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<FormatArg>,
    /// First step number of a grid: 0 or 1.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1))]
    pub base: u32,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// How a move list (--format moves) names its squares: numeric (the
    /// start as ROW,COL and move numbers 0-7, which the readers take) or
    /// algebraic (every square visited, such as a8 b6, on boards of at most
    /// 26 columns).
    #[arg(long, value_enum, default_value = "numeric")]
    pub notation: Notation,
}

/// How a move list names its squares.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// The start as ROW,COL and the move numbers.
    Numeric,
    /// Every square visited by its algebraic name (a8 b6 ...).
    Algebraic,
}

/// `knights tour`.
#[derive(Args, Debug)]
pub struct TourArgs {
    #[command(flatten)]
    pub board: BoardArg,
    #[command(flatten)]
    pub kind: KindArgs,
    /// The algorithm.
    #[arg(long, short = 'a', default_value = "auto", value_parser = crate::support::algorithm_parser())]
    pub algorithm: Algorithm,
    /// Seed of the random choices (the same seed gives the same tour on
    /// every machine) [default: 0]. The methods without random choices
    /// ignore it, with a note: auto and construct (the construction),
    /// backtrack, hybrid and warnsdorff with --tie first, unless
    /// --obfuscate draws on it.
    #[arg(long, short = 's')]
    pub seed: Option<u64>,
    /// The start square as ROW,COL (0-based) or by its name, such as c3
    /// (file from the left, rank from the bottom).
    #[arg(long)]
    pub start: Option<String>,
    /// The end square as ROW,COL or a name such as c3 (needs --start): a
    /// tour from the start to it.
    #[arg(long, requires = "start")]
    pub end: Option<String>,
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Attempts allowed to the methods that restart.
    #[arg(long)]
    pub max_attempts: Option<u32>,
    /// Tie-break of Warnsdorff's rule.
    #[arg(long, value_parser = crate::support::tie_parser())]
    pub tie: Option<Tie>,
    /// Node budget of the backtracking searches (squares placed).
    #[arg(long)]
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
    #[command(flatten)]
    pub board: BoardArg,
    /// The generator.
    #[arg(long, short = 'a', default_value = "warnsdorff", value_parser = crate::support::generator_parser())]
    pub algorithm: TourneyMethod,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights join` and `knights shatter`: a closed tour or tourney file.
#[derive(Args, Debug)]
pub struct CoverArgs {
    #[command(flatten)]
    pub file: FileArg,
    #[command(flatten)]
    pub seed: SeedArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights obfuscate`.
#[derive(Args, Debug)]
pub struct ObfuscateArgs {
    #[command(flatten)]
    pub cover: CoverArgs,
    /// How many times to shatter before joining (1 to 1000).
    #[arg(long, short = 'k', default_value_t = 16)]
    pub shatters: u32,
}

/// `knights check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub file: FileArg,
    /// A puzzle file that FILE, a filled grid (any tour format, or the
    /// puzzle's own form), must solve.
    #[arg(long, value_name = "PUZZLE")]
    pub puzzle: Option<String>,
}

/// Output formats of `knights hint`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintFormat {
    /// The verdict, the reason and every legal move judged, in words.
    Text,
    /// The position's answer as JSON (docs/formats.md).
    Json,
}

/// `knights hint`.
#[derive(Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    pub file: FileArg,
    /// The kind of tour to finish.
    #[arg(long, default_value = "either", value_parser = ["closed", "open", "either"])]
    pub kind: String,
    /// The square the tour must end on, as ROW,COL or a name such as c3.
    #[arg(long)]
    pub end: Option<String>,
    /// Node budget of the search for the whole answer (the position's
    /// verdict, then the legal moves'); "unknown" when it runs out
    /// [default: 30000].
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = HintFormat::Text)]
    pub format: HintFormat,
}

/// `knights exists`.
#[derive(Args, Debug)]
pub struct ExistsArgs {
    #[command(flatten)]
    pub board: BoardArg,
    #[command(flatten)]
    pub kind: KindArgs,
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// The start square as ROW,COL (0-based) or by its name, such as c3
    /// (file from the left, rank from the bottom).
    #[arg(long)]
    pub start: Option<String>,
    /// The end square as ROW,COL or a name such as c3 (needs --start).
    #[arg(long, requires = "start")]
    pub end: Option<String>,
    /// Node budget of the search where no theorem decides; the answer is
    /// "unknown" (exit status 3) when it runs out.
    #[arg(long, default_value_t = 10_000_000)]
    pub max_nodes: u64,
}

/// `knights render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    #[command(flatten)]
    pub file: FileArg,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `knights graph`.
#[derive(Args, Debug)]
pub struct GraphArgs {
    #[command(flatten)]
    pub board: BoardArg,
    #[command(flatten)]
    pub shape: ShapeArgs,
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
    #[arg(long, default_value_t = 3, value_parser = crate::support::at_least_one::<u32>)]
    pub repeat: u32,
    #[command(flatten)]
    pub seed: SampleSeedArg,
    /// Which suite to run: `tours` (Warnsdorff and the construction on a
    /// ladder of boards), `warnsdorff` or `construct` (boards up to
    /// 10000x10000). The research suites (Warnsdorff's tie-breaks,
    /// backtracking and the hybrid; the tourney generators) are the
    /// research harness's: `cargo run --release -p knights-lab -- bench
    /// classic` and `... bench tourney`.
    #[arg(long, default_value = "tours")]
    pub suite: String,
}

/// `knights encrypt` and `knights decrypt`.
#[derive(Args, Debug)]
pub struct CipherArgs {
    /// The key: a tour file (JSON, grid or move list), or a description that
    /// regenerates a tour, BOARD[,algorithm=NAME][,seed=N][,start=ROW,COL][,open|closed|any][,attempts=N],
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

/// `knights count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub board: BoardArg,
    #[command(flatten)]
    pub kind: KindArgs,
    #[command(flatten)]
    pub shape: ShapeArgs,
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
    /// For a board WxN, print `WxL COUNT` for every length L = 1..N, from
    /// one forward pass that counts the tours finished after each row.
    #[arg(long, conflicts_with_all = ["symmetric", "classes"])]
    pub all_lengths: bool,
    /// For a board KxN, print `C COUNT` for every C = 1..K*N: the tours of
    /// the first C cells, the board taken as N lines of K cells (Knuth's
    /// "first n cells" tables), from one forward pass.
    #[arg(long, conflicts_with_all = ["symmetric", "classes", "all_lengths", "outside_in", "staggered"])]
    pub all_cells: bool,
    /// Take each row from the outside in (first square, last, second, ...):
    /// the same count through other states, a check of a plain run (forward).
    #[arg(long)]
    pub outside_in: bool,
    /// Take each row's last square after the next row's others, so that
    /// the squares taken are never whole rows: the same count through other
    /// states, a check of a plain run even on a cylinder or torus, where
    /// any order within the rows (outside-in too) passes the same states.
    #[arg(long, conflicts_with_all = ["outside_in", "all_lengths", "symmetric", "classes"])]
    pub staggered: bool,
    /// In a meet of open tours on a board of even rows, which edges between
    /// the two middle rows the top part takes: `outer` those whose upper end
    /// lies farther from the centre column, `inner` the others (the bottom
    /// part, the top upside down, takes the rest): the same count through
    /// other states, a check of a plain meet.
    #[arg(long, default_value = "outer", value_parser = ["outer", "inner"], conflicts_with_all = ["outside_in", "staggered", "all_lengths", "all_cells", "symmetric", "classes"])]
    pub middle: String,
    /// Print a JSON object with the count and the figures of the run.
    #[arg(long)]
    pub json: bool,
    /// How to count: `meet` counts the two halves of the board apart and
    /// joins them (shorter side at most 8; open tours 3 to 8); `forward` runs one
    /// frontier program over the whole board; `auto` meets in the middle
    /// where it can.
    #[arg(long, value_enum, default_value_t = CountMethod::Auto)]
    pub method: CountMethod,
    /// Keep the states in memory while they need less than this (bytes, or
    /// with a unit: 512M, 1.5G, 20GiB; default: four fifths of the memory
    /// available), past it on
    /// disk; stop with an error if even that cannot fit.
    #[arg(long)]
    pub max_memory: Option<String>,
    /// Keep the states on disk in this directory, with a checkpoint after
    /// every square, so that `--resume` can continue a killed count. It is
    /// created, with its missing parents, if it does not exist.
    #[arg(long)]
    pub work_dir: Option<std::path::PathBuf>,
    /// Continue the count from the checkpoint in --work-dir.
    #[arg(long)]
    pub resume: bool,
    /// Discard the checkpoint in --work-dir and start the count afresh (a
    /// count without --resume refuses to overwrite a checkpoint).
    #[arg(long)]
    pub fresh: bool,
    /// The most disk the states may take when they go to disk (bytes, or
    /// with a unit: 50G; default: 80 % of the free space on their disk).
    /// Before every square the count checks that the next one fits, and
    /// stops with its checkpoint kept if not.
    #[arg(long)]
    pub max_disk: Option<String>,
    /// Keep the state files of a finished count in --work-dir (default: only
    /// a small summary with the count stays).
    #[arg(long)]
    pub keep: bool,
    /// Print the projected peak states, disk and time, without counting
    /// (from a trial run of at most about 20 seconds, or from the boards
    /// measured before), of the count these options ask for: its method,
    /// order of squares, shape, sweep (--all-lengths, --all-cells) or the
    /// half turn's quotient graph (--symmetric).
    #[arg(long, conflicts_with_all = ["classes", "resume"])]
    pub dry_run: bool,
    /// Stop after this many squares (after the checkpoint), as Ctrl-C
    /// would; for tests of resuming.
    #[arg(long, hide = true)]
    pub stop_after: Option<usize>,
    /// Stop a meeting's join once this many parts of its table are joined
    /// and recorded, as Ctrl-C would; for tests of resuming.
    #[arg(long, hide = true)]
    pub stop_in_join: Option<u64>,
    /// Never draw the progress bar; write a status line once a minute
    /// only (a count of less than a minute prints its answer alone).
    #[arg(long)]
    pub quiet: bool,
    /// Spread the count over N worker processes on this machine, started
    /// with mpirun, which exchange states through MPI (each holds its
    /// share of the states in memory); N is at most the board's squares and
    /// what this machine's limits let mpirun start. SIGINT, SIGTERM and
    /// SIGHUP go on to mpirun, which ends the workers. With --dry-run:
    /// project what each of N workers would hold and send, with
    /// --max-memory each. (A build without the feature `distributed`,
    /// such as the Python wheel's, hides this flag and says how to get it.)
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "distributed",
        hide = cfg!(not(feature = "distributed"))
    )]
    pub processes: Option<usize>,
    /// Run as one worker of an MPI job that spreads the count over its
    /// processes: `mpirun -np 8 --hostfile HOSTS knights count 7x8
    /// --open --distributed`, or `srun -n 8 knights count ... --distributed`
    /// under Slurm. Worker 0 prints the answer.
    #[arg(long, conflicts_with = "dry_run", hide = cfg!(not(feature = "distributed")))]
    pub distributed: bool,
    /// The most bytes a worker's collective call carries at a time (the
    /// rest follows in more rounds); for tests of exchanges in rounds.
    #[cfg(feature = "distributed")]
    #[arg(long, hide = true, value_name = "BYTES", default_value_t = crate::distributed::ROUND_BYTES)]
    pub round_bytes: usize,
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
    #[command(flatten)]
    pub board: BoardArg,
    /// Estimate open tours instead of closed ones.
    #[arg(long)]
    pub open: bool,
    /// Estimate directed tours: twice the undirected count.
    #[arg(long)]
    pub directed: bool,
    /// Number of probes, reproducible for a seed on any number of threads:
    /// walks, or runs of the frontier program [default: 10 runs, 300000 walks].
    #[arg(long, value_parser = crate::support::at_least_one::<u64>, conflicts_with = "seconds")]
    pub samples: Option<u64>,
    /// Probe for this many seconds instead (for exploring: not
    /// reproducible; 0.001 to 604800, one week).
    #[arg(long, value_parser = crate::support::up_to_a_week)]
    pub seconds: Option<Duration>,
    /// How probes choose their way.
    #[arg(long, default_value = "auto", value_parser = crate::support::estimate_method_parser())]
    pub method: knights::count::EstimateMethod,
    /// States a run of the frontier method keeps after each square.
    #[arg(long, default_value_t = knights::count::EstimateOptions::default().keep, value_parser = parse_keep)]
    pub keep: usize,
    #[command(flatten)]
    pub seed: SeedArg,
    /// Print a JSON object.
    #[arg(long)]
    pub json: bool,
}

fn parse_keep(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(k) if (1..=1 << 26).contains(&k) => Ok(k),
        _ => Err(format!(
            "`{text}` is not a number of states from 1 to 67108864"
        )),
    }
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
    #[command(flatten)]
    pub board: BoardArg,
    /// The generator of the tours.
    #[arg(long, short = 'a', default_value = "auto", value_parser = crate::support::algorithm_parser())]
    pub algorithm: Algorithm,
    #[command(flatten)]
    pub kind: KindArgs,
    /// Number of tours (or tourneys), 1 to 10,000,000.
    #[arg(long, short = 'n', default_value_t = 100)]
    pub count: u64,
    /// Obfuscate every tour (16 shatters, then join) before counting.
    #[arg(long)]
    pub obfuscate: bool,
    /// Count the raw tourneys of the algorithm's tourney generator instead
    /// of tours (tourney, braid, four-cover, neural or divide).
    #[arg(long)]
    pub tourney: bool,
    #[command(flatten)]
    pub seed: SampleSeedArg,
    /// Output format (default: from the --output file's extension, else table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<StatsFormat>,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}
