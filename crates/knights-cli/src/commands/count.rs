//! `knights count`: the exact number of tours, by the frontier dynamic program.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use knights::count::{self, Method, Options, Progress};
use knights::Kind;
use serde_json::{json, Value};

use super::parse_board;
use crate::cli::{CountArgs, CountMethod};

pub fn run(args: CountArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let kind = if args.kind.open {
        Kind::Open
    } else {
        Kind::Closed
    };
    let max_memory = args.max_memory.as_deref().map(parse_bytes).transpose()?;
    if args.classes && args.directed {
        return Err(knights::Error::Unsupported(
            "--directed does not apply to --classes; classes are of undirected tours".into(),
        )
        .into());
    }
    if !count::tour_exists(board, kind) {
        let e = if kind == Kind::Open {
            knights::exists::open_tour(board)
        } else {
            knights::exists::closed_tour(board)
        };
        let kind_name = if kind == Kind::Open { "open" } else { "closed" };
        crate::warn!(
            "knights: no {kind_name} tour exists on {board}: {} ({}), so the count is 0",
            e.reason,
            e.theorem
        );
    }
    if args.resume {
        let has_checkpoint = args
            .work_dir
            .as_deref()
            .and_then(|d| std::fs::read_dir(d).ok())
            .is_some_and(|mut entries| entries.next().is_some());
        if !has_checkpoint {
            return Err(knights::Error::Unsupported(format!(
                "--resume found no checkpoint in '{}'; run the count once without --resume to start it",
                args.work_dir
                    .as_deref()
                    .map(|d| d.display().to_string())
                    .unwrap_or_default()
            ))
            .into());
        }
    }
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:40}] square {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar
    });
    let callback = |p: &Progress| {
        if let Some(bar) = &bar {
            bar.set_length(p.steps as u64);
            bar.set_position(p.step as u64);
            let place = if p.on_disk { " on disk" } else { "" };
            bar.set_message(format!("{} states{place} (peak {})", p.states, p.peak));
        }
    };
    // The first Ctrl-C stops the count after the square in progress (its
    // checkpoint kept for --resume); a second ends the process at once.
    let stop = crate::output::stop_on_ctrl_c();
    let opts = Options {
        kind,
        method: match args.method {
            CountMethod::Auto => Method::Auto,
            CountMethod::Forward => Method::Forward,
            CountMethod::Meet => Method::Meet,
        },
        max_memory,
        progress: Some(&callback),
        work_dir: args.work_dir.as_deref(),
        resume: args.resume,
        stop_after: args.stop_after,
        stop: Some(&stop),
    };
    let factor = if args.directed { 2 } else { 1 };
    let kind_name = if kind == Kind::Open { "open" } else { "closed" };
    let result = if args.classes {
        count::classes(board, &opts).map(|c| {
            let fixed: serde_json::Map<String, Value> = c
                .fixed
                .iter()
                .map(|(name, n)| (name.to_string(), number(*n)))
                .collect();
            let json = json!({
                "board": board.to_string(), "kind": kind_name, "classes": number(c.classes),
                "tours": number(c.tours), "fixed": fixed, "seconds": c.elapsed.as_secs_f64(),
            });
            (c.classes, json)
        })
    } else {
        let report = if args.symmetric {
            count::symmetric(board, &opts)
        } else {
            count::tours(board, &opts)
        };
        report.map(|r| {
            let n = r.count * factor;
            let json = json!({
                "board": board.to_string(), "kind": kind_name, "directed": args.directed,
                "symmetric": args.symmetric, "count": number(n),
                "seconds": r.elapsed.as_secs_f64(), "method": r.method.name(),
                "meet": r.meet_pairs.map(|(kept, tested)| json!({"table_states": kept, "pairs_tested": tested})),
                "peak_states": r.peak_states,
                "frontier_squares": r.frontier_slots, "key_bytes": r.key_bytes,
                "on_disk": r.on_disk, "generated": r.generated, "states_per_step": r.states_per_step,
            });
            (n, json)
        })
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (n, json) = result?;
    if args.json {
        crate::outln!("{json}")?;
    } else {
        crate::outln!("{n}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A count as a JSON number where it fits in 64 bits, else as a string.
fn number(n: u128) -> Value {
    u64::try_from(n).map_or_else(|_| Value::from(n.to_string()), Value::from)
}

/// Reads a byte count: a number with an optional binary unit (K, M, G, T,
/// optionally followed by "iB" or "B").
fn parse_bytes(text: &str) -> Result<u64> {
    let bad = || {
        knights::Error::Parse(format!(
            "'{text}' is not an amount of memory; write bytes or a number with a unit, such as 512M or 20G"
        ))
    };
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let value: u64 = digits.parse().map_err(|_| bad())?;
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit.trim_end_matches("IB").trim_end_matches('B');
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad().into()),
    };
    value.checked_mul(1 << shift).ok_or_else(|| bad().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_amounts() {
        assert_eq!(parse_bytes("20G").unwrap(), 20 << 30);
        assert_eq!(parse_bytes("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert_eq!(parse_bytes("4kb").unwrap(), 4096);
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("99999999999T").is_err());
    }
}
