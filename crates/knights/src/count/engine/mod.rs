//! The counting engine: the frontier dynamic program's states and steps
//! (`frontier`), the executors that store and step them in memory, on
//! disk or across processes (`executor`), and the exact counts they carry
//! (`number`).

pub(in crate::count) mod executor;
pub(in crate::count) mod frontier;
pub(in crate::count) mod number;
