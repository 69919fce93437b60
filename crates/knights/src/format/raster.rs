//! PNG and animated GIF pictures (the `raster` feature).
//!
//! A picture is drawn once, as SVG ([`super::svg`]), and rasterised by
//! resvg with the one font shipped in the crate (`fonts/`, DejaVu Sans cut
//! to the characters pictures use): no font of the machine is ever looked
//! at, so the same picture gives the same bytes everywhere. The PNG of a
//! picture is at most 4000 pixels a side, as its SVG says; an animated GIF
//! draws the tour step by step, a frame per step on small boards.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use super::svg::{path_svg, tour_svg, tourney_svg, SvgOptions};
use crate::board::Square;
use crate::{Error, Result, Shape, Tour, Tourney};

/// The font every picture is drawn with.
const FONT: &[u8] = include_bytes!("../../fonts/DejaVuSans-subset.ttf");
/// Its family name, the only one the pictures' text may ask for.
pub(crate) const FONT_FAMILY: &str = "DejaVu Sans";

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

/// Draws a tree on a new pixmap, scaled by `scale`.
fn draw(tree: &usvg::Tree, scale: f32) -> Result<Pixmap> {
    let size = tree.size().to_int_size().scale_by(scale).ok_or_else(|| {
        Error::Internal(format!("a picture cannot be drawn at scale {scale}").into())
    })?;
    let mut pixmap = Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        Error::Internal(
            format!(
                "a picture of {}x{} pixels cannot be drawn",
                size.width(),
                size.height()
            )
            .into(),
        )
    })?;
    resvg::render(
        tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
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
    let pixmap = draw(&parse(svg)?, 1.0)?;
    pixmap
        .encode_png()
        .map_err(|e| Error::Internal(format!("a picture does not encode as PNG: {e}").into()))
}

/// The PNG of a tour: the picture [`tour_svg`] draws.
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
    svg_to_png(&tour_svg(tour, options).to_string())
}

/// The PNG of a tourney: the picture [`tourney_svg`] draws.
pub fn tourney_png(tourney: &Tourney, options: SvgOptions) -> Result<Vec<u8>> {
    svg_to_png(&tourney_svg(tourney, options).to_string())
}

/// The PNG of a partial path: the picture [`path_svg`] draws.
pub fn path_png(shape: &Shape, squares: &[Square], options: SvgOptions) -> Result<Vec<u8>> {
    svg_to_png(&path_svg(shape, squares, options).to_string())
}

/// How to animate a tour as a GIF.
#[derive(Clone, Debug, PartialEq)]
pub struct GifOptions {
    /// The most frames drawn: a longer tour shows every k-th step.
    pub max_frames: usize,
    /// The longest side of a frame, in pixels.
    pub max_side: u32,
    /// Hundredths of a second each frame shows.
    pub delay: u16,
}

impl Default for GifOptions {
    fn default() -> GifOptions {
        GifOptions {
            max_frames: 400,
            max_side: 480,
            delay: 12,
        }
    }
}

/// An animated GIF of a tour drawn step by step: the first frame shows the
/// start, the last the whole tour; on a tour of more steps than
/// `max_frames` the frames are spread evenly over its steps.
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::{tour_gif, GifOptions}};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// let gif = tour_gif(&tour, &GifOptions::default())?;
/// assert!(gif.starts_with(b"GIF89a"));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn tour_gif(tour: &Tour, options: &GifOptions) -> Result<Vec<u8>> {
    let shape = tour.shape();
    let mut squares = tour.squares().to_vec();
    if tour.is_closed() {
        squares.push(squares[0]);
    }
    let steps = squares.len();
    let frames = options.max_frames.clamp(1, steps);
    let svg_side = {
        let board = shape.board();
        let side = board.rows().max(board.cols());
        let px = (48.0f64).min(4000.0 / f64::from(side)).max(1.0);
        px * f64::from(side)
    };
    let scale = (f64::from(options.max_side) / svg_side).min(1.0) as f32;
    let frame_pixmap = |i: usize| -> Result<Pixmap> {
        // Frame i shows the first `k` squares, k from 1 to all.
        let k = if frames == 1 {
            steps
        } else {
            1 + i * (steps - 1) / (frames - 1)
        };
        let svg = path_svg(&shape, &squares[..k], SvgOptions::default()).to_string();
        draw(&parse(&svg)?, scale)
    };
    let first = frame_pixmap(0)?;
    let (w, h) = (first.width(), first.height());
    let side = |v: u32| u16::try_from(v).map_err(|_| too_big(v));
    let (w16, h16) = (side(w)?, side(h)?);
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, w16, h16, &[]).map_err(|e| gif_error(&e))?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| gif_error(&e))?;
        let mut pixmap = Some(first);
        for i in 0..frames {
            let mut rgba = match pixmap.take() {
                Some(p) => p.take(),
                None => frame_pixmap(i)?.take(),
            };
            let mut frame = gif::Frame::from_rgba_speed(w16, h16, &mut rgba, 10);
            frame.delay = if i + 1 == frames {
                options.delay.saturating_mul(20)
            } else {
                options.delay
            };
            encoder.write_frame(&frame).map_err(|e| gif_error(&e))?;
        }
    }
    Ok(out)
}

fn too_big(side: u32) -> Error {
    Error::Internal(format!("a GIF frame of {side} pixels a side is too big").into())
}

fn gif_error(e: &gif::EncodingError) -> Error {
    Error::Internal(format!("a GIF does not encode: {e}").into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

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

    #[test]
    fn a_tour_gif_has_a_frame_per_square() {
        let gif = tour_gif(&tour_3x4(), &GifOptions::default()).unwrap();
        let mut decoder = gif::DecodeOptions::new().read_info(gif.as_slice()).unwrap();
        let mut frames = 0;
        while decoder.read_next_frame().unwrap().is_some() {
            frames += 1;
        }
        assert_eq!(frames, 12);
    }
}
