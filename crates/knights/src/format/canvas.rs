//! Drawing a picture straight onto pixels with tiny-skia (the `raster`
//! feature), in the look of the SVG ([`super::look`]): the checkerboard,
//! the holes, the line step by step and the marks. The PNG draws a whole
//! picture at once; the GIF draws each frame's new steps onto the last
//! frame, which the SVG route (a text to parse per frame) cannot do.

use resvg::tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

use super::look::{self, CELL};
use crate::board::Square;
use crate::shape::Wrap;
use crate::{Board, Error, Result, Shape};

/// A segment of the line, from and to, in units (a square is 2 units).
pub(crate) type Segment = ((f32, f32), (f32, f32));

/// The most segments stroked as one path: bounds the stroker's memory on
/// a tour of a million squares.
const CHUNK: usize = 4096;

/// A picture of a board at a size in pixels.
pub(crate) struct Canvas {
    board: Board,
    /// Pixels a unit, across and down.
    sx: f32,
    sy: f32,
    width: u32,
    height: u32,
}

/// The colour of a `#rrggbb` of [`look`].
pub(crate) fn colour(hex: &str) -> Color {
    let [r, g, b] = look::rgb(hex);
    Color::from_rgba8(r, g, b, 255)
}

fn paint(c: Color) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(c);
    p.anti_alias = true;
    p
}

/// Bytes a pixel takes while a picture is drawn and encoded: the RGBA
/// pixmap, its RGB copy and the PNG made from it.
const BYTES_PER_PIXEL: u64 = 8;
/// Bytes a square takes while the line is drawn: its segment and the
/// stroker's path through it.
const BYTES_PER_SQUARE: u64 = 32;

impl Canvas {
    /// A canvas of `width` x `height` pixels for `board`.
    pub(crate) fn new(board: Board, width: u32, height: u32) -> Canvas {
        Canvas {
            board,
            sx: width as f32 / (board.cols() * CELL) as f32,
            sy: height as f32 / (board.rows() * CELL) as f32,
            width,
            height,
        }
    }

    pub(crate) fn width(&self) -> u32 {
        self.width
    }

    pub(crate) fn height(&self) -> u32 {
        self.height
    }

    /// Units to pixels, shifted by `(dx, dy)` pixels.
    fn transform(&self, dx: f32, dy: f32) -> Transform {
        Transform::from_row(self.sx, 0.0, 0.0, self.sy, dx, dy)
    }

    /// A new pixmap the canvas's size, refused in one sentence when the
    /// picture would not fit in the memory there is (a control group's or
    /// an address-space limit included) rather than failing to allocate.
    pub(crate) fn pixmap(&self) -> Result<Pixmap> {
        let pixels = u64::from(self.width) * u64::from(self.height);
        let needed = pixels * BYTES_PER_PIXEL + self.board.squares() as u64 * BYTES_PER_SQUARE;
        crate::memory::ensure_bytes_fit(self.board, "picture", needed)?;
        Pixmap::new(self.width, self.height).ok_or_else(|| {
            Error::Internal(
                format!(
                    "a picture of {}x{} pixels cannot be drawn",
                    self.width, self.height
                )
                .into(),
            )
        })
    }

    /// The centre of square `s`, in units.
    pub(crate) fn centre(&self, s: Square) -> (f32, f32) {
        let (r, c) = self.board.coords(s);
        ((c * CELL + 1) as f32, (r * CELL + 1) as f32)
    }

    /// The checkerboard, each pixel the exact mix of light and dark over
    /// its area (so a board of squares smaller than a pixel shows their
    /// average, not a moiré), then the holes.
    pub(crate) fn draw_board(&self, pixmap: &mut Pixmap, holes: impl Iterator<Item = Square>) {
        let (light, dark) = look::board_colours(self.board);
        let (light, dark) = (look::rgb(light), look::rgb(dark));
        // The share of each pixel column (row) in even board columns (rows).
        let even = |pixels: u32, per_square: f32| -> Vec<f32> {
            // The measure of even squares in [0, x), x in squares.
            let e = |x: f64| {
                let q = (x / 2.0).floor();
                q + (x - 2.0 * q).min(1.0)
            };
            let per = f64::from(per_square);
            (0..pixels)
                .map(|p| {
                    let (a, b) = (f64::from(p) / per, f64::from(p + 1) / per);
                    ((e(b) - e(a)) / (b - a)) as f32
                })
                .collect()
        };
        let xs = even(self.width, self.sx * CELL as f32);
        let ys = even(self.height, self.sy * CELL as f32);
        let data = pixmap.data_mut();
        for (y, &fy) in ys.iter().enumerate() {
            let row = &mut data[y * self.width as usize * 4..(y + 1) * self.width as usize * 4];
            for (px, &fx) in row.chunks_exact_mut(4).zip(&xs) {
                let f = fx * fy + (1.0 - fx) * (1.0 - fy);
                for k in 0..3 {
                    let v = f32::from(light[k]) * f + f32::from(dark[k]) * (1.0 - f);
                    px[k] = (v + 0.5) as u8;
                }
                px[3] = 255;
            }
        }
        let hole = paint(colour(look::HOLE));
        for q in holes {
            let (r, c) = self.board.coords(q);
            if let Some(rect) = Rect::from_xywh(
                (c * CELL) as f32,
                (r * CELL) as f32,
                CELL as f32,
                CELL as f32,
            ) {
                pixmap.fill_rect(rect, &hole, self.transform(0.0, 0.0), None);
            }
        }
    }

    /// Strokes `segments` in `hex`, the line's width, round caps and joins
    /// (the SVG's line), joined into paths where one ends at the next start.
    pub(crate) fn stroke(&self, pixmap: &mut Pixmap, segments: &[Segment], hex: &str) {
        let stroke = Stroke {
            width: look::line_width(self.board) as f32,
            line_cap: LineCap::Round,
            line_join: LineJoin::Round,
            ..Stroke::default()
        };
        let paint = paint(colour(hex));
        for chunk in segments.chunks(CHUNK) {
            let mut path = PathBuilder::new();
            let mut at = None;
            for &(a, b) in chunk {
                if at != Some(a) {
                    path.move_to(a.0, a.1);
                }
                path.line_to(b.0, b.1);
                at = Some(b);
            }
            if let Some(path) = path.finish() {
                pixmap.stroke_path(&path, &paint, &stroke, self.transform(0.0, 0.0), None);
            }
        }
    }

    /// The mark of square `s` in `hex` with a white rim, on a pixmap whose
    /// top left is pixel `(x0, y0)` of the picture.
    pub(crate) fn mark(&self, pixmap: &mut Pixmap, s: Square, hex: &str, x0: i32, y0: i32) {
        let (cx, cy) = self.centre(s);
        let Some(circle) = PathBuilder::from_circle(cx, cy, look::marker_radius(self.board) as f32)
        else {
            return;
        };
        let t = self.transform(-x0 as f32, -y0 as f32);
        pixmap.fill_path(&circle, &paint(colour(hex)), FillRule::Winding, t, None);
        let rim = Stroke {
            width: (look::line_width(self.board) * 0.5) as f32,
            ..Stroke::default()
        };
        pixmap.stroke_path(&circle, &paint(colour(look::WHITE)), &rim, t, None);
    }

    /// The pixels a mark on `s` may touch: (x, y, right, bottom), clamped.
    pub(crate) fn mark_box(&self, s: Square) -> (i32, i32, i32, i32) {
        let (cx, cy) = self.centre(s);
        let r = (look::marker_radius(self.board) + look::line_width(self.board) * 0.25) as f32;
        self.pixel_box(cx - r, cy - r, cx + r, cy + r)
    }

    /// The pixels a segment may touch, line width included.
    pub(crate) fn segment_box(&self, (a, b): Segment) -> (i32, i32, i32, i32) {
        let h = (look::line_width(self.board) * 0.5) as f32;
        self.pixel_box(
            a.0.min(b.0) - h,
            a.1.min(b.1) - h,
            a.0.max(b.0) + h,
            a.1.max(b.1) + h,
        )
    }

    /// The pixels of square `s`'s cell.
    pub(crate) fn cell_box(&self, s: Square) -> (i32, i32, i32, i32) {
        let (cx, cy) = self.centre(s);
        let (x, y) = (cx - 1.0, cy - 1.0);
        let (x0, y0) = ((x * self.sx).floor(), (y * self.sy).floor());
        let (x1, y1) = (((x + 2.0) * self.sx).ceil(), ((y + 2.0) * self.sy).ceil());
        self.clamp(x0 as i32, y0 as i32, x1 as i32, y1 as i32)
    }

    /// A box in units to pixels, one pixel of anti-aliasing around it.
    fn pixel_box(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> (i32, i32, i32, i32) {
        self.clamp(
            (x0 * self.sx).floor() as i32 - 1,
            (y0 * self.sy).floor() as i32 - 1,
            (x1 * self.sx).ceil() as i32 + 1,
            (y1 * self.sy).ceil() as i32 + 1,
        )
    }

    fn clamp(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> (i32, i32, i32, i32) {
        let (w, h) = (self.width as i32, self.height as i32);
        (
            x0.clamp(0, w),
            y0.clamp(0, h),
            x1.clamp(0, w),
            y1.clamp(0, h),
        )
    }
}

/// The segments of step `i` of a path over `squares` (from square `i` to
/// the next, the last step of a closed path back to the first): one,
/// or two halves for a move that wraps around a wrapping board, one
/// leaving the board and one entering it, as the SVG draws it.
pub(crate) fn step_segments(shape: &Shape, squares: &[Square], i: usize, out: &mut Vec<Segment>) {
    let board = shape.board();
    let n = squares.len();
    let (a, b) = (squares[i], squares[(i + 1) % n]);
    let xy = |q: Square| {
        let (r, c) = board.coords(q);
        (i64::from(c * CELL + 1), i64::from(r * CELL + 1))
    };
    let f = |(x, y): (i64, i64)| (x as f32, y as f32);
    let ((ax, ay), (bx, by)) = (xy(a), xy(b));
    if shape.wrap() == Wrap::None {
        out.push((f((ax, ay)), f((bx, by))));
        return;
    }
    let moves = shape.leaper().moves();
    let k = shape.move_between(a, b).unwrap_or(0) as usize;
    let cell = i64::from(CELL);
    let (dx, dy) = (moves[k].0 * cell, moves[k].1 * cell);
    if (ax + dx, ay + dy) == (bx, by) {
        out.push((f((ax, ay)), f((bx, by))));
    } else {
        out.push((f((ax, ay)), f((ax + dx, ay + dy))));
        out.push((f((bx - dx, by - dy)), f((bx, by))));
    }
}
