//! One module per command. A product command maps its flags to the
//! library's request (`knights::request`), which checks them and runs the
//! job, and prints the answer; the library's refusals are shown unchanged,
//! their hints in flags (`support::in_cli_words`). `count` still runs its
//! job itself after the request's checks; `render`, `graph`, `bench` and
//! `serve` need no request. `main` dispatches to them; this module holds
//! what they share (reading a board file into a request, writing a tour or
//! tourney).

use anyhow::Result;
use knights::format::{self, GifOptions, SvgOptions};
use knights::{Board, Shape, Tour, Tourney};

use crate::cli::{BoardArg, FormatArg, Notation, OutputArgs, ShapeArgs};
use crate::output::{choose_format, FormatName};

pub mod bench;
pub mod check;
pub mod cipher;
pub mod count;
pub mod estimate;
pub mod exists;
pub mod graph;
pub mod hint;
pub mod magic;
pub mod puzzle;
pub mod render;
pub mod serve;
pub mod sheet;
pub mod solve;
pub mod stats;
pub mod tour;
pub mod tourney;

/// The board and holes of a request: BOARD as given, or, when it names a
/// board file that exists, the file's size and its rows as the holes. What
/// is neither is refused with the library's sentence about sizes, after
/// the command line's about files when it looks like a file name.
pub fn place(arg: &BoardArg) -> Result<(String, Option<String>)> {
    let text = arg.board.trim();
    let size = text.parse::<Board>();
    let looks_like_size = text
        .chars()
        .all(|c| c.is_ascii_digit() || "xX*× ".contains(c));
    if size.is_ok() || looks_like_size {
        return Ok((text.to_string(), None));
    }
    if !std::path::Path::new(text).is_file() {
        let context = format!("there is no board file '{}'", knights::excerpt(text));
        return Err(anyhow::Error::from(size.unwrap_err()).context(context));
    }
    let rows = crate::io_util::read_input(text)?;
    let board = knights::Shape::parse_board_text(&rows)?.board();
    Ok((board.to_string(), Some(rows)))
}

/// The board with the shape options: BOARD is a size, or a board file
/// ('.' a square, '#' a hole, one line a row) that exists; the library
/// reads the shape as it does a request's.
pub fn shape(arg: &BoardArg, opts: &ShapeArgs) -> Result<Shape> {
    let (board, holes) = place(arg)?;
    Ok(knights::request::shape(
        &board,
        holes.as_deref(),
        opts.wrap.as_deref(),
        opts.leaper.as_deref(),
    )?)
}

/// The formats of a tour or tourney and their file extensions (the `-o`
/// rule is [`choose_format`]).
const TOUR_FORMATS: &[FormatName<FormatArg>] = &[
    FormatName {
        format: FormatArg::Grid,
        name: "grid",
        what: "a numbered grid",
        extensions: &["txt"],
    },
    FormatName {
        format: FormatArg::Json,
        name: "json",
        what: "JSON",
        extensions: &["json", "txt"],
    },
    FormatName {
        format: FormatArg::Moves,
        name: "moves",
        what: "a move list",
        extensions: &["moves", "txt"],
    },
    FormatName {
        format: FormatArg::Svg,
        name: "svg",
        what: "an SVG picture",
        extensions: &["svg"],
    },
    FormatName {
        format: FormatArg::AnimatedSvg,
        name: "animated-svg",
        what: "an animated SVG picture",
        extensions: &["svg"],
    },
    FormatName {
        format: FormatArg::Png,
        name: "png",
        what: "a PNG picture",
        extensions: &["png"],
    },
    FormatName {
        format: FormatArg::Gif,
        name: "gif",
        what: "an animated GIF",
        extensions: &["gif"],
    },
    FormatName {
        format: FormatArg::Summary,
        name: "summary",
        what: "a one-line summary",
        extensions: &["txt"],
    },
];

/// The format asked for, else the one the output file's extension names,
/// else the grid; an extension that names no format of a tour (`.xyz`) is
/// refused, and so is a picture (PNG, GIF) for a terminal. Commands call it
/// before their work, so nothing is made or written for a refused name.
pub fn format_of(out: &OutputArgs) -> Result<FormatArg> {
    let format = choose_format(
        out.output.as_deref(),
        out.format,
        TOUR_FORMATS,
        FormatArg::Grid,
    )?;
    if out.notation == Notation::Algebraic && format != FormatArg::Moves {
        return Err(unsupported(
            "--notation algebraic names the squares of a move list; add --format moves",
        ));
    }
    if matches!(format, FormatArg::Png | FormatArg::Gif)
        && crate::output::is_terminal(out.output.as_deref())
    {
        let name = if format == FormatArg::Png {
            "png"
        } else {
            "gif"
        };
        return Err(unsupported(&format!(
            "a {} is binary, and standard output is a terminal; write it to a file (-o tour.{name}) or pipe it to a program",
            name.to_uppercase()
        )));
    }
    Ok(format)
}

/// [`format_of`] for a command that writes a tourney, which has no GIF
/// (an animated GIF draws one tour step by step).
pub fn tourney_format_of(out: &OutputArgs) -> Result<FormatArg> {
    match format_of(out)? {
        FormatArg::Gif => Err(no_tourney_gif()),
        f => Ok(f),
    }
}

/// The refusal of a tourney's GIF, naming the pictures a tourney has.
fn no_tourney_gif() -> anyhow::Error {
    unsupported(
        "an animated GIF draws a tour step by step, and a tourney (a set of cycles) has no one order of steps; write the tourney as a picture with -f png or -f svg (a .png or .svg file)",
    )
}

fn unsupported(sentence: &str) -> anyhow::Error {
    knights::Error::Unsupported(sentence.to_string().into()).into()
}

/// The move list of a tour or tourney in the notation asked for; a board
/// wider than 26 columns has no algebraic names and is refused.
fn write_move_list(out: &OutputArgs, list: format::MoveList<'_>) -> Result<()> {
    let path = out.output.as_deref();
    match out.notation {
        Notation::Numeric => crate::output::emit(path, &list),
        Notation::Algebraic => crate::output::emit(path, &list.algebraic()?),
    }
}

fn svg_options(f: FormatArg) -> SvgOptions {
    SvgOptions {
        animate: f == FormatArg::AnimatedSvg,
        ..SvgOptions::default()
    }
}

/// Writes a tour as the output options say; `extra` keys go into JSON.
pub fn write_tour(
    tour: &Tour,
    out: &OutputArgs,
    extra: &[(&str, serde_json::Value)],
) -> Result<()> {
    let path = out.output.as_deref();
    let format = format_of(out)?;
    if format == FormatArg::Grid {
        // The grid numbers the squares first: 4 more bytes a square.
        knights::memory::ensure_fits(tour.board(), "numbered grid", 4)?;
    }
    match format {
        FormatArg::Grid => crate::output::emit(path, &format::grid(tour, out.base)),
        FormatArg::Json => {
            let mut json = format::tour_json(tour);
            for (k, v) in extra {
                json = json.with(k, v.clone());
            }
            crate::output::emit(path, &format_args!("{json}\n"))
        }
        FormatArg::Moves => write_move_list(out, format::move_list(tour)),
        f @ (FormatArg::Svg | FormatArg::AnimatedSvg) => {
            crate::output::emit(path, &format::tour_svg(tour, svg_options(f)))
        }
        FormatArg::Png => {
            crate::output::emit_bytes(path, &format::tour_png(tour, SvgOptions::default())?)
        }
        FormatArg::Gif => {
            crate::output::emit_bytes(path, &format::tour_gif(tour, &GifOptions::default())?)
        }
        FormatArg::Summary => {
            let kind = if tour.is_closed() { "closed" } else { "open" };
            let line = summary(tour.board(), kind, extra);
            crate::output::emit(path, &format_args!("{line}\n"))
        }
    }
}

/// The one-line summary: board, kind, then the extra keys as key=value.
fn summary(board: Board, kind: &str, extra: &[(&str, serde_json::Value)]) -> String {
    let mut line = format!("board={board} kind={kind}");
    for (k, v) in extra {
        match v {
            serde_json::Value::String(s) => line += &format!(" {k}={s}"),
            serde_json::Value::Number(n) if *k == "seconds" => {
                line += &format!(" {k}={:.6}", n.as_f64().unwrap_or(0.0));
            }
            other => line += &format!(" {k}={other}"),
        }
    }
    line
}

/// Writes a tourney as the output options say; a GIF is refused (the
/// commands that always write a tourney refuse it before their work, by
/// [`tourney_format_of`]).
pub fn write_tourney(
    tourney: &Tourney,
    out: &OutputArgs,
    extra: &[(&str, serde_json::Value)],
) -> Result<()> {
    let path = out.output.as_deref();
    match format_of(out)? {
        FormatArg::Grid | FormatArg::Moves => {
            write_move_list(out, format::tourney_move_list(tourney))
        }
        FormatArg::Json => {
            let mut json = format::tourney_json(tourney);
            for (k, v) in extra {
                json = json.with(k, v.clone());
            }
            crate::output::emit(path, &format_args!("{json}\n"))
        }
        f @ (FormatArg::Svg | FormatArg::AnimatedSvg) => {
            crate::output::emit(path, &format::tourney_svg(tourney, svg_options(f)))
        }
        FormatArg::Png => {
            crate::output::emit_bytes(path, &format::tourney_png(tourney, SvgOptions::default())?)
        }
        FormatArg::Gif => Err(no_tourney_gif()),
        FormatArg::Summary => {
            let kind = format!("tourney cycles={}", tourney.len());
            let line = summary(tourney.board(), &kind, extra);
            crate::output::emit(path, &format_args!("{line}\n"))
        }
    }
}
