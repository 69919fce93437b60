//! # knights
//!
//! Knight's tours on any rectangular board: tours by every classical
//! algorithm and a linear-time construction, the tourney method (cycle
//! covers, rails, join, shatter, obfuscate), one independent checker, the
//! existence theorems, exact counts and estimates, statistics, the knight's
//! tour cipher, and file formats and pictures.
//!
//! Squares are numbered row-major from the top-left corner; moves are
//! numbered 0 to 7 as in Parberry's tourney paper (see [`board::MOVES`]).
//!
//! # What to call for each job
//!
//! | job | call |
//! |---|---|
//! | one tour, any board, any algorithm | [`Tour::builder`] ([`TourBuilder`]), algorithms in [`algorithms`] |
//! | is there a tour, and why (not) | [`exists::closed_tour`], [`exists::open_tour`]; any request: [`exists::decide`]; given ends: [`exists::ends`] |
//! | check a tour or tourney | [`check::check_tour`], [`check::check_cover`] |
//! | a tourney (cycle cover) | [`Tourney::builder`] ([`TourneyBuilder`]) |
//! | join, shatter, obfuscate | [`rails::join`], [`rails::shatter`], [`rails::obfuscate`], [`rails::obfuscate_tour`] |
//! | read and write files, draw | [`format::read`], [`format::tour_json`], [`format::grid`], [`format::tour_svg`] |
//! | count tours exactly | [`count::Counter`] (its `tours`, `classes`, `symmetric`, `all_lengths`, `all_cells`; their dry runs `project`, `symmetric_projection`, `all_lengths_projection`, `all_cells_projection`) |
//! | estimate a count | [`count::Estimate::builder`] ([`count::EstimateBuilder`]) |
//! | move statistics | [`stats::Summary::builder`], [`stats::MoveCounts`], [`stats::sample`] |
//! | encipher a text | [`cipher::encrypt`], [`cipher::decrypt`] with a [`cipher::Key`] |
//! | any job as data (serde), validated once | [`request::Request`] and its `run` |
//!
//! Long work (a search that restarts, a join, a cipher key's tour, a
//! count, an estimate, statistics) takes one [`Control`]: the caller's
//! [`StopFlag`] and a callback for its [`Progress`]. The kind of tour
//! wanted, closed, open or either, is a [`Wanted`].
//!
//! Errors are one [`Error`] type whose [`Error::category`] tells a front end
//! how to report them (an exit status, an HTTP status, an exception class),
//! and whose [`Error::hint`] is advice a front end says as its own option
//! (a flag, a query parameter, a keyword argument): no library message
//! names one.
//!
//! # Examples
//!
//! One tour, the default way (the construction, closed where the board has
//! a closed tour), then by Warnsdorff's rule from a corner:
//! ```
//! use knights::{Board, Kind, Tour, check, algorithms::{Tie, Warnsdorff}};
//! let board: Board = "8x8".parse()?;
//! let tour = Tour::builder(board).build()?;
//! assert_eq!(check::check_tour(&tour)?, Kind::Closed);
//! let open = Tour::builder(board)
//!     .open()
//!     .start(board.square(0, 0))
//!     .algorithm(Warnsdorff::default().tie(Tie::Pohl))
//!     .seed(7)
//!     .build()?;
//! assert_eq!(check::check_tour(&open)?, Kind::Open);
//! # Ok::<(), knights::Error>(())
//! ```
//!
//! Existence, with the theorem's reason:
//! ```
//! let answer = knights::exists::closed_tour("4x7".parse()?);
//! assert!(!answer.exists);
//! assert!(answer.reason.contains("side of 4"));
//! # Ok::<(), knights::Error>(())
//! ```
//!
//! A tourney, joined into one closed tour, then obfuscated:
//! ```
//! use knights::{Tourney, algorithms::TourneyMethod, rails};
//! let mut cover = Tourney::builder("12x12".parse()?).method(TourneyMethod::Braid).seed(1).cover()?;
//! let mut rng = knights::rng::seeded(1);
//! rails::join(&mut cover, &Default::default(), &mut rng)?;
//! rails::obfuscate(&mut cover, &Default::default(), &mut rng)?;
//! assert_eq!(knights::check::check_cover(&cover)?, 1);
//! # Ok::<(), knights::Error>(())
//! ```
//!
//! An exact count, and the cipher:
//! ```
//! use knights::{count, cipher::{self, Key, KeySpec}};
//! assert_eq!(count::Counter::new("6x6".parse()?).tours()?.count, 9862);
//! let key = Key::new("8x8,seed=5".parse::<KeySpec>()?.tour(&knights::Control::new())?)?;
//! let secret = cipher::encrypt(&key, "Meet me at the old mill.", cipher::Mode::Exact)?;
//! assert_eq!(cipher::decrypt(&key, &secret, cipher::Mode::Exact)?, "Meet me at the old mill.");
//! # Ok::<(), knights::Error>(())
//! ```
#![deny(missing_docs)]

pub mod algorithms;
pub mod board;
mod builder;
pub mod check;
pub mod cipher;
pub mod construct;
mod control;
pub mod count;
mod cover;
mod error;
pub mod exists;
pub mod format;
pub mod magic;
pub mod memory;
pub mod play;
pub mod puzzle;
pub mod rails;
pub mod request;
pub mod rng;
pub mod shape;
pub mod stats;
mod stop;
mod tour;
mod tourney;
mod wanted;

pub use board::{Board, Square};
pub use builder::{TourBuilder, TourneyBuilder};
pub use control::{Control, Phase, Progress};
pub use cover::Cover;
pub use error::{excerpt, Budget, Category, Error, Hint, Message, Result, Unhinted};
pub use shape::Shape;
pub use stop::StopFlag;
pub use tour::{Kind, Tour};
pub use tourney::Tourney;
pub use wanted::Wanted;

/// The crate's README (its page on crates.io), whose example runs as a
/// doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme {}
