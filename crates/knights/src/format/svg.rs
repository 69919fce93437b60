//! SVG pictures of tours and tourneys.
//!
//! The board is drawn as a checkered pattern (one `<pattern>`, so the file
//! does not grow with the number of squares), the tour as one line through
//! the square centres, with its start (green) and end (red) marked, and each
//! cycle of a tourney in its own colour. Line width and markers scale with
//! the board, so pictures stay legible from 5x5 to 1000x1000. On small
//! boards each square shows its step number (see [`StepNumbers`]). With
//! `animate`, the line is drawn step by step.

use std::fmt;

use super::look::{self, StepNumbers, CELL};
use crate::board::Square;
use crate::{Board, Shape, Tour, Tourney};

/// How to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SvgOptions {
    /// Draw the tour step by step (SMIL animation).
    pub animate: bool,
    /// Length of the animation in seconds (`None`: from the board size).
    pub seconds: Option<f64>,
    /// Whether each visited square shows its step number (from 1); never
    /// on a tourney.
    pub numbers: StepNumbers,
}

enum Picture<'a> {
    Tour(&'a Tour),
    Tourney(&'a Tourney),
    /// A partial path (a played position): its shape and squares.
    Path(&'a Shape, &'a [Square]),
}

/// An SVG picture, written by its `Display` implementation.
pub struct Svg<'a> {
    picture: Picture<'a>,
    options: SvgOptions,
}

/// The picture of a tour.
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::{tour_svg, SvgOptions}};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// let svg = tour_svg(&tour, SvgOptions::default()).to_string();
/// assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tour_svg(tour: &Tour, options: SvgOptions) -> Svg<'_> {
    Svg {
        picture: Picture::Tour(tour),
        options,
    }
}

/// The picture of a tourney, each cycle in its own colour.
pub fn tourney_svg(tourney: &Tourney, options: SvgOptions) -> Svg<'_> {
    Svg {
        picture: Picture::Tourney(tourney),
        options,
    }
}

/// The picture of a partial path on a shape, such as a position being
/// played: holes dark, the squares visited joined in order, the start
/// marked green and the knight's square blue. Every square of `squares`
/// must be on the board (a position's path always is).
///
/// # Example
/// ```
/// use knights::{Shape, format::{path_svg, SvgOptions}};
/// let shape: Shape = "5x5".parse::<knights::Board>()?.into();
/// let svg = path_svg(&shape, &[0, 7, 14], SvgOptions::default()).to_string();
/// assert!(svg.contains("<title>path of 2 moves on 5x5</title>"));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn path_svg<'a>(shape: &'a Shape, squares: &'a [Square], options: SvgOptions) -> Svg<'a> {
    Svg {
        picture: Picture::Path(shape, squares),
        options,
    }
}

fn point(f: &mut fmt::Formatter<'_>, board: Board, s: Square) -> fmt::Result {
    let (r, c) = board.coords(s);
    write!(f, "{},{} ", c * CELL + 1, r * CELL + 1)
}

/// A colour for cycle `i`: hues spread by the golden angle.
fn colour(i: usize) -> String {
    format!("hsl({:.0},75%,38%)", look::cycle_hue(i))
}

/// Seconds the animation of `steps` steps lasts.
fn seconds(options: &SvgOptions, steps: usize) -> f64 {
    options
        .seconds
        .unwrap_or((steps as f64 / 16.0).clamp(4.0, 30.0))
}

/// Writes the step numbers of `squares` (from 1), centred on their squares
/// in black with a white halo, in the shipped font. With `animate` (the
/// seconds the line takes over `steps` steps), each appears when the line
/// reaches its square.
pub(crate) fn write_numbers(
    f: &mut impl fmt::Write,
    board: Board,
    squares: &[Square],
    animate: Option<(f64, usize)>,
) -> fmt::Result {
    let size = look::number_size(squares.len());
    writeln!(
        f,
        r#"<g font-family="{}" font-size="{size:.3}" text-anchor="middle" fill="{}" stroke="{}" stroke-width="{:.3}" stroke-linejoin="round" paint-order="stroke">"#,
        look::FONT_FAMILY,
        look::INK,
        look::WHITE,
        size * 0.22
    )?;
    for (i, &s) in squares.iter().enumerate() {
        let (r, c) = board.coords(s);
        // A digit is 0.729 em tall: its middle sits 0.3645 em above the
        // baseline.
        let (x, y) = (c * CELL + 1, f64::from(r * CELL + 1) + 0.3645 * size);
        match animate {
            Some((seconds, steps)) => writeln!(
                f,
                r#"<text x="{x}" y="{y:.3}" visibility="hidden">{}<set attributeName="visibility" to="visible" begin="{:.2}s" fill="freeze"/></text>"#,
                i + 1,
                seconds * i as f64 / steps.max(1) as f64
            )?,
            None => writeln!(f, r#"<text x="{x}" y="{y:.3}">{}</text>"#, i + 1)?,
        }
    }
    writeln!(f, "</g>")
}

/// An SVG of the step numbers alone, on a transparent ground, the size of
/// the picture of `board`: the raster pictures draw it over their lines.
#[cfg(feature = "raster")]
pub(crate) fn numbers_svg(board: Board, squares: &[Square]) -> String {
    let (w, h) = look::picture_size(board);
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {} {}">"#,
        board.cols() * CELL,
        board.rows() * CELL
    );
    out.push('\n');
    // Writing to a String does not fail.
    let _ = write_numbers(&mut out, board, squares, None);
    out.push_str("</svg>\n");
    out
}

impl Svg<'_> {
    fn board(&self) -> Board {
        match self.picture {
            Picture::Tour(t) => t.board(),
            Picture::Tourney(t) => t.board(),
            Picture::Path(shape, _) => shape.board(),
        }
    }

    fn line_width(&self) -> f64 {
        look::line_width(self.board())
    }

    fn marker_radius(&self) -> f64 {
        look::marker_radius(self.board())
    }

    /// Whether the picture shows step numbers.
    fn numbered(&self) -> bool {
        !matches!(self.picture, Picture::Tourney(_)) && self.options.numbers.shown(self.board())
    }

    /// The step numbers of `squares`, when the picture shows them.
    fn write_step_numbers(
        &self,
        f: &mut fmt::Formatter<'_>,
        squares: &[Square],
        closed: bool,
    ) -> fmt::Result {
        if !self.numbered() {
            return Ok(());
        }
        let steps = if closed {
            squares.len()
        } else {
            squares.len().saturating_sub(1)
        }
        .max(1);
        let animate = self
            .options
            .animate
            .then(|| (seconds(&self.options, steps), steps));
        write_numbers(f, self.board(), squares, animate)
    }

    fn write_line(
        &self,
        f: &mut fmt::Formatter<'_>,
        squares: &[Square],
        closed: bool,
        stroke: &str,
    ) -> fmt::Result {
        let board = self.board();
        let tag = if closed { "polygon" } else { "polyline" };
        let steps = if closed {
            squares.len()
        } else {
            squares.len().saturating_sub(1)
        }
        .max(1);
        write!(
            f,
            r#"<{tag} fill="none" stroke="{stroke}" stroke-width="{:.3}" stroke-linejoin="round" stroke-linecap="round""#,
            self.line_width()
        )?;
        if self.options.animate {
            write!(
                f,
                r#" pathLength="{steps}" stroke-dasharray="{steps}" stroke-dashoffset="{steps}""#
            )?;
        }
        f.write_str(" points=\"")?;
        for &s in squares {
            point(f, board, s)?;
        }
        f.write_str("\"")?;
        if self.options.animate {
            let seconds = seconds(&self.options, steps);
            write!(
                f,
                r#"><animate attributeName="stroke-dashoffset" from="{steps}" to="0" dur="{seconds:.2}s" fill="freeze"/></{tag}>"#
            )?;
        } else {
            f.write_str("/>")?;
        }
        f.write_str("\n")
    }

    /// The tour of a board with holes, wrapping or another leaper: holes
    /// drawn dark, and a move that wraps drawn as two halves, one leaving
    /// the board and one entering it (clipped to the board).
    fn write_shape_path(
        &self,
        f: &mut fmt::Formatter<'_>,
        shape: &Shape,
        squares: &[Square],
        closed: bool,
    ) -> fmt::Result {
        let board = shape.board();
        let (w, h) = (board.cols() * CELL, board.rows() * CELL);
        for q in shape.holes() {
            let (r, c) = board.coords(q);
            writeln!(
                f,
                r##"<rect x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{}"><title>hole ({r}, {c})</title></rect>"##,
                c * CELL,
                r * CELL,
                look::HOLE
            )?;
        }
        writeln!(
            f,
            r#"<defs><clipPath id="inside"><rect width="{w}" height="{h}"/></clipPath></defs>"#
        )?;
        let n = squares.len();
        if n == 0 {
            return Ok(());
        }
        let steps = if closed { n } else { n.saturating_sub(1) };
        let moves = shape.leaper().moves();
        let xy = |q: Square| {
            let (r, c) = board.coords(q);
            (i64::from(c * CELL + 1), i64::from(r * CELL + 1))
        };
        write!(
            f,
            r##"<path clip-path="url(#inside)" fill="none" stroke="{}" stroke-width="{:.3}" stroke-linejoin="round" stroke-linecap="round""##,
            look::LINE,
            self.line_width()
        )?;
        if self.options.animate {
            let k = steps.max(1);
            write!(
                f,
                r#" pathLength="{k}" stroke-dasharray="{k}" stroke-dashoffset="{k}""#
            )?;
        }
        let (x0, y0) = xy(squares[0]);
        write!(f, r#" d="M{x0},{y0}"#)?;
        let cell = i64::from(CELL);
        for i in 0..steps {
            let (a, b) = (squares[i], squares[(i + 1) % n]);
            let (ax, ay) = xy(a);
            let (bx, by) = xy(b);
            let k = shape.move_between(a, b).unwrap_or(0) as usize;
            let (dx, dy) = (moves[k].0 * cell, moves[k].1 * cell);
            if (ax + dx, ay + dy) == (bx, by) {
                write!(f, " L{bx},{by}")?;
            } else {
                write!(
                    f,
                    " L{},{} M{},{} L{bx},{by}",
                    ax + dx,
                    ay + dy,
                    bx - dx,
                    by - dy
                )?;
            }
        }
        f.write_str("\"")?;
        if self.options.animate {
            let k = steps.max(1);
            let seconds = seconds(&self.options, k);
            writeln!(
                f,
                r#"><animate attributeName="stroke-dashoffset" from="{k}" to="0" dur="{seconds:.2}s" fill="freeze"/></path>"#
            )
        } else {
            writeln!(f, "/>")
        }
    }

    fn write_marker(
        &self,
        f: &mut fmt::Formatter<'_>,
        s: Square,
        fill: &str,
        title: &str,
    ) -> fmt::Result {
        let (r, c) = self.board().coords(s);
        writeln!(
            f,
            r#"<circle cx="{}" cy="{}" r="{:.3}" fill="{fill}" stroke="white" stroke-width="{:.3}"><title>{title} ({r}, {c})</title></circle>"#,
            c * CELL + 1,
            r * CELL + 1,
            self.marker_radius(),
            self.line_width() * 0.5
        )
    }
}

impl fmt::Display for Svg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = self.board();
        let (w, h) = (board.cols() * CELL, board.rows() * CELL);
        // About 48 px a square on small boards, at most 4000 px in all.
        let (pw, ph) = look::picture_size(board);
        writeln!(
            f,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{pw}" height="{ph}" viewBox="0 0 {w} {h}">"#
        )?;
        let title = match self.picture {
            Picture::Tour(t) if !t.is_plain() => format!(
                "{} tour on {}",
                if t.is_closed() { "closed" } else { "open" },
                t.shape()
            ),
            Picture::Tour(t) => format!(
                "{} knight's tour on {board}",
                if t.is_closed() { "closed" } else { "open" }
            ),
            Picture::Tourney(t) => format!("tourney of {} cycles on {board}", t.len()),
            Picture::Path(shape, squares) => format!(
                "path of {} moves on {shape}",
                squares.len().saturating_sub(1)
            ),
        };
        writeln!(f, "<title>{title}</title>")?;
        let (light, dark) = look::board_colours(board);
        writeln!(
            f,
            r##"<defs><pattern id="board" width="{d}" height="{d}" patternUnits="userSpaceOnUse"><rect width="{d}" height="{d}" fill="{light}"/><rect x="{CELL}" width="{CELL}" height="{CELL}" fill="{dark}"/><rect y="{CELL}" width="{CELL}" height="{CELL}" fill="{dark}"/></pattern></defs>"##,
            d = 2 * CELL
        )?;
        writeln!(f, r#"<rect width="{w}" height="{h}" fill="url(#board)"/>"#)?;
        match self.picture {
            Picture::Tour(t) if !t.is_plain() => {
                self.write_shape_path(f, &t.shape(), t.squares(), t.is_closed())?;
                self.write_marker(f, t.start(), look::START, "start")?;
                self.write_marker(f, t.end(), look::END, "end")?;
                self.write_step_numbers(f, t.squares(), t.is_closed())?;
            }
            Picture::Tour(t) => {
                self.write_line(f, t.squares(), t.is_closed(), look::LINE)?;
                self.write_marker(f, t.start(), look::START, "start")?;
                self.write_marker(f, t.end(), look::END, "end")?;
                self.write_step_numbers(f, t.squares(), t.is_closed())?;
            }
            Picture::Tourney(t) => {
                for (i, cycle) in t.cycles().iter().enumerate() {
                    self.write_line(f, cycle, true, &colour(i))?;
                }
            }
            Picture::Path(shape, squares) => {
                self.write_shape_path(f, shape, squares, false)?;
                if let (Some(&first), Some(&last)) = (squares.first(), squares.last()) {
                    self.write_marker(f, first, look::START, "start")?;
                    self.write_marker(f, last, look::KNIGHT, "knight")?;
                }
                self.write_step_numbers(f, squares, false)?;
            }
        }
        f.write_str("</svg>\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tour(rows: u64, cols: u64) -> Tour {
        Tour::builder(Board::new(rows, cols).unwrap())
            .build()
            .unwrap()
    }

    #[test]
    fn small_boards_number_their_squares_in_the_shipped_font() {
        let t = tour(5, 5);
        let svg = tour_svg(&t, SvgOptions::default()).to_string();
        assert!(svg.contains(r#"font-family="DejaVu Sans""#));
        assert!(svg.contains(r#"paint-order="stroke""#));
        assert_eq!(svg.matches("<text ").count(), 25);
        assert!(svg.contains(">1</text>") && svg.contains(">25</text>"));
        let animated = SvgOptions {
            animate: true,
            ..SvgOptions::default()
        };
        let svg = tour_svg(&t, animated).to_string();
        assert_eq!(
            svg.matches(r#"<set attributeName="visibility""#).count(),
            25
        );
        let hidden = SvgOptions {
            numbers: StepNumbers::Hidden,
            ..SvgOptions::default()
        };
        assert!(!tour_svg(&t, hidden).to_string().contains("<text"));
        let big = tour(17, 17);
        assert!(!tour_svg(&big, SvgOptions::default())
            .to_string()
            .contains("<text"));
        let shown = SvgOptions {
            numbers: StepNumbers::Shown,
            ..SvgOptions::default()
        };
        assert_eq!(
            tour_svg(&big, shown).to_string().matches("<text ").count(),
            289
        );
    }

    #[test]
    fn a_path_numbers_its_visited_squares_and_a_tourney_none() {
        let shape: Shape = Board::new(5, 5).unwrap().into();
        let svg = path_svg(&shape, &[0, 7, 14], SvgOptions::default()).to_string();
        assert_eq!(svg.matches("<text ").count(), 3);
        let shown = SvgOptions {
            numbers: StepNumbers::Shown,
            ..SvgOptions::default()
        };
        let tourney = Tourney::builder(Board::new(8, 8).unwrap()).build().unwrap();
        assert!(!tourney_svg(&tourney, shown).to_string().contains("<text"));
    }
}
