//! Load test.
