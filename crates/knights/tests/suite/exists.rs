//! The existence theorems against a table of the known cases and against
//! exhaustive search on every board of at most 24 squares.

use knights::{exists, Board};

/// The theorems restated as a table of exceptions (m <= n), independently of
/// the library's wording.
fn expected(m: u64, n: u64) -> (bool, bool) {
    let (m, n) = (m.min(n), m.max(n));
    let both_odd = m % 2 == 1 && n % 2 == 1;
    let thin = [1, 2, 4].contains(&m);
    let three_row_exception = m == 3 && [4, 6, 8].contains(&n);
    let closed = !(both_odd || thin || three_row_exception);
    let open = match m {
        1 => n == 1,
        2 => false,
        3 => n == 4 || n >= 7,
        4 => n >= 5,
        _ => true,
    };
    (closed, open)
}

#[test]
fn theorems_on_every_board_up_to_40x40() {
    for r in 1..=40 {
        for c in 1..=40 {
            let b = Board::new(r, c).unwrap();
            let (closed, open) = expected(r, c);
            let e = exists::closed_tour(b);
            assert_eq!(e.exists, closed, "closed {b}: {e}");
            assert!(!e.reason.is_empty() && e.theorem.contains("Schwenk"));
            let e = exists::open_tour(b);
            assert_eq!(e.exists, open, "open {b}: {e}");
            assert!(exists::require(b, knights::Wanted::Closed).is_ok() == closed);
            if !closed {
                let msg = exists::no_tour_error(b, knights::Wanted::Closed).to_string();
                assert!(
                    msg.starts_with(&format!("no closed tour exists on {b}")),
                    "{msg}"
                );
            }
        }
    }
}

/// Exhaustive search: is there a Hamiltonian path (open: ends not adjacent)
/// or cycle on `board`? Plain depth-first search, written independently.
fn search(board: Board, closed: bool) -> bool {
    let n = board.squares();
    let adj: Vec<Vec<usize>> = (0..n as u32)
        .map(|s| board.neighbours(s).map(|(_, t)| t as usize).collect())
        .collect();
    let adjacent = |a: usize, b: usize| adj[a].contains(&b);
    fn dfs(
        adj: &[Vec<usize>],
        path: &mut Vec<usize>,
        used: &mut [bool],
        done: &dyn Fn(&[usize]) -> bool,
    ) -> bool {
        if path.len() == used.len() {
            return done(path);
        }
        let cur = *path.last().unwrap();
        for &t in &adj[cur] {
            if !used[t] {
                used[t] = true;
                path.push(t);
                if dfs(adj, path, used, done) {
                    return true;
                }
                path.pop();
                used[t] = false;
            }
        }
        false
    }
    let done = |p: &[usize]| {
        let ends_meet = p.len() > 2 && adjacent(p[0], p[p.len() - 1]);
        if closed {
            ends_meet
        } else {
            !ends_meet
        }
    };
    // Closed tours pass through square 0, so starting there is enough.
    let starts: Vec<usize> = if closed { vec![0] } else { (0..n).collect() };
    starts.into_iter().any(|s| {
        let mut used = vec![false; n];
        used[s] = true;
        dfs(&adj, &mut vec![s], &mut used, &done)
    })
}

#[test]
fn theorems_agree_with_exhaustive_search_on_small_boards() {
    for r in 1..=8u64 {
        for c in r..=8u64 {
            if r * c > 24 {
                continue;
            }
            let b = Board::new(r, c).unwrap();
            assert_eq!(search(b, true), exists::closed_tour(b).exists, "closed {b}");
            assert_eq!(search(b, false), exists::open_tour(b).exists, "open {b}");
        }
    }
}
