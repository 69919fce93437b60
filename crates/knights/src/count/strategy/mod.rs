//! The strategies that count: meeting in the middle for closed tours
//! (`meet`) and open ones (`meet_paths`), across a small separator
//! (`separator`), with the board cut in two (`halves`), and counts of
//! tours with a symmetry or up to one (`symmetry`). Each runs the
//! frontier programs of `super::engine` on the parts the plan names.

pub(in crate::count) mod halves;
pub(in crate::count) mod meet;
pub(in crate::count) mod meet_paths;
pub(in crate::count) mod separator;
pub(in crate::count) mod symmetry;
