//! The Markdown report and the CSV tables of `knights-lab paper`: our numbers
//! beside the paper's, and where and why they differ.

use std::fmt::{self, Write as _};

use knights::stats::{PaperRow, Summary, PAPER_WARNSDORFF_RELATIVE};

use crate::timing_runs::{Form, Timing};
use knights::Board;

use crate::cli::TimingArgs;

mod differences;

/// Relative moves shown in Table 2 (4 never occurs).
const RELATIVE: [usize; 7] = [0, 1, 2, 3, 5, 6, 7];
const MOVES: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// Everything the report says.
pub struct Report<'a> {
    pub board: Board,
    pub count: u64,
    pub seed: u64,
    pub timing_args: &'a TimingArgs,
    /// Each paper row with our summary of obfuscated tours (None: the
    /// generator does not take the board).
    pub tables: &'a [(PaperRow, Option<Summary>)],
    pub fig4: &'a Summary,
    pub fig6: &'a Summary,
    pub timings: &'a [Timing],
    pub notes: &'a [String],
}

/// (means, per-tour standard deviations) of a summary, for Table 1 or 2.
fn ours(s: &Summary, relative: bool) -> (&[f64; 8], &[f64; 8]) {
    if relative {
        (&s.relative_moves, &s.relative_moves_std)
    } else {
        (&s.moves, &s.moves_std)
    }
}

fn columns(relative: bool) -> &'static [usize] {
    if relative {
        &RELATIVE
    } else {
        &MOVES
    }
}

/// Table 1 (moves) or Table 2 (relative moves) as CSV: a paper row, then our
/// mean and standard deviation per tour, per generator.
pub fn table_csv(tables: &[(PaperRow, Option<Summary>)], relative: bool) -> String {
    let cols = columns(relative);
    let mut out = String::from("generator,source");
    for k in cols {
        let _ = write!(out, ",{k}");
    }
    out.push('\n');
    for (row, summary) in tables {
        let paper = if relative {
            &row.relative_moves
        } else {
            &row.moves
        };
        let mut line = |source: &str, values: &[f64; 8]| {
            let _ = write!(out, "{},{source}", row.generator);
            for &k in cols {
                let _ = write!(out, ",{:.6}", values[k]);
            }
            out.push('\n');
        };
        line("paper", paper);
        if let Some(s) = summary {
            let (mean, std) = ours(s, relative);
            line("ours", mean);
            line("ours_std", std);
        }
    }
    out
}

/// The largest |a - b| over the columns, and the largest in standard errors
/// of our mean (`std / sqrt(count)`).
fn gap(a: &[f64; 8], b: &[f64; 8], std: &[f64; 8], count: u64, cols: &[usize]) -> (f64, f64) {
    let n = (count as f64).sqrt();
    cols.iter().fold((0.0f64, 0.0f64), |(d, z), &k| {
        let diff = (a[k] - b[k]).abs();
        let se = (std[k] / n).max(1e-12);
        (d.max(diff), z.max(diff / se))
    })
}

/// Least-squares slope of log y against log x.
fn slope(points: &[(f64, f64)]) -> Option<f64> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    if pts.len() < 2 {
        return None;
    }
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (sxx > 0.0).then(|| sxy / sxx)
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

impl Report<'_> {
    fn table(&self, f: &mut fmt::Formatter<'_>, relative: bool) -> fmt::Result {
        let cols = columns(relative);
        write!(f, "| generator | source |")?;
        for k in cols {
            write!(f, " {k} |")?;
        }
        writeln!(f, " largest gap to the paper |")?;
        write!(f, "|---|---|")?;
        for _ in cols {
            write!(f, "---:|")?;
        }
        writeln!(f, "---|")?;
        for (row, summary) in self.tables {
            let paper = if relative {
                &row.relative_moves
            } else {
                &row.moves
            };
            write!(f, "| {} | paper |", row.paper_name)?;
            for &k in cols {
                write!(f, " {:.4} |", paper[k])?;
            }
            writeln!(f, " |")?;
            let Some(s) = summary else {
                writeln!(
                    f,
                    "| `{}` | ours | not run: the generator does not take {} | |",
                    row.generator, self.board
                )?;
                continue;
            };
            let (mean, std) = ours(s, relative);
            write!(f, "| `{}` | ours |", row.generator)?;
            for &k in cols {
                write!(f, " {:.4} |", mean[k])?;
            }
            let (d, z) = gap(mean, paper, std, self.count, cols);
            writeln!(f, " {d:.4} ({z:.0} standard errors) |")?;
            write!(f, "| | std per tour |")?;
            for &k in cols {
                write!(f, " {:.4} |", std[k])?;
            }
            writeln!(f, " |")?;
        }
        Ok(())
    }

    fn summary_of(&self, generator: &str) -> Option<&Summary> {
        self.tables
            .iter()
            .find(|(r, _)| r.generator == generator)
            .and_then(|(_, s)| s.as_ref())
    }

    fn four_cover(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "## The Four-Cover rows\n")?;
        let se = self
            .tables
            .iter()
            .filter_map(|(_, s)| s.as_ref())
            .flat_map(|s| s.moves_std.iter().chain(&s.relative_moves_std))
            .fold(0.0f64, |a, &b| a.max(b))
            / (self.count as f64).sqrt();
        writeln!(
            f,
            "The paper's Four-Cover rows repeat its Warnsdorff rows digit for digit, all 15 numbers. \
Two independent runs cannot agree like that: here the standard error of one mean is about {se:.4}, \
so two different generators (or two runs of one) agree to four digits on a number far less often \
than not, and on 15 numbers essentially never. The Four-Cover rows in the paper are a copy of its \
Warnsdorff rows; the real ones are not in the paper."
        )?;
        let (Some(fc), Some(w)) = (self.summary_of("four-cover"), self.summary_of("warnsdorff"))
        else {
            return writeln!(
                f,
                "\nOur runs on {} did not include both generators.\n",
                self.board
            );
        };
        let n = (self.count as f64).sqrt();
        let mut worst = (0.0f64, 0.0f64, "");
        for (name, a, b, sa, sb, cols) in [
            (
                "move",
                &fc.moves,
                &w.moves,
                &fc.moves_std,
                &w.moves_std,
                &MOVES[..],
            ),
            (
                "relative move",
                &fc.relative_moves,
                &w.relative_moves,
                &fc.relative_moves_std,
                &w.relative_moves_std,
                &RELATIVE[..],
            ),
        ] {
            for &k in cols {
                let d = (a[k] - b[k]).abs();
                let se = ((sa[k] / n).powi(2) + (sb[k] / n).powi(2))
                    .sqrt()
                    .max(1e-12);
                if d / se > worst.1 {
                    worst = (d, d / se, name);
                }
            }
        }
        writeln!(
            f,
            "\nWhat they really are, from our runs ({} obfuscated tours each on {}): the `four-cover` rows of \
Tables 1 and 2 above. Moves: {}. Relative moves (0, 1, 2, 3, 5, 6, 7): {}.\n",
            self.count,
            self.board,
            list(&fc.moves, &MOVES),
            list(&fc.relative_moves, &RELATIVE)
        )?;
        writeln!(
            f,
            "Against our own Warnsdorff rows they differ by at most {:.4} (a {}, {:.1} standard errors of the \
difference). {}\n",
            worst.0,
            worst.2,
            worst.1,
            if worst.1 < 3.0 {
                "After obfuscation the two generators cannot be told apart at this precision, but their \
rows are not digit for digit equal, as the paper's are."
            } else if worst.1 < 6.0 {
                "After obfuscation the two are within about a thousandth of each other on every number, \
with at most a faint trace of the generator left: close, as the paper's copied rows would suggest, \
but not digit for digit equal."
            } else {
                "Even after obfuscation the two generators leave clearly different traces, so the \
paper's identical rows cannot both be right."
            }
        )
    }

    fn figure4(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.fig4;
        writeln!(f, "## Figure 4 and Section 3.1: plain Warnsdorff tours\n")?;
        writeln!(
            f,
            "{} Warnsdorff tours on {} (open walks by Warnsdorff's rule with random ties, not obfuscated; \
`figure4_warnsdorff.svg`). Section 3.1 gives only the relative moves, in its text.\n",
            s.count, self.board
        )?;
        writeln!(f, "| relative move | 0 | 1 | 2 | 3 | 5 | 6 | 7 |")?;
        writeln!(f, "|---|---:|---:|---:|---:|---:|---:|---:|")?;
        write!(f, "| paper (Section 3.1) |")?;
        for &k in &RELATIVE {
            write!(f, " {} |", pct(PAPER_WARNSDORFF_RELATIVE[k]))?;
        }
        write!(f, "\n| ours |")?;
        for &k in &RELATIVE {
            write!(f, " {} |", pct(s.relative_moves[k]))?;
        }
        write!(f, "\n| ours, std per tour |")?;
        for &k in &RELATIVE {
            write!(f, " {} |", pct(s.relative_moves_std[k]))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "\nRelative move 0 (a repeated move): {} here, {} in the paper; uniform would be {}. \
Moves: {} (std per tour up to {:.4}, the large spread Figure 4 shows).\n",
            pct(s.relative_moves[0]),
            pct(PAPER_WARNSDORFF_RELATIVE[0]),
            pct(1.0 / 7.0),
            list(&s.moves, &MOVES),
            s.moves_std.iter().fold(0.0f64, |a, &b| a.max(b))
        )
    }

    fn figure6(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.fig6;
        writeln!(f, "## Figure 6: Takefuji-Lee tours\n")?;
        writeln!(
            f,
            "{} closed tours on {}, each a Takefuji-Lee tourney joined by rails, not obfuscated \
(`figure6_neural.svg`; the network alone is exponential on a board this size). Moves: {}; \
relative moves (0, 1, 2, 3, 5, 6, 7): {}. Relative move 0 is {}, against {} for the Warnsdorff \
tours: {}\n",
            s.count,
            self.board,
            list(&s.moves, &MOVES),
            list(&s.relative_moves, &RELATIVE),
            pct(s.relative_moves[0]),
            pct(self.fig4.relative_moves[0]),
            if s.relative_moves[0] + 0.05 < self.fig4.relative_moves[0] {
                "the network does not share Warnsdorff's preference for repeating a move, as Section 3.2 says."
            } else {
                "on this board the two do not differ as Section 3.2 says they do."
            }
        )
    }

    fn rails(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "## Rails per tour\n")?;
        writeln!(
            f,
            "The Rail Conjecture (Section 4) says an n x n tour has order n^2 rails. On {} ({} squares):\n",
            self.board,
            self.board.squares()
        )?;
        writeln!(f, "| tours | rails per tour | std | rails per square |")?;
        writeln!(f, "|---|---:|---:|---:|")?;
        let sq = self.board.squares() as f64;
        let mut line = |name: String, s: &Summary| -> fmt::Result {
            if let Some(r) = s.figures.iter().find(|x| x.name == "rails") {
                writeln!(
                    f,
                    "| {name} | {:.1} | {:.1} | {:.3} |",
                    r.mean,
                    r.std,
                    r.mean / sq
                )?;
            }
            Ok(())
        };
        for (row, s) in self.tables {
            if let Some(s) = s {
                line(format!("obfuscated `{}`", row.generator), s)?;
            }
        }
        line("joined `neural`, not obfuscated".into(), self.fig6)?;
        writeln!(f)?;
        let series = self.series(Form::Obfuscate, |t| t.rails.unwrap_or(0.0));
        if !series.is_empty() {
            let per_square = self.series(Form::Obfuscate, |t| {
                t.rails.unwrap_or(0.0) / (f64::from(t.rows) * f64::from(t.cols))
            });
            let ranges: Vec<String> = per_square
                .iter()
                .map(|(name, pts)| {
                    let lo = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
                    let hi = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
                    format!("{name} {lo:.2}-{hi:.2}")
                })
                .collect();
            writeln!(
                f,
                "Across board sizes (`rails.svg`, obfuscated tours of the timing runs) the log-log slope of \
rails per tour against squares is {}, and rails per square range over {}. Small boards have \
proportionally fewer rails (more of their squares are near an edge), which puts the slope over \
small sizes above 1; rails per square settle near a constant as the board grows, as the Rail \
Conjecture (order n^2 rails) says.\n",
                slopes(&series),
                ranges.join(", ")
            )?;
        }
        Ok(())
    }

    /// Per generator, (squares, value) points of one form.
    fn series(&self, form: Form, value: impl Fn(&Timing) -> f64) -> Vec<(String, Vec<(f64, f64)>)> {
        let mut out: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
        for t in self.timings.iter().filter(|t| t.form == form) {
            let p = (f64::from(t.rows) * f64::from(t.cols), value(t));
            match out.iter_mut().find(|(n, _)| n == t.generator) {
                Some((_, v)) => v.push(p),
                None => out.push((t.generator.to_string(), vec![p])),
            }
        }
        out
    }

    fn timing(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "## Timing: Figures 3, 20 and 21\n")?;
        writeln!(
            f,
            "Mean wall-clock time of one run on one thread, {} runs per generator and size, sides {:?} \
(`timing.csv`, `figure3_20_timing.svg`, `figure21_per_square.svg`). The paper times 1,000 \
tourneys per size in C++ on an i9-7980XE; only the shapes compare. Log-log slopes of time \
against squares (1 = linear time):\n",
            self.timing_args.runs, self.timing_args.sizes
        )?;
        writeln!(f, "| form | slopes |")?;
        writeln!(f, "|---|---|")?;
        for form in [Form::Tour, Form::Tourney, Form::Join, Form::Obfuscate] {
            let s = self.series(form, |t| t.seconds);
            if !s.is_empty() {
                writeln!(f, "| {} | {} |", form.name(), slopes(&s))?;
            }
        }
        writeln!(
            f,
            "\n| generator | form | board | ms per run | ns per square |"
        )?;
        writeln!(f, "|---|---|---|---:|---:|")?;
        for t in self.timings {
            let sq = f64::from(t.rows) * f64::from(t.cols);
            writeln!(
                f,
                "| {} | {} | {}x{} | {:.3} | {:.0} |",
                t.generator,
                t.form.name(),
                t.rows,
                t.cols,
                1e3 * t.seconds,
                1e9 * t.seconds / sq
            )?;
        }
        if !self.notes.is_empty() {
            writeln!(f, "\nLeft out:\n")?;
            for n in self.notes {
                writeln!(f, "- {n}")?;
            }
        }
        writeln!(f)
    }
}

/// Numbers of the given columns, four digits.
fn list(values: &[f64; 8], cols: &[usize]) -> String {
    cols.iter()
        .map(|&k| format!("{:.4}", values[k]))
        .collect::<Vec<_>>()
        .join(", ")
}

fn slopes(series: &[(String, Vec<(f64, f64)>)]) -> String {
    series
        .iter()
        .map(|(name, pts)| match slope(pts) {
            Some(s) => format!("{name} {s:.2}"),
            None => format!("{name} (one size)"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "# Parberry's tourney paper reproduced: tourneys, obfuscation and move statistics\n\n\
The paper: Ian Parberry, *Tourneys and the Fast Generation and Obfuscation of Closed Knight's \
Tours*, arXiv:2001.06044, 2020 (Parberry 2020 in `docs/references.md`).\n"
        )?;
        let sizes: Vec<String> = self.timing_args.sizes.iter().map(u32::to_string).collect();
        writeln!(
            f,
            "Written by `knights-lab paper OUTDIR --board {} --count {} --seed {} --sizes {} --runs {}` \
(knights {}). The same seed writes the same tables and charts on any machine and thread count; \
only the times change.\n",
            self.board,
            self.count,
            self.seed,
            sizes.join(","),
            self.timing_args.runs,
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(
            f,
            "Tables 1 and 2: {} closed tours per generator on {}, each a tourney of the generator joined by \
rails, then obfuscated as in Section 7 (16 shatters, then a join). Our rows give the mean over the \
tours and the standard deviation of one tour's frequency; the gap column gives the largest \
difference to the paper, also in standard errors of our mean. Charts: `obfuscated_<generator>.svg`; \
numbers: `table1.csv`, `table2.csv`.\n",
            self.count, self.board
        )?;
        writeln!(f, "## Table 1: move distribution of obfuscated tours\n")?;
        self.table(f, false)?;
        writeln!(
            f,
            "\n## Table 2: relative-move distribution of obfuscated tours\n"
        )?;
        self.table(f, true)?;
        writeln!(f)?;
        self.four_cover(f)?;
        self.figure4(f)?;
        self.figure6(f)?;
        self.rails(f)?;
        self.timing(f)?;
        self.differences(f)
    }
}
