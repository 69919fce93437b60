//! `knights puzzle`: the flags become the library's [`PuzzleRequest`]
//! (text and JSON: the puzzle's own forms, or its solution), or, for a
//! picture, a [`SheetRequest`] of puzzles (one board, or `--copies`).

use anyhow::Result;
use knights::format::{self, sheet::Paper};
use knights::request::{JobRequest, PuzzleRequest, SheetRequest};
use knights::{Control, Wanted};

use super::place;
use crate::cli::{PuzzleArgs, PuzzleFormat};
use crate::output::{choose_format, FormatName};

const PUZZLE_FORMATS: &[FormatName<PuzzleFormat>] = &[
    FormatName {
        format: PuzzleFormat::Text,
        name: "text",
        what: "the puzzle's text form",
        extensions: &["txt"],
    },
    FormatName {
        format: PuzzleFormat::Json,
        name: "json",
        what: "the puzzle's JSON form",
        extensions: &["json", "txt"],
    },
    FormatName {
        format: PuzzleFormat::Svg,
        name: "svg",
        what: "an SVG page",
        extensions: &["svg"],
    },
    FormatName {
        format: PuzzleFormat::Png,
        name: "png",
        what: "a PNG page",
        extensions: &["png"],
    },
];

pub fn run(args: PuzzleArgs) -> Result<u8> {
    let format = choose_format(
        args.output.as_deref(),
        args.format,
        PUZZLE_FORMATS,
        PuzzleFormat::Text,
    )?;
    if format == PuzzleFormat::Png && crate::output::is_terminal(args.output.as_deref()) {
        return Err(knights::Error::Unsupported(
            "a PNG is binary, and standard output is a terminal; write it to a file (-o puzzle.png) or pipe it to a program".into(),
        )
        .into());
    }
    let kind: Wanted = args.kind.parse()?;
    let (board, holes) = place(&args.board)?;
    let control = Control::new().stop(crate::output::stop_on_ctrl_c());
    let path = args.output.as_deref();
    if matches!(format, PuzzleFormat::Svg | PuzzleFormat::Png) {
        let request = SheetRequest {
            holes,
            wrap: args.shape.wrap.clone(),
            leaper: args.shape.leaper.clone(),
            kind,
            seed: args.seed.seed,
            copies: args.copies.unwrap_or(1),
            paper: Paper::A4,
            solution: args.solution,
            puzzle: Some(args.difficulty.difficulty()),
            symmetric: args.symmetric,
            ..SheetRequest::new(&board)
        };
        let answer = request.run(&control)?;
        return match format {
            PuzzleFormat::Svg => crate::output::emit(path, &answer.svg()?),
            _ => crate::output::emit_bytes(path, &answer.png()?),
        }
        .map(|()| crate::exit::EXIT_SUCCESS);
    }
    if args.copies.is_some_and(|n| n != 1) {
        return Err(knights::Error::Unsupported(
            "--copies makes a page of puzzles, a picture; add -f svg or -f png (or an .svg or .png file), or make one puzzle at a time with --seed".into(),
        )
        .into());
    }
    let request = PuzzleRequest {
        holes,
        wrap: args.shape.wrap.clone(),
        leaper: args.shape.leaper.clone(),
        kind,
        difficulty: args.difficulty.difficulty(),
        seed: args.seed.seed,
        symmetric: args.symmetric,
        ..PuzzleRequest::new(&board)
    };
    let answer = request.run(&control)?;
    let base = answer.puzzle.base();
    match (format, args.solution) {
        (PuzzleFormat::Text, false) => {
            crate::output::emit(path, &format::puzzle_text(&answer.puzzle))?
        }
        (_, false) => crate::output::emit(
            path,
            &format_args!("{}\n", format::puzzle_json(&answer.puzzle)),
        )?,
        (PuzzleFormat::Text, true) => {
            crate::output::emit(path, &format::grid(&answer.solution, base))?
        }
        (_, true) => crate::output::emit(
            path,
            &format_args!("{}\n", format::tour_json(&answer.solution)),
        )?,
    }
    Ok(crate::exit::EXIT_SUCCESS)
}
