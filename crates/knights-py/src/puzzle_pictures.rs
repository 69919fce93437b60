//! A puzzle's pictures and files: the sheet renderer's page with the one
//! board (`knights::format::sheet::sheet_svg`, `sheet_png`), its clues circled
//! and, solved, every square numbered from 1; and `Puzzle.save`, which
//! writes the text form, JSON or a picture whole or not at all.

use std::path::{Path, PathBuf};

use knights::format::sheet::{sheet_png, sheet_svg, Sheet, SheetBoard, SheetOptions};
use knights::format::{puzzle_json, puzzle_text};
use knights::puzzle::{Difficulty, Puzzle};
use knights::Tour;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::bad_input;
use crate::run::{run_watched, Watch};

/// What to draw: a puzzle, its grade when generated, and the solution
/// when it is drawn solved.
pub(crate) struct Drawing<'a> {
    pub(crate) puzzle: &'a Puzzle,
    pub(crate) grade: Option<Difficulty>,
    pub(crate) solution: Option<Tour>,
}

/// The page of the puzzle alone, solved when the drawing has a solution.
fn sheet(d: &Drawing<'_>) -> (Sheet, SheetOptions) {
    let puzzle = d.puzzle;
    let board = puzzle.shape().board();
    let given = puzzle
        .clues()
        .iter()
        .enumerate()
        .filter_map(|(s, c)| c.map(|step| (s as u32, step + 1)))
        .collect();
    let kind = if puzzle.closed() { "closed" } else { "open" };
    let grade = d.grade.map(|g| format!(", {g}")).unwrap_or_default();
    let cells = puzzle.cells();
    let closing = if puzzle.closed() {
        format!(", and {cells} a move from 1")
    } else {
        String::new()
    };
    let sheet = Sheet {
        title: format!("Puzzle {board} ({kind}{grade})"),
        note: format!(
            "Number the squares 1 to {cells} so that each number is a knight's move from the next{closing}."
        ),
        boards: vec![SheetBoard {
            shape: puzzle.shape().clone(),
            given,
            caption: format!("{} of {cells} given", puzzle.given()),
            solution: d.solution.clone(),
        }],
    };
    let options = SheetOptions {
        solution: d.solution.is_some(),
        ..SheetOptions::default()
    };
    (sheet, options)
}

/// The SVG picture.
pub(crate) fn svg(py: Python<'_>, d: &Drawing<'_>) -> PyResult<String> {
    let (s, options) = sheet(d);
    crate::errors::lib(py, sheet_svg(&s, options))
}

/// The PNG picture, drawn on a worker thread.
pub(crate) fn png<'py>(py: Python<'py>, d: &Drawing<'_>) -> PyResult<Bound<'py, PyBytes>> {
    let (s, options) = sheet(d);
    let bytes = run_watched(py, &Watch::default(), move |_| sheet_png(&s, options))?;
    Ok(PyBytes::new(py, &bytes))
}

/// A format `Puzzle.save` writes: its name and the extensions that choose it.
const FORMATS: &[(&str, &str)] = &[
    ("text", "txt"),
    ("json", "json"),
    ("svg", "svg"),
    ("png", "png"),
];

/// The format asked for, else the one the extension names, else the text
/// form; an unknown name or extension, or one that disagrees, is refused.
fn choose(path: &Path, asked: Option<&str>) -> Result<&'static str, String> {
    let names = "'text', 'json', 'svg' or 'png'";
    let asked = match asked {
        None => None,
        Some(a) => match FORMATS.iter().find(|(n, _)| *n == a) {
            Some((n, _)) => Some(*n),
            None => {
                return Err(format!(
                    "format='{}' is not a format of Puzzle.save; give {names}",
                    knights::excerpt(a)
                ))
            }
        },
    };
    let Some(ext) = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
    else {
        return Ok(asked.unwrap_or("text"));
    };
    let file = path.display();
    match (asked, FORMATS.iter().find(|(_, e)| *e == ext)) {
        (None, Some((n, _))) => Ok(n),
        (Some(a), Some((n, _))) if a == *n => Ok(n),
        (Some(a), Some((n, _))) => Err(format!(
            "'{file}' ends in .{ext}, but format='{a}' was asked for; name the file for {a}, or leave out format to write {n}"
        )),
        (_, None) => Err(format!(
            "'{file}' ends in .{ext}, but Puzzle.save writes .txt (the text form), .json, .svg or .png files; rename it, or give it no extension and choose with format= ({names})"
        )),
    }
}

/// Saves the drawing's puzzle to `path` in `format` (else the one its extension names).
pub(crate) fn save(
    py: Python<'_>,
    d: &Drawing<'_>,
    path: PathBuf,
    format: Option<&str>,
) -> PyResult<()> {
    let format = match choose(&path, format) {
        Ok(f) => f,
        Err(sentence) => return bad_input(py, sentence),
    };
    let bytes = match format {
        "text" => puzzle_text(d.puzzle).into_bytes(),
        "json" => format!("{}\n", puzzle_json(d.puzzle)).into_bytes(),
        "svg" => svg(py, d)?.into_bytes(),
        _ => png(py, d)?.as_bytes().to_vec(),
    };
    crate::errors::lib(
        py,
        py.detach(|| crate::pictures::write_whole(&path, &bytes)),
    )
}
