//! What the commands share: progress bars, and clap value parsers
//! whose value lists and help come from the library's own names, so the
//! command line spells every algorithm, tie-break and generator as the
//! library, cipher keys and the other front ends do.

use std::ffi::OsStr;
use std::io::IsTerminal;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use indicatif::{ProgressBar, ProgressStyle};
use knights::algorithms::{Algorithm, Generator, Tie};

/// A progress bar on a terminal, a hidden one otherwise.
pub fn progress(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} ({eta} left)") {
        bar.set_style(style);
    }
    bar
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

/// `--algorithm` of `tourney`, `--generators` of the timing: every [`Generator`].
pub fn generator_parser() -> Named<Generator> {
    Named {
        all: &Generator::ALL,
        name: Generator::name,
        about: Generator::about,
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
