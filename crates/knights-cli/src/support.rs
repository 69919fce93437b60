//! What the commands share: progress reports, duration parsers, the boards
//! of a bench run, and clap
//! value parsers whose value lists and help come from the library's own
//! names, so the command line spells every algorithm, tie-break and
//! generator as the library, cipher keys and the other front ends do.

use std::ffi::OsStr;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use knights::algorithms::{Algorithm, Tie, TourneyMethod};

/// Seconds between two status lines when standard error is not a terminal.
const STATUS_SECONDS: u64 = 30;

/// The progress of a long command: a bar on a terminal; otherwise (a log,
/// a pipe) a plain status line every 30 seconds (`KNIGHTS_STATUS_SECONDS`,
/// 1 to 60, sets another interval), so that a long run is never silent.
/// The lines stop once the bar is finished or dropped.
pub fn progress(total: u64) -> ProgressBar {
    if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} ({eta} left)") {
            bar.set_style(style);
        }
        return bar;
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    let weak = bar.downgrade();
    status_ticker(move || match weak.upgrade() {
        Some(bar) if !bar.is_finished() => ControlFlow::Continue(Some(status_line(&bar))),
        _ => ControlFlow::Break(()),
    });
    bar
}

/// Time between two status lines when standard error is not a terminal:
/// 30 seconds, or `KNIGHTS_STATUS_SECONDS` (1 to 60).
pub fn status_every() -> Duration {
    let seconds = std::env::var("KNIGHTS_STATUS_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .filter(|s| (1..=60).contains(s))
        .unwrap_or(STATUS_SECONDS);
    Duration::from_secs(seconds)
}

/// Prints `line()`'s line on standard error every [`status_every`], on a
/// thread of its own, until `line` says the work is over (`Break`); a
/// `Continue(None)` prints nothing that time. The lines come from the
/// clock, not from the work's steps, so a step longer than the interval (a
/// square of a big count) does not silence them.
pub fn status_ticker(line: impl Fn() -> ControlFlow<(), Option<String>> + Send + 'static) {
    status_ticker_every(status_every(), line);
}

/// [`status_ticker`] with lines every `every`.
pub fn status_ticker_every(
    every: Duration,
    line: impl Fn() -> ControlFlow<(), Option<String>> + Send + 'static,
) {
    // A thread still asleep when the command returns ends with the process.
    let _ = std::thread::Builder::new()
        .name("status".into())
        .spawn(move || loop {
            std::thread::sleep(every);
            match line() {
                ControlFlow::Continue(Some(l)) => crate::warn!("{l}"),
                ControlFlow::Continue(None) => {}
                ControlFlow::Break(()) => return,
            }
        });
}

/// One status line: how far, of what, after how long.
fn status_line(bar: &ProgressBar) -> String {
    let done = match bar.length() {
        Some(total) => format!("{} of {total}", bar.position()),
        None => bar.position().to_string(),
    };
    format!(
        "knights: {done} {} done after {} s",
        bar.message(),
        bar.elapsed().as_secs()
    )
}

/// A clap parser for a count, budget or repetition option: a whole number
/// of 1 or more (0 is refused with one sentence).
pub fn at_least_one<T: std::str::FromStr + PartialEq + From<u8>>(text: &str) -> Result<T, String> {
    match text.trim().parse::<T>() {
        Ok(n) if n != T::from(0) => Ok(n),
        Ok(_) => Err("0 is refused: give 1 or more".into()),
        Err(_) => Err(format!(
            "'{}' is not a whole number of 1 or more, or is too large",
            knights::excerpt(text)
        )),
    }
}

/// One day, the most of `serve --timeout`.
pub const DAY: Duration = Duration::from_secs(24 * 60 * 60);
/// One week, the most of `serve --count-timeout` and `estimate --seconds`.
pub const WEEK: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// The least duration any option takes.
pub const MIN_DURATION: Duration = Duration::from_millis(1);

/// A number of seconds from one millisecond to `max`; anything else
/// (`inf`, `NaN`, negatives, 0, more than `max`) is refused, never clamped.
fn duration(text: &str, max: Duration, max_name: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= MIN_DURATION.as_secs_f64() && s <= max.as_secs_f64() => {
            Ok(Duration::from_secs_f64(s))
        }
        _ => Err(format!(
            "'{}' is not a number of seconds from 0.001 to {} ({max_name})",
            knights::excerpt(text),
            max.as_secs()
        )),
    }
}

/// A clap parser for a duration of at most a day.
pub fn up_to_a_day(text: &str) -> Result<Duration, String> {
    duration(text, DAY, "one day")
}

/// A clap parser for a duration of at most a week.
pub fn up_to_a_week(text: &str) -> Result<Duration, String> {
    duration(text, WEEK, "one week")
}

/// A clap parser for one of the library's named values: the possible
/// values (with their help) are the library's names.
#[derive(Clone)]
pub struct Named<T: 'static> {
    all: &'static [T],
    name: fn(T) -> &'static str,
    about: fn(T) -> &'static str,
    aliases: &'static [(&'static str, &'static str)],
}

impl<T: Copy + Send + Sync + 'static> Named<T> {
    fn values(&self) -> impl Iterator<Item = PossibleValue> + '_ {
        self.all.iter().map(|&t| {
            let name = (self.name)(t);
            let aliases = self.aliases.iter().filter(|(_, to)| *to == name);
            PossibleValue::new(name)
                .help((self.about)(t))
                .aliases(aliases.map(|(from, _)| *from))
        })
    }
}

impl<T: Copy + Send + Sync + 'static> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = PossibleValuesParser::new(self.values()).parse_ref(cmd, arg, value)?;
        let text = self
            .aliases
            .iter()
            .find(|(from, _)| *from == text)
            .map_or(text.as_str(), |(_, to)| to);
        Ok(self
            .all
            .iter()
            .copied()
            .find(|&t| (self.name)(t) == text)
            .expect("clap accepted one of the possible values"))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values()))
    }
}

/// `--algorithm` of `tour` and `stats`: every [`Algorithm`], default options.
pub fn algorithm_parser() -> Named<Algorithm> {
    Named {
        all: &Algorithm::ALL,
        name: Algorithm::name,
        about: Algorithm::about,
        aliases: &[],
    }
}

/// `--tie`: every [`Tie`] (`center` is `centre`).
pub fn tie_parser() -> Named<Tie> {
    Named {
        all: &Tie::ALL,
        name: Tie::name,
        about: Tie::about,
        aliases: &[("center", "centre")],
    }
}

/// `--algorithm` of `tourney`, `--generators` of the timing: every [`TourneyMethod`].
pub fn generator_parser() -> Named<TourneyMethod> {
    Named {
        all: &TourneyMethod::ALL,
        name: TourneyMethod::name,
        about: TourneyMethod::about,
        aliases: &[],
    }
}

/// `--method` of `estimate`: every [`knights::count::EstimateMethod`].
pub fn estimate_method_parser() -> Named<knights::count::EstimateMethod> {
    use knights::count::EstimateMethod;
    Named {
        all: &EstimateMethod::ALL,
        name: EstimateMethod::name,
        about: EstimateMethod::about,
        aliases: &[],
    }
}

/// The boards of a bench run: the ones `named`, else `defaults`; every
/// board is read before anything is printed, so a bad one prints no table
/// header.
pub fn boards_or(named: &[String], defaults: &[&str]) -> anyhow::Result<Vec<knights::Board>> {
    if named.is_empty() {
        return Ok(defaults
            .iter()
            .map(|b| b.parse())
            .collect::<Result<_, _>>()?);
    }
    Ok(named.iter().map(|b| b.parse()).collect::<Result<_, _>>()?)
}

/// A library error as the command line says it: the library's sentence,
/// then its [`Hint`](knights::Hint) (if any) as the flags that follow it.
pub fn in_cli_words(e: &knights::Error) -> String {
    match e.hint() {
        Some(hint) => format!("{}; {}", e.unhinted(), hint_in_flags(hint)),
        None => e.to_string(),
    }
}

/// The command line's table of hints: each as the flags that follow it.
fn hint_in_flags(hint: knights::Hint) -> String {
    use knights::{Budget, Hint};
    match hint {
        Hint::Raise(Budget::Nodes) => "allow more with --max-nodes N".into(),
        Hint::Raise(Budget::Attempts) => "allow more with --max-attempts N".into(),
        Hint::Raise(Budget::Memory) => "allow more with --max-memory SIZE".into(),
        Hint::Raise(Budget::Disk) => "allow more with --max-disk SIZE".into(),
        Hint::UseMethod(method) => format!("use --method {}", method.name()),
        Hint::UseEstimateMethod(method) => format!("use --method {}", method.name()),
        Hint::UseAlgorithm(algorithm) => format!("use --algorithm {}", algorithm.name()),
        Hint::AlgorithmOptions => "the options are --tie, --max-attempts and --max-nodes".into(),
        Hint::AskClosed => "leave out --open".into(),
        Hint::ClosedFromStart => "ask --closed with only --start".into(),
        Hint::Classic(true) => "use --classic".into(),
        Hint::Classic(false) => "leave out --classic".into(),
        Hint::Resume => "--resume continues it from its checkpoint".into(),
        Hint::ResumeOrFresh => "resume it, or start afresh to discard it (--resume, or --fresh)".into(),
        Hint::DontResume => "start the count without resuming (leave out --resume)".into(),
        Hint::StartFresh => "start the count afresh (--fresh)".into(),
        Hint::MoreRoom => "give it a --work-dir on a disk with more room, or more --max-memory".into(),
        Hint::ResumeWithRoom => "its checkpoint is kept, and --resume continues it once there is room (free space, or a larger --max-disk)".into(),
        Hint::MoreTimeOrSamples => "allow more --seconds, or give --samples N".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every hint is said as the command line's flags, never in the
    /// library's words, and a hinted error still matches its variant.
    #[test]
    fn every_hint_is_said_as_flags() {
        use knights::{Error, Hint};
        let every = Hint::every();
        assert!(every.len() > 20, "{every:?}");
        for hint in every {
            let words = hint_in_flags(hint);
            assert_ne!(words, hint.to_string(), "{hint:?}");
            assert!(words.contains("--"), "{hint:?}: {words}");
            let e = Error::GaveUp("the search found no tour".into()).with_hint(hint);
            assert!(matches!(e, Error::GaveUp(_)), "{e:?}");
            assert_eq!(
                in_cli_words(&e),
                format!("the search found no tour; {words}")
            );
        }
    }

    #[test]
    fn durations_are_finite_positive_and_bounded() {
        for bad in [
            "inf", "-inf", "NaN", "-1", "0", "0.0", "1e-300", "1e300", "86401", "x", "",
        ] {
            let err = up_to_a_day(bad).unwrap_err();
            assert!(
                err.contains("from 0.001 to 86400 (one day)"),
                "{bad}: {err}"
            );
        }
        assert_eq!(up_to_a_day("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(up_to_a_day("86400"), Ok(DAY));
        assert_eq!(up_to_a_week("604800"), Ok(WEEK));
        assert!(up_to_a_week("604801").is_err());
    }

    #[test]
    fn zero_is_refused_where_one_or_more_is_needed() {
        assert_eq!(at_least_one::<u32>("7"), Ok(7));
        assert!(at_least_one::<u32>("0")
            .unwrap_err()
            .contains("0 is refused"));
        assert!(at_least_one::<u32>("-1").is_err());
        assert!(at_least_one::<u32>("4294967296").is_err());
        assert_eq!(at_least_one::<usize>("1"), Ok(1));
    }

    #[test]
    fn a_status_line_says_how_far_and_how_long() {
        let bar = ProgressBar::with_draw_target(Some(10), ProgressDrawTarget::hidden());
        bar.set_message("runs");
        bar.inc(3);
        let line = status_line(&bar);
        assert!(
            line.starts_with("knights: 3 of 10 runs done after "),
            "{line}"
        );
    }
}
