//! Projecting a count before and while it runs: the model of its peak
//! states, disk and time (`project`), the trial run that feeds the model
//! (`trial`), and the time left of a running count (`time_left`).

pub mod project;
pub mod time_left;
pub(in crate::count) mod trial;
