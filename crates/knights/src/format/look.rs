//! The look every picture shares, SVG or raster: the size of a square, the
//! widths of the line and the marks, the colours and the step numbers' type.
//! One place, so that a PNG or GIF drawn directly matches the SVG.

use crate::Board;

/// Each cell is 2 units wide, so centres fall on odd integers.
pub(crate) const CELL: u32 = 2;

/// The line of a tour or path.
pub(crate) const LINE: &str = "#1f3a93";
/// The start mark.
pub(crate) const START: &str = "#2e9e44";
/// The end mark of a tour.
pub(crate) const END: &str = "#d62728";
/// The knight's mark on a partial path.
pub(crate) const KNIGHT: &str = "#1f77b4";
/// A hole.
pub(crate) const HOLE: &str = "#333333";
/// The step numbers' ink; their halo and the marks' rims are white.
pub(crate) const INK: &str = "#1a1a1a";
/// White, the marks' rims and the numbers' halo.
pub(crate) const WHITE: &str = "#ffffff";

/// The one font family pictures' text asks for: the font shipped in
/// `fonts/` (a browser without it falls back to another sans-serif).
pub(crate) const FONT_FAMILY: &str = "DejaVu Sans";

/// The longest side of a board, in squares.
pub(crate) fn side(board: Board) -> u32 {
    board.rows().max(board.cols())
}

/// Pixels a square: about 48 on small boards, at most 4000 pixels in all.
pub(crate) fn px_per_square(board: Board) -> f64 {
    (48.0f64).min(4000.0 / f64::from(side(board))).max(1.0)
}

/// A picture's size in pixels, as its SVG says.
pub(crate) fn picture_size(board: Board) -> (u32, u32) {
    let px = px_per_square(board);
    (
        (f64::from(board.cols()) * px).round_ties_even() as u32,
        (f64::from(board.rows()) * px).round_ties_even() as u32,
    )
}

/// The light and dark squares: softer on big boards, where the path is the
/// picture.
pub(crate) fn board_colours(board: Board) -> (&'static str, &'static str) {
    if side(board) > 32 {
        ("#f6ecdc", "#e7d3b4")
    } else {
        ("#f0d9b5", "#b58863")
    }
}

/// Line width in units: thin on small boards, relatively thicker on large
/// ones, where lines would otherwise vanish.
pub(crate) fn line_width(board: Board) -> f64 {
    let side = f64::from(side(board));
    let t = ((side.ln() - 16f64.ln()) / (200f64.ln() - 16f64.ln())).clamp(0.0, 1.0);
    // Parallel knight's moves one square apart run 0.45 squares apart:
    // stay well under that so neighbouring lines never merge.
    f64::from(CELL) * (0.10 + 0.06 * t)
}

/// The radius of the start and end marks, in units.
pub(crate) fn marker_radius(board: Board) -> f64 {
    let side = f64::from(side(board));
    f64::from(CELL) * (0.3f64).max(side * 0.012)
}

/// A colour for cycle `i` of a tourney: hues spread by the golden angle,
/// as whole degrees (the SVG writes `hsl(hue,75%,38%)`).
pub(crate) fn cycle_hue(i: usize) -> f64 {
    ((i as f64 * 137.507_764) % 360.0).round()
}

/// The RGB of `hsl(hue, 75%, 38%)`, as CSS defines it.
#[cfg(feature = "raster")]
pub(crate) fn cycle_rgb(i: usize) -> [u8; 3] {
    let (h, s, l) = (cycle_hue(i) / 360.0, 0.75, 0.38);
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    let channel = |t: f64| {
        let t = t.rem_euclid(1.0);
        let v = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        (v * 255.0).round() as u8
    };
    [channel(h + 1.0 / 3.0), channel(h), channel(h - 1.0 / 3.0)]
}

/// The RGB of a `#rrggbb` colour of this module.
#[cfg(feature = "raster")]
pub(crate) fn rgb(hex: &str) -> [u8; 3] {
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    [byte(1), byte(3), byte(5)]
}

/// Whether a picture shows each square's step number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StepNumbers {
    /// On a board whose longer side is at most [`StepNumbers::AUTO_SIDE`]
    /// squares (at most 256 numbers, of three digits, legible at the
    /// picture's 48 pixels a square), off on bigger ones.
    #[default]
    Auto,
    /// Always, whatever the board (small and crowded on a big one).
    Shown,
    /// Never.
    Hidden,
}

impl StepNumbers {
    /// The longest side on which [`StepNumbers::Auto`] shows the numbers.
    pub const AUTO_SIDE: u32 = 16;

    /// Whether the numbers are drawn on `board`.
    pub(crate) fn shown(self, board: Board) -> bool {
        match self {
            StepNumbers::Auto => side(board) <= StepNumbers::AUTO_SIDE,
            StepNumbers::Shown => true,
            StepNumbers::Hidden => false,
        }
    }
}

/// The numbers' font size in units, for numbers up to `largest`: as large
/// as fits a square (2 units) with room for the halo.
pub(crate) fn number_size(largest: usize) -> f64 {
    let digits = largest.max(1).ilog10() + 1;
    // A DejaVu Sans digit is 0.636 em wide.
    (0.8f64).min(1.5 / (0.636 * f64::from(digits)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "raster")]
    #[test]
    fn cycle_colours_are_css_hsl() {
        // hsl(0,75%,38%) and hsl(138,75%,38%) as a browser computes them.
        assert_eq!(cycle_rgb(0), [170, 24, 24]);
        assert_eq!(cycle_hue(1), 138.0);
        assert_eq!(cycle_rgb(1), [24, 170, 68]);
        assert_eq!(rgb(LINE), [0x1f, 0x3a, 0x93]);
    }

    #[test]
    fn numbers_fit_a_square() {
        assert_eq!(number_size(64), 0.8);
        assert!(number_size(256) * 0.636 * 3.0 <= 1.5 + 1e-9);
        assert!(number_size(1_000_000) * 0.636 * 7.0 <= 1.5 + 1e-9);
    }
}
