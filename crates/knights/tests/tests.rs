//! The library's integration tests: one binary, a module per topic.

mod classic;
mod boards;
mod count;
mod robust;
mod stats;
mod suite;
mod tourney;
