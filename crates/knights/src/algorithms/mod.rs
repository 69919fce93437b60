//! The tour generators, one algorithm per module, behind one interface.
//!
//! Every generator is a small options type that implements
//! [`TourGenerator`]: it takes a [`TourSpec`] (the board, closed / open / either,
//! the start square, the caller's [`crate::Control`]) and the caller's random number generator,
//! refuses impossible requests with the existence theorem's reason
//! ([`crate::exists::require`]) and returns a [`crate::Tour`]. An option
//! belongs to its generator's type, so one that does not apply cannot be
//! written; [`Algorithm`] holds any of them, for callers that choose by name
//! (the command line, cipher keys, the web page, Python), and
//! [`Algorithm::set_option`] sets an option given by name, refusing the
//! options of other algorithms. [`crate::Tour::builder`] is the front door
//! that calls them.
//!
//! What "either kind" ([`crate::Wanted::Either`]) means per method:
//! - the construction ([`Algorithm::Auto`], [`Algorithm::Construct`]):
//!   closed where the board has a closed tour, else open;
//! - the search methods ([`warnsdorff::Warnsdorff`], [`backtrack::Backtrack`],
//!   [`hybrid::Hybrid`]): a closed tour is tried with a bounded share of the
//!   budget, then the first open tour is taken;
//! - the tourney method and the Takefuji-Lee network: closed, which is all
//!   they make.

pub mod backtrack;
mod ends;
pub(crate) mod general;
pub mod hybrid;
mod open;
mod spec;
pub(crate) mod tourney_methods;
mod tree_search;
pub mod warnsdorff;

use rand::RngCore;

use crate::construct;
use crate::{exists, Error, Kind, Result, Tour, Wanted};

pub use backtrack::Backtrack;
pub use hybrid::Hybrid;
pub use tourney_methods::neural::{NeuralEvent, TakefujiLee};
pub use tourney_methods::TourneyMethod;
pub use warnsdorff::{Tie, Warnsdorff};

pub use open::make_open;
pub(crate) use open::{as_wanted, finish};
pub use spec::{TourGenerator, TourSpec};
pub use tree_search::TreeSearch;

/// The linear-time divide-and-conquer construction ([`crate::construct`]):
/// every board, O(squares); either kind means closed where the board has a
/// closed tour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Construct;

impl TourGenerator for Construct {
    fn name(&self) -> &'static str {
        "construct"
    }

    fn generate(&self, spec: &TourSpec, _rng: &mut dyn RngCore) -> Result<Tour> {
        if !spec.is_plain() {
            return beyond_the_plain_board(spec, "construct", None);
        }
        construct::tour(spec.board, spec.kind, spec.start)
    }
}

/// The best method for the request: the construction, with Warnsdorff's
/// rule as a fallback for the few start squares it cannot use.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Auto;

impl TourGenerator for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn generate(&self, spec: &TourSpec, rng: &mut dyn RngCore) -> Result<Tour> {
        if !spec.is_plain() {
            return beyond_the_plain_board(spec, "auto", Some(rng));
        }
        let kind = resolve_kind(spec);
        match construct::tour(spec.board, kind.into(), spec.start) {
            Err(Error::GaveUp(_)) if spec.start.is_some() => {
                let spec = TourSpec {
                    kind: kind.into(),
                    ..spec.clone()
                };
                Warnsdorff::default().generate(&spec, rng)
            }
            other => other,
        }
    }
}

/// The construction and [`Auto`] beyond the plain board: given ends on the
/// plain board by [`ends::tour`]; the cylinder and the torus by
/// the plain board's construction where it has a tour; other shapes, for
/// `auto` only, by Warnsdorff's rule (1000 walks) and then the hybrid
/// search (10,000,000 nodes).
fn beyond_the_plain_board(
    spec: &TourSpec,
    name: &str,
    rng: Option<&mut dyn RngCore>,
) -> Result<Tour> {
    if spec.shape.is_plain() {
        if let (Some(s), Some(t)) = (spec.start, spec.end) {
            let board = spec.board;
            if s as usize >= board.squares() || t as usize >= board.squares() {
                return Err(Error::Board(
                    format!(
                        "the start and end squares must be on {board}, whose squares are 0..{}",
                        board.squares()
                    )
                    .into(),
                ));
            }
            let adjacent = board.move_between(s, t).is_some();
            match spec.kind {
                Wanted::Open if adjacent => {
                    return Err(Error::NoTour(
                        "the start and end are a knight's move apart, so a tour between them is closed, not open".into(),
                    ))
                }
                Wanted::Closed if !adjacent => {
                    return Err(Error::NoTour(
                        "the start and end are not a knight's move apart, so a tour between them cannot be closed".into(),
                    ))
                }
                _ => return ends::tour(board, s, t),
            }
        }
    }
    if let Some(tour) = wrapped_construction(spec)? {
        return Ok(tour);
    }
    match rng {
        Some(rng) => match general::generate_warnsdorff(spec, true, 1000, rng) {
            Err(Error::GaveUp(_)) => general::generate_backtrack(spec, true, 10_000_000),
            other => other,
        },
        None => Err(Error::Unsupported(format!(
            "{name} works on the plain board, and between given ends on it; for {} use warnsdorff, backtrack or hybrid",
            spec.shape
        ).into())),
    }
}

/// On a wrapped board without holes, with the knight and no end square,
/// the plain board's construction is a tour too (wrapping only adds moves):
/// `None` when the plain board has no tour of the kind, or when an open
/// tour asked for would close through the wrap.
fn wrapped_construction(spec: &TourSpec) -> Result<Option<Tour>> {
    let shape = &spec.shape;
    if shape.hole_count() > 0
        || shape.leaper() != crate::shape::Leaper::KNIGHT
        || spec.end.is_some()
    {
        return Ok(None);
    }
    let board = spec.board;
    let closed = match spec.kind {
        Wanted::Closed => true,
        Wanted::Open => false,
        Wanted::Either => exists::closed_tour(board).exists,
    };
    if !(if closed {
        exists::closed_tour(board)
    } else {
        exists::open_tour(board)
    })
    .exists
    {
        return Ok(None);
    }
    let wanted = if closed { Wanted::Closed } else { Wanted::Open };
    let plain = match construct::tour(board, wanted, spec.start) {
        Ok(t) => t,
        Err(Error::NoTour(_) | Error::GaveUp(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let tour = Tour::from_squares_unchecked_on(shape, plain.into_squares());
    Ok(match spec.kind {
        Wanted::Either => Some(tour),
        k if Wanted::from(tour.kind()) != k => None,
        _ => Some(tour),
    })
}

/// The kind a construction makes for `spec` (and a cipher key's `any`):
/// the one asked for, else closed where the board has a closed tour.
pub(crate) fn resolve_kind(spec: &TourSpec) -> Kind {
    match spec.kind {
        Wanted::Closed => Kind::Closed,
        Wanted::Open => Kind::Open,
        Wanted::Either if exists::closed_tour(spec.board).exists => Kind::Closed,
        Wanted::Either => Kind::Open,
    }
}

/// A tour algorithm with its options: any [`TourGenerator`] of the crate,
/// for callers that choose one by name.
///
/// # Example
/// ```
/// use knights::algorithms::Algorithm;
/// let mut a: Algorithm = "warnsdorff".parse()?;
/// a.set_option("tie", "pohl")?;
/// assert!(a.set_option("max-nodes", "10").is_err()); // an option of the backtracking searches
/// let tour = knights::Tour::builder("10x10".parse()?).algorithm(a).seed(2).build()?;
/// assert_eq!(tour.squares().len(), 100);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// [`Auto`]: the construction, Warnsdorff's rule where it cannot start.
    #[default]
    Auto,
    /// [`Warnsdorff`]'s rule with a tie-break and restarts.
    Warnsdorff(Warnsdorff),
    /// [`Backtrack`]ing in a fixed move order, under a node budget.
    Backtrack(Backtrack),
    /// The [`Hybrid`]: backtracking in Warnsdorff's order, under a node budget.
    Hybrid(Hybrid),
    /// A tourney by the [`TourneyMethod`], joined into one closed tour.
    Tourney(TourneyMethod),
    /// The [`TakefujiLee`] neural network alone, restarted until it settles
    /// as one Hamiltonian cycle.
    TakefujiLee(TakefujiLee),
    /// The linear-time divide-and-conquer [`Construct`]ion.
    Construct,
}

impl Algorithm {
    /// Every algorithm with its default options, in the order
    /// `knights tour --help` lists them.
    pub const ALL: [Algorithm; 11] = [
        Algorithm::Auto,
        Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
        Algorithm::Backtrack(Backtrack::DEFAULT),
        Algorithm::Hybrid(Hybrid::DEFAULT),
        Algorithm::Tourney(TourneyMethod::Warnsdorff),
        Algorithm::Tourney(TourneyMethod::Braid),
        Algorithm::Tourney(TourneyMethod::FourCover),
        Algorithm::Tourney(TourneyMethod::Neural),
        Algorithm::TakefujiLee(TakefujiLee::DEFAULT),
        Algorithm::Construct,
        Algorithm::Tourney(TourneyMethod::Divide),
    ];

    /// The algorithm's name, as `knights tour --algorithm` and cipher keys
    /// spell it.
    ///
    /// # Example
    /// ```
    /// use knights::algorithms::Algorithm;
    /// for a in Algorithm::ALL {
    ///     assert_eq!(a.name().parse::<Algorithm>()?, a);
    /// }
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn name(self) -> &'static str {
        self.generator().name()
    }

    /// One line on what the algorithm does, for help texts.
    pub fn about(self) -> &'static str {
        use TourneyMethod as G;
        match self {
            Algorithm::Auto => "the best method for the board: the construction, Warnsdorff's rule for the starts it cannot use",
            Algorithm::Warnsdorff(_) => "Warnsdorff's rule with a tie-break (tie) and restarts (max-attempts)",
            Algorithm::Backtrack(_) => "backtracking in a fixed move order, under a node budget (max-nodes)",
            Algorithm::Hybrid(_) => "backtracking in Warnsdorff's order, under a node budget (max-nodes)",
            Algorithm::Tourney(G::Warnsdorff) => "a Warnsdorff tourney joined into one closed tour",
            Algorithm::Tourney(G::Braid) => "a concentric braided tourney joined into one closed tour (sides even)",
            Algorithm::Tourney(G::FourCover) => "a four-cover tourney joined into one closed tour (sides divisible by 4)",
            Algorithm::Tourney(G::Neural) => "a Takefuji-Lee network tourney joined into one closed tour",
            Algorithm::Tourney(G::Divide) => "the construction's base tours as a tourney, joined by rails",
            Algorithm::TakefujiLee(_) => "the Takefuji-Lee network alone, restarted (max-attempts) until it is one closed tour; makes cycles only, so an open tour is the cycle opened, as with the tourney methods",
            Algorithm::Construct => "the linear-time divide-and-conquer construction (every board, instantly)",
        }
    }

    /// Whether the seed can change the tour this algorithm makes on the
    /// plain board: not for the construction (nor `auto`, which leaves it
    /// for Warnsdorff's rule only at a start the construction cannot use,
    /// and none is known), backtracking and the hybrid (fixed move orders)
    /// or Warnsdorff's rule with the first tie-break. Obfuscating a tour
    /// draws on the seed whatever made it.
    pub fn uses_seed(self) -> bool {
        match self {
            Algorithm::Auto | Algorithm::Construct => false,
            Algorithm::Backtrack(_) | Algorithm::Hybrid(_) => false,
            Algorithm::Warnsdorff(w) => w.tie != Tie::First,
            Algorithm::Tourney(_) | Algorithm::TakefujiLee(_) => true,
        }
    }

    /// The options [`Algorithm::set_option`] takes for this algorithm.
    pub fn option_names(self) -> &'static [&'static str] {
        match self {
            Algorithm::Warnsdorff(_) => &["tie", "max-attempts"],
            Algorithm::Backtrack(_) | Algorithm::Hybrid(_) => &["max-nodes"],
            Algorithm::TakefujiLee(_) => &["max-attempts"],
            _ => &[],
        }
    }

    /// Sets one option by name (`tie`, `max-attempts`, `max-nodes`;
    /// underscores work as dashes), as the command line, the web page and
    /// Python pass them.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for an option this algorithm does not take,
    /// naming the algorithms that do; [`Error::Parse`] for a bad value.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<()> {
        let key = name.trim().replace('_', "-").to_ascii_lowercase();
        // Values are faulted under the option's name as the caller spelt it.
        let what = crate::excerpt(name);
        let number = || -> Result<u64> {
            value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    Error::Parse(
                        format!(
                            "{what} must be a whole number of at least 1, not '{}'",
                            crate::excerpt(value)
                        )
                        .into(),
                    )
                })
        };
        let attempts = || -> Result<u32> {
            u32::try_from(number()?)
                .map_err(|_| Error::Parse(format!("{what} must be at most {}", u32::MAX).into()))
        };
        match (self, key.as_str()) {
            (Algorithm::Warnsdorff(w), "tie") => w.tie = value.parse()?,
            (Algorithm::Warnsdorff(w), "max-attempts") => w.max_attempts = attempts()?,
            (Algorithm::TakefujiLee(t), "max-attempts") => t.max_restarts = attempts()?,
            (Algorithm::Backtrack(b), "max-nodes") => b.max_nodes = number()?,
            (Algorithm::Hybrid(h), "max-nodes") => h.max_nodes = number()?,
            (a, _) => {
                let takers: Vec<&str> = Algorithm::ALL
                    .iter()
                    .filter(|b| b.option_names().contains(&key.as_str()))
                    .map(|b| b.name())
                    .collect();
                return Err(if takers.is_empty() {
                    Error::Unsupported(
                        format!(
                            "'{}' is not an option of any algorithm",
                            crate::excerpt(name)
                        )
                        .into(),
                    )
                    .with_hint(crate::Hint::AlgorithmOptions)
                } else {
                    Error::Unsupported(
                        format!(
                            "{key} does not apply to {}; it is an option of {}",
                            a.name(),
                            takers.join(" and ")
                        )
                        .into(),
                    )
                });
            }
        }
        Ok(())
    }

    /// The generator with its options, as a trait object.
    pub fn generator(&self) -> &dyn TourGenerator {
        match self {
            Algorithm::Auto => &Auto,
            Algorithm::Construct => &Construct,
            Algorithm::Warnsdorff(w) => w,
            Algorithm::Backtrack(b) => b,
            Algorithm::Hybrid(h) => h,
            Algorithm::Tourney(g) => g,
            Algorithm::TakefujiLee(t) => t,
        }
    }
}

impl TourGenerator for Algorithm {
    fn name(&self) -> &'static str {
        Algorithm::name(*self)
    }

    fn generate(&self, spec: &TourSpec, rng: &mut dyn RngCore) -> Result<Tour> {
        if !spec.is_plain() && matches!(self, Algorithm::Tourney(_) | Algorithm::TakefujiLee(_)) {
            return Err(Error::Unsupported(format!(
                "{} works on the plain board only, without an end square; for {} use auto, warnsdorff, backtrack or hybrid",
                self.name(),
                spec.shape
            ).into()));
        }
        self.generator().generate(spec, rng)
    }
}

impl std::str::FromStr for Algorithm {
    type Err = Error;

    /// Reads an algorithm's [`Algorithm::name`], in any case, with its
    /// default options.
    fn from_str(text: &str) -> Result<Algorithm> {
        let text = text.trim().to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                Error::Parse(
                    format!(
                        "'{}' is not an algorithm; name one of {}",
                        crate::excerpt(&text),
                        names.join(", ")
                    )
                    .into(),
                )
            })
    }
}

macro_rules! algorithm_from {
    ($($t:ident),*) => {$(
        impl From<$t> for Algorithm {
            fn from(options: $t) -> Algorithm {
                Algorithm::$t(options)
            }
        }
    )*};
}
algorithm_from!(Warnsdorff, Backtrack, Hybrid, TakefujiLee);

impl From<TourneyMethod> for Algorithm {
    fn from(generator: TourneyMethod) -> Algorithm {
        Algorithm::Tourney(generator)
    }
}

impl From<Construct> for Algorithm {
    fn from(_: Construct) -> Algorithm {
        Algorithm::Construct
    }
}

impl From<Auto> for Algorithm {
    fn from(_: Auto) -> Algorithm {
        Algorithm::Auto
    }
}
