//! `knights stats`: move and relative-move distributions over many tours
//! (or raw tourneys), as a table, CSV, JSON or an SVG bar chart.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Result;
use knights::algorithms::{tourney, Algorithm};
use knights::stats::{self, Job, Summary, CLOSED_FIGURE};
use knights::{Error, Kind};

use super::parse_board;
use crate::cli::{StatsArgs, StatsFormat};

/// The most tours one run takes (the per-tour counts are kept until the end).
const MAX_COUNT: u64 = 10_000_000;

pub fn run(args: StatsArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    if args.count == 0 || args.count > MAX_COUNT {
        return Err(Error::Unsupported(format!(
            "--count must be between 1 and {MAX_COUNT}, not {}",
            args.count
        ))
        .into());
    }
    let algorithm = args.algorithm;
    let job = if args.tourney {
        match algorithm {
            Algorithm::Tourney(g) => Job::Tourney(g),
            _ => {
                return Err(Error::Unsupported(
                    "--tourney needs a tourney generator: --algorithm tourney, braid, four-cover, neural or divide".into(),
                )
                .into())
            }
        }
    } else {
        // Obfuscation switches rails of a closed tour.
        let kind = if args.obfuscate {
            Some(Kind::Closed)
        } else {
            args.kind.kind()
        };
        Job::Tour(algorithm, kind.into(), args.obfuscate.then_some(16))
    };
    let format = match args.format {
        Some(f) => f,
        None => match super::extension(args.output.as_deref()).as_deref() {
            Some("svg") => StatsFormat::Svg,
            Some("json") => StatsFormat::Json,
            Some("csv") => StatsFormat::Csv,
            _ => StatsFormat::Table,
        },
    };
    let deterministic = match job {
        Job::Tour(Algorithm::Auto | Algorithm::Construct, _, None) => true,
        Job::Tourney(g) => matches!(
            g,
            tourney::Generator::FourCover | tourney::Generator::Divide
        ),
        _ => false,
    };
    if deterministic && args.count > 1 {
        crate::warn!(
            "knights: note: this method is deterministic, so all {} samples are the same and every deviation is 0 (--seed changes nothing); use --algorithm tourney, braid or warnsdorff, or --obfuscate, for varied tours",
            args.count
        );
    }
    let bar = crate::support::progress(args.count);
    let ticker = bar.clone();
    let control = knights::Control::new().progress(move |_| ticker.inc(1));
    let summary = Summary::builder(board, job)
        .samples(args.count)
        .seed(args.seed.seed)
        .control(&control)
        .run()?;
    bar.finish_and_clear();
    let path = args.output.as_deref();
    let name = algorithm.name();
    match format {
        StatsFormat::Table => crate::output::emit(path, &table(&summary)),
        StatsFormat::Csv => crate::output::emit(path, &csv(&summary)),
        StatsFormat::Json => {
            let mut json = serde_json::to_value(&summary)?;
            json["algorithm"] = name.into();
            json["seed"] = args.seed.seed.into();
            json["obfuscate"] = args.obfuscate.into();
            json["tourney"] = args.tourney.into();
            crate::output::emit(path, &format_args!("{json}\n"))
        }
        StatsFormat::Svg => {
            let mut title = format!("{name} on {board}, {} ", summary.count);
            title += if args.tourney { "tourneys" } else { "tours" };
            if args.obfuscate {
                title += ", obfuscated";
            }
            crate::output::emit(path, &stats::bar_chart(&summary, &title))
        }
    }?;
    Ok(ExitCode::SUCCESS)
}

fn table(s: &Summary) -> String {
    let mut out = format!("board {}x{}, {} samples\n", s.rows, s.cols, s.count);
    out += "move   frequency (std)       relative (std)\n";
    for k in 0..8 {
        let _ = writeln!(
            out,
            "{k:4}   {:7.4}% ({:6.4}%)   {:7.4}% ({:6.4}%)",
            100.0 * s.moves[k],
            100.0 * s.moves_std[k],
            100.0 * s.relative_moves[k],
            100.0 * s.relative_moves_std[k]
        );
    }
    for f in &s.figures {
        if f.name == CLOSED_FIGURE {
            let closed = (f.mean * s.count as f64).round();
            let _ = writeln!(out, "closed tours: {closed} of {}", s.count);
        } else {
            let _ = writeln!(out, "{}: mean {:.3}, std {:.3}", f.name, f.mean, f.std);
        }
    }
    out
}

fn csv(s: &Summary) -> String {
    let mut out = String::from("move,moves,moves_std,relative_moves,relative_moves_std\n");
    for k in 0..8 {
        let _ = writeln!(
            out,
            "{k},{},{},{},{}",
            s.moves[k], s.moves_std[k], s.relative_moves[k], s.relative_moves_std[k]
        );
    }
    out
}
