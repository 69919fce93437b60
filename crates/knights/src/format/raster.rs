//! PNG pictures (the `raster` feature), and the pieces the GIF shares.
//!
//! A picture is drawn straight onto pixels ([`super::canvas`]) in the look
//! of its SVG ([`super::svg`]), and its step numbers, text, are drawn by
//! resvg with the one font shipped in the crate (`fonts/`, DejaVu Sans cut
//! to the characters pictures use): no font of the machine is ever looked
//! at, so the same picture gives the same bytes everywhere. A PNG is at
//! most 4000 pixels a side, its SVG's size (docs/formats.md, "Pictures").

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, PixmapPaint, Transform};
use resvg::usvg;

use super::canvas::{step_segments, Canvas, Segment};
use super::look::{self, FONT_FAMILY};
use super::svg::{numbers_svg, SvgOptions};
use crate::board::Square;
use crate::{Board, Error, Result, Shape, Tour, Tourney};

/// The font every picture is drawn with.
const FONT: &[u8] = include_bytes!("../../fonts/DejaVuSans-subset.ttf");

/// The options of the SVG reader: the shipped font and no other.
fn usvg_options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        usvg::Options {
            fontdb: Arc::new(fonts),
            font_family: FONT_FAMILY.into(),
            ..usvg::Options::default()
        }
    })
}

/// Reads an SVG text into resvg's tree.
fn parse(svg: &str) -> Result<usvg::Tree> {
    usvg::Tree::from_str(svg, usvg_options())
        .map_err(|e| Error::Internal(format!("a picture's SVG does not read: {e}").into()))
}

/// Draws a tree on a new transparent pixmap of `width` x `height`, the
/// tree's size scaled to it.
fn draw(tree: &usvg::Tree, width: u32, height: u32) -> Result<Pixmap> {
    let mut pixmap = Pixmap::new(width, height).ok_or_else(|| {
        Error::Internal(format!("a picture of {width}x{height} pixels cannot be drawn").into())
    })?;
    let size = tree.size();
    resvg::render(
        tree,
        Transform::from_scale(width as f32 / size.width(), height as f32 / size.height()),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// PNG bytes of an opaque pixmap, as 8-bit RGB.
pub(crate) fn encode_png(pixmap: &Pixmap) -> Result<Vec<u8>> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::new();
    let png_error = |e: png::EncodingError| {
        Error::Internal(format!("a picture does not encode as PNG: {e}").into())
    };
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(&rgb).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(out)
}

/// Rasterises an SVG picture made by this module's siblings (or any SVG
/// whose text asks for no other font than the shipped one) into PNG bytes,
/// at the size the SVG gives.
///
/// # Example
/// ```
/// let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"><rect width="4" height="2" fill="red"/></svg>"#;
/// let png = knights::format::svg_to_png(svg)?;
/// assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>> {
    let tree = parse(svg)?;
    let size = tree.size().to_int_size();
    let pixmap = draw(&tree, size.width(), size.height())?;
    pixmap
        .encode_png()
        .map_err(|e| Error::Internal(format!("a picture does not encode as PNG: {e}").into()))
}

/// The step numbers of `squares` (from 1) on a transparent pixmap the
/// canvas's size, drawn by resvg in the shipped font.
pub(crate) fn numbers_layer(canvas: &Canvas, board: Board, squares: &[Square]) -> Result<Pixmap> {
    draw(
        &parse(&numbers_svg(board, squares))?,
        canvas.width(),
        canvas.height(),
    )
}

/// Draws `layer` over `pixmap`.
pub(crate) fn overlay(pixmap: &mut Pixmap, layer: &Pixmap, x: i32, y: i32) {
    pixmap.draw_pixmap(
        x,
        y,
        layer.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}

/// The segments of the first `steps` steps of a path over `squares`.
pub(crate) fn segments(shape: &Shape, squares: &[Square], steps: usize) -> Vec<Segment> {
    let mut out = Vec::with_capacity(steps);
    for i in 0..steps {
        step_segments(shape, squares, i, &mut out);
    }
    out
}

/// The picture of a path as a PNG: the board, the line over `squares`
/// (back to the first when `closed`), the marks, and the numbers when
/// `numbers`.
fn path_picture(
    shape: &Shape,
    squares: &[Square],
    closed: bool,
    marks: [(Square, &str); 2],
    numbers: bool,
) -> Result<Vec<u8>> {
    let board = shape.board();
    let (w, h) = look::picture_size(board);
    let canvas = Canvas::new(board, w, h);
    let mut pixmap = canvas.pixmap()?;
    canvas.draw_board(&mut pixmap, shape.holes());
    let steps = if closed {
        squares.len()
    } else {
        squares.len().saturating_sub(1)
    };
    if !squares.is_empty() {
        canvas.stroke(&mut pixmap, &segments(shape, squares, steps), look::LINE);
        for (s, hex) in marks {
            canvas.mark(&mut pixmap, s, hex, 0, 0);
        }
    }
    if numbers && !squares.is_empty() {
        overlay(&mut pixmap, &numbers_layer(&canvas, board, squares)?, 0, 0);
    }
    encode_png(&pixmap)
}

/// The PNG of a tour: the picture [`super::tour_svg`] draws, with the
/// step numbers on small boards ([`super::StepNumbers`]).
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::{tour_png, SvgOptions}};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// let png = tour_png(&tour, SvgOptions::default())?;
/// assert_eq!(&png[..4], b"\x89PNG");
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tour_png(tour: &Tour, options: SvgOptions) -> Result<Vec<u8>> {
    path_picture(
        &tour.shape(),
        tour.squares(),
        tour.is_closed(),
        [(tour.start(), look::START), (tour.end(), look::END)],
        options.numbers.shown(tour.board()),
    )
}

/// The PNG of a tourney: the picture [`super::tourney_svg`] draws, each
/// cycle in its own colour, no numbers.
pub fn tourney_png(tourney: &Tourney, _options: SvgOptions) -> Result<Vec<u8>> {
    let board = tourney.board();
    let (w, h) = look::picture_size(board);
    let canvas = Canvas::new(board, w, h);
    let mut pixmap = canvas.pixmap()?;
    canvas.draw_board(&mut pixmap, std::iter::empty());
    let shape = Shape::new(board);
    for (i, cycle) in tourney.cycles().iter().enumerate() {
        let [r, g, b] = look::cycle_rgb(i);
        let hex = format!("#{r:02x}{g:02x}{b:02x}");
        canvas.stroke(&mut pixmap, &segments(&shape, cycle, cycle.len()), &hex);
    }
    encode_png(&pixmap)
}

/// The PNG of a partial path: the picture [`super::path_svg`] draws, the
/// visited squares numbered on small boards.
pub fn path_png(shape: &Shape, squares: &[Square], options: SvgOptions) -> Result<Vec<u8>> {
    let (first, last) = match (squares.first(), squares.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => (0, 0),
    };
    path_picture(
        shape,
        squares,
        false,
        [(first, look::START), (last, look::KNIGHT)],
        options.numbers.shown(shape.board()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tour_3x4() -> Tour {
        Tour::new(
            Board::new(3, 4).unwrap(),
            vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4],
        )
        .unwrap()
    }

    #[test]
    fn a_tour_png_has_the_size_its_svg_gives() {
        let png = tour_png(&tour_3x4(), SvgOptions::default()).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!((width, height), (4 * 48, 3 * 48));
    }
}
