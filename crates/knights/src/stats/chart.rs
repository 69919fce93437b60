//! An SVG bar chart of a [`Summary`]: the move distribution and the
//! relative-move distribution side by side, with error bars of one standard
//! deviation, like Figure 4 of the tourney paper.

use std::fmt;

use super::Summary;

/// The chart, written by its `Display` implementation.
pub struct BarChart<'a> {
    summary: &'a Summary,
    title: String,
}

/// A bar chart of `summary` under `title`.
///
/// # Example
/// ```
/// use knights::{Board, stats::{bar_chart, MoveCounts, SummaryBuilder}};
/// let board = Board::new(6, 6)?;
/// let t = knights::algorithms::warnsdorff::tour(board, &Default::default(), &mut knights::rng::seeded(1))?;
/// let mut b = SummaryBuilder::default();
/// b.push(&MoveCounts::of_tour(&t));
/// let svg = bar_chart(&b.finish(board), "one tour").to_string();
/// assert_eq!(svg.matches("<rect class=\"bar\"").count(), 16);
/// # Ok::<(), knights::Error>(())
/// ```
pub fn bar_chart<'a>(summary: &'a Summary, title: &str) -> BarChart<'a> {
    BarChart {
        summary,
        title: title.to_string(),
    }
}

const PANEL_W: f64 = 360.0;
const PANEL_H: f64 = 240.0;
const MARGIN: f64 = 48.0;

fn panel(
    f: &mut fmt::Formatter<'_>,
    x0: f64,
    label: &str,
    means: &[f64; 8],
    stds: &[f64; 8],
) -> fmt::Result {
    let top = means
        .iter()
        .zip(stds)
        .map(|(m, s)| m + s)
        .fold(0.0f64, f64::max);
    // A round upper limit for the axis, at least 0.2.
    let ymax = ((top * 20.0).ceil() / 20.0).max(0.2);
    let y = |v: f64| MARGIN + PANEL_H * (1.0 - v / ymax);
    writeln!(f, r#"<g font-family="sans-serif" font-size="12">"#)?;
    writeln!(
        f,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14">{label}</text>"#,
        x0 + PANEL_W / 2.0,
        MARGIN - 16.0
    )?;
    // Axis and grid lines every 0.05.
    let mut tick = 0.0;
    while tick <= ymax + 1e-9 {
        writeln!(
            f,
            r##"<line x1="{x0:.1}" x2="{:.1}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{tick:.2}</text>"##,
            x0 + PANEL_W,
            x0 - 6.0,
            y(tick) + 4.0,
            yy = y(tick)
        )?;
        tick += 0.05;
    }
    let slot = PANEL_W / 8.0;
    for k in 0..8 {
        let (m, s) = (means[k], stds[k]);
        let bx = x0 + slot * k as f64 + slot * 0.15;
        writeln!(
            f,
            r##"<rect class="bar" x="{bx:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#4a78b5"><title>{k}: {m:.4} ± {s:.4}</title></rect>"##,
            y(m),
            slot * 0.7,
            (PANEL_H * m / ymax).max(0.0)
        )?;
        let cx = bx + slot * 0.35;
        writeln!(
            f,
            r##"<path d="M{cx:.1},{:.1}V{:.1}M{:.1},{:.1}H{:.1}M{:.1},{:.1}H{:.1}" stroke="#222" fill="none"/>"##,
            y((m - s).max(0.0)),
            y(m + s),
            cx - 5.0,
            y(m + s),
            cx + 5.0,
            cx - 5.0,
            y((m - s).max(0.0)),
            cx + 5.0
        )?;
        writeln!(
            f,
            r#"<text x="{cx:.1}" y="{:.1}" text-anchor="middle">{k}</text>"#,
            MARGIN + PANEL_H + 16.0
        )?;
    }
    writeln!(f, "</g>")
}

impl fmt::Display for BarChart<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.summary;
        let w = 2.0 * PANEL_W + 3.0 * MARGIN + 24.0;
        let h = PANEL_H + 2.0 * MARGIN + 40.0;
        writeln!(
            f,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}">"#
        )?;
        writeln!(f, r#"<rect width="100%" height="100%" fill="white"/>"#)?;
        writeln!(
            f,
            r#"<text x="{:.1}" y="18" text-anchor="middle" font-family="sans-serif" font-size="15">{} ({} on {}x{}, error bars: one standard deviation)</text>"#,
            w / 2.0,
            escape(&self.title),
            s.count,
            s.rows,
            s.cols
        )?;
        panel(f, MARGIN + 12.0, "move", &s.moves, &s.moves_std)?;
        panel(
            f,
            2.0 * MARGIN + PANEL_W + 24.0,
            "relative move",
            &s.relative_moves,
            &s.relative_moves_std,
        )?;
        writeln!(f, "</svg>")
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
