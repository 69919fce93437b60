//! Tests of meeting in the middle for open tours.

use std::sync::Mutex;

use super::boundary::{Boundary, Links};
use super::middle::joined;
use super::table::{each_pattern, one_path, pattern_index, pattern_key, unfolded};
use super::*;

fn b(degrees: &[u32], mates: &[(usize, usize)]) -> Boundary {
    let mut out = Boundary {
        degrees: 0,
        term: 0,
        mates: 0,
    };
    for (s, &d) in degrees.iter().enumerate() {
        out.degrees |= d << (2 * s);
    }
    for &(s, m) in mates {
        out.mates |= (m as u64) << (4 * s);
        if s == m {
            out.term += 1;
        }
    }
    out
}

#[test]
fn one_path_joins_the_parts_at_the_separator() {
    // Four squares. Top: 0-1 joined, 2 leads to a terminal, 3 done.
    let t = b(&[1, 1, 1, 2], &[(0, 1), (1, 0), (2, 2)]);
    // Bottom: 1-2 joined, 0 a terminal on the separator, 3 untouched.
    let good = b(&[0, 1, 1, 0], &[(1, 2), (2, 1)]);
    assert!(one_path(&Links::of(&t, 4), &Links::of(&good, 4)));
    // Bottom: 0 and 1 joined: a cycle 0-1-0 and a lone end.
    let bad = b(&[1, 1, 0, 0], &[(0, 1), (1, 0)]);
    assert!(!one_path(&Links::of(&t, 4), &Links::of(&bad, 4)));
}

/// Adding a middle edge follows the paths: a new path, a path
/// extended (to a terminal too), two paths joined into one; never a
/// third edge at a square, a cycle, or a path between two terminals.
#[test]
fn middle_edges_join_paths() {
    // Squares 0 1 2 / 3 4 5.
    let empty = b(&[0; 6], &[]);
    assert_eq!(
        joined(&empty, 0, 5),
        Some(b(&[1, 0, 0, 0, 0, 1], &[(0, 5), (5, 0)]))
    );
    // 0 leads to a terminal; 3 takes it over.
    let t = b(&[1, 2, 0, 0, 0, 0], &[(0, 0)]);
    assert_eq!(joined(&t, 0, 3), Some(b(&[2, 2, 0, 1, 0, 0], &[(3, 3)])));
    // 0-1 and 2-3 joined at 1 and 2: one path 0-3.
    let two = b(&[1, 1, 1, 1, 0, 0], &[(0, 1), (1, 0), (2, 3), (3, 2)]);
    assert_eq!(
        joined(&two, 1, 2),
        Some(b(&[1, 2, 2, 1, 0, 0], &[(0, 3), (3, 0)]))
    );
    // A path to a terminal joined to another path: it leads to the terminal.
    let mixed = b(&[1, 1, 1, 0, 0, 0], &[(0, 0), (1, 2), (2, 1)]);
    assert_eq!(
        joined(&mixed, 0, 1),
        Some(b(&[2, 2, 1, 0, 0, 0], &[(2, 2)]))
    );
    // Closing 0-1 into a cycle, two terminals' paths, a third edge.
    assert_eq!(joined(&two, 0, 1), None);
    assert_eq!(
        joined(&b(&[1, 1, 0, 0, 0, 0], &[(0, 0), (1, 1)]), 0, 1),
        None
    );
    assert_eq!(joined(&t, 1, 4), None);
}

/// The middle's edges that neither part holds, path by path: each
/// separator square is checked once, after the last edge at it, and the
/// two knight's moves between the separator rows whose ends lie equally
/// far from the centre column are there on an odd width, none on an even
/// one.
#[test]
fn the_middle_is_taken_path_by_path() {
    for w in 3..=MAX_WIDTH {
        let m = Middle::new(w, std::iter::empty());
        assert_eq!(m.edges.len(), 2 * (w % 2), "{w}");
        let mut checked: Vec<u8> = m.checks.iter().flat_map(|c| c.1.clone()).collect();
        checked.sort_unstable();
        assert_eq!(checked, (0..2 * w as u8).collect::<Vec<_>>(), "{w}");
        for &(u, v) in &m.edges {
            let (u, v) = (usize::from(u.min(v)), usize::from(u.max(v)));
            assert!(
                u < w && v >= w && (u % w).abs_diff(v % w) == 2 && u + v % w == w - 1,
                "{w}: {u}-{v}"
            );
            let at = |s: usize| {
                m.checks
                    .iter()
                    .find(|c| c.1.contains(&(s as u8)))
                    .unwrap()
                    .0
            };
            // Checked right after the last edge at it.
            for s in [u, v] {
                let last = m
                    .edges
                    .iter()
                    .rposition(|&(x, y)| usize::from(x) == s || usize::from(y) == s);
                assert_eq!(at(s), last.unwrap() + 1, "{w}: square {s}");
            }
        }
        // No pattern meets an empty table: every state is turned away.
        let mut seen = 0;
        m.expand(b(&vec![0; 2 * w], &[]), &mut |_| seen += 1);
        assert_eq!(seen, 0);
    }
}

/// The checks along the middle only turn away what the last one would:
/// on 6x5 (5 wide, 2 of its 6 edges left to the middle), every lower state expands to exactly the
/// bottom states, of all the ways to add middle edges, whose pattern
/// meets one of the top's.
#[test]
fn the_middle_prunes_only_what_cannot_meet() {
    fn every(b: Boundary, edges: &[(u8, u8)], out: &mut Vec<u128>) {
        match edges.split_first() {
            None => out.push(b.packed()),
            Some((&(u, v), rest)) => {
                every(b, rest, out);
                if let Some(j) = joined(&b, usize::from(u), usize::from(v)) {
                    every(j, rest, out);
                }
            }
        }
    }
    let (rows, w) = (6, 5);
    let ([top, bottom], shared) = parts(rows, w, MiddleEdges::Outer);
    assert!(shared);
    let engine = Engine::new(&top.problem).unwrap();
    let finals: Mutex<Vec<(u128, u128)>> = Mutex::new(Vec::new());
    let keep = |c: &[(u128, u128)]| -> Result<()> {
        finals.lock().unwrap().extend_from_slice(c);
        Ok(())
    };
    executor::run(
        &top.problem,
        &RunOptions {
            final_layer: Some(&keep),
            ..RunOptions::default()
        },
    )
    .unwrap();
    let finals = finals.into_inner().unwrap();
    let tops = Reader::new(&top, &engine).boundaries(&engine, &finals);
    let table = Table::new(unfolded(&tops, 2 * w, Some(&Relabel::mirror(w))), 2 * w);
    let middle = Middle::new(w, table.runs.keys().copied());
    let meets: std::collections::HashSet<u64> = table
        .runs
        .keys()
        .flat_map(|&k| {
            let mut v = Vec::new();
            each_pattern(k, 2 * w, |p, _| v.push(p));
            v
        })
        .collect();
    let reader = Reader::new(&bottom, &engine);
    let (mut kept, mut all) = (0, 0);
    for (&(key, _), (t, _)) in finals.iter().zip(&tops) {
        // The top state upside down is the lower part's.
        let b = reader.boundary(&engine, key);
        assert_eq!(Relabel::swap(w).of(t), b);
        let mut got = Vec::new();
        middle.expand(b, &mut |x| got.push(x.packed()));
        let mut want = Vec::new();
        every(b, &middle.edges, &mut want);
        all += want.len();
        want.retain(|&k| {
            let x = Boundary::unpacked(k);
            meets.contains(&pattern_key(x.degrees, x.term))
        });
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        kept += got.len();
    }
    assert!(kept > 0 && kept < all, "{kept} of {all}");
}

/// Every knight's move of a board lies in exactly one part or, on even
/// rows and an odd width, among the middle's edges left to add.
#[test]
fn the_parts_share_out_every_edge() {
    use crate::count::strategy::halves::Side;
    for rows in 4..=9 {
        for w in 3..=MAX_WIDTH {
            let h = cut(rows);
            let even = rows % 2 == 0;
            let sides = if even {
                [
                    Side::TopWith(MiddleEdges::Outer),
                    Side::LowerWith(MiddleEdges::Outer),
                ]
            } else {
                [Side::Top, Side::Bottom]
            };
            let left = Middle::new(w, std::iter::empty()).edges;
            let sep =
                |(r, c): (usize, usize)| (r == h || r == h + 1).then(|| ((r - h) * w + c) as u8);
            for (r, c) in (0..rows).flat_map(|r| (0..w).map(move |c| (r, c))) {
                for (dc, dr) in crate::board::MOVES {
                    let (rr, cc) = (r as i64 + i64::from(dr), c as i64 + i64::from(dc));
                    if rr < 0 || cc < 0 || rr >= rows as i64 || cc >= w as i64 {
                        continue;
                    }
                    let (a, b) = ((r, c), (rr as usize, cc as usize));
                    let held = sides.iter().filter(|s| s.holds(a, b, w, h)).count();
                    let in_middle = match (sep(a), sep(b)) {
                        (Some(x), Some(y)) => {
                            even && left.iter().any(|&e| e == (x, y) || e == (y, x))
                        }
                        _ => false,
                    };
                    assert_eq!(held + usize::from(in_middle), 1, "{rows}x{w}: {a:?}-{b:?}");
                }
            }
        }
    }
}

/// The bottom part is the top upside down exactly on even row counts.
#[test]
fn even_rows_run_the_top_alone() {
    for rows in 4..=9 {
        for w in 3..=MAX_WIDTH {
            let shared = rows % 2 == 0;
            assert_eq!(parts(rows, w, MiddleEdges::Outer).1, shared, "{rows}x{w}");
            let runs = if across(rows, w).unwrap().is_some() {
                1
            } else {
                2 - usize::from(shared)
            };
            assert_eq!(
                part_problems(rows, w, MiddleEdges::Outer).len(),
                runs,
                "{rows}x{w}"
            );
        }
    }
}

/// Every board of 4 to 6 rows with a plan (whether or not it is used):
/// the meet across its separator counts what the row cut counts.
#[test]
fn across_a_separator_counts_as_the_row_cut() {
    let mut planned = Vec::new();
    for rows in 4..=6 {
        for w in 3..=rows {
            let Some(plan) = Plan::find(rows, w) else {
                continue;
            };
            let opts = RunOptions::default();
            let across = open_tours_across(&plan, &opts).unwrap();
            let by_rows = open_tours_by_rows(rows, w, &opts).unwrap();
            assert_eq!(across.count, by_rows.count, "{rows}x{w}");
            planned.push((rows, w, across.count.to_u128().unwrap()));
        }
    }
    // 5x5, 6x5 and 6x6 among them, with tours.
    for (rows, w, count) in [(5, 5, 864), (6, 5, 18784), (6, 6, 3318960)] {
        assert!(planned.contains(&(rows, w, count)), "{planned:?}");
    }
}

/// The plans are used where the half's frontier is two squares narrower
/// than the row cut's top part's, and not on 8x5, where it is one.
#[test]
fn plans_are_used_where_their_frontier_is_narrower() {
    let used: Vec<(usize, usize)> = (4..=10)
        .flat_map(|rows| (3..=rows.min(MAX_WIDTH)).map(move |w| (rows, w)))
        .filter(|&(rows, w)| across(rows, w).unwrap().is_some())
        .collect();
    for board in [(6, 6), (7, 6), (7, 5), (6, 5), (7, 4)] {
        assert!(used.contains(&board), "{board:?} in {used:?}");
    }
    for board in [(9, 5), (8, 5), (8, 6), (7, 7), (8, 8)] {
        assert!(!used.contains(&board), "{board:?} in {used:?}");
    }
}

#[test]
fn mirror_images_of_boundaries() {
    // Two rows of 3: squares 0 1 2 / 3 4 5.
    let t = b(&[1, 0, 2, 1, 1, 1], &[(0, 3), (3, 0), (4, 5), (5, 4)]);
    let m = Relabel::mirror(3).of(&t);
    assert_eq!(m, b(&[2, 0, 1, 1, 1, 1], &[(2, 5), (5, 2), (4, 3), (3, 4)]));
    assert_eq!(Relabel::mirror(3).of(&m), t);
}

/// The table is looked up from the bottom's side: a bottom pattern
/// that a top state can meet must be one whose own patterns hold the
/// top state's, and the other way round.
#[test]
fn patterns_meet_both_ways() {
    for t in [
        b(&[1, 1, 0, 2], &[(0, 1), (1, 0)]),
        b(&[1, 0, 0, 2], &[(0, 0)]),
        b(&[1, 0, 1, 2], &[(0, 0), (2, 2)]),
        b(&[0, 0, 0, 0], &[]),
    ] {
        let own = pattern_key(t.degrees, t.term);
        let mut n = 0;
        each_pattern(own, 4, |k, i| {
            n += 1;
            assert_eq!(i, pattern_index(k, 4));
            let mut back = false;
            each_pattern(k, 4, |j, _| back |= j == own);
            assert!(back, "{t:?} and {k:x}");
        });
        let m = (0..4).filter(|&s| (t.degrees >> (2 * s)) & 3 <= 1).count();
        let want = match t.term {
            2 => 1,
            1 => 1 + m,
            _ => 1 + m + m * (m - 1) / 2,
        };
        assert_eq!(n, want, "{t:?}");
    }
}

/// Past their share of a small memory bound the held states go to disk,
/// in a directory of the work directory removed at the end, and the count
/// is the one they make in memory (6x7 open: 389,969,466 undirected, OEIS
/// A165134's table of open tours; the test data's `[open]`).
#[test]
fn held_states_past_their_share_go_to_disk() {
    let work = std::env::temp_dir().join(format!("knights-shelf-test-{}", std::process::id()));
    executor::prepare_work_dir(&work, false, true).unwrap();
    let in_memory = open_tours_by_rows(7, 6, &RunOptions::default()).unwrap();
    assert_eq!(in_memory.held_disk, 0);
    let small = RunOptions {
        count: &crate::count::CountOptions {
            max_memory: Some(3 << 20),
            work_dir: Some(work.to_path_buf()),
            ..crate::count::CountOptions::default()
        },
        ..RunOptions::default()
    };
    let on_disk = open_tours_by_rows(7, 6, &small).unwrap();
    assert!(on_disk.held_disk > 0);
    assert_eq!(on_disk.count, in_memory.count);
    assert_eq!(on_disk.count.to_u128(), Some(389_969_466));
    let left: Vec<String> = std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("join-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&work).unwrap();
}

/// A count kept in memory stops when its held states pass their share,
/// instead of writing them to disk.
#[test]
fn held_states_of_a_memory_only_count_stop_at_their_share() {
    let board: crate::Board = "7x6".parse().unwrap();
    let opts = RunOptions {
        count: &crate::count::CountOptions {
            max_memory: Some(3 << 20),
            ..crate::count::CountOptions::default()
        },
        memory_only: Some(board),
        ..RunOptions::default()
    };
    let Err(err) = open_tours_by_rows(7, 6, &opts) else {
        panic!("a count kept in memory went past its bound");
    };
    assert!(err.to_string().contains("memory bound"), "{err}");
}
