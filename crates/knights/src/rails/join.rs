//! Join: turn a tourney into one closed tour by switching rails (Parberry 2020,
//! Section 5, Algorithm 2), with fallbacks that make join always finish.
//!
//! Each *pass* labels the cycles (O(n)), then scans the board once and
//! switches every rail of the current cover whose two moves lie in cycles
//! that are still apart in a union-find over the cycles of the pass's start.
//! The rails switched form a spanning forest of the rail graph, and each of
//! them merges two cycles: by induction over the switches, the current cycles
//! are exactly the union-find classes (every move of the cover joins two
//! squares of one class: old moves by the labels, new cross moves because
//! their rail merged the classes of its ends), so a rail whose moves lie in
//! two classes has them on two different cycles, and switching such a rail
//! always merges them. A pass that switches `k` rails removes exactly `k`
//! cycles. With [`JoinOptions::disjoint`] a pass takes only pairwise
//! vertex-disjoint rails, as the paper's Algorithm 2 does (the same proof
//! holds; passes merge less).
//!
//! After a pass the union-find already says which cycles are left, so join
//! relabels nothing: it walks only the cycles other than the largest and
//! merges them by *2-opt merges*, the general form of a rail: moves `a - b`
//! on cycle X and `c - d` on cycle Y != X with `a - c` and `b - d` knight's
//! moves; replacing `a - b`, `c - d` by `a - c`, `b - d` always merges X and
//! Y. Every such merge involves a cycle other than the largest, so this finds
//! one whenever one exists, at the cost of the small cycles' squares rather
//! than the board's. A pass that leaves a giant cycle and a few small ones
//! (the usual case) is thus finished without a second walk of the board.
//!
//! Such a switch need not exist: two cycles can be neighbours in the knight
//! graph (a move `a - c` between them) without any pair of their moves
//! forming a 4-cycle with it, and on narrow boards (3 x n, 5 x n) the
//! acceptance runs meet covers where no rail and no 2-opt merge joins any two
//! cycles (counted in BENCHMARKS.md, `## Tourneys`). For those, join first
//! tries a *k-opt merge* (see `kopt.rs`: a closed alternating walk of 6 or 8
//! moves through one of the four smallest cycles, checked exactly with the
//! cycles' square orders, so its search is bounded by those cycles' sizes;
//! counted with the 2-opt merges), then a few *Posa merges* (see `posa.rs`; randomized: cut a cycle and a
//! neighbouring one into a path and rotate or extend it until its ends meet,
//! under a step budget, undone exactly when it fails), and when
//! [`JoinOptions::max_posa_attempts`] of them have failed it takes the
//! *deterministic step* (see `toward.rs`): it applies, one at a time, the
//! alternating closed walks of the symmetric difference between the cover
//! and a fixed closed tour of the board (the linear construction) until the
//! cover has fewer cycles. That step provably removes at least one cycle:
//! after its last walk the cover *is* that closed tour.
//!
//! So join always ends with one closed tour on every board that has one:
//! every rail switch, 2-opt merge, successful Posa merge and deterministic
//! step removes at least one cycle, nothing adds one, and failed Posa
//! attempts are bounded; with k cycles at most k - 1 removals and
//! `max_posa_attempts` failures happen.
//!
//! Every step above scans in a fixed order (row by row, moves in index
//! order), which favours some moves over others: run in the board's own
//! orientation, a join leaves moves 2 and 6 measurably above 1/8 in
//! obfuscated tours (BENCHMARKS.md, Tourneys). So join turns the
//! cover to a uniformly random one of the board's 8 orientations (mirrors
//! and transposes), joins there and turns it back: a cover and its image
//! under any symmetry of the board are joined alike, in distribution.
//!
//! # Complexity
//! O(n) per pass (n = rows * cols) and O(squares of the cycles other than
//! the largest) per 2-opt merge; the number of passes is at most the number
//! of cycles, and in practice one. A k-opt
//! merge costs O(n) for the labelling plus a search bounded by the sizes of
//! the cycles it starts from; a Posa attempt O(n) plus at most
//! `posa_steps_per_square` steps per square of the cycle it starts from; a
//! deterministic step O(n log n). Posa attempts and deterministic steps are
//! rare (narrow boards); [`JoinStats`] counts each kind of step.

use rand::Rng;

use super::frame::Frame;
use super::kopt;
use super::posa::posa_merge;
use super::toward;
use super::{down_masks, first_rail, switch_raw, walk_cycle, walk_cycles, Geometry, UnionFind};
use crate::{exists, Control, Cover, Error, Result, Wanted};

/// Options of [`join`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinOptions {
    /// Failed Posa merge attempts (randomized) allowed, in all, before join
    /// takes the deterministic step whenever neither a rail nor a 2-opt
    /// merge joins two cycles (0: always the deterministic step).
    pub max_posa_attempts: u32,
    /// Steps of one Posa merge attempt, per square of the cycle it starts
    /// from (at least 64).
    pub posa_steps_per_square: u32,
    /// Switch only pairwise vertex-disjoint rails in a pass, as the paper's
    /// Algorithm 2 does (more passes); by default a pass also takes rails
    /// that touch rails switched before it in the same pass.
    pub disjoint: bool,
    /// Join in a uniformly random orientation of the board (the default), so
    /// that the join's fixed scan order leaves no trace; off, the join scans
    /// the board in its own orientation and draws nothing for it, as every
    /// join did before (cipher keys keep that, so stored ciphertexts still
    /// decrypt).
    pub random_orientation: bool,
    /// The caller's control: its stop flag is checked between merges
    /// ([`Error::Interrupted`]; the cover is then still a tourney, partly
    /// joined).
    pub control: Control,
}

impl Default for JoinOptions {
    fn default() -> Self {
        JoinOptions {
            max_posa_attempts: 16,
            posa_steps_per_square: 20,
            disjoint: false,
            random_orientation: true,
            control: Control::new(),
        }
    }
}

/// What [`join`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinStats {
    /// Cycles of the tourney before the join.
    pub cycles_before: usize,
    /// Cycles left after the first rail pass.
    pub cycles_after_first_pass: usize,
    /// Rail passes run.
    pub passes: u32,
    /// Rails switched by the passes.
    pub rails_switched: u64,
    /// 2-opt merges (joins that are not rails).
    pub two_opt_merges: u32,
    /// Posa merges (path rotations when no rail or 2-opt merge joined).
    pub posa_merges: u32,
    /// Posa merge attempts that failed and were undone.
    pub posa_failures: u32,
    /// Deterministic steps toward the reference tour (see the module
    /// documentation); each removed at least one cycle.
    pub reference_steps: u32,
    /// Alternating walks applied by those steps.
    pub reference_walks: u32,
}

impl JoinStats {
    /// Whether the first rail pass alone made one tour (the paper's Algorithm 2
    /// run once), or the input was already one.
    pub fn first_pass_enough(&self) -> bool {
        self.cycles_before <= 1 || self.cycles_after_first_pass == 1
    }
}

/// Joins the cycles of a tourney into one closed tour, in place.
///
/// Returns the no-tour error at once when the board has no closed tour
/// (Schwenk's theorem), and [`Error::Unsupported`] when the cover is not a
/// tourney (some square without exactly two moves).
///
/// # Complexity
/// O(rows * cols) per pass (see the module documentation); one `u32` label
/// and one byte of marks per square.
///
/// # Example
/// ```
/// use knights::{check, rails, Tourney};
/// let mut rng = knights::rng::seeded(5);
/// let mut cover = Tourney::builder("10x10".parse()?).cover_with(&mut rng)?;
/// let stats = rails::join(&mut cover, &Default::default(), &mut rng)?;
/// assert_eq!(check::check_cover(&cover)?, 1);
/// assert!(stats.passes >= 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn join<R: Rng + ?Sized>(
    cover: &mut Cover,
    options: &JoinOptions,
    rng: &mut R,
) -> Result<JoinStats> {
    let board = cover.board();
    exists::require(board, Wanted::Closed)?;
    if let Some(s) = cover.as_bytes().iter().position(|b| b.count_ones() != 2) {
        return Err(Error::Unsupported(
            format!(
                "square {s} has {} chosen moves, so this is not a tourney and cannot be joined",
                cover.links(s as u32).count_ones()
            )
            .into(),
        ));
    }
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let mut frame = Frame::new(cover.as_bytes().to_vec(), rows, cols);
    if options.random_orientation {
        frame.turn_random(rng);
    }
    let stats = join_in_frame(&mut frame, options, rng);
    *cover = Cover::from_bytes_unchecked(board, frame.finish());
    stats
}

/// [`join`] on a cover held in a turned frame (a tourney of a board with a
/// closed tour), in the frame's orientation. Every step of the join scans in
/// a fixed order (row by row, moves in index order), which favours some
/// moves over others; run in a uniformly random orientation, the join treats
/// the board symmetrically.
pub(super) fn join_in_frame<R: Rng + ?Sized>(
    frame: &mut Frame,
    options: &JoinOptions,
    rng: &mut R,
) -> Result<JoinStats> {
    let board = frame.board();
    let g = Geometry::new(board);
    let links: &mut [u8] = &mut frame.links;
    let mut stats = JoinStats::default();
    // Bound on the loop: every iteration removes a cycle or fails a Posa attempt.
    let limit = u64::from(options.max_posa_attempts) + links.len() as u64 + 1;
    let mut iterations = 0u64;
    let mut reference: Vec<u8> = Vec::new();
    // Whether rails and 2-opt merges are exhausted on the current cover.
    let mut saturated = false;
    loop {
        iterations += 1;
        assert!(iterations <= limit, "join exceeded its proven bound");
        options.control.check("the join")?;
        let mut starts = Vec::new();
        let (labels, sizes) = walk_cycles(&g, links, |s, i| {
            if i == 0 {
                starts.push(s);
            }
        });
        if stats.passes == 0 {
            stats.cycles_before = sizes.len();
        }
        if sizes.len() == 1 {
            if stats.passes == 0 {
                stats.cycles_after_first_pass = 1;
            }
            break;
        }
        if !saturated {
            // A rail pass on the first round, and later only while many
            // cycles are left (the local merges take one cycle a walk).
            let pass = stats.passes == 0 || sizes.len() > PASS_ABOVE;
            let (merged, mut uf) = if pass {
                stats.passes += 1;
                rail_pass(&g, links, &labels, sizes.len(), options.disjoint)
            } else {
                (0, UnionFind::new(sizes.len()))
            };
            stats.rails_switched += merged as u64;
            if stats.passes == 1 && pass {
                stats.cycles_after_first_pass = sizes.len() - merged;
            }
            let cycles = Cycles {
                labels: &labels,
                sizes: &sizes,
                starts: &starts,
            };
            let local = local_merges(&g, links, &cycles, &mut uf, sizes.len() - merged);
            stats.two_opt_merges += local as u32;
            if sizes.len() - merged - local == 1 {
                break;
            }
            // No rail or 2-opt merge is left: the fallbacks come next, on
            // fresh labels if the cover changed.
            saturated = true;
            if merged + local > 0 {
                continue;
            }
        }
        saturated = false;
        if kopt_merge(&g, links, &sizes) {
            stats.two_opt_merges += 1;
            continue;
        }
        if stats.posa_failures < options.max_posa_attempts {
            let x = if stats.posa_failures % 2 == 0 {
                (0..sizes.len()).min_by_key(|&i| sizes[i]).unwrap_or(0) as u32
            } else {
                rng.random_range(0..sizes.len() as u32)
            };
            // The budget scales with the cycle cut, not with the board.
            let steps = options
                .posa_steps_per_square
                .saturating_mul(sizes[x as usize])
                .max(64);
            if posa_merge(&g, links, &labels, x, steps, rng) {
                stats.posa_merges += 1;
            } else {
                stats.posa_failures += 1;
            }
            continue;
        }
        if reference.is_empty() {
            reference = crate::construct::closed_cover(board)?.as_bytes().to_vec();
        }
        let step = toward::step(&g, links, &reference, sizes.len());
        debug_assert!(step.cycles < sizes.len());
        stats.reference_steps += 1;
        stats.reference_walks += step.walks;
    }
    Ok(stats)
}

/// Cycles left above which a later round starts with a rail pass.
const PASS_ABOVE: usize = 64;

/// One pass: switches a spanning forest of rails that join distinct cycles
/// (vertex-disjoint ones with `disjoint`); returns how many (each removes
/// one cycle) and the union-find whose classes are the cycles after it.
fn rail_pass(
    g: &Geometry,
    links: &mut [u8],
    labels: &[u32],
    cycles: usize,
    disjoint: bool,
) -> (usize, UnionFind) {
    let mut uf = UnionFind::new(cycles);
    let mut used = vec![false; if disjoint { links.len() } else { 0 }];
    let (row_masks, col_masks) = down_masks(g);
    let mut merged = 0;
    let cols = g.cols as usize;
    for (r, &rm) in row_masks.iter().enumerate() {
        let base = r * cols;
        for (col, &cm) in col_masks.iter().enumerate() {
            let u = base + col;
            if links[u] & 0xF0 == 0 || (disjoint && used[u]) {
                continue;
            }
            let found = first_rail(g, links, u, rm & cm, |sq| {
                if disjoint && sq.iter().any(|&s| used[s]) {
                    return false;
                }
                uf.union(labels[sq[0]], labels[sq[2]])
            });
            if let Some((sq, p, c)) = found {
                switch_raw(links, sq, p, c);
                if disjoint {
                    for s in sq {
                        used[s] = true;
                    }
                }
                merged += 1;
                if merged + 1 == cycles {
                    return (merged, uf);
                }
            }
        }
    }
    (merged, uf)
}

/// The cycles of the cover labelled at the start of a pass.
struct Cycles<'a> {
    labels: &'a [u32],
    sizes: &'a [u32],
    /// A square of each cycle.
    starts: &'a [usize],
}

/// After a pass, merges the cycles left by 2-opt switches found by walking
/// only the cycles other than the largest, so that a join whose first pass
/// leaves a giant cycle and a few small ones costs no second walk of the
/// whole board. The cycles are the classes of `uf` over the pass's labels
/// (see the module documentation), and every merge joins two classes, which
/// keeps it so. Returns the merges made; stops when one cycle is left or
/// when no small cycle has a 2-opt merge.
///
/// Every 2-opt merge involves a cycle other than the largest, so walking
/// those finds one if there is one. Cost: O(squares of the small cycles)
/// per merge.
fn local_merges(
    g: &Geometry,
    links: &mut [u8],
    cycles: &Cycles<'_>,
    uf: &mut UnionFind,
    mut left: usize,
) -> usize {
    let mut merges = 0;
    let mut walk = Vec::new();
    'merge: while left > 1 {
        // The current cycles (classes, by root) and their squares; all but
        // the largest, smallest first.
        let mut squares = vec![0u64; cycles.sizes.len()];
        for (id, &size) in cycles.sizes.iter().enumerate() {
            squares[uf.find(id as u32) as usize] += u64::from(size);
        }
        let mut small: Vec<u32> = (0..squares.len() as u32)
            .filter(|&root| squares[root as usize] > 0)
            .collect();
        debug_assert_eq!(small.len(), left);
        small.sort_by_key(|&root| (squares[root as usize], root));
        small.pop();
        for &root in &small {
            walk.clear();
            walk_cycle(g, links, cycles.starts[root as usize], |s| walk.push(s));
            for &a in &walk {
                let mut other = |c: usize| uf.find(cycles.labels[c]) != root;
                if let Some((b, c, d)) = two_opt_at(g, links, a, &mut other) {
                    let y = uf.find(cycles.labels[c]);
                    uf.union(root, y);
                    apply_two_opt(g, links, a, b, c, d);
                    merges += 1;
                    left -= 1;
                    continue 'merge;
                }
            }
        }
        break;
    }
    merges
}

/// A 3-opt or 4-opt merge (see `kopt.rs`) from the smallest cycles, at
/// most four of them (a bounded search around each), largest cycle never.
fn kopt_merge(g: &Geometry, links: &mut [u8], sizes: &[u32]) -> bool {
    let ord = kopt::order(g, links);
    let mut by_size: Vec<u32> = (0..sizes.len() as u32).collect();
    by_size.sort_by_key(|&i| (sizes[i as usize], i));
    by_size.pop();
    by_size
        .into_iter()
        .take(4)
        .any(|x| kopt::merge(g, links, &ord, x, 4))
}

/// Replaces the moves `a - b` and `c - d` by `a - c` and `b - d`.
fn apply_two_opt(g: &Geometry, links: &mut [u8], a: usize, b: usize, c: usize, d: usize) {
    let mab = g.move_between(a, b);
    let mac = g.move_between(a, c);
    let mcd = g.move_between(c, d);
    let mbd = g.move_between(b, d);
    links[a] ^= (1 << mab) | (1 << mac);
    links[b] ^= (1 << (mab ^ 4)) | (1 << mbd);
    links[c] ^= (1 << mcd) | (1 << (mac ^ 4));
    links[d] ^= (1 << (mcd ^ 4)) | (1 << (mbd ^ 4));
}

/// A 2-opt merge from `a`: its move `a - b`, a knight's move `a - c` to a
/// square with `other(c)` (on another cycle), and a move `c - d` with
/// `b - d` a knight's move.
fn two_opt_at(
    g: &Geometry,
    links: &[u8],
    a: usize,
    mut other: impl FnMut(usize) -> bool,
) -> Option<(usize, usize, usize)> {
    let (r, col) = (a as u32 / g.cols, a as u32 % g.cols);
    for kb in 0..8u8 {
        if links[a] & (1 << kb) == 0 {
            continue;
        }
        let b = (a as isize + g.off[kb as usize]) as usize;
        for kc in 0..8u8 {
            let Some(c) = g.step_rc(a, r, col, kc) else {
                continue;
            };
            if !other(c) {
                continue;
            }
            for kd in 0..8u8 {
                if links[c] & (1 << kd) == 0 {
                    continue;
                }
                let d = (c as isize + g.off[kd as usize]) as usize;
                if g.adjacent(b, d) {
                    return Some((b, c, d));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_cover;
    use crate::Board;

    #[test]
    fn refuses_boards_without_closed_tours_and_non_tourneys() {
        let mut rng = crate::rng::seeded(0);
        let b = Board::new(4, 8).unwrap();
        let mut cover = crate::algorithms::tourney_methods::cover(
            b,
            crate::algorithms::tourney_methods::TourneyMethod::FourCover,
            &mut rng,
        )
        .unwrap();
        let e = join(&mut cover, &JoinOptions::default(), &mut rng).unwrap_err();
        assert!(matches!(e, Error::NoTour(_)), "{e}");
        let mut empty = Cover::empty(Board::new(6, 6).unwrap()).unwrap();
        let e = join(&mut empty, &JoinOptions::default(), &mut rng).unwrap_err();
        assert!(matches!(e, Error::Unsupported(_)), "{e}");
    }

    #[test]
    fn the_deterministic_step_finishes_narrow_boards() {
        // No Posa attempts: whenever rails and 2-opt merges run out, the
        // deterministic step must finish the join.
        let options = JoinOptions {
            max_posa_attempts: 0,
            ..JoinOptions::default()
        };
        let mut steps = 0;
        for (r, c) in [
            (3, 10),
            (3, 12),
            (3, 20),
            (3, 30),
            (5, 6),
            (5, 8),
            (5, 12),
            (6, 5),
            (12, 3),
        ] {
            let board = Board::new(r, c).unwrap();
            for seed in 0..20 {
                let mut rng = crate::rng::seeded(seed);
                let mut cover = crate::algorithms::tourney_methods::cover(
                    board,
                    crate::algorithms::tourney_methods::TourneyMethod::Warnsdorff,
                    &mut rng,
                )
                .unwrap();
                let before = check_cover(&cover).unwrap();
                let stats = join(&mut cover, &options, &mut rng).unwrap();
                assert_eq!(check_cover(&cover), Ok(1), "{board} seed {seed}");
                assert_eq!(stats.posa_merges + stats.posa_failures, 0);
                let removals =
                    stats.rails_switched + u64::from(stats.two_opt_merges + stats.reference_steps);
                assert!(removals < before as u64, "{stats:?}");
                steps += stats.reference_steps;
            }
        }
        assert!(
            steps > 0,
            "the narrow boards exercise the deterministic step"
        );
    }

    #[test]
    fn a_pass_removes_one_cycle_per_rail() {
        let board = Board::new(16, 16).unwrap();
        let mut rng = crate::rng::seeded(3);
        let mut cover = crate::algorithms::tourney_methods::cover(
            board,
            crate::algorithms::tourney_methods::TourneyMethod::FourCover,
            &mut rng,
        )
        .unwrap();
        let g = Geometry::new(board);
        let mut links = cover.as_bytes().to_vec();
        let (labels, sizes) = super::super::label_cycles(&g, &links);
        assert_eq!(sizes.len(), 64);
        let (merged, _) = rail_pass(&g, &mut links, &labels, sizes.len(), true);
        assert!(merged > 0);
        cover = Cover::from_bytes_unchecked(board, links);
        assert_eq!(check_cover(&cover).unwrap(), 64 - merged);
    }
}
