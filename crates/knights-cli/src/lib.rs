//! What the `knights` command and the research harness `knights-lab` share:
//! how they write ([`output`]), read ([`io_util`]), report progress and
//! parse option values ([`support`]), and how they end ([`exit`]). The
//! commands themselves live in the `knights` binary (`src/main.rs`).

pub mod exit;
pub mod io_util;
pub mod output;
pub mod support;
