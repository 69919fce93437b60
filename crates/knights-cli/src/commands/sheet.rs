//! `knights sheet`: a printable page of boards to find a tour on by hand,
//! or its solution page. From a board the flags become the library's
//! [`SheetRequest`] (tours from seed, seed + 1, ...); from tour files each
//! file is one board. The page is SVG or PNG (docs/formats.md, "Sheets").

use std::io::Write;

use anyhow::Result;
use knights::format::sheet::{self, Paper, Sheet, SheetOptions};
use knights::format::{self, Checked};
use knights::request::{JobRequest, SheetRequest};
use knights::{Control, Tour};

use super::place;
use crate::cli::BoardArg;
use crate::cli::{PaperArg, SheetArgs, SheetFormat};
use crate::output::{choose_format, FormatName, Output};

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

pub fn run(args: SheetArgs) -> Result<u8> {
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
            crate::output::emit(args.output.as_deref(), &sheet::sheet_svg(&sheet, options)?)?;
        }
        SheetFormat::Png => write_bytes(&args, &sheet::sheet_png(&sheet, options)?)?,
    }
    Ok(crate::exit::EXIT_SUCCESS)
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
        wrap: args.wrap.clone(),
        leaper: args.leaper.clone(),
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
        puzzle: args.puzzle.map(crate::cli::DifficultyArg::difficulty),
        symmetric: args.symmetric,
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
        ("--wrap", args.wrap.is_some()),
        ("--leaper", args.leaper.is_some()),
        ("--puzzle", args.puzzle.is_some()),
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
        match format::read(&text)?.into_checked()? {
            Checked::Tour(t) => tours.push(t),
            Checked::Tourney(_) => {
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
    sheet::check_fits(&sides, paper)?;
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
