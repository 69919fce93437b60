//! A sheet's page as SVG, in millimetres: white and light grey squares
//! with grid lines, dark holes, files and ranks on the edges, the given
//! numbers circled, and on the solution page every square numbered.

use std::fmt::Write as _;

use super::layout::{layout, Layout, CAPTION, GAP, HEADER, LABELS, MARGIN};
use super::model::{Sheet, SheetBoard, SheetOptions};
use crate::board::Square;
use crate::{Error, Result};

/// The family of every text (the one font a PNG is drawn with).
const FONT: &str = "DejaVu Sans";

/// The SVG of one page of `sheet`: the worksheet, or with
/// `options.solution` the solution page. Its size is the paper's
/// (`width="210mm" height="297mm"` on A4), its units millimetres.
///
/// # Errors
/// A refusal when the boards do not fit (more than
/// [`super::MAX_BOARDS`], a side over [`super::MAX_SIDE`] squares, or
/// squares narrower than [`super::MIN_CELL_MM`]), or when a given square
/// is off its board or on a hole.
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::sheet::{sheet_svg, Sheet, SheetBoard, SheetOptions}};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// let board = SheetBoard::find_tour(tour, false, "3x4".into());
/// let sheet = Sheet { title: "Tours".into(), note: String::new(), boards: vec![board] };
/// let svg = sheet_svg(&sheet, SheetOptions::default())?;
/// assert!(svg.contains(r#"width="210mm" height="297mm""#));
/// assert_eq!(svg.matches(r#"class="given""#).count(), 1);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn sheet_svg(sheet: &Sheet, options: SheetOptions) -> Result<String> {
    let (w, h) = options.paper.size_mm();
    sheet_svg_sized(sheet, options, &format!("{w}mm"), &format!("{h}mm"))
}

/// The page with the SVG's `width` and `height` as given (millimetres for
/// print, pixels for a PNG); the view box is the paper in millimetres.
pub(super) fn sheet_svg_sized(
    sheet: &Sheet,
    options: SheetOptions,
    width: &str,
    height: &str,
) -> Result<String> {
    let sides: Vec<(u32, u32)> = sheet
        .boards
        .iter()
        .map(|b| (b.shape.board().rows(), b.shape.board().cols()))
        .collect();
    let layout = layout(&sides, options.paper)?;
    for b in &sheet.boards {
        check_given(b)?;
    }
    let (pw, ph) = options.paper.size_mm();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {pw} {ph}" font-family="{FONT}">"#
    );
    let title = if options.solution {
        format!("{}: solutions", sheet.title)
    } else {
        sheet.title.clone()
    };
    let _ = writeln!(out, "<title>{}</title>", escape(&title));
    let _ = writeln!(
        out,
        r##"<rect width="{pw}" height="{ph}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        out,
        r##"<text class="title" x="{MARGIN}" y="{:.2}" font-size="6.5" fill="#000000">{}</text>"##,
        MARGIN + 6.5,
        escape(&title)
    );
    if !sheet.note.is_empty() {
        let _ = writeln!(
            out,
            r##"<text class="note" x="{MARGIN}" y="{:.2}" font-size="3.2" fill="#333333">{}</text>"##,
            MARGIN + 12.5,
            escape(&sheet.note)
        );
    }
    for (i, board) in sheet.boards.iter().enumerate() {
        let (x, y) = slot_origin(&layout, i);
        draw_board(&mut out, board, &layout, (x, y), options);
    }
    out.push_str("</svg>\n");
    Ok(out)
}

/// The top-left corner of slot `i`, in reading order.
fn slot_origin(layout: &Layout, i: usize) -> (f64, f64) {
    let (col, row) = (i % layout.columns, i / layout.columns);
    (
        MARGIN + col as f64 * (layout.slot.0 + GAP),
        MARGIN + HEADER + row as f64 * (layout.slot.1 + GAP),
    )
}

/// Refuses a given square off the board or on a hole.
fn check_given(b: &SheetBoard) -> Result<()> {
    let board = b.shape.board();
    for &(s, n) in &b.given {
        if s as usize >= board.squares() || b.shape.is_hole(s) {
            return Err(Error::Refused(
                format!(
                    "the square given the number {n} is not a square of the {board} board (off it or a hole)"
                )
                .into(),
            ));
        }
    }
    Ok(())
}

/// Draws one board in its slot at `origin`.
fn draw_board(
    out: &mut String,
    b: &SheetBoard,
    layout: &Layout,
    origin: (f64, f64),
    options: SheetOptions,
) {
    let board = b.shape.board();
    let (rows, cols) = (board.rows(), board.cols());
    let cell = layout.cell;
    let block = (f64::from(cols) + LABELS) * cell;
    let gx = origin.0 + (layout.slot.0 - block) / 2.0 + LABELS * cell;
    let gy = origin.1;
    let (w, h) = (f64::from(cols) * cell, f64::from(rows) * cell);
    let _ = writeln!(out, r#"<g class="sheet-board" data-board="{board}">"#);
    let _ = writeln!(
        out,
        r##"<rect x="{gx:.2}" y="{gy:.2}" width="{w:.2}" height="{h:.2}" fill="#ffffff"/>"##
    );
    let mut dark = String::new();
    let mut holes = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let (x, y) = (gx + f64::from(c) * cell, gy + f64::from(r) * cell);
            let square = format!("M{x:.2},{y:.2}h{cell:.2}v{cell:.2}h-{cell:.2}z");
            if b.shape.is_hole(board.square(r, c)) {
                holes.push_str(&square);
            } else if (r + c) % 2 == 1 {
                dark.push_str(&square);
            }
        }
    }
    if !dark.is_empty() {
        let _ = writeln!(out, r##"<path d="{dark}" fill="#e4e4e4"/>"##);
    }
    if !holes.is_empty() {
        let _ = writeln!(out, r##"<path class="holes" d="{holes}" fill="#404040"/>"##);
    }
    let mut grid = String::new();
    for r in 1..rows {
        let _ = write!(grid, "M{gx:.2},{:.2}h{w:.2}", gy + f64::from(r) * cell);
    }
    for c in 1..cols {
        let _ = write!(grid, "M{:.2},{gy:.2}v{h:.2}", gx + f64::from(c) * cell);
    }
    if !grid.is_empty() {
        let _ = writeln!(
            out,
            r##"<path d="{grid}" fill="none" stroke="#8a8a8a" stroke-width="0.15"/>"##
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{gx:.2}" y="{gy:.2}" width="{w:.2}" height="{h:.2}" fill="none" stroke="#222222" stroke-width="0.35"/>"##
    );
    labels(out, b, (gx, gy), cell);
    let solved = if options.solution {
        b.solution.as_ref()
    } else {
        None
    };
    if let (Some(tour), true) = (solved, options.path) {
        path(out, b, tour, (gx, gy), cell);
    }
    numbers(out, b, solved, (gx, gy), cell);
    let _ = writeln!(
        out,
        r##"<text class="caption" x="{:.2}" y="{:.2}" font-size="{:.2}" text-anchor="middle" fill="#222222">{}</text>"##,
        gx + w / 2.0,
        gy + h + LABELS * cell + CAPTION * 0.7,
        (0.45 * cell).min(3.4),
        escape(&b.caption)
    );
    out.push_str("</g>\n");
}

/// The files below the board and the ranks on its left: letters and rank
/// numbers from the bottom on a board of at most 26 columns (the squares'
/// algebraic names), else column and row numbers from 0 at the top left.
fn labels(out: &mut String, b: &SheetBoard, (gx, gy): (f64, f64), cell: f64) {
    let board = b.shape.board();
    let (rows, cols) = (board.rows(), board.cols());
    let size = (0.42 * cell).min(3.6);
    let algebraic = cols <= 26;
    let below = gy + f64::from(rows) * cell + LABELS * cell * 0.5 + size * 0.36;
    for c in 0..cols {
        let text = if algebraic {
            char::from(b'a' + c as u8).to_string()
        } else {
            c.to_string()
        };
        let _ = writeln!(
            out,
            r##"<text class="label" x="{:.2}" y="{below:.2}" font-size="{size:.2}" text-anchor="middle" fill="#444444">{text}</text>"##,
            gx + (f64::from(c) + 0.5) * cell
        );
    }
    for r in 0..rows {
        let text = if algebraic { rows - r } else { r };
        let _ = writeln!(
            out,
            r##"<text class="label" x="{:.2}" y="{:.2}" font-size="{size:.2}" text-anchor="middle" fill="#444444">{text}</text>"##,
            gx - LABELS * cell * 0.5,
            gy + (f64::from(r) + 0.5) * cell + size * 0.36
        );
    }
}

/// The tour's path, thin, through the squares' centres; a move that wraps
/// round an edge is left out.
fn path(out: &mut String, b: &SheetBoard, tour: &crate::Tour, (gx, gy): (f64, f64), cell: f64) {
    let board = b.shape.board();
    let squares = tour.squares();
    let centre = |s: Square| {
        let (r, c) = board.coords(s);
        (
            gx + (f64::from(c) + 0.5) * cell,
            gy + (f64::from(r) + 0.5) * cell,
        )
    };
    let moves = b.shape.leaper().moves();
    let direct = |a: Square, z: Square| {
        let ((ra, ca), (rz, cz)) = (board.coords(a), board.coords(z));
        let d = (i64::from(cz) - i64::from(ca), i64::from(rz) - i64::from(ra));
        moves.contains(&d)
    };
    let n = squares.len();
    let steps = if tour.is_closed() {
        n
    } else {
        n.saturating_sub(1)
    };
    let mut d = String::new();
    let mut pen_at = None;
    for i in 0..steps {
        let (a, z) = (squares[i], squares[(i + 1) % n]);
        if !direct(a, z) {
            pen_at = None;
            continue;
        }
        if pen_at != Some(a) {
            let (x, y) = centre(a);
            let _ = write!(d, "M{x:.2},{y:.2}");
        }
        let (x, y) = centre(z);
        let _ = write!(d, "L{x:.2},{y:.2}");
        pen_at = Some(z);
    }
    let _ = writeln!(
        out,
        r##"<path class="tour-path" d="{d}" fill="none" stroke="#7f9fcf" stroke-opacity="0.8" stroke-width="{:.2}" stroke-linejoin="round" stroke-linecap="round"/>"##,
        (0.04 * cell).clamp(0.2, 0.4)
    );
}

/// The numbers: the given ones circled; on a solved board's solution page
/// every square's step, from 1.
fn numbers(
    out: &mut String,
    b: &SheetBoard,
    solved: Option<&crate::Tour>,
    (gx, gy): (f64, f64),
    cell: f64,
) {
    let board = b.shape.board();
    let largest = match solved {
        Some(t) => t.squares().len() as u32,
        None => b.given.iter().map(|g| g.1).max().unwrap_or(1),
    };
    let digits = largest.max(1).ilog10() + 1;
    let size = (0.5 * cell).min(0.8 * cell / (0.64 * f64::from(digits)));
    let at = |s: Square| {
        let (r, c) = board.coords(s);
        (
            r,
            c,
            gx + (f64::from(c) + 0.5) * cell,
            gy + (f64::from(r) + 0.5) * cell,
        )
    };
    let mut text = |s: Square, n: u32, class: &str, fill: &str| {
        let (r, c, x, y) = at(s);
        let _ = writeln!(
            out,
            r#"<text class="{class}" data-at="{r},{c}" x="{x:.2}" y="{:.2}" font-size="{size:.2}" text-anchor="middle" fill="{fill}">{n}</text>"#,
            y + size * 0.36
        );
    };
    for &(s, n) in &b.given {
        text(s, n, "given", "#000000");
    }
    if let Some(tour) = solved {
        for (i, &s) in tour.squares().iter().enumerate() {
            if !b.given.iter().any(|g| g.0 == s) {
                text(s, i as u32 + 1, "step", "#333333");
            }
        }
    }
    for &(s, _) in &b.given {
        let (_, _, x, y) = at(s);
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="none" stroke="#000000" stroke-width="{:.2}"/>"##,
            0.4 * cell,
            (0.04 * cell).clamp(0.2, 0.4)
        );
    }
}

/// `text` with `&`, `<`, `>` and `"` escaped for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
