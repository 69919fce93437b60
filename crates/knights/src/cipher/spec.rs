//! Key descriptions: a few words that regenerate the same tour anywhere.

use std::fmt;
use std::str::FromStr;

use crate::algorithms::tourney_methods::TourneyMethod;
use crate::algorithms::{tourney_methods, Algorithm, TakefujiLee, TourSpec, Warnsdorff};
use crate::rails::JoinOptions;
use crate::{Board, Control, Error, Result, Tour, Wanted};

/// The algorithms a key may name, by [`Algorithm::name`]. `auto` is left out
/// on purpose: what it picks may change between versions, and a key must give
/// the same tour everywhere and always. Deterministic generators may be added
/// here.
const ALGORITHMS: &[Algorithm] = &[
    Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
    Algorithm::Tourney(TourneyMethod::Warnsdorff),
    Algorithm::Tourney(TourneyMethod::Braid),
    Algorithm::Tourney(TourneyMethod::FourCover),
    Algorithm::Tourney(TourneyMethod::Neural),
    Algorithm::TakefujiLee(TakefujiLee::DEFAULT),
];

/// A readable key description that regenerates a tour on any machine.
///
/// The syntax is the board followed by comma-separated items, in any order,
/// each at most once:
///
/// ```text
/// BOARD[,algorithm=NAME][,seed=N][,start=ROW,COL][,open|,closed|,any][,attempts=N]
/// ```
///
/// - `BOARD`: `ROWSxCOLS` such as `8x8` or `6x10`, or one number for a square board.
/// - `algorithm=NAME` (also `alg=`): the generator, named as in `knights tour
///   --algorithm`: `warnsdorff` (the default: Warnsdorff's rule with seeded
///   random tie-breaks), `tourney`, `braid`, `four-cover`, `neural` or
///   `takefuji-lee` (the tourney methods, which make closed tours; opened
///   afterwards unless `closed` or `any` is given).
/// - `seed=N`: the seed of [`crate::rng::seeded`]; default 0.
/// - `start=ROW,COL`: the first square, 0-based, or its algebraic name such
///   as `start=c3` (read as [`Board::parse_algebraic`] does; the key is
///   written back as `ROW,COL`); default: drawn from the seed.
/// - `open` (default), `closed` or `any` (closed where the board has a closed
///   tour, else open): the kind of tour, as in `knights tour`.
/// - `attempts=N`: the restart budget of the generator. It only decides whether
///   a tour is found in time, never which one.
///
/// So `8x8` alone is a key (seed 0), and `8x8,algorithm=warnsdorff,seed=5,start=0,0`
/// spells everything out. [`fmt::Display`] writes the complete form, which
/// parses back to the same description. The same description gives the same
/// tour for as long as the generator's output for a seed stays the same,
/// which the tests pin.
///
/// # Example
/// ```
/// use knights::cipher::KeySpec;
/// let spec: KeySpec = "8x8, seed=5, start=0,0".parse()?;
/// assert_eq!(spec.to_string(), "8x8,algorithm=warnsdorff,seed=5,start=0,0,open");
/// let tour = spec.tour(&knights::Control::new())?;
/// assert_eq!(tour.start(), 0);
/// assert_eq!(spec.tour(&knights::Control::new())?, tour);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeySpec {
    /// The board.
    pub board: Board,
    /// The generator.
    pub algorithm: Algorithm,
    /// Open, closed, or either for `any`: closed where the board has a
    /// closed tour, else open (fixed so for keys, whatever the method).
    pub kind: Wanted,
    /// The seed of the generator's random choices.
    pub seed: u64,
    /// The first square as (row, column), if fixed.
    pub start: Option<(u32, u32)>,
    /// The generator's restart budget, if not its default.
    pub max_attempts: Option<u32>,
}

impl KeySpec {
    /// The description of a key on `board` with every item at its default.
    pub fn new(board: Board) -> KeySpec {
        KeySpec {
            board,
            algorithm: Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
            kind: Wanted::Open,
            seed: 0,
            start: None,
            max_attempts: None,
        }
    }

    /// Generates the tour: the [`Tour::builder`] request the description
    /// gives, with the generator [`crate::rng::seeded`]`(seed)`.
    ///
    /// A key's `any` keeps the meaning it had when keys were first made,
    /// closed where the board has a closed tour, else open, for every
    /// method, so that stored keys regenerate the same tour (the search
    /// methods' own "either kind" settles for an open tour sooner).
    /// `attempts` is passed to the methods that restart and left out for
    /// the others. The generator's restarts and the join watch `control`'s
    /// stop flag and end with [`crate::Error::Interrupted`].
    ///
    /// # Complexity
    /// That of the generator: O(rows * cols) per attempt for Warnsdorff's rule.
    pub fn tour(&self, control: &Control) -> Result<Tour> {
        let kind = crate::algorithms::resolve_kind(&TourSpec {
            kind: self.kind,
            ..TourSpec::new(self.board)
        });
        let mut algorithm = self.algorithm;
        if let Some(n) = self.max_attempts {
            if algorithm.option_names().contains(&"max-attempts") {
                algorithm.set_option("max-attempts", &n.max(1).to_string())?;
            }
        }
        let start = self.start.map(|(r, c)| self.board.square(r, c));
        if let Algorithm::Tourney(generator) = algorithm {
            // A join runs in a random orientation of the board; keys keep
            // the join in the board's own orientation, so that a key always
            // gives the same tour and its ciphertexts decrypt.
            let spec = TourSpec {
                kind: kind.into(),
                start,
                ..TourSpec::new(self.board)
            };
            let join = JoinOptions {
                random_orientation: false,
                control: control.clone(),
                ..JoinOptions::default()
            };
            let make = |board, rng: &mut dyn rand::RngCore| {
                tourney_methods::tour_with(board, generator, &join, rng)
            };
            return tourney_methods::closed_only(&spec, make, &mut crate::rng::seeded(self.seed))
                .map_err(in_key_words);
        }
        Tour::builder(self.board)
            .kind(kind)
            .start_at(start)
            .algorithm(algorithm)
            .seed(self.seed)
            .control(control)
            .build()
            .map_err(in_key_words)
    }
}

/// A generator that gave up advises in the key's own words (its items
/// `attempts=`, `seed=`, `algorithm=`), not in options a key does not have.
fn in_key_words(e: Error) -> Error {
    match e {
        Error::GaveUp(why) => {
            let what = why.split_once("; ").map_or(why.text(), |(what, _)| what);
            Error::GaveUp(format!(
                "{what}; give the key more attempts (attempts=N), another seed (seed=N) or another algorithm (algorithm=NAME)"
            ).into())
        }
        _ => e,
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},algorithm={},seed={}",
            self.board,
            self.algorithm.name(),
            self.seed
        )?;
        if let Some((r, c)) = self.start {
            write!(f, ",start={r},{c}")?;
        }
        f.write_str(match self.kind {
            Wanted::Open => ",open",
            Wanted::Closed => ",closed",
            Wanted::Either => ",any",
        })?;
        if let Some(n) = self.max_attempts {
            write!(f, ",attempts={n}")?;
        }
        Ok(())
    }
}

impl FromStr for KeySpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<KeySpec> {
        let bad = |why: String| {
            Error::Parse(format!(
                "the key '{}' {why}; write a tour file or BOARD[,algorithm=NAME][,seed=N][,start=ROW,COL][,open|closed|any][,attempts=N], such as 8x8,seed=5",
                crate::excerpt(text)
            ).into())
        };
        let mut items = text.split(',').map(str::trim);
        let board_text = items.next().unwrap_or_default();
        let board: Board = board_text.parse().map_err(|_| {
            bad(format!(
                "does not start with a board size ('{}')",
                crate::excerpt(board_text)
            ))
        })?;
        let mut spec = KeySpec::new(board);
        let mut seen: Vec<&str> = Vec::new();
        while let Some(item) = items.next() {
            let (name, value) = match item.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim())),
                None => (item, None),
            };
            let slot = match name {
                "alg" => "algorithm",
                "open" | "closed" | "any" => "kind",
                n => n,
            };
            if seen.contains(&slot) {
                return Err(bad(format!("gives the {slot} twice")));
            }
            seen.push(slot);
            let number = |what: &str| -> Result<u64> {
                let v = value.unwrap_or_default();
                v.parse::<u64>().map_err(|_| {
                    bad(format!(
                        "has {what} '{}', which is not a whole number",
                        crate::excerpt(v)
                    ))
                })
            };
            match (name, value) {
                ("algorithm" | "alg", Some(v)) => {
                    let v = v.to_ascii_lowercase();
                    spec.algorithm = match ALGORITHMS.iter().find(|a| a.name() == v) {
                        Some(&a) => a,
                        None if v == "auto" => {
                            return Err(bad("names algorithm=auto, which may pick another method in another version; name the algorithm, such as warnsdorff".into()))
                        }
                        None => {
                            let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name()).collect();
                            return Err(bad(format!(
                                "names the algorithm '{}'; a key may use {}",
                                crate::excerpt(&v),
                                names.join(", ")
                            )));
                        }
                    };
                }
                ("seed", Some(_)) => spec.seed = number("the seed")?,
                ("attempts", Some(_)) => {
                    let n = number("attempts")?;
                    if n == 0 {
                        return Err(bad("asks for 0 attempts (attempts=1 or more)".into()));
                    }
                    spec.max_attempts = Some(
                        u32::try_from(n).map_err(|_| bad("asks for too many attempts".into()))?,
                    );
                }
                ("start", Some(name)) if name.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                    // An algebraic name such as c3; the key still writes ROW,COL.
                    let s = board.parse_algebraic(name).map_err(|e| {
                        Error::Parse(format!("the key '{}': {e}", crate::excerpt(text)).into())
                    })?;
                    spec.start = Some(board.coords(s));
                }
                ("start", Some(r)) => {
                    let c = items.next().unwrap_or_default();
                    let (r, c) = match (r.parse::<u32>(), c.parse::<u32>()) {
                        (Ok(r), Ok(c)) => (r, c),
                        _ => {
                            return Err(bad(format!(
                                "has start '{}', which is not ROW,COL",
                                crate::excerpt(&format!("{r},{c}"))
                            )))
                        }
                    };
                    if r >= board.rows() || c >= board.cols() {
                        return Err(bad(format!(
                            "starts at ({r}, {c}), which is off the {board} board"
                        )));
                    }
                    spec.start = Some((r, c));
                }
                ("open", None) => spec.kind = Wanted::Open,
                ("closed", None) => spec.kind = Wanted::Closed,
                ("any", None) => spec.kind = Wanted::Either,
                _ => {
                    return Err(bad(format!(
                        "has the item '{}', which is not a key item",
                        crate::excerpt(item)
                    )))
                }
            }
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_the_full_form() {
        let spec: KeySpec = "8".parse().unwrap();
        assert_eq!(spec, KeySpec::new(Board::new(8, 8).unwrap()));
        assert_eq!(spec.to_string(), "8x8,algorithm=warnsdorff,seed=0,open");
        let full =
            "6x10,algorithm=warnsdorff,seed=18446744073709551615,start=5,9,closed,attempts=7";
        // An algebraic start is the same key, written back as ROW,COL.
        let named: KeySpec = "8x8,seed=3,start=c3".parse().unwrap();
        assert_eq!(named.start, Some((5, 2)));
        assert_eq!(
            named.to_string(),
            "8x8,algorithm=warnsdorff,seed=3,start=5,2,open"
        );
        let spec: KeySpec = full.parse().unwrap();
        assert_eq!(spec.to_string(), full);
        assert_eq!(spec.start, Some((5, 9)));
        assert_eq!(spec.kind, Wanted::Closed);
        let spaced: KeySpec = " 6 x 10 , alg = Warnsdorff , any ".parse().unwrap();
        assert_eq!(spaced.kind, Wanted::Either);
    }

    #[test]
    fn every_named_algorithm_prints_parses_and_gives_a_checked_tour() {
        for &algorithm in ALGORITHMS {
            let name = algorithm.name();
            let spec: KeySpec = format!("8x8,algorithm={name},seed=3,any").parse().unwrap();
            assert_eq!(spec.algorithm, algorithm);
            assert_eq!(spec.to_string().parse::<KeySpec>().unwrap(), spec);
            let tour = spec.tour(&crate::Control::new()).unwrap();
            assert!(crate::check::check_tour(&tour).is_ok(), "{spec}");
            assert_eq!(
                spec.tour(&crate::Control::new()).unwrap(),
                tour,
                "{spec} is reproducible"
            );
        }
    }

    #[test]
    fn bad_descriptions_are_explained() {
        for (text, needle) in [
            ("", "board size"),
            ("eight", "board size"),
            ("8x8,seed=-1", "not a whole number"),
            ("8x8,seed=1,seed=2", "seed twice"),
            ("8x8,open,closed", "kind twice"),
            ("8x8,algorithm=auto", "algorithm=auto"),
            ("8x8,algorithm=magic", "'magic'"),
            ("8x8,start=8,0", "off the 8x8 board"),
            ("8x8,start=1", "not ROW,COL"),
            ("8x8,start=c9", "ranks run from 1 (the bottom row) to 8"),
            ("8x30,start=c3", "write ROW,COL"),
            ("8x8,colour=red", "'colour=red'"),
            ("8x8,seed", "'seed'"),
            ("8x8,attempts=99999999999", "too many attempts"),
            ("8x8,attempts=0", "0 attempts"),
        ] {
            let e = text.parse::<KeySpec>().unwrap_err();
            assert!(matches!(e, Error::Parse(_)), "{text}: {e:?}");
            assert!(e.to_string().contains(needle), "{text}: {e}");
        }
    }
}
