//! The table of the top part's final states by pattern, the patterns a
//! state meets, and a state's links on the separator.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

#[cfg(test)]
use super::boundary::SINK;
use super::boundary::{Boundary, Links, Request};
use super::fold;
use super::reader::Relabel;
use crate::Result;

/// The top part's final states, unfolded from their mirror images, in
/// runs of one pattern (degrees and terminals) each, and each pattern's
/// run. A state is kept as its links in the fold's form (see
/// `fold::links`), ready to be folded.
pub(super) struct Table {
    pub(super) states: Vec<(u128, u128)>,
    pub(super) runs: FxHashMap<u64, (usize, usize)>,
    /// The patterns with a run, a bit for each [`pattern_index`]: most
    /// patterns a bottom state looks up have none. A pattern withdrawn
    /// from a join ([`Table::withdraw`]) loses its bit.
    present: Vec<AtomicU64>,
    pub(super) seps: usize,
}

impl Table {
    /// The table of the top's states (from [`unfolded`], in any order).
    pub(super) fn new(mut entries: Vec<(u64, u128, u128)>, seps: usize) -> Table {
        // In runs: the states a bottom state meets lie together in memory.
        entries.par_sort_unstable_by_key(|e| e.0);
        let mut runs: FxHashMap<u64, (usize, usize)> = FxHashMap::default();
        let mut present: Vec<u64> = vec![0; (3 * 3usize.pow(seps as u32)).div_ceil(64)];
        let mut start = 0;
        for i in 0..entries.len() {
            if i + 1 == entries.len() || entries[i + 1].0 != entries[i].0 {
                runs.insert(entries[i].0, (start, i + 1));
                let p = pattern_index(entries[i].0, seps);
                present[p / 64] |= 1 << (p % 64);
                start = i + 1;
            }
        }
        let mut states: Vec<(u128, u128)> = entries.into_iter().map(|(_, l, c)| (l, c)).collect();
        // Collected in place: give back the third the patterns took.
        states.shrink_to_fit();
        Table {
            states,
            runs,
            present: present.into_iter().map(AtomicU64::new).collect(),
            seps,
        }
    }

    /// Whether the top states of `pattern` (a [`pattern_key`] with a run
    /// in the table) were withdrawn from its join.
    pub(super) fn withdrawn(&self, pattern: u64) -> bool {
        let p = pattern_index(pattern, self.seps);
        self.present[p / 64].load(Ordering::Relaxed) >> (p % 64) & 1 == 0
    }

    /// Withdraws the top states of `pattern` from this table's join: no
    /// bottom state asks for them any more, and requests made before are
    /// passed over (a later table joins them whole).
    pub(super) fn withdraw(&self, pattern: u64) {
        let p = pattern_index(pattern, self.seps);
        self.present[p / 64].fetch_and(!(1 << (p % 64)), Ordering::Relaxed);
    }

    /// Adds to `out` the requests of the bottom state `b` with `count`:
    /// one for each pattern of the table it can meet.
    pub(super) fn requests(&self, b: &Boundary, count: u128, out: &mut Vec<Request>) -> Result<()> {
        // The links only once a pattern is present: in a table built in
        // parts most bottom states meet none of a part's patterns.
        let mut links = None;
        let mut failed = None;
        each_pattern(pattern_key(b.degrees, b.term), self.seps, |pattern, p| {
            if self.present[p / 64].load(Ordering::Relaxed) >> (p % 64) & 1 == 0 {
                return;
            }
            let links = links.get_or_insert_with(|| Links::of(b, self.seps));
            match fold::program(links, ends_of(pattern as u32), self.seps) {
                Ok(Some(program)) => out.push((pattern, program, count)),
                Ok(None) => {}
                Err(e) => failed = Some(e),
            }
        });
        failed.map_or(Ok(()), Err)
    }
}

/// The top's final states of `chunk` as table entries: pattern, links (in
/// the fold's form) and count. They are kept up to mirror image, each with the count of itself
/// and its image, which have the same count (the part is symmetric):
/// unfold them into the exact, symmetric table. (A state whose count is odd
/// has no completion, so the halves do not matter.)
pub(super) fn unfolded(
    chunk: &[(Boundary, u128)],
    seps: usize,
    mirror: Option<&Relabel>,
) -> Vec<(u64, u128, u128)> {
    let entry = |b: &Boundary, c: u128| {
        (
            pattern_key(b.degrees, b.term),
            fold::links(&Links::of(b, seps), seps),
            c,
        )
    };
    let Some(mirror) = mirror else {
        return chunk.iter().map(|&(b, c)| entry(&b, c)).collect();
    };
    let mut out = Vec::with_capacity(2 * chunk.len());
    for &(b, c) in chunk {
        let m = mirror.of(&b);
        if m == b {
            out.push(entry(&b, c));
        } else {
            out.push(entry(&b, c / 2));
            out.push(entry(&m, c - c / 2));
        }
    }
    out
}

/// The squares of degree 1 (a bit a square) among `degrees` (2 bits a
/// square).
fn ends_of(degrees: u32) -> u32 {
    // Degree 1 is the low bit of a square's two without the high one.
    let mut ones = degrees & !(degrees >> 1) & 0x5555_5555;
    // Every other bit, gathered.
    ones = (ones | ones >> 1) & 0x3333_3333;
    ones = (ones | ones >> 2) & 0x0f0f_0f0f;
    ones = (ones | ones >> 4) & 0x00ff_00ff;
    (ones | ones >> 8) & 0xffff
}

/// The table's key of a bottom pattern: its degrees and its terminals.
pub(super) fn pattern_key(degrees: u32, term: u8) -> u64 {
    u64::from(degrees) | (u64::from(term) << 32)
}

/// Calls `f` with the key of every pattern of the other part that a
/// state of one part with pattern `t` (degrees and terminals) can meet,
/// and with its [`pattern_index`]: degrees `2 - d` on every separator
/// square, less one on each of at most `2 - t.term` squares of degree 0 or
/// 1 (which become terminals), with the terminals left for the other part.
pub(super) fn each_pattern(t: u64, seps: usize, mut f: impl FnMut(u64, usize)) {
    let (degrees, term) = (t as u32, (t >> 32) as u8);
    let deg = |s: usize| (degrees >> (2 * s)) & 3;
    let (mut base, mut index) = (0u32, 0usize);
    for s in (0..seps).rev() {
        base |= (2 - deg(s)) << (2 * s);
        index = 3 * index + (2 - deg(s)) as usize;
    }
    let free = 2 - term;
    let plane = 3usize.pow(seps as u32);
    f(pattern_key(base, free), index + usize::from(free) * plane);
    if free == 0 {
        return;
    }
    let mut weight_a = 1;
    for a in 0..seps {
        if deg(a) <= 1 {
            let one = base - (1 << (2 * a));
            let one_index = index - weight_a;
            f(
                pattern_key(one, free - 1),
                one_index + usize::from(free - 1) * plane,
            );
            if free == 2 {
                let mut weight_b = 3 * weight_a;
                for b in a + 1..seps {
                    if deg(b) <= 1 {
                        f(pattern_key(one - (1 << (2 * b)), 0), one_index - weight_b);
                    }
                    weight_b *= 3;
                }
            }
        }
        weight_a *= 3;
    }
}

/// A pattern's place among all patterns of `seps` squares: its degrees in
/// base 3, then its terminals.
pub(super) fn pattern_index(k: u64, seps: usize) -> usize {
    let (degrees, term) = (k as u32, (k >> 32) as usize);
    let index = (0..seps)
        .rev()
        .fold(0, |i, s| 3 * i + ((degrees >> (2 * s)) & 3) as usize);
    index + term * 3usize.pow(seps as u32)
}

/// Whether a top and a bottom state whose degrees fit make one path (see
/// [`Walk`]).
#[cfg(test)]
pub(super) fn one_path(t: &Links, b: &Links) -> bool {
    Walk::new(t.ends, b).one_path(t, b)
}

/// The test of the top states of one pattern against one bottom state.
///
/// The separator squares of degree 1 in either part are the *nodes*; in
/// each part a node's link is the node at the other end of its path, or
/// none at an end of the whole path: a path to a terminal inside the part,
/// or a terminal of the separator (degree 1 in one part, 0 in the other).
/// The two parts make one path when the walk from an end, leaving by its
/// one link and then taking the two parts' links in turn, meets every node:
/// since each node has one link in each part, the walk never comes back to
/// a node, so after `nodes - 1` steps it stands on the last node unless it
/// fell into [`SINK`] before. The top states of a pattern share their
/// nodes, so the node count and an end on the bottom's side are found once
/// for the run.
#[cfg(test)]
pub(super) struct Walk {
    pub(super) nodes: u32,
    /// The end the walk starts from when the bottom or the degrees give
    /// one (a square with a path to the bottom's terminal, or a terminal of
    /// the separator), and whether it leaves by its bottom link.
    pub(super) start: Option<(usize, bool)>,
}

#[cfg(test)]
impl Walk {
    pub(super) fn new(top_ends: u32, b: &Links) -> Walk {
        let bottom_only = b.ends & !top_ends;
        let ends = b.terminal | (top_ends ^ b.ends);
        let start = (ends != 0).then(|| {
            let s = ends.trailing_zeros() as usize;
            (s, bottom_only >> s & 1 == 1)
        });
        Walk {
            nodes: (top_ends | b.ends).count_ones(),
            start,
        }
    }

    #[inline]
    pub(super) fn one_path(&self, t: &Links, b: &Links) -> bool {
        // Otherwise both ends of the path are the top's terminals.
        let (mut s, by_bottom) = match self.start {
            Some(start) => start,
            None if t.terminal != 0 => (t.terminal.trailing_zeros() as usize, true),
            None => return false,
        };
        let mut steps = self.nodes - 1;
        if by_bottom && steps > 0 {
            s = usize::from(b.link[s]);
            steps -= 1;
        }
        while steps >= 2 {
            s = usize::from(b.link[usize::from(t.link[s])]);
            steps -= 2;
        }
        if steps == 1 {
            s = usize::from(t.link[s]);
        }
        s != usize::from(SINK)
    }
}
