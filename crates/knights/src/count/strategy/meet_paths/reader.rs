//! Reading a part's final states as boundaries on the separator, and the
//! separator's symmetries.

use super::boundary::Boundary;
use crate::count::engine::frontier::{Engine, DONE, END, UNTOUCHED};
use crate::count::strategy::halves::{Part, MAX_WIDTH};

/// A symmetry of the separator: the square each separator square goes to,
/// looked up rather than computed (a boundary is relabelled once for every
/// state of a final layer and every bottom state a middle makes).
#[derive(Copy, Clone, Debug)]
pub(super) struct Relabel {
    pub(super) image: [u8; 2 * MAX_WIDTH],
    pub(super) seps: usize,
}

impl Relabel {
    pub(super) fn new(w: usize, image: impl Fn(usize) -> usize) -> Relabel {
        Relabel::of_image(&(0..2 * w).map(image).collect::<Vec<_>>())
    }

    /// The relabelling of a separator whose square `s` goes to `image[s]`.
    pub(super) fn of_image(image: &[usize]) -> Relabel {
        let mut out = Relabel {
            image: [0; 2 * MAX_WIDTH],
            seps: image.len(),
        };
        for (s, &t) in image.iter().enumerate() {
            out.image[s] = t as u8;
        }
        out
    }

    /// Upside down: the two separator rows swapped.
    pub(super) fn swap(w: usize) -> Relabel {
        Relabel::new(w, |s| (s + w) % (2 * w))
    }

    /// The mirror image: column `c` of each separator row becomes column
    /// `w - 1 - c`.
    pub(super) fn mirror(w: usize) -> Relabel {
        Relabel::new(w, |s| s - s % w + (w - 1 - s % w))
    }

    /// The boundary `b` with each separator square moved to its image.
    #[inline]
    pub(super) fn of(&self, b: &Boundary) -> Boundary {
        let mut out = Boundary {
            degrees: 0,
            term: b.term,
            mates: 0,
        };
        for s in 0..self.seps {
            let d = (b.degrees >> (2 * s)) & 3;
            let to = u32::from(self.image[s]);
            out.degrees |= d << (2 * to);
            if d == 1 {
                let m = ((b.mates >> (4 * s)) & 15) as usize;
                out.mates |= u64::from(self.image[m]) << (4 * to);
            }
        }
        out
    }
}

/// Reads a part's final states as boundaries: the separator square of each
/// slot of the part's final frontier.
pub(super) struct Reader {
    pub(super) sep_of_slot: Vec<u8>,
    /// The separator squares that left the frontier (they have all their
    /// edges in the part).
    pub(super) gone: u32,
}

impl Reader {
    pub(super) fn new(part: &Part, engine: &Engine) -> Reader {
        Reader::of(&part.sep_of, 2 * part_width(part), engine)
    }

    /// The reader of a part with `seps` separator squares whose vertices
    /// have the separator indices `sep_of`.
    pub(super) fn of(sep_of: &[Option<u8>], seps: usize, engine: &Engine) -> Reader {
        let sep_of_slot: Vec<u8> = engine
            .final_frontier
            .iter()
            .map(|&v| sep_of[v].expect("only separator squares stay in a part's frontier"))
            .collect();
        let all = (1u32 << seps) - 1;
        let seen = sep_of_slot.iter().fold(0u32, |m, &s| m | 1 << s);
        Reader {
            sep_of_slot,
            gone: all & !seen,
        }
    }

    /// The boundaries of the final states of `chunk`, with their counts.
    pub(super) fn boundaries(
        &self,
        engine: &Engine,
        chunk: &[(u128, u128)],
    ) -> Vec<(Boundary, u128)> {
        chunk
            .iter()
            .map(|&(key, c)| (self.boundary(engine, key), c))
            .collect()
    }

    /// The separator's degrees, terminals and mates in a final state.
    pub(super) fn boundary(&self, engine: &Engine, key: u128) -> Boundary {
        let (st, mate) = engine.final_roles(key);
        let (mut degrees, mut term, mut mates) = (0u32, 0u8, 0u64);
        for (slot, &s) in self.sep_of_slot.iter().enumerate() {
            let d = match st[slot] {
                UNTOUCHED => 0,
                END => 1,
                DONE => 2,
                _ => unreachable!("a role is untouched, end or done"),
            };
            degrees |= d << (2 * s);
            if d == 1 {
                let m = mate[slot];
                let other = if m == crate::count::engine::frontier::FREE {
                    term += 1;
                    s
                } else {
                    self.sep_of_slot[m as usize]
                };
                mates |= u64::from(other) << (4 * s);
            }
        }
        let mut gone = self.gone;
        while gone != 0 {
            degrees |= 2 << (2 * gone.trailing_zeros());
            gone &= gone - 1;
        }
        Boundary {
            degrees,
            term,
            mates,
        }
    }
}

fn part_width(part: &Part) -> usize {
    part.sep_of.iter().flatten().count() / 2
}
