//! `knights stats`: move and relative-move distributions over many tours
//! (or raw tourneys), as a table, CSV, JSON or an SVG bar chart.

use std::fmt::Write as _;

use anyhow::Result;
use knights::algorithms::{Algorithm, TourneyMethod};
use knights::request::{JobRequest, StatsRequest};
use knights::stats::{self, Summary, CLOSED_FIGURE};

use crate::cli::{StatsArgs, StatsFormat};
use crate::output::{choose_format, FormatName};

/// The formats of statistics and their file extensions (the `-o` rule is
/// [`choose_format`]).
const STATS_FORMATS: &[FormatName<StatsFormat>] = &[
    FormatName {
        format: StatsFormat::Table,
        name: "table",
        what: "a table",
        extensions: &["txt"],
    },
    FormatName {
        format: StatsFormat::Csv,
        name: "csv",
        what: "CSV",
        extensions: &["csv", "txt"],
    },
    FormatName {
        format: StatsFormat::Json,
        name: "json",
        what: "JSON",
        extensions: &["json", "txt"],
    },
    FormatName {
        format: StatsFormat::Svg,
        name: "svg",
        what: "an SVG bar chart",
        extensions: &["svg"],
    },
];

/// `knights stats BOARD`: the flags become the library's [`StatsRequest`],
/// which checks them (the sample count, a tourney generator for
/// `--tourney`, no obfuscation of tourneys) and samples.
pub fn run(args: StatsArgs) -> Result<u8> {
    let algorithm = args.algorithm;
    let request = StatsRequest {
        board: args.board.board.clone(),
        algorithm: algorithm.name().into(),
        kind: args.kind.wanted(),
        samples: args.count,
        obfuscate: args.obfuscate,
        tourneys: args.tourney,
        seed: args.seed.seed,
    };
    let plan = request.plan()?;
    let format = choose_format(
        args.output.as_deref(),
        args.format,
        STATS_FORMATS,
        StatsFormat::Table,
    )?;
    let deterministic = match algorithm {
        Algorithm::Auto | Algorithm::Construct => !args.tourney && !args.obfuscate,
        Algorithm::Tourney(g) => {
            args.tourney && matches!(g, TourneyMethod::FourCover | TourneyMethod::Divide)
        }
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
    let summary = StatsRequest::run_plan(plan, &control)?;
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
            let mut title = format!(
                "{name} on {}x{}, {} ",
                summary.rows, summary.cols, summary.count
            );
            title += if args.tourney { "tourneys" } else { "tours" };
            if args.obfuscate {
                title += ", obfuscated";
            }
            crate::output::emit(path, &stats::bar_chart(&summary, &title))
        }
    }?;
    Ok(crate::exit::EXIT_SUCCESS)
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
