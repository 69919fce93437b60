//! The join of the two parts' final states by folding: the bottom states'
//! links are added to the top states one at a time, the bottom states that
//! begin alike share that work, and top states that become alike are
//! added up.
//!
//! A top state and a bottom state of complementary patterns make one path
//! when their union has no cycle (the patterns already fix the path's two
//! ends). Testing every pair of a pattern costs the product of the two
//! runs, which on 7-wide boards is thousands of times the states. Instead each
//! bottom state is written as a short program of *steps* on the top's
//! links, in a fixed order ([`program`]): *join* `u` and `v` (its path
//! from `u` to `v`) or *end* `u` (its path from `u` leads to an end of the
//! whole path). A top state is held as its *links*: for each separator
//! square of degree 1, the square at the other end of its path, or a
//! terminal mark. A step removes its squares from the links: joining `u`
//! and `v` links the far ends of their paths to each other (or dies, when
//! `u`'s path already ends at `v`: a cycle), and ending `u` marks the far
//! end of its path as leading to a terminal. When both ends of one path
//! lead to terminals, the whole path is made, and only a top state left
//! with no links at all lives on, as *closed*.
//!
//! The bottom states of one pattern, sorted by program, form a trie. The
//! top states of the pattern are folded down it: at each node, every top
//! state takes the node's step, and equal results are added up, so that a
//! node deep in the trie holds few distinct top states whatever the run's
//! length; a bottom state whose program ends at a node meets the closed
//! top states there. The cost follows the table and the bottom states,
//! not their pairs.

use super::boundary::Links;
use crate::count::engine::number::ProductSum;
use crate::{Error, Result};

/// Bits a separator square's link takes in a top state's links.
const LINK_BITS: u32 = 5;
const LINK_MASK: u128 = (1 << LINK_BITS) - 1;
/// A link to a terminal inside a part.
const TERMINAL: u128 = 16;
/// No link: the square has degree 0 or 2, or its path was taken.
const NONE: u128 = LINK_MASK;
/// Separator squares a top state's links hold.
const SQUARES: usize = 16;
/// The links with no square linked.
const EMPTY: u128 = (1 << (LINK_BITS as usize * SQUARES)) - 1;
/// A whole path made, every link taken.
const CLOSED: u128 = EMPTY | 1 << 127;

/// Bits a step takes in a program: the first square plus one (5 bits),
/// then the second (4 bits; the same square for an end).
const STEP_BITS: u32 = 9;
const STEP_MASK: u128 = (1 << STEP_BITS) - 1;
/// Steps a program holds, the first in the highest bits.
const MAX_STEPS: usize = 14;

/// The links of a top state (see the module notes).
pub(super) fn links(t: &Links, seps: usize) -> u128 {
    let mut out = EMPTY;
    for s in 0..seps {
        if t.ends >> s & 1 == 1 {
            let to = if t.terminal >> s & 1 == 1 {
                TERMINAL
            } else {
                u128::from(t.link[s])
            };
            out = with(out, s, to);
        }
    }
    out
}

fn link(l: u128, s: usize) -> u128 {
    (l >> (LINK_BITS as usize * s)) & LINK_MASK
}

fn with(l: u128, s: usize, to: u128) -> u128 {
    let at = LINK_BITS as usize * s;
    (l & !(LINK_MASK << at)) | to << at
}

/// A step: join `u < v`, or end `u` (`v == u`).
fn step(u: usize, v: usize) -> u128 {
    ((u as u128 + 1) << 4) | v as u128
}

/// The program of the bottom state `b` against a top pattern whose
/// squares of degree 1 are `top_ends` (a bit a square), packed in one
/// number that sorts programs step by step; `None` when the two cannot
/// make one path whatever the top's links (a path of the bottom that runs
/// between two ends of the whole path).
pub(super) fn program(b: &Links, top_ends: u32, seps: usize) -> Result<Option<u128>> {
    let mut steps = [0u128; SQUARES];
    let mut n = 0;
    let mut done = 0u32;
    for s in 0..seps {
        let (top, bottom) = (top_ends >> s & 1 == 1, b.ends >> s & 1 == 1);
        if done >> s & 1 == 1 || !(top || bottom) {
            continue;
        }
        done |= 1 << s;
        let to_terminal = b.terminal >> s & 1 == 1;
        let mate = usize::from(b.link[s]);
        steps[n] = match (top, bottom) {
            // An end of the whole path on the separator, reached by the top.
            (true, false) => step(s, s),
            // One reached by the bottom: the top's path at its mate ends.
            (false, _) => {
                if to_terminal || top_ends >> mate & 1 == 0 {
                    return Ok(None);
                }
                done |= 1 << mate;
                step(mate, mate)
            }
            (true, true) if to_terminal => step(s, s),
            (true, true) => {
                done |= 1 << mate;
                if top_ends >> mate & 1 == 1 {
                    step(s.min(mate), s.max(mate))
                } else {
                    step(s, s)
                }
            }
        };
        n += 1;
    }
    if n > MAX_STEPS {
        return Err(Error::Internal(
            format!("a bottom state needs {n} steps, more than {MAX_STEPS}").into(),
        ));
    }
    steps[..n].sort_unstable();
    let top = STEP_BITS as usize * (MAX_STEPS - 1);
    Ok(Some(steps[..n].iter().enumerate().fold(0, |k, (i, &s)| {
        k | s << (top - STEP_BITS as usize * i)
    })))
}

/// The step at `depth` of a packed program (0: the program has ended).
fn step_at(program: u128, depth: usize) -> u128 {
    if depth >= MAX_STEPS {
        return 0;
    }
    (program >> (STEP_BITS as usize * (MAX_STEPS - 1 - depth))) & STEP_MASK
}

/// The links `l` after the step `s`, or `None` if they die.
fn after(l: u128, s: u128) -> Option<u128> {
    if l == CLOSED {
        return None;
    }
    let (u, v) = ((s >> 4) as usize - 1, (s & 15) as usize);
    let x = link(l, u);
    if x == NONE {
        // Not a square of degree 1 in the top: no program asks this.
        return None;
    }
    let l = with(l, u, NONE);
    if u == v {
        return if x == TERMINAL {
            closed(l)
        } else {
            Some(with(l, x as usize, TERMINAL))
        };
    }
    let y = link(l, v);
    if x == v as u128 || x == NONE || y == NONE {
        return None;
    }
    let l = with(l, v, NONE);
    match (x == TERMINAL, y == TERMINAL) {
        (true, true) => closed(l),
        (true, false) => Some(with(l, y as usize, TERMINAL)),
        (false, true) => Some(with(l, x as usize, TERMINAL)),
        (false, false) => Some(with(with(l, x as usize, y), y as usize, x)),
    }
}

/// A path between two terminals was made: the whole path if no link is
/// left, else the rest can only close cycles.
fn closed(l: u128) -> Option<u128> {
    (l == EMPTY).then_some(CLOSED)
}

/// The top states `top` (links, count) after the step `s` into `out`,
/// equal ones added up.
fn fold_into(top: &[(u128, u128)], s: u128, out: &mut Vec<(u128, u128)>) -> Result<()> {
    out.clear();
    out.extend(top.iter().filter_map(|&(l, c)| after(l, s).map(|l| (l, c))));
    out.sort_unstable_by_key(|e| e.0);
    let mut w = 0;
    for i in 0..out.len() {
        if w > 0 && out[w - 1].0 == out[i].0 {
            out[w - 1].1 = out[w - 1].1.checked_add(out[i].1).ok_or_else(overflow)?;
        } else {
            out[w] = out[i];
            w += 1;
        }
    }
    out.truncate(w);
    Ok(())
}

fn overflow() -> Error {
    Error::Internal("a sum of a part's counts passed 2^128 in the join".into())
}

/// Buffers a thread reuses from one pattern's join to the next: the top
/// and bottom states of a pattern, and the top states at each depth of the
/// trie (fresh buffers of this size would cost more in the kernel's
/// zeroing of new pages than the join itself).
#[derive(Default)]
pub(super) struct Scratch {
    pub top: Vec<(u128, u128)>,
    pub bottom: Vec<(u128, u128)>,
    levels: Vec<Vec<(u128, u128)>>,
}

/// The join of one pattern: the top states `scratch.top` (links, count,
/// in any order, each links once) and the bottom states `scratch.bottom`
/// (program, count, sorted by program); adds to `sum` the products of the
/// counts of the pairs that make one path, and returns the top entries
/// worked through.
pub(super) fn join(scratch: &mut Scratch, sum: &mut ProductSum) -> Result<u64> {
    let Scratch {
        top,
        bottom,
        levels,
    } = scratch;
    levels.resize_with(MAX_STEPS + 1, Vec::new);
    let mut work = 0;
    down(top, bottom, 0, levels, sum, &mut work)?;
    Ok(work)
}

/// The trie's node at `depth` under which the bottom states `bottom` lie,
/// with the top states `top` that reached it; `levels[0]` is this node's
/// buffer for its children's top states.
fn down(
    top: &[(u128, u128)],
    bottom: &[(u128, u128)],
    depth: usize,
    levels: &mut [Vec<(u128, u128)>],
    sum: &mut ProductSum,
    work: &mut u64,
) -> Result<()> {
    let Some((here, deeper)) = levels.split_first_mut() else {
        return Err(Error::Internal("a program longer than its bound".into()));
    };
    if top.len().min(bottom.len()) <= DIRECT {
        return direct(top, bottom, depth, sum, work);
    }
    let mut from = 0;
    while from < bottom.len() {
        let s = step_at(bottom[from].0, depth);
        let mut to = from + 1;
        while to < bottom.len() && step_at(bottom[to].0, depth) == s {
            to += 1;
        }
        if s == 0 {
            meet_closed(top, &bottom[from..to], sum)?;
        } else {
            *work += top.len() as u64;
            fold_into(top, s, here)?;
            if !here.is_empty() {
                down(here, &bottom[from..to], depth + 1, deeper, sum, work)?;
            }
        }
        from = to;
    }
    Ok(())
}
/// Below this many top states or bottom states at a node, each pair is
/// walked to its end: the sorting that adds up equal top states costs
/// more than it saves where one side is this small.
const DIRECT: usize = 2;

/// The rest of the join under a node at `depth` pair by pair: each top
/// state takes each bottom state's remaining steps, and the pairs that
/// end closed add the product of their counts.
fn direct(
    top: &[(u128, u128)],
    bottom: &[(u128, u128)],
    depth: usize,
    sum: &mut ProductSum,
    work: &mut u64,
) -> Result<()> {
    for &(program, count) in bottom {
        let mut closed = 0u128;
        for &(l, c) in top {
            let mut l = Some(l);
            let mut d = depth;
            while let Some(x) = l {
                let s = step_at(program, d);
                if s == 0 {
                    break;
                }
                *work += 1;
                l = after(x, s);
                d += 1;
            }
            if l == Some(CLOSED) {
                closed = closed.checked_add(c).ok_or_else(overflow)?;
            }
        }
        if closed > 0 {
            sum.add_product(count, closed);
        }
    }
    Ok(())
}

/// Bottom states whose programs ended meet the closed top states.
fn meet_closed(top: &[(u128, u128)], bottom: &[(u128, u128)], sum: &mut ProductSum) -> Result<()> {
    let mut closed = 0u128;
    for &(l, c) in top {
        if l == CLOSED {
            closed = closed.checked_add(c).ok_or_else(overflow)?;
        }
    }
    if closed > 0 {
        for &(_, c) in bottom {
            sum.add_product(c, closed);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::boundary::SINK;
    use super::super::table::Walk;
    use super::*;
    use crate::count::strategy::halves::MAX_WIDTH;
    use proptest::prelude::*;

    /// A part's state on `seps` squares: `ends` paired in order of
    /// `order`, the first `marks` of them leading to terminals.
    fn state(ends: u32, order: &[usize], marks: usize) -> Links {
        let mut l = Links {
            link: [SINK; 2 * MAX_WIDTH + 1],
            ends,
            terminal: 0,
        };
        let squares: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&s| ends >> s & 1 == 1)
            .collect();
        for &s in &squares[..marks] {
            l.terminal |= 1 << s;
        }
        for pair in squares[marks..].chunks(2) {
            l.link[pair[0]] = pair[1] as u8;
            l.link[pair[1]] = pair[0] as u8;
        }
        l
    }

    /// Whether the fold joins `t` and `b` into one path.
    fn folds(t: &Links, b: &Links, seps: usize) -> bool {
        let Some(p) = program(b, t.ends, seps).unwrap() else {
            return false;
        };
        let mut scratch = Scratch {
            top: vec![(links(t, seps), 1)],
            bottom: vec![(p, 1)],
            ..Scratch::default()
        };
        let mut sum = ProductSum::default();
        join(&mut scratch, &mut sum).unwrap();
        sum.total() == 1u128
    }

    /// A pair of complementary states: `shared` squares of degree 1 in
    /// both, `top_only` and `bottom_only` ends of the whole path on the
    /// separator, and the terminals inside the parts, two ends in all.
    fn pair() -> impl Strategy<Value = (Links, Links)> {
        (0usize..3, 0usize..3, any::<u64>())
            .prop_flat_map(|(top_marks, sep_ends, seed)| {
                let bottom_marks = 2usize.saturating_sub(top_marks + sep_ends);
                let sep_ends = 2 - top_marks - bottom_marks.min(2 - top_marks);
                (
                    Just((top_marks, bottom_marks, sep_ends, seed)),
                    proptest::sample::subsequence((0..12usize).collect::<Vec<_>>(), 0..=12),
                    Just(()).prop_perturb(|_, mut rng| {
                        let mut v: Vec<usize> = (0..12).collect();
                        for i in (1..v.len()).rev() {
                            v.swap(i, rng.random_range(0..=i));
                        }
                        v
                    }),
                    Just(()).prop_perturb(|_, mut rng| {
                        let mut v: Vec<usize> = (0..12).collect();
                        for i in (1..v.len()).rev() {
                            v.swap(i, rng.random_range(0..=i));
                        }
                        v
                    }),
                    any::<bool>(),
                )
            })
            .prop_filter_map(
                "parities that make no states",
                |(
                    (top_marks, bottom_marks, sep_ends, _),
                    squares,
                    top_order,
                    bottom_order,
                    top_side,
                )| {
                    if squares.len() < sep_ends {
                        return None;
                    }
                    let all = squares.iter().fold(0u32, |m, &s| m | 1 << s);
                    // The first `sep_ends` squares are ends of the whole path,
                    // reached from the top or from the bottom.
                    let sep = squares[..sep_ends].iter().fold(0u32, |m, &s| m | 1 << s);
                    let (top_ends, bottom_ends) = if top_side {
                        (all, all & !sep)
                    } else {
                        (all & !sep, all)
                    };
                    let odd = |ends: u32, marks: usize| {
                        (ends.count_ones() as usize) < marks
                            || (ends.count_ones() as usize - marks) % 2 == 1
                    };
                    // Each part reaches the separator, as in a board's parts.
                    if odd(top_ends, top_marks)
                        || odd(bottom_ends, bottom_marks)
                        || top_ends == 0
                        || bottom_ends == 0
                    {
                        return None;
                    }
                    Some((
                        state(top_ends, &top_order, top_marks),
                        state(bottom_ends, &bottom_order, bottom_marks),
                    ))
                },
            )
    }

    /// `n` squares in an order `seed` gives.
    fn shuffled(n: usize, mut seed: u64) -> Vec<usize> {
        let mut v: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            v.swap(i, (seed >> 33) as usize % (i + 1));
        }
        v
    }

    /// Top states and bottom states of one pattern: those of `pair`, and
    /// more with the same ends and terminals, their paths paired in the
    /// orders the seeds give.
    fn pattern() -> impl Strategy<Value = (Vec<Links>, Vec<Links>)> {
        (
            pair(),
            proptest::collection::vec(any::<u64>(), 0..12),
            proptest::collection::vec(any::<u64>(), 0..12),
        )
            .prop_map(|((t, b), top_seeds, bottom_seeds)| {
                let more = |l: &Links, seeds: &[u64]| -> Vec<Links> {
                    let marks = l.terminal.count_ones() as usize;
                    std::iter::once(*l)
                        .chain(
                            seeds
                                .iter()
                                .map(|&s| state(l.ends, &shuffled(12, s), marks)),
                        )
                        .collect()
                };
                (more(&t, &top_seeds), more(&b, &bottom_seeds))
            })
    }

    proptest! {
        /// Joined as runs of one pattern, with counts, the fold (and the
        /// pair by pair walk it takes where a side is small) sums what
        /// the walk over the links finds pair by pair.
        #[test]
        fn folding_runs_agrees_with_walking_every_pair((tops, bottoms) in pattern()) {
            let ends = tops[0].ends;
            let mut expected = 0u128;
            let mut top: Vec<(u128, u128)> = Vec::new();
            for (i, t) in tops.iter().enumerate() {
                let l = links(t, 12);
                match top.iter_mut().find(|e| e.0 == l) {
                    Some(e) => e.1 += i as u128 + 1,
                    None => top.push((l, i as u128 + 1)),
                }
            }
            let mut bottom: Vec<(u128, u128)> = Vec::new();
            for (j, b) in bottoms.iter().enumerate() {
                for (i, t) in tops.iter().enumerate() {
                    if Walk::new(ends, b).one_path(t, b) {
                        expected += (i as u128 + 1) * (j as u128 + 100);
                    }
                }
                if let Some(p) = program(b, ends, 12).unwrap() {
                    match bottom.iter_mut().find(|e| e.0 == p) {
                        Some(e) => e.1 += j as u128 + 100,
                        None => bottom.push((p, j as u128 + 100)),
                    }
                }
            }
            bottom.sort_unstable();
            let mut scratch = Scratch { top, bottom, ..Scratch::default() };
            let mut sum = ProductSum::default();
            join(&mut scratch, &mut sum).unwrap();
            prop_assert_eq!(sum.total(), expected);
        }

        /// The fold and the walk over the links agree on every pair.
        #[test]
        fn folding_agrees_with_walking((t, b) in pair()) {
            let walked = Walk::new(t.ends, &b).one_path(&t, &b);
            prop_assert_eq!(folds(&t, &b, 12), walked);
        }
    }

    #[test]
    fn a_join_that_closes_a_cycle_dies() {
        // Top: 0-1 and 2 to a terminal, 3 to a terminal.
        let mut l = EMPTY;
        l = with(with(l, 0, 1), 1, 0);
        l = with(with(l, 2, TERMINAL), 3, TERMINAL);
        assert_eq!(after(l, step(0, 1)), None);
        // Joining 1 and 2 makes 0 lead to a terminal; then 0 to 3 closes
        // the whole path with nothing left.
        let l = after(l, step(1, 2)).unwrap();
        assert_eq!(link(l, 0), TERMINAL);
        assert_eq!(after(l, step(0, 3)), Some(CLOSED));
        assert_eq!(after(CLOSED, step(0, 0)), None);
    }

    #[test]
    fn programs_sort_step_by_step() {
        let b = state(0b1111, &[0, 2, 1, 3], 0);
        let p = program(&b, 0b1111, 4).unwrap().unwrap();
        assert_eq!(step_at(p, 0), step(0, 2));
        assert_eq!(step_at(p, 1), step(1, 3));
        assert_eq!(step_at(p, 2), 0);
    }
}
