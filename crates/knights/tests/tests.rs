//! The library's integration tests: one binary, one module per topic.

mod count;
