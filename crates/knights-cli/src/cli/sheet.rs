//! The raw arguments of `knights sheet` (clap derive), which become the
//! library's sheet request in `commands::sheet`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// `knights sheet`.
#[derive(Args, Debug)]
pub struct SheetArgs {
    /// A board (ROWSxCOLS, one number, or a board file of '.' and '#'), or
    /// one or more tour files (any format; `-` reads standard input), one
    /// board each.
    #[arg(value_name = "BOARD|TOUR_FILE", required = true)]
    pub inputs: Vec<String>,
    /// How many boards of BOARD, 1 to 16 [default: 1]; board i's tour is
    /// made with seed + i and starts on a square drawn from it.
    #[arg(long)]
    pub copies: Option<u32>,
    /// Seed of the first board's tour and start [default: 0].
    #[arg(long, short = 's')]
    pub seed: Option<u64>,
    /// The kind of tour to find [default: either].
    #[arg(long, value_parser = ["closed", "open", "either", "any"])]
    pub kind: Option<String>,
    /// Every board's start square, ROW,COL or a name such as c3 (by
    /// default each board's is drawn from its seed).
    #[arg(long)]
    pub start: Option<String>,
    /// Every board's end square (needs --start), given on the worksheet.
    #[arg(long, requires = "start")]
    pub end: Option<String>,
    /// Give each board's end square on the worksheet too, numbered.
    #[arg(long)]
    pub show_end: bool,
    /// The algorithm that makes the tours [default: auto].
    #[arg(long, short = 'a')]
    pub algorithm: Option<String>,
    /// Join the board's edges: rows (top and bottom), cols (left and
    /// right) or both (the torus).
    #[arg(long, value_parser = ["none", "rows", "cols", "both"])]
    pub wrap: Option<String>,
    /// Another leaper than the knight (1,2): A,B such as 1,3 (camel).
    #[arg(long, value_name = "A,B")]
    pub leaper: Option<String>,
    /// Write the solution page: every square numbered in the tour's order.
    #[arg(long)]
    pub solution: bool,
    /// On the solution page, draw each tour's path thin under the numbers.
    #[arg(long, requires = "solution")]
    pub path: bool,
    /// Puzzles of this difficulty instead of tours to find: board i is
    /// the puzzle of seed + i, some squares numbered.
    #[arg(long, value_enum, value_name = "DIFFICULTY")]
    pub puzzle: Option<super::DifficultyArg>,
    /// With --puzzle, numbers symmetric under a half turn of the board.
    #[arg(long, requires = "puzzle")]
    pub symmetric: bool,
    /// The paper.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: PaperArg,
    /// Output format (default: from the --output file's extension, else svg).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<SheetFormat>,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// The paper of a sheet.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaperArg {
    /// A4, 210 x 297 mm.
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

/// The formats of a sheet.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetFormat {
    /// An SVG page, sized in millimetres, for printing.
    Svg,
    /// A PNG page at 150 dots an inch.
    Png,
}
