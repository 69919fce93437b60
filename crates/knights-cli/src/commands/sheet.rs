//! `knights sheet`: a printable page of boards to find a tour on by hand,
//! or its solution page. From a board the flags become the library's
//! [`SheetRequest`] (tours from seed, seed + 1, ...); from tour files each
//! file is one board. The page is SVG or PNG (docs/formats.md, "Sheets").

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, ValueEnum};
use knights::format::{self, Paper, Sheet, SheetOptions, Valid};
use knights::request::{Job, SheetRequest};
use knights::{Control, Tour};

use super::place;
use crate::cli::{BoardArg, ShapeArgs};
use crate::output::{choose_format, FormatName, Output};

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
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// Write the solution page: every square numbered in the tour's order.
    #[arg(long)]
    pub solution: bool,
    /// On the solution page, draw each tour's path thin under the numbers.
    #[arg(long, requires = "solution")]
    pub path: bool,
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

const SHEET_FORMATS: &[FormatName<SheetFormat>] = &[
    FormatName {
        format: SheetFormat::Svg,
        name: "svg",
        what: "an SVG page",
        extensions: &["svg"],
    },
    FormatName {
        format: SheetFormat::Png,
        name: "png",
        what: "a PNG page",
        extensions: &["png"],
    },
];

pub fn run(args: SheetArgs) -> Result<ExitCode> {
    let format = choose_format(
        args.output.as_deref(),
        args.format,
        SHEET_FORMATS,
        SheetFormat::Svg,
    )?;
    let paper = match args.paper {
        PaperArg::A4 => Paper::A4,
        PaperArg::Letter => Paper::Letter,
    };
    let (sheet, options) = if is_board(&args.inputs) {
        from_board(&args, paper)?
    } else {
        from_files(&args, paper)?
    };
    match format {
        SheetFormat::Svg => {
            crate::output::emit(args.output.as_deref(), &format::sheet_svg(&sheet, options)?)?;
        }
        SheetFormat::Png => write_bytes(&args, &format::sheet_png(&sheet, options)?)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether the one input names a board (a size, or a board file of '.'
/// and '#') rather than tour files.
fn is_board(inputs: &[String]) -> bool {
    let [one] = inputs else { return false };
    let text = one.trim();
    if text == "-" {
        return false;
    }
    match std::fs::read_to_string(text) {
        Ok(content) => content.trim_start().starts_with(['.', '#']),
        Err(_) => text
            .chars()
            .all(|c| c.is_ascii_digit() || "xX*× ".contains(c)),
    }
}

/// The sheet of `--copies` tours of the board.
fn from_board(args: &SheetArgs, paper: Paper) -> Result<(Sheet, SheetOptions)> {
    let (board, holes) = place(&BoardArg {
        board: args.inputs[0].clone(),
    })?;
    let defaults = SheetRequest::new(&board);
    let request = SheetRequest {
        holes,
        wrap: args.shape.wrap.clone(),
        leaper: args.shape.leaper.clone(),
        kind: match &args.kind {
            Some(k) => k.parse()?,
            None => defaults.kind,
        },
        algorithm: args.algorithm.clone().unwrap_or(defaults.algorithm.clone()),
        seed: args.seed.unwrap_or(0),
        copies: args.copies.unwrap_or(1),
        start: args.start.clone(),
        end: args.end.clone(),
        show_end: args.show_end,
        paper,
        solution: args.solution,
        path: args.path,
        ..defaults
    };
    let answer = request.run(&Control::new().stop(crate::output::stop_on_ctrl_c()))?;
    Ok((answer.sheet, answer.options))
}

/// The sheet of the tours in the files, one board each.
fn from_files(args: &SheetArgs, paper: Paper) -> Result<(Sheet, SheetOptions)> {
    let board_only = [
        ("--copies", args.copies.is_some()),
        ("--seed", args.seed.is_some()),
        ("--kind", args.kind.is_some()),
        ("--start", args.start.is_some()),
        ("--algorithm", args.algorithm.is_some()),
        ("--wrap", args.shape.wrap.is_some()),
        ("--leaper", args.shape.leaper.is_some()),
    ];
    if let Some((flag, _)) = board_only.iter().find(|f| f.1) {
        return Err(knights::Error::Unsupported(
            format!("{flag} makes the tours of a board; a sheet of tour files shows the tours they hold, so leave it out or give one BOARD instead of files").into(),
        )
        .into());
    }
    let mut tours: Vec<Tour> = Vec::new();
    for name in &args.inputs {
        let text = crate::io_util::read_input(name)?;
        match format::read(&text)?.into_valid()? {
            Valid::Tour(t) => tours.push(t),
            Valid::Tourney(_) => {
                return Err(knights::Error::Unsupported(
                    format!("'{name}' holds a tourney; a sheet shows tours to find, one a file")
                        .into(),
                )
                .into())
            }
        }
    }
    let sides: Vec<(u32, u32)> = tours
        .iter()
        .map(|t| (t.board().rows(), t.board().cols()))
        .collect();
    format::sheet::check_fits(&sides, paper)?;
    let sheet = Sheet::of_tours("Knight's tours".into(), tours, args.show_end);
    let options = SheetOptions {
        paper,
        solution: args.solution,
        path: args.path,
    };
    Ok((sheet, options))
}

/// Writes the PNG's bytes, whole or not at all.
fn write_bytes(args: &SheetArgs, bytes: &[u8]) -> Result<()> {
    let path = args.output.as_deref();
    let mut out = Output::create(path)?;
    if let Err(e) = out.write_all(bytes) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Err(e.into());
        }
        let target = path.map_or("the output".into(), |p| format!("'{}'", p.display()));
        return Err(knights::Error::io(format!("write {target}"), e).into());
    }
    out.finish()
}
