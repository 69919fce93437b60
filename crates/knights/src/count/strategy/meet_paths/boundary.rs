//! A part's final state on the separator (as a boundary, and as links for
//! the join), a bottom state's request, and the sizes and pieces the
//! join works in.

use rayon::current_num_threads;

use crate::count::strategy::halves::MAX_WIDTH;

use crate::count::engine::number::ProductSum;

/// Bytes of memory a top state takes while the table is built: its
/// pattern, its links in the fold's form and its count.
pub(super) const TABLE_BYTES_PER_STATE: u64 = 48;

/// Bytes of memory a top state takes in the built table.
pub(super) const TABLE_BYTES_AT_REST: u64 = 32;

/// The held states (both parts' final states, waiting for the join) take
/// at most this share of the memory bound (one part in `HELD_SHARE`);
/// past it they go to disk (see the `shelf` module notes).
pub(super) const HELD_SHARE: u64 = 3;

/// The buckets, by pattern, the top's held states are kept in: the table
/// is built in parts of whole buckets.
pub(super) const TOP_BUCKETS: usize = 256;

/// Bytes of memory a bottom state's request takes until the join.
pub(super) const REQUEST_BYTES: u64 = 48;

/// The final states of the bottom (or lower) part joined at once, at most.
pub(super) const BLOCK: usize = 1 << 20;

/// A part's final state on the separator: degrees (2 bits a square), the
/// terminals inside the part, and for each square of degree 1 its mate
/// (4 bits a square: the square at the path's other end, or the square
/// itself when the path leads to a terminal inside the part).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Boundary {
    pub(super) degrees: u32,
    pub(super) term: u8,
    pub(super) mates: u64,
}

impl Boundary {
    /// The boundary as one number, to sort and add up by.
    pub(super) fn packed(&self) -> u128 {
        u128::from(self.degrees) | u128::from(self.mates) << 32 | u128::from(self.term) << 96
    }

    pub(super) fn unpacked(k: u128) -> Boundary {
        Boundary {
            degrees: k as u32,
            mates: (k >> 32) as u64,
            term: (k >> 96) as u8,
        }
    }
}

/// Boundaries with their counts as packed numbers (see [`Boundary::packed`]).
pub(super) fn packed(states: &[(Boundary, u128)]) -> Vec<(u128, u128)> {
    states.iter().map(|(b, c)| (b.packed(), *c)).collect()
}

/// Two partial results of a join added.
pub(super) fn plus(mut a: (ProductSum, u64), b: (ProductSum, u64)) -> (ProductSum, u64) {
    a.0.add(b.0);
    a.1 += b.1;
    a
}

/// How many states one parallel piece of a join takes: about four pieces
/// a thread, and at least 1024 states.
pub(super) fn piece_size(states: usize) -> usize {
    (states / (4 * current_num_threads().max(1))).max(1 << 10)
}

/// A bottom state's request to the table: the top pattern it meets, its
/// program against that pattern (see the `fold` module notes) and its
/// count.
pub(super) type Request = (u64, u128, u128);

/// A boundary ready for a [`Walk`]: each separator square's link in its
/// part (the square at the other end of its path, or [`SINK`] for a square
/// of degree 0 or 2 and for a path to a terminal inside the part), and
/// masks of the squares of degree 1 and of those linked to a terminal.
#[derive(Copy, Clone, Debug)]
pub(super) struct Links {
    pub(super) link: [u8; 2 * MAX_WIDTH + 1],
    pub(super) ends: u32,
    pub(super) terminal: u32,
}

/// Where a walk over the links goes when its path ends; it stays there.
pub(super) const SINK: u8 = 2 * MAX_WIDTH as u8;

impl Links {
    pub(super) fn of(p: &Boundary, seps: usize) -> Links {
        let mut out = Links {
            link: [SINK; 2 * MAX_WIDTH + 1],
            ends: 0,
            terminal: 0,
        };
        for s in 0..seps {
            if (p.degrees >> (2 * s)) & 3 == 1 {
                let m = ((p.mates >> (4 * s)) & 15) as usize;
                out.ends |= 1 << s;
                if m == s {
                    out.terminal |= 1 << s;
                } else {
                    out.link[s] = m as u8;
                }
            }
        }
        out
    }
}
