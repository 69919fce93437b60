//! Animated GIFs of tours (the `raster` feature), drawn incrementally: each
//! frame strokes only its new steps onto the picture so far, and is written
//! as the rectangle that changed, in a fixed palette (the picture's colours
//! and their blends, each pixel mapped to the nearest), so a big board's
//! GIF is quick to make and small. The limits are in docs/formats.md,
//! "Pictures".

use std::borrow::Cow;

use resvg::tiny_skia::Pixmap;
use rustc_hash::FxHashMap;

use super::canvas::{step_segments, Canvas, Segment};
use super::look::{self, StepNumbers};
use super::raster::{numbers_layer, overlay};
use crate::board::Square;
use crate::{Error, Result, Shape, Tour};

/// How to animate a tour as a GIF.
#[derive(Clone, Debug, PartialEq)]
pub struct GifOptions {
    /// The most frames drawn: a longer tour shows every k-th step.
    pub max_frames: usize,
    /// The longest side of a frame, in pixels.
    pub max_side: u32,
    /// Hundredths of a second each frame shows (the last shows 20 times
    /// as long).
    pub delay: u16,
    /// Whether each visited square shows its step number.
    pub numbers: StepNumbers,
    /// The most bytes the file may take: the frames are thinned until the
    /// most their pixels could take (1.5 bytes a pixel, LZW's worst) fits.
    pub max_bytes: usize,
}

impl Default for GifOptions {
    fn default() -> GifOptions {
        GifOptions {
            max_frames: 400,
            max_side: 480,
            delay: 12,
            numbers: StepNumbers::Auto,
            max_bytes: 8 << 20,
        }
    }
}

/// A rectangle of pixels: left, top, right, bottom (exclusive).
type Area = (i32, i32, i32, i32);

fn union(a: Area, b: Area) -> Area {
    if a.0 >= a.2 || a.1 >= a.3 {
        return b;
    }
    if b.0 >= b.2 || b.1 >= b.3 {
        return a;
    }
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

fn area((x0, y0, x1, y1): Area) -> u64 {
    (x1 - x0).max(0) as u64 * (y1 - y0).max(0) as u64
}

/// A tour being animated.
struct Film<'a> {
    shape: Shape,
    squares: &'a [Square],
    closed: bool,
    canvas: Canvas,
    numbered: bool,
}

impl Film<'_> {
    /// Squares reached by the whole animation: every square, and the start
    /// again for a closed tour.
    fn points(&self) -> usize {
        self.squares.len() + usize::from(self.closed)
    }

    /// The squares reached by frame `j` of `frames` (1 to all points).
    fn reached(&self, j: usize, frames: usize) -> usize {
        if frames <= 1 {
            self.points()
        } else {
            1 + j * (self.points() - 1) / (frames - 1)
        }
    }

    /// The knight's square once `m` squares are reached.
    fn knight(&self, m: usize) -> Square {
        self.squares[(m - 1) % self.squares.len()]
    }

    /// The rectangle frame `j` changes, from `before` squares reached to
    /// `m`, with the steps' segments between them in `segments`.
    fn changed(&self, before: usize, m: usize, segments: &[Segment]) -> Area {
        let c = &self.canvas;
        let mut a = union(c.mark_box(self.knight(before)), c.mark_box(self.knight(m)));
        for &s in segments {
            a = union(a, c.segment_box(s));
        }
        if m == self.points() {
            a = union(a, c.mark_box(self.squares[self.squares.len() - 1]));
        }
        if self.numbered {
            for k in before..m {
                a = union(a, c.cell_box(self.knight(k + 1)));
            }
        }
        a
    }

    /// The segments of the steps from `before` squares reached to `m`.
    fn segments(&self, before: usize, m: usize, out: &mut Vec<Segment>) {
        out.clear();
        for i in before.saturating_sub(1)..m.saturating_sub(1) {
            step_segments(&self.shape, self.squares, i, out);
        }
    }

    /// The most bytes `frames` frames could take.
    fn worst_bytes(&self, frames: usize) -> u64 {
        let full = (
            0,
            0,
            self.canvas.width() as i32,
            self.canvas.height() as i32,
        );
        let mut total = 1024 + worst(full);
        let mut segments = Vec::new();
        let mut before = self.reached(0, frames);
        for j in 1..frames {
            let m = self.reached(j, frames);
            self.segments(before, m, &mut segments);
            total += worst(self.changed(before, m, &segments));
            before = m;
        }
        total
    }
}

/// The most bytes a frame of `a` takes: 12-bit LZW codes of one pixel each,
/// a length byte each 255, and the frame's headers.
fn worst(a: Area) -> u64 {
    let px = area(a);
    px * 3 / 2 + px / 128 + 48
}

/// An animated GIF of a tour drawn step by step: the first frame shows the
/// start, each next one the knight (blue) further on, the last the whole
/// tour as its PNG draws it (end in red, a closed tour's closing move
/// drawn). A frame per step when the tour has at most `max_frames` squares
/// (plus one for a closed tour's closing move); a longer tour's frames are
/// spread evenly over its steps, and thinned further until the file is
/// sure to stay under `max_bytes`.
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
    let board = tour.board();
    let (w, h) = look::picture_size(board);
    let scale =
        (f64::from(options.max_side.clamp(1, u32::from(u16::MAX))) / f64::from(w.max(h))).min(1.0);
    let size = |v: u32| ((f64::from(v) * scale).round() as u32).max(1);
    let film = Film {
        shape: tour.shape(),
        squares: tour.squares(),
        closed: tour.is_closed(),
        canvas: Canvas::new(board, size(w), size(h)),
        numbered: options.numbers.shown(board),
    };
    let mut frames = options.max_frames.clamp(2, film.points().max(2));
    while frames > 2 && film.worst_bytes(frames) > options.max_bytes as u64 {
        frames = (frames * 4 / 5).max(2);
    }
    film.encode(frames, options.delay)
}

impl Film<'_> {
    /// Draws and writes the `frames` frames.
    fn encode(&self, frames: usize, delay: u16) -> Result<Vec<u8>> {
        let c = &self.canvas;
        let (width, height) = (side(c.width())?, side(c.height())?);
        let mut palette = Palette::new(self.shape.board());
        let mut out = Vec::new();
        let mut encoder =
            gif::Encoder::new(&mut out, width, height, &palette.rgb).map_err(|e| gif_error(&e))?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| gif_error(&e))?;
        let mut base = c.pixmap()?;
        c.draw_board(&mut base, self.shape.holes());
        let numbers = if self.numbered {
            Some(numbers_layer(c, self.shape.board(), self.squares)?)
        } else {
            None
        };
        let mut segments = Vec::new();
        let mut before = 1;
        for j in 0..frames {
            let m = self.reached(j, frames);
            self.segments(before, m, &mut segments);
            c.stroke(&mut base, &segments, look::LINE);
            let changed = if j == 0 {
                (0, 0, c.width() as i32, c.height() as i32)
            } else {
                self.changed(before, m, &segments)
            };
            before = m;
            let (x0, y0, x1, y1) = changed;
            if x1 <= x0 || y1 <= y0 {
                continue;
            }
            let rect = resvg::tiny_skia::IntRect::from_ltrb(x0, y0, x1, y1)
                .ok_or_else(|| Error::Internal("a GIF frame has no pixels".into()))?;
            let mut region = base
                .clone_rect(rect)
                .ok_or_else(|| Error::Internal("a GIF frame is off the picture".into()))?;
            self.dress(&mut region, changed, m, frames == j + 1, numbers.as_ref());
            let frame = gif::Frame {
                left: x0 as u16,
                top: y0 as u16,
                width: (x1 - x0) as u16,
                height: (y1 - y0) as u16,
                buffer: Cow::Owned(palette.indices(&region)),
                delay: if j + 1 == frames {
                    delay.saturating_mul(20)
                } else {
                    delay
                },
                dispose: gif::DisposalMethod::Keep,
                ..gif::Frame::default()
            };
            encoder.write_frame(&frame).map_err(|e| gif_error(&e))?;
        }
        drop(encoder);
        Ok(out)
    }

    /// Draws over a frame's region (at `changed` in the picture) what lies
    /// above the line once `m` squares are reached: the start mark, the
    /// knight's (or, on the last frame, the end's) mark, and the visited
    /// squares' numbers.
    fn dress(
        &self,
        region: &mut Pixmap,
        changed: Area,
        m: usize,
        last: bool,
        numbers: Option<&Pixmap>,
    ) {
        let c = &self.canvas;
        let (x0, y0, x1, y1) = changed;
        c.mark(region, self.squares[0], look::START, x0, y0);
        if last {
            c.mark(
                region,
                self.squares[self.squares.len() - 1],
                look::END,
                x0,
                y0,
            );
        } else if m > 1 {
            c.mark(region, self.knight(m), look::KNIGHT, x0, y0);
        }
        let Some(layer) = numbers else { return };
        for &s in &self.squares[..m.min(self.squares.len())] {
            let (a, b, c1, d) = c.cell_box(s);
            let (l, t, r, btm) = (a.max(x0), b.max(y0), c1.min(x1), d.min(y1));
            if r <= l || btm <= t {
                continue;
            }
            let Some(rect) = resvg::tiny_skia::IntRect::from_ltrb(l, t, r, btm) else {
                continue;
            };
            if let Some(piece) = layer.clone_rect(rect) {
                overlay(region, &piece, l - x0, t - y0);
            }
        }
    }
}

/// The fixed palette of a board's GIF: the picture's colours, the mean of
/// the light and dark squares, and five blends of every two of them.
struct Palette {
    /// 256 colours, RGB.
    rgb: Vec<u8>,
    colours: Vec<[u8; 3]>,
    /// The index of each colour met so far.
    nearest: FxHashMap<[u8; 3], u8>,
}

impl Palette {
    fn new(board: crate::Board) -> Palette {
        let (light, dark) = look::board_colours(board);
        let (light, dark) = (look::rgb(light), look::rgb(dark));
        let mean = [0, 1, 2].map(|k| (u16::from(light[k]) + u16::from(dark[k])).div_ceil(2) as u8);
        let mut base = vec![light, dark, mean];
        for hex in [
            look::LINE,
            look::START,
            look::END,
            look::KNIGHT,
            look::HOLE,
            look::WHITE,
            look::INK,
        ] {
            base.push(look::rgb(hex));
        }
        let mut colours = base.clone();
        for (i, a) in base.iter().enumerate() {
            for b in &base[i + 1..] {
                for t in 1..6u16 {
                    colours.push([0, 1, 2].map(|k| {
                        ((u16::from(a[k]) * (6 - t) + u16::from(b[k]) * t + 3) / 6) as u8
                    }));
                }
            }
        }
        let mut rgb: Vec<u8> = colours.iter().flatten().copied().collect();
        while rgb.len() < 256 * 3 {
            rgb.extend_from_slice(&colours[0]);
        }
        Palette {
            rgb,
            colours,
            nearest: FxHashMap::default(),
        }
    }

    /// The palette index of each pixel of an opaque pixmap: the nearest
    /// colour, the first of equals.
    fn indices(&mut self, pixmap: &Pixmap) -> Vec<u8> {
        let colours = &self.colours;
        pixmap
            .data()
            .chunks_exact(4)
            .map(|p| {
                let key = [p[0], p[1], p[2]];
                *self.nearest.entry(key).or_insert_with(|| {
                    let d = |c: &[u8; 3]| {
                        (0..3)
                            .map(|k| (i32::from(c[k]) - i32::from(key[k])).pow(2))
                            .sum::<i32>()
                    };
                    let mut best = 0;
                    for (i, c) in colours.iter().enumerate() {
                        if d(c) < d(&colours[best]) {
                            best = i;
                        }
                    }
                    best as u8
                })
            })
            .collect()
    }
}

fn side(v: u32) -> Result<u16> {
    u16::try_from(v)
        .map_err(|_| Error::Internal(format!("a GIF frame of {v} pixels a side is too big").into()))
}

fn gif_error(e: &gif::EncodingError) -> Error {
    Error::Internal(format!("a GIF does not encode: {e}").into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    fn frames(gif: &[u8]) -> usize {
        let mut decoder = gif::DecodeOptions::new().read_info(gif).unwrap();
        let mut frames = 0;
        while decoder.read_next_frame().unwrap().is_some() {
            frames += 1;
        }
        frames
    }

    #[test]
    fn a_tour_gif_has_a_frame_per_square() {
        let tour = Tour::new(
            Board::new(3, 4).unwrap(),
            vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4],
        )
        .unwrap();
        assert_eq!(
            frames(&tour_gif(&tour, &GifOptions::default()).unwrap()),
            12
        );
    }

    #[test]
    fn the_palette_holds_its_colours_and_maps_them_to_themselves() {
        let mut palette = Palette::new(Board::new(8, 8).unwrap());
        assert!(palette.colours.len() <= 256);
        let mut pixmap = Pixmap::new(palette.colours.len() as u32, 1).unwrap();
        for (p, c) in pixmap.data_mut().chunks_exact_mut(4).zip(&palette.colours) {
            p.copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
        let indices = palette.indices(&pixmap);
        for (i, &k) in indices.iter().enumerate() {
            assert_eq!(palette.colours[usize::from(k)], palette.colours[i]);
        }
    }
}
