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
/// use knights::{Board, stats::{bar_chart, MoveCounts, RunningSummary}};
/// let board = Board::new(6, 6)?;
/// let t = knights::Tour::builder(board).algorithm(knights::algorithms::Warnsdorff::default())
///     .seed(1).build()?;
/// let mut b = RunningSummary::default();
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

/// One named line of a [`LinePlot`]: `(x, y)` points in order of x.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The name in the legend.
    pub name: String,
    /// The points; those with x or y not positive are left out (log scales).
    pub points: Vec<(f64, f64)>,
}

/// A line plot with logarithmic x and y axes (like Figures 3, 20 and 21 of
/// the tourney paper), written by its `Display` implementation: one
/// `<polyline class="series">` per series with at least one point.
pub struct LinePlot<'a> {
    title: String,
    x_label: String,
    y_label: String,
    series: &'a [Series],
}

/// A log-log line plot of `series`.
///
/// # Example
/// ```
/// use knights::stats::{line_plot, Series};
/// let s = [Series { name: "tourney".into(), points: vec![(64.0, 1e-4), (256.0, 4e-4)] }];
/// let svg = line_plot("time", "squares", "seconds", &s).to_string();
/// assert_eq!(svg.matches("<polyline class=\"series\"").count(), 1);
/// ```
pub fn line_plot<'a>(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &'a [Series],
) -> LinePlot<'a> {
    LinePlot {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        series,
    }
}

const PLOT_W: f64 = 560.0;
const PLOT_H: f64 = 380.0;
const PLOT_LEFT: f64 = 80.0;
const PLOT_TOP: f64 = 40.0;
const LEGEND_W: f64 = 230.0;
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];
const DASHES: [&str; 3] = ["", "6 3", "2 3"];

/// The whole decades that hold `lo..=hi` (at least one decade).
fn decades(lo: f64, hi: f64) -> (i32, i32) {
    let a = lo.log10().floor() as i32;
    let b = (hi.log10().ceil() as i32).max(a + 1);
    (a, b)
}

impl fmt::Display for LinePlot<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points = |s: &Series| -> Vec<(f64, f64)> {
            s.points
                .iter()
                .copied()
                .filter(|&(x, y)| x > 0.0 && y > 0.0 && x.is_finite() && y.is_finite())
                .collect()
        };
        let all: Vec<(f64, f64)> = self.series.iter().flat_map(points).collect();
        let fold = |pick: fn(&(f64, f64)) -> f64| {
            all.iter()
                .map(pick)
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                })
        };
        let ((x0, x1), (y0, y1)) = if all.is_empty() {
            ((1.0, 10.0), (1.0, 10.0))
        } else {
            (fold(|p| p.0), fold(|p| p.1))
        };
        let (xa, xb) = decades(x0, x1);
        let (ya, yb) = decades(y0, y1);
        let sx = |x: f64| PLOT_LEFT + PLOT_W * (x.log10() - f64::from(xa)) / f64::from(xb - xa);
        let sy =
            |y: f64| PLOT_TOP + PLOT_H * (1.0 - (y.log10() - f64::from(ya)) / f64::from(yb - ya));
        let w = PLOT_LEFT + PLOT_W + LEGEND_W;
        let h = PLOT_TOP + PLOT_H + 60.0;
        writeln!(
            f,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif" font-size="12">"#
        )?;
        writeln!(f, r#"<rect width="100%" height="100%" fill="white"/>"#)?;
        writeln!(
            f,
            r#"<text x="{:.1}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
            PLOT_LEFT + PLOT_W / 2.0,
            escape(&self.title)
        )?;
        // Grid lines and labels at every decade.
        for d in xa..=xb {
            let x = sx(10f64.powi(d));
            writeln!(
                f,
                r##"<line x1="{x:.1}" x2="{x:.1}" y1="{PLOT_TOP:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">1e{d}</text>"##,
                PLOT_TOP + PLOT_H,
                PLOT_TOP + PLOT_H + 16.0
            )?;
        }
        for d in ya..=yb {
            let y = sy(10f64.powi(d));
            writeln!(
                f,
                r##"<line x1="{PLOT_LEFT:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">1e{d}</text>"##,
                PLOT_LEFT + PLOT_W,
                PLOT_LEFT - 6.0,
                y + 4.0
            )?;
        }
        writeln!(
            f,
            r##"<rect x="{PLOT_LEFT:.1}" y="{PLOT_TOP:.1}" width="{PLOT_W:.1}" height="{PLOT_H:.1}" fill="none" stroke="#222"/>"##
        )?;
        writeln!(
            f,
            r#"<text class="x-label" x="{:.1}" y="{:.1}" text-anchor="middle">{} (log scale)</text>"#,
            PLOT_LEFT + PLOT_W / 2.0,
            PLOT_TOP + PLOT_H + 40.0,
            escape(&self.x_label)
        )?;
        writeln!(
            f,
            r#"<text class="y-label" x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">{} (log scale)</text>"#,
            PLOT_TOP + PLOT_H / 2.0,
            PLOT_TOP + PLOT_H / 2.0,
            escape(&self.y_label)
        )?;
        let mut shown = 0;
        for s in self.series {
            let pts = points(s);
            if pts.is_empty() {
                continue;
            }
            let colour = COLOURS[shown % COLOURS.len()];
            let dash = DASHES[(shown / COLOURS.len()) % DASHES.len()];
            let list: Vec<String> = pts
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
                .collect();
            writeln!(
                f,
                r#"<polyline class="series" points="{}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"><title>{}</title></polyline>"#,
                list.join(" "),
                escape(&s.name)
            )?;
            for &(x, y) in &pts {
                writeln!(
                    f,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"><title>{}: {x}, {y:.3e}</title></circle>"#,
                    sx(x),
                    sy(y),
                    escape(&s.name)
                )?;
            }
            let ly = PLOT_TOP + 10.0 + 18.0 * shown as f64;
            let lx = PLOT_LEFT + PLOT_W + 14.0;
            writeln!(
                f,
                r#"<line x1="{lx:.1}" x2="{:.1}" y1="{ly:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
                lx + 24.0,
                lx + 30.0,
                ly + 4.0,
                escape(&s.name)
            )?;
            shown += 1;
        }
        writeln!(f, "</svg>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series() -> Vec<Series> {
        vec![
            Series {
                name: "braid <tourney>".into(),
                points: vec![(64.0, 2e-5), (256.0, 9e-5), (1024.0, 4e-4)],
            },
            Series {
                name: "neural".into(),
                points: vec![(64.0, 1e-3), (256.0, 0.0), (1024.0, 0.2)],
            },
            Series {
                name: "empty".into(),
                points: vec![],
            },
        ]
    }

    #[test]
    fn line_plot_is_one_svg_with_a_polyline_per_series() {
        let s = series();
        let svg = line_plot("CPU time", "squares", "seconds", &s).to_string();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<svg").count(), 1);
        // The empty series draws nothing; the others one line each.
        assert_eq!(svg.matches("<polyline class=\"series\"").count(), 2);
        assert!(svg.contains("squares (log scale)") && svg.contains("seconds (log scale)"));
        assert!(svg.contains("braid &lt;tourney&gt;") && !svg.contains("<tourney>"));
        // The zero point is left out of the log scale: 2 of 3 neural points.
        let neural = svg
            .lines()
            .find(|l| l.contains("<title>neural</title></polyline>"))
            .unwrap();
        assert_eq!(neural.matches(',').count(), 2);
        // Every tag that opens is closed or self-closing.
        for tag in ["polyline", "text", "title", "g"] {
            assert_eq!(
                svg.matches(&format!("<{tag}>")).count() + svg.matches(&format!("<{tag} ")).count(),
                svg.matches(&format!("</{tag}>")).count(),
                "{tag}"
            );
        }
        // Decades 1e1..1e4 on x and 1e-5..1e0 on y.
        assert!(svg.contains(">1e1<") && svg.contains(">1e4<") && svg.contains(">1e-5<"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn a_plot_without_points_is_still_valid() {
        let svg = line_plot("t", "x", "y", &[]).to_string();
        assert!(svg.contains("</svg>") && !svg.contains("polyline"));
    }
}
