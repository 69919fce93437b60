//! The command-line tests: the real `knights` binary, one module per topic.

mod cli;
