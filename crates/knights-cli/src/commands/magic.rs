//! `knights magic`: the flags become the library's [`MagicRequest`], which
//! checks them; the search prints each semimagic tour as it is found (its
//! numbered grid from 1 and its sums), then a summary line, or with `-f
//! json` the answer at the end. Ctrl-C stops it with what it found (an
//! enumeration writes its checkpoint first), exit status 130; no tour in
//! the whole space is status 1, and so is a budget spent before the first
//! tour (docs/formats.md, "Magic tours").

use std::fs::OpenOptions;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Result;
use indicatif::ProgressBar;
use knights::format;
use knights::magic::search::Found;
use knights::request::{JobRequest, MagicAnswer, MagicPlan, MagicRequest};
use knights::{Control, Progress};

use crate::cli::{MagicArgs, MagicFormat};
use crate::output::{choose_format, FormatName, Output};

/// The formats of `knights magic` and their file extensions.
const MAGIC_FORMATS: &[FormatName<MagicFormat>] = &[
    FormatName {
        format: MagicFormat::Text,
        name: "text",
        what: "the tours as numbered grids with their sums",
        extensions: &["txt"],
    },
    FormatName {
        format: MagicFormat::Json,
        name: "json",
        what: "JSON",
        extensions: &["json", "txt"],
    },
];

/// How far the run has come, for the status lines.
struct Status {
    started: Instant,
    done: u64,
    total: Option<u64>,
    tours: u64,
    enumerating: bool,
    over: bool,
}

impl Status {
    /// `knights: magic: 3 tours, 120000 nodes of 200000000 after 30 s`.
    fn line(&self) -> String {
        let of = match self.total {
            Some(t) => format!(" of {t}"),
            None => String::new(),
        };
        let what = if self.enumerating { "ranges" } else { "nodes" };
        format!(
            "knights: magic: {} tour{}, {} {what}{of} after {} s",
            self.tours,
            plural(self.tours),
            self.done,
            self.started.elapsed().as_secs()
        )
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `knights magic BOARD`.
pub fn run(args: MagicArgs) -> Result<u8> {
    let format = choose_format(
        args.output.as_deref(),
        args.format,
        MAGIC_FORMATS,
        MagicFormat::Text,
    )?;
    let request = MagicRequest {
        kind: args.kind.wanted(),
        start: args.start.clone(),
        from: match &args.from {
            Some(file) => Some(crate::io_util::read_input(file)?),
            None => None,
        },
        seed: args.seed,
        max_nodes: args.max_nodes,
        limit: args.limit,
        all: args.all,
        symmetric: args.symmetric,
        checkpoint: args.checkpoint.as_ref().map(|p| p.display().to_string()),
        ..MagicRequest::new(args.board.board.trim())
    };
    let plan = request.plan()?;
    let status = Arc::new(Mutex::new(Status {
        started: Instant::now(),
        done: 0,
        total: None,
        tours: 0,
        enumerating: matches!(plan, MagicPlan::Enumerate(_)),
        over: false,
    }));
    let bar = progress_bar(&status);
    if let Some(file) = &args.progress {
        progress_file(file, &status)?;
    }
    let stop = crate::output::stop_on_ctrl_c();
    let watched = (Arc::clone(&status), bar.clone());
    let control = Control::new()
        .stop(stop.clone())
        .progress(move |p: &Progress| {
            let mut s = watched.0.lock().unwrap_or_else(|p| p.into_inner());
            (s.done, s.total) = (p.done, p.total);
            if let Some(total) = p.total {
                watched.1.set_length(total);
            }
            watched.1.set_position(p.done);
        });
    let mut out = Output::create(args.output.as_deref())?;
    let mut failed: Option<anyhow::Error> = None;
    let ran = plan.run_watched(&control, &mut |found: &Found| {
        let mut s = status.lock().unwrap_or_else(|p| p.into_inner());
        s.tours += 1;
        bar.set_message(format!("{} tour{} found", s.tours, plural(s.tours)));
        if format == MagicFormat::Json {
            return Ok(());
        }
        let written = bar.suspend(|| write_found(&mut out, found, s.tours == 1));
        written.map_err(|e| {
            failed = Some(write_failed(e, &args));
            knights::Error::Interrupted("the output could not be written".into())
        })
    });
    bar.finish_and_clear();
    let ended = end_status(&status, &args);
    if let Some(e) = failed {
        return Err(e);
    }
    let answer = ran?;
    let summary = summary_line(&answer, &args, stop.is_stopped());
    ended(&summary);
    let written = match format {
        // A blank line after the last tour, if any.
        MagicFormat::Text if answer.tours.is_empty() => writeln!(out, "{summary}"),
        MagicFormat::Text => writeln!(out, "\n{summary}"),
        MagicFormat::Json => writeln!(out, "{}", serde_json::to_string(&answer)?),
    };
    written.map_err(|e| write_failed(e, &args))?;
    out.finish()?;
    Ok(match stop.is_stopped() {
        true => crate::exit::EXIT_INTERRUPTED,
        false => crate::exit::EXIT_SUCCESS,
    })
}

/// One tour found: a blank line before every tour but the first, its
/// numbered grid from 1, its sums; flushed, so that it shows at once.
fn write_found(out: &mut Output, found: &Found, first: bool) -> std::io::Result<()> {
    let text = format!(
        "{}{}{}\n",
        if first { "" } else { "\n" },
        format::grid(&found.tour, 1),
        found.sums.describe()
    );
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// A failed write to the output, as the output's own errors say it.
fn write_failed(e: std::io::Error, args: &MagicArgs) -> anyhow::Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return e.into();
    }
    let target = match &args.output {
        Some(p) => format!("'{}'", p.display()),
        None => "the output".into(),
    };
    knights::Error::io(format!("write {target}"), e).into()
}

/// The last line: the tours found, the nodes, whether the search (or the
/// enumeration) is complete, and how it ended.
fn summary_line(answer: &MagicAnswer, args: &MagicArgs, stopped: bool) -> String {
    let n = answer.tours.len() as u64;
    let mut line = match &answer.enumeration {
        Some(e) => format!(
            "{} of {} ranges done, {} tour{} and {} class{} so far, {} nodes",
            e.ranges_done,
            e.ranges,
            e.tours,
            plural(e.tours),
            e.classes,
            if e.classes == 1 { "" } else { "es" },
            answer.nodes
        ),
        None => format!(
            "{n} semimagic tour{} found, {} nodes searched",
            plural(n),
            answer.nodes
        ),
    };
    line += match answer.complete {
        true => "; complete",
        false => "; not complete",
    };
    if stopped {
        line += ", stopped by Ctrl-C";
    }
    if let (Some(file), Some(_)) = (&args.checkpoint, &answer.enumeration) {
        line += &format!("; checkpoint written to {}", file.display());
    }
    line
}

/// The progress bar on a terminal; elsewhere a status line on standard
/// error every status interval, as the other long commands write.
fn progress_bar(status: &Arc<Mutex<Status>>) -> ProgressBar {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        return crate::support::progress(0);
    }
    let watched = Arc::clone(status);
    crate::support::status_ticker(move || {
        let s = watched.lock().unwrap_or_else(|p| p.into_inner());
        match s.over {
            true => std::ops::ControlFlow::Break(()),
            false => std::ops::ControlFlow::Continue(Some(s.line())),
        }
    });
    ProgressBar::hidden()
}

/// Appends the status line to `file` every status interval, from a thread
/// of its own, until the run is over. The file is opened at once, so that
/// a path that cannot be written is refused before the search.
fn progress_file(file: &std::path::Path, status: &Arc<Mutex<Status>>) -> Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .map_err(|e| knights::Error::io(format!("open '{}'", file.display()), e))?;
    let watched = Arc::clone(status);
    let every = crate::support::status_every();
    let _ = std::thread::Builder::new()
        .name("progress".into())
        .spawn(move || loop {
            std::thread::sleep(every);
            let s = watched.lock().unwrap_or_else(|p| p.into_inner());
            if s.over {
                return;
            }
            let _ = writeln!(f, "{}", s.line());
        });
    Ok(())
}

/// Marks the run over (the status threads end) and gives the function that
/// appends the summary to the progress file, if there is one.
fn end_status(status: &Arc<Mutex<Status>>, args: &MagicArgs) -> impl FnOnce(&str) {
    status.lock().unwrap_or_else(|p| p.into_inner()).over = true;
    let file = args.progress.clone();
    move |summary: &str| {
        if let Some(file) = file {
            let f = OpenOptions::new().append(true).open(&file);
            if let Ok(mut f) = f {
                let _ = writeln!(f, "knights: magic: {summary}");
            }
        }
    }
}
