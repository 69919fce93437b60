//! The library's integration tests: one binary, a module per topic.

mod boards;
mod classic;
mod count;
mod magic;
#[cfg(feature = "raster")]
mod pictures;
mod play;
mod puzzle;
mod robust;
mod squares;
mod stats;
mod suite;
mod tourney;
