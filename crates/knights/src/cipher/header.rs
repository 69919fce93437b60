//! The exact format's header words, below both modes: the exact mode writes
//! and reads them, the classic mode recognises an exact ciphertext by them.

/// The first word of the header.
pub(super) const MAGIC: &str = "knights-cipher";
/// The format version this code writes and reads.
pub(super) const VERSION: &str = "v1";
