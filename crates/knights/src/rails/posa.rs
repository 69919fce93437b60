//! The last resort of [`join`](super::join): merge cycles by Posa rotations.
//!
//! Cut one move `a - b` of the smallest cycle X and one move `c - d` of a
//! cycle Y at a knight's move `a - c` from it, and add `a - c`: X and Y become
//! one path from `b` to `d`. Then, at random, either *close* the path (its
//! ends are a knight's move apart), *rotate* it (the end `e` is a knight's
//! move from a path square `z`: add `e - z`, cut `z` from its successor, the
//! successor becomes the end), or *extend* it (the end is a knight's move from
//! a square `z` of another cycle: cut that cycle at `z` and walk it into the
//! path). Closing merges at least two cycles into one, so every success is
//! progress; an attempt that does not close within its step budget is undone
//! exactly. This is Posa's rotation-extension method restricted to paths
//! that start from a cycle cover.

use rand::Rng;

use super::Geometry;

/// One merge attempt from the cycle with label `x`; true when the cover now
/// has fewer cycles (it is unchanged otherwise).
pub(crate) fn posa_merge<R: Rng + ?Sized>(
    g: &Geometry,
    links: &mut [u8],
    labels: &[u32],
    x: u32,
    steps: u32,
    rng: &mut R,
) -> bool {
    // Knight's moves from X to other cycles.
    let mut seeds = Vec::new();
    for a in 0..links.len() {
        if labels[a] != x {
            continue;
        }
        let (r, col) = (a as u32 / g.cols, a as u32 % g.cols);
        for k in 0..8u8 {
            if let Some(c) = g.step_rc(a, r, col, k) {
                if labels[c] != x {
                    seeds.push((a, c));
                }
            }
        }
    }
    if seeds.is_empty() {
        return false;
    }
    let saved = links.to_vec();
    let (a, c) = seeds[rng.random_range(0..seeds.len())];
    let b = neighbour(g, links, a, rng.random_range(0..2));
    let d = neighbour(g, links, c, rng.random_range(0..2));
    cut(g, links, a, b);
    cut(g, links, c, d);
    link(g, links, a, c);
    // The path from b to d.
    let mut path = walk_path(g, links, b);
    debug_assert_eq!(*path.last().expect("non-empty"), d);
    let mut pos = vec![u32::MAX; links.len()];
    for (i, &s) in path.iter().enumerate() {
        pos[s] = i as u32;
    }
    for _ in 0..steps {
        let e = *path.last().expect("non-empty");
        if g.adjacent(path[0], e) {
            link(g, links, path[0], e);
            return true;
        }
        if rng.random_range(0..8) == 0 {
            path.reverse();
            for (i, &s) in path.iter().enumerate() {
                pos[s] = i as u32;
            }
            continue;
        }
        let (r, col) = (e as u32 / g.cols, e as u32 % g.cols);
        let k = rng.random_range(0..8u8);
        let Some(z) = g.step_rc(e, r, col, k) else {
            continue;
        };
        let n = path.len();
        if pos[z] == u32::MAX {
            // Extend through z's cycle.
            let z2 = neighbour(g, links, z, rng.random_range(0..2));
            cut(g, links, z, z2);
            let tail = walk_path(g, links, z);
            link(g, links, e, z);
            for &s in &tail {
                pos[s] = path.len() as u32;
                path.push(s);
            }
        } else {
            let i = pos[z] as usize;
            if i + 1 >= n - 1 {
                continue; // z is the end or its predecessor
            }
            let succ = path[i + 1];
            cut(g, links, z, succ);
            link(g, links, e, z);
            path[i + 1..].reverse();
            for (j, &s) in path.iter().enumerate().skip(i + 1) {
                pos[s] = j as u32;
            }
        }
    }
    links.copy_from_slice(&saved);
    false
}

/// The `which`-th (0 or 1) chosen neighbour of `s`.
fn neighbour(g: &Geometry, links: &[u8], s: usize, which: u32) -> usize {
    let mut bits = links[s];
    if which == 1 && bits.count_ones() > 1 {
        bits &= bits - 1;
    }
    let k = bits.trailing_zeros() as usize;
    (s as isize + g.off[k]) as usize
}

fn cut(g: &Geometry, links: &mut [u8], a: usize, b: usize) {
    let k = g.move_between(a, b);
    links[a] &= !(1 << k);
    links[b] &= !(1 << (k ^ 4));
}

fn link(g: &Geometry, links: &mut [u8], a: usize, b: usize) {
    let k = g.move_between(a, b);
    links[a] |= 1 << k;
    links[b] |= 1 << (k ^ 4);
}

/// The path that starts at the end `s` (one chosen move) and follows the cover.
fn walk_path(g: &Geometry, links: &[u8], s: usize) -> Vec<usize> {
    let mut out = vec![s];
    let mut back = 0u8;
    let mut cur = s;
    loop {
        let bits = links[cur] & !back;
        if bits == 0 {
            return out;
        }
        let k = bits.trailing_zeros() as u8;
        cur = (cur as isize + g.off[k as usize]) as usize;
        back = 1 << (k ^ 4);
        out.push(cur);
    }
}
