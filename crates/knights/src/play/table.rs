//! The table of failures: positions of one search (the visited squares, the
//! knight's square, the start) proven unfinishable, so that a position met
//! again, by another order of the same moves or in the search of another
//! hint, is not searched again. A hash picks the slot; the slot keeps the
//! whole position and a hit must match it exactly, so a collision only
//! costs a search, never a wrong refusal. The memory is bounded (a fixed
//! number of slots, each holding the last failure hashed to it).

use crate::board::Square;
use crate::Wanted;

/// Most slots in a table.
const MOST_SLOTS: usize = 1 << 20;
/// Most words of visited sets a table keeps (32 MiB).
const MOST_WORDS: usize = 1 << 22;

/// Failures proven by the searches of one position (one goal and end).
pub(crate) struct Failures {
    /// The goal and end the failures were proven for.
    goal: Wanted,
    end: Option<Square>,
    /// Words of a visited set.
    words: usize,
    slots: usize,
    /// Per slot: the hash (0 for empty), the knight's square and the start.
    keys: Vec<u64>,
    squares: Vec<(Square, Square)>,
    /// Per slot, `words` words: the visited squares.
    sets: Vec<u64>,
}

impl Failures {
    /// A table for searches of a board of `squares` squares under `goal`
    /// and `end`, sized for about `nodes` search nodes. The memory is
    /// taken on the first failure stored.
    pub fn new(squares: usize, goal: Wanted, end: Option<Square>, nodes: u64) -> Failures {
        let words = squares.div_ceil(64).max(1);
        let wanted = usize::try_from(nodes).unwrap_or(usize::MAX);
        let slots = wanted
            .clamp(1 << 10, MOST_SLOTS)
            .min(MOST_WORDS / words)
            .next_power_of_two()
            .max(1);
        Failures {
            goal,
            end,
            words,
            slots,
            keys: Vec::new(),
            squares: Vec::new(),
            sets: Vec::new(),
        }
    }

    /// Whether the table holds failures proven for `goal` and `end`.
    pub fn serves(&self, goal: Wanted, end: Option<Square>) -> bool {
        self.goal == goal && self.end == end
    }

    fn slot(&self, hash: u64) -> usize {
        (hash >> 32 ^ hash) as usize & (self.slots - 1)
    }

    /// Whether the position (`hash`, the `visited` set, the knight on `c`,
    /// the path from `start`) is a stored failure.
    pub fn holds(&self, hash: u64, visited: &[u64], c: Square, start: Square) -> bool {
        if self.keys.is_empty() {
            return false;
        }
        let i = self.slot(hash);
        self.keys[i] == hash | 1
            && self.squares[i] == (c, start)
            && self.sets[i * self.words..(i + 1) * self.words] == *visited
    }

    /// Stores the position as a failure, in place of its slot's last one.
    pub fn store(&mut self, hash: u64, visited: &[u64], c: Square, start: Square) {
        if self.keys.is_empty() {
            self.keys = vec![0; self.slots];
            self.squares = vec![(0, 0); self.slots];
            self.sets = vec![0; self.slots * self.words];
        }
        let i = self.slot(hash);
        self.keys[i] = hash | 1;
        self.squares[i] = (c, start);
        self.sets[i * self.words..(i + 1) * self.words].copy_from_slice(visited);
    }
}

/// The hash key of square `s` in the visited set (a fixed mix of its
/// number, the same on every machine).
pub(crate) fn key(s: Square) -> u64 {
    let mut z = u64::from(s)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The hash of a position whose visited set hashes to `set`, with the
/// knight on `c` and the path from `start`.
pub(crate) fn position_hash(set: u64, c: Square, start: Square) -> u64 {
    set ^ key(c).rotate_left(21) ^ key(start).rotate_left(42)
}
