//! Obfuscation leaves no trace (seed 000, Section 7): on a square board the
//! distribution of a uniformly random closed tour is invariant under the 8
//! symmetries of the board, which act transitively on the 8 moves, so every
//! move has expected frequency 1/8; a reflection turns relative move k into
//! 8 - k, so k and 8 - k are equally frequent. Obfuscated tours of every
//! generator are tested against both, mean by mean, in standard errors.
//!
//! The relative moves are read along the tour from its start square, in the
//! direction of the start's lower-numbered move. That reading is not itself
//! symmetric: at a corner start it always turns by relative move 3 (arriving
//! by move 3, leaving by move 6), and the squares next to the start inherit
//! some of that, which puts relative move 3 ahead of 5 by about 0.0009 on
//! 48 x 48 for any distribution of tours, uniform or not. So the
//! k - (8 - k) differences leave out the turns at squares within 3 rows and
//! columns of the start (measured: the bias is gone beyond 3).

use knights::algorithms::TourneyMethod;
use knights::check::check_tour;
use knights::rails::{self, ObfuscateOptions};
use knights::stats::sample;
use knights::Kind;
use knights::{Board, Cover, Tour};

const GENERATORS: [TourneyMethod; 5] = [
    TourneyMethod::Divide,
    TourneyMethod::Braid,
    TourneyMethod::FourCover,
    TourneyMethod::Warnsdorff,
    TourneyMethod::Neural,
];

/// Statistics of one tour: the 8 move frequencies, then the differences
/// relative move k minus relative move 8 - k (k = 1, 2, 3) as fractions of
/// the turns counted (those further than [`WINDOW`] from the start).
type Figures = [f64; 11];

/// Turns at squares within this many rows and columns of the start are not
/// counted in the relative-move differences (see the module documentation).
const WINDOW: u32 = 3;

/// The bound on |mean - expected| in standard errors. A run checks 5
/// generators x 11 means = 55; a two-sided normal tail of 1.8e-5 each
/// (Bonferroni: below 1/1000 for the run) is 4.29 standard errors, and the
/// Student t with 199 degrees of freedom (standard errors estimated from the
/// sample) 4.45. So if the seeds were not fixed, a run of a generator
/// without trace would fail less than once in a thousand runs.
const BOUND: f64 = 4.5;

fn figures(t: &knights::Tour) -> Figures {
    let board = t.board();
    let cols = board.cols();
    let s = t.squares();
    let n = s.len();
    let mv = |a: u32, b: u32| board.move_between(a, b).expect("a knight's move");
    let (sr, sc) = (s[0] / cols, s[0] % cols);
    let mut moves = [0u64; 8];
    let mut rel = [0u64; 8];
    for j in 0..n {
        let (here, next) = (s[j], s[(j + 1) % n]);
        let k = mv(here, next);
        moves[k as usize] += 1;
        let (r, c) = (here / cols, here % cols);
        if r.abs_diff(sr) <= WINDOW && c.abs_diff(sc) <= WINDOW {
            continue;
        }
        let before = mv(s[(j + n - 1) % n], here);
        rel[((k + 8 - before) % 8) as usize] += 1;
    }
    let mut out = [0.0; 11];
    for k in 0..8 {
        out[k] = moves[k] as f64 / n as f64;
    }
    let turns: u64 = rel.iter().sum();
    for k in 1..=3 {
        out[7 + k] = (rel[k] as f64 - rel[8 - k] as f64) / turns as f64;
    }
    out
}

/// Obfuscated tours of `board` by `g`, checked; their figures.
fn obfuscated(board: Board, g: TourneyMethod, count: u64, seed: u64) -> Vec<Figures> {
    sample(
        count,
        seed,
        |rng| {
            let raw = Tour::builder(board).algorithm(g).build_with(rng)?;
            let mut cover = Cover::from_tour(&raw)?;
            rails::obfuscate(&mut cover, &ObfuscateOptions::default(), rng)?;
            let t = cover.to_tour(raw.start(), None)?;
            assert_eq!(check_tour(&t), Ok(Kind::Closed));
            Ok(figures(&t))
        },
        &|| {},
    )
    .unwrap()
}

/// Mean and standard error of each figure.
fn means(xs: &[Figures]) -> [(f64, f64); 11] {
    let n = xs.len() as f64;
    let mut out = [(0.0, 0.0); 11];
    for (i, o) in out.iter_mut().enumerate() {
        let mean = xs.iter().map(|x| x[i]).sum::<f64>() / n;
        let var = xs.iter().map(|x| (x[i] - mean).powi(2)).sum::<f64>() / (n - 1.0);
        *o = (mean, (var / n).sqrt());
    }
    out
}

/// Checks every generator at `side` x `side` with `count` tours; returns,
/// per generator, the largest gap of a move frequency to 1/8 and the
/// largest relative-move difference.
fn no_trace(side: u64, count: u64, seed: u64) -> Vec<(TourneyMethod, f64, f64)> {
    let board = Board::new(side, side).unwrap();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for g in GENERATORS {
        let m = means(&obfuscated(board, g, count, seed));
        for (i, &(mean, se)) in m.iter().enumerate() {
            let expected = if i < 8 { 0.125 } else { 0.0 };
            let z = (mean - expected) / se;
            if z.abs() > BOUND {
                let what = if i < 8 {
                    format!("move {i}")
                } else {
                    format!("relative move {} - {}", i - 7, 15 - i)
                };
                failures.push(format!(
                    "{}: {what} at {mean:.5} (expected {expected}), {z:+.1} standard errors of {se:.5}",
                    g.name()
                ));
            }
        }
        let gap = m[..8]
            .iter()
            .map(|&(x, _)| (x - 0.125).abs())
            .fold(0.0, f64::max);
        let rel = m[8..].iter().map(|&(x, _)| x.abs()).fold(0.0, f64::max);
        report.push((g, gap, rel));
    }
    assert!(
        failures.is_empty(),
        "{side}x{side}, {count} tours, seed {seed}:\n{}",
        failures.join("\n")
    );
    report
}

#[test]
fn obfuscated_tours_leave_no_trace() {
    // 300 tours of 48 x 48 per generator: a standard error of about 0.0004
    // per move frequency. The old join's row-by-row scan put moves 2 and 6
    // 0.0025 to 0.0033 above 1/8, 6 to 8 standard errors here.
    no_trace(48, 300, 11);
}

/// The full-size check: 1,000 obfuscated tours of 48 x 48 per
/// generator (standard error about 0.0002), every move frequency within
/// 0.0008 of 1/8. Run in release:
/// `cargo test --release -p knights --test tests obfuscated_tours_leave_no_trace_1000 -- --ignored --nocapture`
#[test]
#[ignore = "the acceptance run: 5,000 obfuscated tours of 48x48 (run in release)"]
fn obfuscated_tours_leave_no_trace_1000() {
    for (g, gap, rel) in no_trace(48, 1000, 3) {
        println!(
            "{}: largest move gap to 1/8 {gap:.4}, largest k - (8 - k) {rel:.4}",
            g.name()
        );
        assert!(gap <= 0.0008, "{}: {gap}", g.name());
    }
}
