//! # knights
//!
//! Knight's tours on any rectangular board: the board model and knight
//! graph, the compact cycle-cover form used by the tourney method, one
//! independent checker, the existence theorems, file formats and pictures,
//! and the generators built on them.
//!
//! Squares are numbered row-major from the top-left corner; moves are
//! numbered 0 to 7 as in Parberry's tourney paper (see [`board::MOVES`]).
//!
//! # Example
//! ```
//! use knights::{Board, check, algorithms::warnsdorff};
//! let board: Board = "8x8".parse()?;
//! let mut rng = knights::rng::seeded(42);
//! let tour = warnsdorff::tour(board, &warnsdorff::Options::closed(), &mut rng)?;
//! assert_eq!(check::check_tour(&tour)?, check::TourKind::Closed);
//! # Ok::<(), knights::Error>(())
//! ```
#![deny(missing_docs)]

pub mod algorithms;
pub mod board;
pub mod check;
pub mod cipher;
pub mod count;
pub mod cover;
mod error;
pub mod exists;
pub mod format;
pub mod memory;
pub mod rails;
pub mod rng;
pub mod stats;
pub mod tour;
pub mod tourney;

pub use board::{Board, Square};
pub use cover::Cover;
pub use error::{excerpt, Error, Result};
pub use tour::Tour;
pub use tourney::Tourney;
