//! The kind of tour a caller wants: closed, open, or either (the first the
//! algorithm finds). Every request, builder and option that asks for a
//! kind of tour takes it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Error, Kind};

/// The kind of tour wanted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wanted {
    /// A closed tour (the knight can step from the last square to the first).
    Closed,
    /// An open tour (a closed one is an open one too, but this asks for one
    /// that the method builds as open).
    Open,
    /// Whichever the method gives (also read as `any`, the doors' word).
    #[default]
    #[serde(alias = "any")]
    Either,
}

impl Wanted {
    /// Whether a closed tour is wanted (the one kind a search must insist
    /// on; an open or either request takes any tour it finds).
    pub fn is_closed(self) -> bool {
        self == Wanted::Closed
    }

    /// Whether a tour of `kind` is what is wanted: [`Wanted::Either`]
    /// takes both kinds.
    ///
    /// ```
    /// use knights::{Kind, Wanted};
    /// assert!(Wanted::Either.accepts(Kind::Open));
    /// assert!(!Wanted::Closed.accepts(Kind::Open));
    /// ```
    pub fn accepts(self, kind: Kind) -> bool {
        match self {
            Wanted::Closed => kind == Kind::Closed,
            Wanted::Open => kind == Kind::Open,
            Wanted::Either => true,
        }
    }

    /// Its name: `closed`, `open` or `either`.
    pub fn name(self) -> &'static str {
        match self {
            Wanted::Closed => "closed",
            Wanted::Open => "open",
            Wanted::Either => "either",
        }
    }
}

impl From<Kind> for Wanted {
    fn from(kind: Kind) -> Wanted {
        match kind {
            Kind::Closed => Wanted::Closed,
            Kind::Open => Wanted::Open,
        }
    }
}

impl fmt::Display for Wanted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Wanted {
    type Err = Error;

    /// Reads `closed`, `open`, `either` or `any`, in any case.
    fn from_str(s: &str) -> Result<Wanted, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "closed" => Ok(Wanted::Closed),
            "open" => Ok(Wanted::Open),
            "either" | "any" => Ok(Wanted::Either),
            _ => Err(Error::Parse(
                format!(
                    "'{}' is not a kind of tour; use closed, open or either",
                    crate::excerpt(s)
                )
                .into(),
            )),
        }
    }
}
