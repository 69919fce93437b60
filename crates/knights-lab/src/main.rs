//! `knights-lab`: the research harness of knights, out of the product
//! binary. It regenerates the tourney paper's tables and figures
//! (`paper`, with `paper_report`, `timing` and `timing_runs`), runs the
//! experiments on the algorithms (`experiment`) and the research benchmark
//! suites (`bench classic`, `bench tourney`). It writes, reads and ends as
//! `knights` does (the `knights_cli` library: same exit statuses).

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;
use knights_cli::exit::{clap_outcome, report};
use knights_cli::{outln, output, support, warn};

mod bench_classic;
mod cli;
mod experiment;
mod paper;
mod paper_report;
mod timing;
mod timing_runs;
mod tourney_bench;

use cli::{Command, Suite};

fn main() -> ExitCode {
    let args = match cli::Lab::try_parse() {
        Ok(args) => args,
        Err(e) => return ExitCode::from(clap_outcome("knights-lab", &e)),
    };
    output::install_ctrl_c();
    match run(args.command) {
        Ok(code) => code,
        Err(e) => ExitCode::from(report("knights-lab", &e)),
    }
}

/// Runs a parsed command line.
fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Paper(a) => paper::run(a),
        Command::Experiment(a) => experiment::run(a),
        Command::Bench(a) => match a.suite {
            Suite::Classic => bench_classic::run(&a),
            Suite::Tourney => tourney_bench::run(&a),
        },
    }
}
