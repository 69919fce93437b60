//! The library's integration tests: one binary, a module per topic.

mod classic;
mod count;
mod stats;
mod suite;
mod tourney;
