//! Whether a tour exists, and why: one question with three kinds of
//! grounds, each in its own file, from the cheapest to the costliest.
//!
//! - `theorems`: the plain board's theorems (Schwenk for closed tours;
//!   Cull and De Curtins, Conrad et al. for open ones), with the reason for
//!   this board in particular ([`closed_tour`], [`open_tour`]).
//! - [`ends`]: a given start and end square on the plain board (the colour
//!   rule, a table made with the frontier counter, Conrad et al.'s theorem,
//!   a count).
//! - the quick necessary conditions on boards with holes, wrapping or
//!   another leaper (colours, the leaper's lattice, degrees, the two colour
//!   classes), which the generators also refuse with;
//! - [`decide`]: the answer for any request, asking the above in turn and
//!   then searching for a tour with the generators under a node budget, so
//!   that the answer is "unknown" when the budget runs out.
//!
//! The theorems, the given ends and the refusals never call a generator;
//! only the searched answer does, so the generators may refuse an
//! impossible request with the same reasons without a circle.
//!
//! # Example
//! ```
//! use knights::{algorithms::TourSpec, exists::{decide, ExistsVerdict}, shape::{Shape, Wrap, Leaper}};
//! let torus = TourSpec { kind: knights::Wanted::Closed, ..TourSpec::on(Shape::new("4x4".parse()?).with_wrap(Wrap::Both)) };
//! assert_eq!(decide(&torus, 1_000_000)?.answer, ExistsVerdict::Yes);
//! let camel = TourSpec::on(Shape::new("8x8".parse()?).with_leaper(Leaper::new(1, 3)?));
//! let d = decide(&camel, 1_000_000)?;
//! assert_eq!(d.answer, ExistsVerdict::No);
//! assert!(d.reason.contains("colour"));
//! # Ok::<(), knights::Error>(())
//! ```

use std::fmt;

use crate::Tour;

pub mod ends;
mod refuse;
mod search;
pub(crate) mod theorems;

pub(crate) use refuse::{quick_refusal, reached, two_colouring};
pub use search::decide;
pub use theorems::{closed_tour, no_tour_error, open_tour, require, tour_exists, Existence};

/// Yes, no, or unknown (the search's budget ran out).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExistsVerdict {
    /// A tour exists (by a theorem, or one was found).
    Yes,
    /// None exists (by a theorem, a necessary condition, or an exhaustive search).
    No,
    /// The search ran out of its budget.
    Unknown,
}

impl ExistsVerdict {
    /// `yes`, `no` or `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            ExistsVerdict::Yes => "yes",
            ExistsVerdict::No => "no",
            ExistsVerdict::Unknown => "unknown",
        }
    }
}

/// An answer with its grounds, and the tour when a search found one.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The answer.
    pub answer: ExistsVerdict,
    /// Why, in a sentence or two.
    pub reason: String,
    /// The tour that proves a yes found by search or construction.
    pub tour: Option<Tour>,
}

impl Decision {
    /// An answer without a tour.
    pub(crate) fn said(answer: ExistsVerdict, reason: String) -> Decision {
        Decision {
            answer,
            reason,
            tour: None,
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.answer.word(), self.reason)
    }
}
