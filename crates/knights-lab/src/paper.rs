//! `knights-lab paper OUTDIR`: regenerates the tables and figures of the tourney
//! paper (Parberry 2020) into a folder, with a Markdown report that puts our
//! numbers beside the paper's.
//!
//! Tables 1 and 2 come from obfuscated tours of the five tourney generators,
//! Figures 4 and 6 from plain Warnsdorff tours and joined neural tourneys,
//! all on one board and parallel over tours (tour i of stage k seeded from
//! (seed, k, i)), so a seed writes the same tables and charts on any number
//! of threads; Figures 3, 20 and 21 and the rails figure come from the
//! timing experiment, run on one thread (its times are the only numbers
//! that change between runs).

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use knights::algorithms::TourneyMethod;
use knights::algorithms::{Algorithm, Warnsdorff};
use knights::stats::{self, PaperRow, Sampled, Summary, PAPER_TABLES};
use knights::{exists, Error, Wanted};
use rand::Rng;

use super::paper_report::{self, Report};
use super::timing::{self, Plan};
use crate::cli::PaperArgs;
use crate::timing_runs::Timing;

/// The most tours per stage.
const MAX_COUNT: u64 = 1_000_000;

/// Shatters per obfuscation, as in Section 7 of the paper.
const SHATTERS: u32 = 16;

/// The seed of stage `k`: its own stream, apart from every other stage's.
fn stage_seed(seed: u64, k: u64) -> u64 {
    knights::rng::for_batch(seed, (1 << 40) + k).random()
}

fn write(dir: &Path, name: &str, value: &dyn std::fmt::Display) -> Result<()> {
    crate::output::emit(Some(&dir.join(name)), value)
}

/// Our generator for a row of the paper's tables.
fn generator_of(row: &PaperRow) -> TourneyMethod {
    TourneyMethod::ALL
        .into_iter()
        .find(|g| g.name() == row.generator)
        .expect("every paper row names one of our generators")
}

/// Writes the timing experiment's CSV and its three figures into `dir`.
fn write_timing(dir: &Path, timings: &[Timing]) -> Result<()> {
    write(dir, "timing.csv", &timing::csv(timings))?;
    write(
        dir,
        "figure3_20_timing.svg",
        &timing::time_plot(
            timings,
            "time per run against board size (Figures 3 and 20)",
        ),
    )?;
    write(
        dir,
        "figure21_per_square.svg",
        &timing::per_square_plot(timings),
    )?;
    write(dir, "rails.svg", &timing::rails_plot(timings))?;
    Ok(())
}

/// `knights-lab paper`.
pub fn run(args: PaperArgs) -> Result<ExitCode> {
    let board = args.board.parse::<knights::Board>()?;
    exists::require(board, knights::Wanted::Closed)?;
    if args.count == 0 || args.count > MAX_COUNT {
        return Err(Error::Unsupported(
            format!(
                "--count must be between 1 and {MAX_COUNT}, not {}",
                args.count
            )
            .into(),
        )
        .into());
    }
    let plan = Plan::new(&args.timing)?;
    let dir = args.outdir.as_path();
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::Parse(format!("cannot make the folder '{}': {e}", dir.display()).into())
    })?;
    let rows: Vec<(PaperRow, TourneyMethod)> =
        PAPER_TABLES.iter().map(|r| (*r, generator_of(r))).collect();
    let taken = rows.iter().filter(|(_, g)| g.supports(board)).count() as u64;
    let bar = crate::support::progress(args.count * (taken + 2) + plan.steps());
    let tick = || bar.inc(1);
    let count = args.count;
    let ticker = bar.clone();
    let control = knights::Control::new().progress(move |_| ticker.inc(1));
    let summarise = |job: Sampled, seed: u64| {
        Summary::builder(board, job)
            .samples(count)
            .seed(seed)
            .control(&control)
            .run()
    };

    let mut tables: Vec<(PaperRow, Option<Summary>)> = Vec::new();
    for (k, (row, g)) in rows.iter().enumerate() {
        if !g.supports(board) {
            tables.push((*row, None));
            continue;
        }
        bar.set_message(format!("obfuscated {} tours", g.name()));
        let job = Sampled::Tour(Algorithm::Tourney(*g), Wanted::Closed, Some(SHATTERS));
        let s = summarise(job, stage_seed(args.seed.seed, k as u64))?;
        let title = format!("obfuscated {} tours", g.name());
        write(
            dir,
            &format!("obfuscated_{}.svg", g.name()),
            &stats::bar_chart(&s, &title),
        )?;
        tables.push((*row, Some(s)));
    }

    bar.set_message("Warnsdorff tours (Figure 4)");
    let fig4 = summarise(
        // The paper's Warnsdorff tours are open walks.
        Sampled::Tour(
            Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
            Wanted::Open,
            None,
        ),
        stage_seed(args.seed.seed, 10),
    )?;
    write(
        dir,
        "figure4_warnsdorff.svg",
        &stats::bar_chart(&fig4, "Warnsdorff tours (Figure 4)"),
    )?;
    bar.set_message("neural tours (Figure 6)");
    let neural = Sampled::Tour(
        Algorithm::Tourney(TourneyMethod::Neural),
        Wanted::Either,
        None,
    );
    let fig6 = summarise(neural, stage_seed(args.seed.seed, 11))?;
    write(
        dir,
        "figure6_neural.svg",
        &stats::bar_chart(
            &fig6,
            &format!("joined Takefuji-Lee tourneys on {board} (Figure 6)"),
        ),
    )?;

    bar.set_message("timing (Figures 3, 20, 21)");
    let (timings, notes) = plan.measure(stage_seed(args.seed.seed, 12), &tick);
    bar.finish_and_clear();
    write_timing(dir, &timings)?;
    write(dir, "table1.csv", &paper_report::table_csv(&tables, false))?;
    write(dir, "table2.csv", &paper_report::table_csv(&tables, true))?;

    let report = Report {
        board,
        count,
        seed: args.seed.seed,
        timing_args: &args.timing,
        tables: &tables,
        fig4: &fig4,
        fig6: &fig6,
        timings: &timings,
        notes: &notes,
    };
    write(dir, "report.md", &report)
        .with_context(|| format!("writing the report into '{}'", dir.display()))?;
    crate::warn!(
        "wrote the tables, figures and report.md into {}",
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
