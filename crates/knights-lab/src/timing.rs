//! `knights-lab experiment timing`: the time of each tourney generator and form
//! (tourney, + join, + obfuscation) and of the plain Warnsdorff tour against
//! board size, as in Figures 3, 20 and 21 of Parberry 2020; also used by `paper`.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Result;
use knights::algorithms::TourneyMethod;
use knights::stats::{self, Series};

use crate::timing_runs::{self, Form, Timing};
use knights::{Board, Error};
use serde_json::json;

use crate::cli::{ExperimentTimingArgs, TableFormat, TimingArgs};

/// The largest side timed (a run on it takes seconds).
const MAX_SIDE: u32 = 1000;
/// The most runs per generator and size.
const MAX_RUNS: u32 = 100_000;

/// What to time, checked.
pub struct Plan {
    boards: Vec<Board>,
    generators: Vec<TourneyMethod>,
    runs: u32,
    tour: bool,
}

impl Plan {
    /// Checks the options.
    pub fn new(args: &TimingArgs) -> Result<Plan> {
        if args.sizes.is_empty() {
            return Err(Error::Unsupported("--sizes needs at least one board side".into()).into());
        }
        let mut boards = Vec::new();
        for &n in &args.sizes {
            if n < 6 || n % 2 == 1 || n > MAX_SIDE {
                return Err(Error::Unsupported(format!(
                    "--sizes takes even sides from 6 to {MAX_SIDE}, not {n}: the joined forms need a closed tour, which N x N has exactly for even N >= 6"
                ).into())
                .into());
            }
            boards.push(Board::new(u64::from(n), u64::from(n))?);
        }
        if args.runs == 0 || args.runs > MAX_RUNS {
            return Err(Error::Unsupported(
                format!("--runs must be between 1 and {MAX_RUNS}, not {}", args.runs).into(),
            )
            .into());
        }
        let generators = if args.generators.is_empty() {
            TourneyMethod::ALL.to_vec()
        } else {
            args.generators.clone()
        };
        Ok(Plan {
            boards,
            generators,
            runs: args.runs,
            tour: !args.no_tour,
        })
    }

    /// The number of steps [`Plan::measure`] reports to its progress callback.
    pub fn steps(&self) -> u64 {
        (self.boards.len() * (self.generators.len() + usize::from(self.tour))) as u64
    }

    /// Times everything, one run after another on this thread; the rows,
    /// and a note for each generator and size left out (and why).
    pub fn measure(&self, seed: u64, progress: &dyn Fn()) -> (Vec<Timing>, Vec<String>) {
        let (mut rows, mut notes) = (Vec::new(), Vec::new());
        for &board in &self.boards {
            if self.tour {
                match timing_runs::time_warnsdorff_tours(board, self.runs, seed) {
                    Ok(t) => rows.push(t),
                    Err(e) => {
                        // The library's advice names `tour`'s --max-attempts,
                        // which this experiment does not take.
                        let e = e.to_string();
                        let why = e.split("; allow more attempts").next().unwrap_or(&e);
                        notes.push(format!(
                            "warnsdorff tour on {board}: {why} (the experiment gives it its default attempts; --no-tour leaves this row out)"
                        ));
                    }
                }
                progress();
            }
            for &g in &self.generators {
                if !g.supports(board) {
                    notes.push(format!(
                        "{} on {board}: the generator does not take this board",
                        g.name()
                    ));
                } else {
                    match timing_runs::time_tourneys(board, g, self.runs, seed) {
                        Ok(ts) => rows.extend(ts),
                        Err(e) => notes.push(format!("{} on {board}: {e}", g.name())),
                    }
                }
                progress();
            }
        }
        (rows, notes)
    }
}

fn squares(t: &Timing) -> f64 {
    f64::from(t.rows) * f64::from(t.cols)
}

fn label(t: &Timing) -> String {
    match t.form {
        Form::Tour => "warnsdorff tour".into(),
        f => format!("{} {}", t.generator, f.name()),
    }
}

/// The rows as CSV with a header line.
pub fn csv(rows: &[Timing]) -> String {
    let mut out =
        String::from("generator,form,rows,cols,squares,runs,seconds,seconds_per_square,rails\n");
    for t in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{:.9},{:.3e},{}",
            t.generator,
            t.form.name(),
            t.rows,
            t.cols,
            squares(t),
            t.runs,
            t.seconds,
            t.seconds / squares(t),
            t.rails.map(|r| format!("{r:.1}")).unwrap_or_default()
        );
    }
    out
}

/// The rows as aligned columns.
pub fn table(rows: &[Timing]) -> String {
    let mut out = format!(
        "{:<11} {:<23} {:>9} {:>5} {:>12} {:>12} {:>10}\n",
        "generator", "form", "board", "runs", "ms per run", "ns/square", "rails"
    );
    for t in rows {
        let _ = writeln!(
            out,
            "{:<11} {:<23} {:>9} {:>5} {:>12.3} {:>12.1} {:>10}",
            t.generator,
            t.form.name(),
            format!("{}x{}", t.rows, t.cols),
            t.runs,
            1e3 * t.seconds,
            1e9 * t.seconds / squares(t),
            t.rails.map(|r| format!("{r:.1}")).unwrap_or_default()
        );
    }
    out
}

/// One series per generator and form, from the rows' `value`.
fn series(
    rows: &[Timing],
    keep: impl Fn(&Timing) -> bool,
    value: impl Fn(&Timing) -> f64,
) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for t in rows.iter().filter(|t| keep(t)) {
        let name = label(t);
        let point = (squares(t), value(t));
        match out.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push(point),
            None => out.push(Series {
                name,
                points: vec![point],
            }),
        }
    }
    out
}

/// Seconds per run against squares, every generator and form (Figures 3 and 20).
pub fn time_plot(rows: &[Timing], title: &str) -> String {
    let s = series(rows, |_| true, |t| t.seconds);
    stats::line_plot(title, "squares", "seconds per run", &s).to_string()
}

/// Seconds per square of the obfuscated forms (Figure 21).
pub fn per_square_plot(rows: &[Timing]) -> String {
    let s = series(
        rows,
        |t| t.form == Form::Obfuscate,
        |t| t.seconds / squares(t),
    );
    stats::line_plot(
        "time per square: tourney, join and obfuscate (Figure 21)",
        "squares",
        "seconds per square",
        &s,
    )
    .to_string()
}

/// Rails per tour of the obfuscated tours against squares (the Rail Conjecture).
pub fn rails_plot(rows: &[Timing]) -> String {
    let mut s = series(
        rows,
        |t| t.form == Form::Obfuscate && t.rails.is_some(),
        |t| t.rails.unwrap_or(0.0),
    );
    for x in &mut s {
        x.name = format!("{} obfuscated", x.name.split(' ').next().unwrap_or(""));
    }
    stats::line_plot(
        "rails per closed tour (Rail Conjecture: order rows x cols)",
        "squares",
        "rails per tour",
        &s,
    )
    .to_string()
}

pub fn run(args: ExperimentTimingArgs) -> Result<ExitCode> {
    let plan = Plan::new(&args.timing)?;
    crate::output::expect_extension(args.csv.as_deref(), "csv")?;
    crate::output::expect_extension(args.svg.as_deref(), "svg")?;
    let bar = crate::support::progress(plan.steps());
    let (rows, notes) = plan.measure(args.seed.seed, &|| bar.inc(1));
    bar.finish_and_clear();
    for n in &notes {
        crate::warn!("left out: {n}");
    }
    if let Some(path) = &args.csv {
        crate::output::emit(Some(path.as_path()), &csv(&rows))?;
    }
    if let Some(path) = &args.svg {
        let title = "time per run against board size (Figures 3 and 20)";
        crate::output::emit(Some(path.as_path()), &time_plot(&rows, title))?;
    }
    match args.format {
        TableFormat::Table => crate::output::emit(None, &table(&rows))?,
        TableFormat::Csv => crate::output::emit(None, &csv(&rows))?,
        TableFormat::Json => {
            let doc = json!({
                "experiment": "timing",
                "seed": args.seed.seed,
                "runs": plan.runs,
                "rows": rows,
                "left_out": notes,
            });
            crate::output::emit(None, &format_args!("{doc}\n"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
