//! The report's last section: where our numbers differ from the paper's
//! (and from each other), and why.

use std::fmt;

use knights::stats::{PaperRow, Summary};

use super::{list, Report, MOVES, RELATIVE};

impl Report<'_> {
    pub(super) fn differences(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "## Where we differ, and why\n")?;
        let n = (self.count as f64).sqrt();
        let done: Vec<&Summary> = self.tables.iter().filter_map(|(_, s)| s.as_ref()).collect();
        let max_std = done
            .iter()
            .flat_map(|s| s.moves_std.iter().chain(&s.relative_moves_std))
            .fold(0.0f64, |a, &b| a.max(b));
        writeln!(
            f,
            "- **Standard deviations.** The paper says the standard deviation was below 0.001 for every \
number of Tables 1 and 2. Ours, per tour, reach {max_std:.4} on {}; the standard error of our \
means (std / sqrt({})) is at most {:.5}. The paper's figure fits the standard error of a mean over \
1,000 tours, or tours on a much bigger board, better than the spread of single tours.",
            self.board,
            self.count,
            max_std / n
        )?;
        writeln!(
            f,
            "- **Board size.** The paper does not give it. We use {}; the reference program on 50 x 50 \
(see `crates/knights/tests/data/paper_tables.toml`) gives numbers close to the paper's Braid row, and four-cover \
needs sides divisible by 4. Relative move 0 and 1/7 after obfuscation depend on the board through \
the edges, where fewer moves are possible.",
            self.board
        )?;
        if let Some(d) = self.summary_of("divide") {
            writeln!(
                f,
                "- **Divide and conquer.** The paper's row keeps a clear trace of its tiles after obfuscation \
(moves 2, 3, 6, 7 at 0.129 against 0.121 for 0, 1, 4, 5). Ours: {}. Our `divide` tourney is the \
base tours of our own linear-time construction, not Parberry's 1997 tiles, so what survives the \
obfuscation differs.",
                list(&d.moves, &MOVES)
            )?;
        }
        let rel0: Vec<String> = self
            .tables
            .iter()
            .filter_map(|(r, s)| {
                s.as_ref().map(|s| {
                    format!(
                        "{} {:.4} (paper {:.4})",
                        r.generator, s.relative_moves[0], r.relative_moves[0]
                    )
                })
            })
            .collect();
        let far = done
            .iter()
            .map(|s| (s.relative_moves[0] - 1.0 / 7.0).abs())
            .fold(0.0f64, f64::max);
        let sides_top = done.iter().all(|s| {
            let r = &s.relative_moves;
            RELATIVE
                .iter()
                .filter(|&&k| k != 1 && k != 7)
                .all(|&k| r[k] < r[1].min(r[7]))
        });
        writeln!(
            f,
            "- **Relative moves after obfuscation.** Relative move 0: {}; every one of ours is within \
{far:.4} of 1/7 = 0.1429, and the paper's within 0.015. {} The gaps to the paper are many of our \
standard errors: different boards, joins and shatters agree in shape, not in the fourth digit.",
            rel0.join(", "),
            if sides_top {
                "As in the paper, relative moves 1 and 7 (back and to either side) stay the most frequent."
            } else {
                "Unlike the paper, relative moves 1 and 7 are not the most frequent in every row."
            }
        )?;
        self.orientation(f, &done, n)?;
        self.generators_apart(f, n)?;
        writeln!(
            f,
            "- **Four-Cover.** See above: the paper's rows are a copy of its Warnsdorff rows.\n"
        )
    }

    /// The differences' paragraph on orientation: every move against 1/8,
    /// and steep moves against flat ones.
    fn orientation(&self, f: &mut fmt::Formatter<'_>, done: &[&Summary], n: f64) -> fmt::Result {
        // Steep moves (1, 2, 5, 6: one column, two rows) against flat ones.
        let steep = |m: &[f64; 8]| (m[1] + m[2] + m[5] + m[6]) - (m[0] + m[3] + m[4] + m[7]);
        let obf: Vec<f64> = done.iter().map(|s| steep(&s.moves)).collect();
        let lo = obf.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = obf.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // Every move against 1/8, in absolute terms and in standard errors.
        let (mut gap, mut gap_z) = (0.0f64, 0.0f64);
        for s in done {
            for (m, sd) in s.moves.iter().zip(&s.moves_std) {
                gap = gap.max((m - 0.125).abs());
                if *sd > 0.0 {
                    gap_z = gap_z.max((m - 0.125).abs() / (sd / n));
                }
            }
        }
        let orientation = if gap_z > 5.0 {
            format!(
                "Some move is {gap_z:.1} standard errors from 1/8: a trace of an orientation is left."
            )
        } else {
            "That is what a distribution invariant under the board's 8 symmetries gives (each \
symmetry maps moves to moves, and together they take any move to any other), within the noise."
                .to_string()
        };
        writeln!(
            f,
            "- **No trace of an orientation.** Every move of every obfuscated row is within {gap:.4} of \
1/8 (at most {gap_z:.1} standard errors), and steep moves (1, 2, 5, 6: one column and two rows) \
outnumber flat ones (0, 3, 4, 7) by {lo:+.4} to {hi:+.4} of all moves, against {:+.4} for the plain \
Warnsdorff tours and {:+.4} for the joined neural tourneys. {orientation} Shatter and join each scan \
the board in a uniformly random one of its 8 orientations, and obfuscate ends in one. Before, the \
join scanned row by row in the board's own orientation, and obfuscated tours of every generator \
had moves 2 and 6 about 0.003 above 1/8 (10 to 15 standard errors over 1,000 tours of 48 x 48; \
see BENCHMARKS.md, Tourneys). The paper's rows but Div-and-Conq are within 0.0007 of 1/8.",
            steep(&self.fig4.moves),
            steep(&self.fig6.moves)
        )?;
        Ok(())
    }

    /// The differences' paragraph on how far apart the generators' rows are,
    /// ours after obfuscation and the paper's.
    fn generators_apart(&self, f: &mut fmt::Formatter<'_>, n: f64) -> fmt::Result {
        if let (Some((dm, zm, wm)), Some((dr, zr, wr))) = (
            most_different(self.tables, n, false),
            most_different(self.tables, n, true),
        ) {
            let verdict = if zm < 4.5 {
                "the moves no longer tell the generators apart, the relative moves still do a little \
(no symmetry of the board evens them out)"
            } else {
                "both still tell some generators apart"
            };
            writeln!(
                f,
                "- **Telling the generators apart.** After obfuscation the largest difference between two \
of our rows is {dm:.4} in a move ({wm}, {zm:.1} standard errors of the difference) and {dr:.4} in a \
relative move ({wr}, {zr:.1} standard errors): {verdict}. Between the paper's Warnsdorff, \
Takefuji-Lee and Braid rows: up to {:.4} in a move and {:.4} in a relative move; its Div-and-Conq \
row differs from them by up to {:.4} in a move and {:.4} in a relative move (its Four-Cover rows, \
a copy of the Warnsdorff rows, cannot be compared).",
                paper_difference(self.tables, false, false),
                paper_difference(self.tables, true, false),
                paper_difference(self.tables, false, true),
                paper_difference(self.tables, true, true)
            )?;
        }
        Ok(())
    }
}

/// The largest difference, in standard errors, between two of our rows in
/// a move (or a relative move with `relative`): its size, its size in
/// standard errors of the difference (`n`: square root of the tours per row)
/// and what it is.
fn most_different(
    tables: &[(PaperRow, Option<Summary>)],
    n: f64,
    relative: bool,
) -> Option<(f64, f64, String)> {
    let mut best: Option<(f64, f64, String)> = None;
    let name = if relative { "relative move" } else { "move" };
    for (i, (ra, a)) in tables.iter().enumerate() {
        for (rb, b) in &tables[i + 1..] {
            let (Some(a), Some(b)) = (a, b) else {
                continue;
            };
            let (ma, sa, mb, sb) = if relative {
                (
                    &a.relative_moves,
                    &a.relative_moves_std,
                    &b.relative_moves,
                    &b.relative_moves_std,
                )
            } else {
                (&a.moves, &a.moves_std, &b.moves, &b.moves_std)
            };
            for k in 0..8 {
                let se = (sa[k] * sa[k] + sb[k] * sb[k]).sqrt() / n;
                if se == 0.0 {
                    continue;
                }
                let d = (ma[k] - mb[k]).abs();
                if best.as_ref().is_none_or(|(_, z, _)| d / se > *z) {
                    let what = format!("{name} {k}, {} against {}", ra.generator, rb.generator);
                    best = Some((d, d / se, what));
                }
            }
        }
    }
    best
}

/// The largest difference in a move (or a relative move with `relative`)
/// between two of the paper's Warnsdorff, Takefuji-Lee and Braid rows, or
/// with `divide` between its Div-and-Conq row and those (its Four-Cover rows
/// copy the Warnsdorff rows and are left out).
fn paper_difference(tables: &[(PaperRow, Option<Summary>)], relative: bool, divide: bool) -> f64 {
    let values = |r: &PaperRow| if relative { r.relative_moves } else { r.moves };
    let others: Vec<[f64; 8]> = tables
        .iter()
        .map(|(r, _)| r)
        .filter(|r| r.generator != "four-cover" && r.generator != "divide")
        .map(values)
        .collect();
    let firsts: Vec<[f64; 8]> = if divide {
        tables
            .iter()
            .map(|(r, _)| r)
            .filter(|r| r.generator == "divide")
            .map(values)
            .collect()
    } else {
        others.clone()
    };
    let mut d = 0.0f64;
    for a in &firsts {
        for b in &others {
            for k in 0..8 {
                d = d.max((a[k] - b[k]).abs());
            }
        }
    }
    d
}
