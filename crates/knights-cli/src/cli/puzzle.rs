//! The raw arguments of `knights puzzle` and `knights solve` (clap
//! derive), which become the library's puzzle and solve requests in
//! `commands::puzzle`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{BoardArg, FileArg, SeedArg, ShapeArgs};

/// `knights puzzle`.
#[derive(Args, Debug)]
pub struct PuzzleArgs {
    #[command(flatten)]
    pub board: BoardArg,
    /// How hard: easy (no guess needed), medium (each guess settled at
    /// once) or hard.
    #[arg(long, short = 'd', value_enum, default_value = "medium")]
    pub difficulty: DifficultyArg,
    #[command(flatten)]
    pub seed: SeedArg,
    /// Give the numbers symmetric under a half turn of the board.
    #[arg(long)]
    pub symmetric: bool,
    /// The kind of tour the solution is: closed (the last number a move
    /// from the first), open, or either (an open puzzle, the default).
    #[arg(long, default_value = "either", value_parser = ["closed", "open", "either"])]
    pub kind: String,
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Write the solution instead of the puzzle: a numbered grid (text,
    /// JSON as a tour) or the board solved (SVG, PNG).
    #[arg(long)]
    pub solution: bool,
    /// A page of this many puzzles, from seeds seed, seed + 1, ... (1 to
    /// 16; pictures only) [default: 1].
    #[arg(long)]
    pub copies: Option<u32>,
    /// Output format (default: from the --output file's extension: .txt,
    /// .json, .svg or .png; else text).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<PuzzleFormat>,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// The difficulties of a puzzle.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DifficultyArg {
    /// Solved by propagation alone.
    Easy,
    /// Each guess settled by propagation alone.
    Medium,
    /// Guesses within guesses.
    Hard,
}

impl DifficultyArg {
    /// The library's difficulty.
    pub fn difficulty(self) -> knights::puzzle::Difficulty {
        use knights::puzzle::Difficulty;
        match self {
            DifficultyArg::Easy => Difficulty::Easy,
            DifficultyArg::Medium => Difficulty::Medium,
            DifficultyArg::Hard => Difficulty::Hard,
        }
    }
}

/// The formats of `knights puzzle`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleFormat {
    /// The puzzle's text form (docs/formats.md, "Puzzles").
    Text,
    /// The puzzle's JSON form.
    Json,
    /// A page with the puzzle drawn, as SVG.
    Svg,
    /// The same page as PNG.
    Png,
}

/// The formats of `knights solve`.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveFormat {
    /// The verdict, then each solution as a numbered grid; or one step.
    Text,
    /// The solve answer as JSON (docs/formats.md, "Puzzles").
    Json,
}

/// `knights solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub file: FileArg,
    /// How many solutions to look for (1 to 1000); 2 proves a solution
    /// unique.
    #[arg(long, default_value_t = 2)]
    pub limit: usize,
    /// Node budget of the search [default: 10000000].
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Give the next deduction, with its reason, instead of the solutions.
    #[arg(long)]
    pub step: bool,
    /// The numbers placed so far, in the puzzle's text form (the same
    /// header): the step is taken from there.
    #[arg(long, requires = "step")]
    pub progress: Option<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = SolveFormat::Text)]
    pub format: SolveFormat,
}
