//! The library's integration tests, one module per topic.

mod classic;
