//! The knight's moves and distances of the n x n board, and the bounds
//! on a line's sums, shared by the magic search's two cores.

/// The least and greatest sums that `odd` squares taking odd numbers and
/// `even` squares taking even numbers can receive from the numbers
/// `k+1 ..= max`.
pub(crate) fn line_bounds(odd: u64, even: u64, k: u64, max: u64) -> (u64, u64) {
    let first_odd = if k & 1 == 0 { k + 1 } else { k + 2 };
    let first_even = if k & 1 == 0 { k + 2 } else { k + 1 };
    let last_odd = if max & 1 == 1 { max } else { max - 1 };
    let last_even = if max & 1 == 0 { max } else { max - 1 };
    let lo = odd * first_odd
        + odd * odd.saturating_sub(1)
        + even * first_even
        + even * even.saturating_sub(1);
    let hi = (odd * last_odd + even * last_even)
        .saturating_sub(odd * odd.saturating_sub(1) + even * even.saturating_sub(1));
    (lo, hi)
}

/// Whether `odd` empty places taking odd numbers and `even` taking even
/// ones can still receive exactly `need` from the numbers `k+1 ..= max`:
/// the right parity, between the least and greatest sums.
pub(crate) fn can_take(need: u64, odd: u64, even: u64, k: u64, max: u64) -> bool {
    if odd + even == 0 {
        return need == 0;
    }
    let (lo, hi) = line_bounds(odd, even, k, max);
    (need + odd).is_multiple_of(2) && lo <= need && need <= hi
}

/// Knight moves from each square of the n x n board, and the knight
/// distance between any two squares of the empty board.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    /// The side.
    pub n: usize,
    /// The neighbours of each square (`neighbours[s][..count[s]]`).
    pub neighbours: Vec<[u16; 8]>,
    /// How many neighbours each square has.
    pub count: Vec<u8>,
    /// `dist[a * n * n + b]`: the fewest knight moves from a to b.
    pub dist: Vec<u8>,
}

impl Geometry {
    pub fn new(n: usize) -> Geometry {
        const MOVES: [(i32, i32); 8] = [
            (-2, -1),
            (-2, 1),
            (-1, -2),
            (-1, 2),
            (1, -2),
            (1, 2),
            (2, -1),
            (2, 1),
        ];
        let nn = n * n;
        let mut neighbours = vec![[0u16; 8]; nn];
        let mut count = vec![0u8; nn];
        for s in 0..nn {
            let (r, c) = ((s / n) as i32, (s % n) as i32);
            for (dr, dc) in MOVES {
                let (r2, c2) = (r + dr, c + dc);
                if r2 >= 0 && c2 >= 0 && (r2 as usize) < n && (c2 as usize) < n {
                    neighbours[s][count[s] as usize] = (r2 as usize * n + c2 as usize) as u16;
                    count[s] += 1;
                }
            }
        }
        let mut dist = vec![u8::MAX; nn * nn];
        let mut queue = Vec::with_capacity(nn);
        for a in 0..nn {
            let row = &mut dist[a * nn..(a + 1) * nn];
            row[a] = 0;
            queue.clear();
            queue.push(a);
            let mut head = 0;
            while head < queue.len() {
                let s = queue[head];
                head += 1;
                for &t in &neighbours[s][..count[s] as usize] {
                    if row[t as usize] == u8::MAX {
                        row[t as usize] = row[s] + 1;
                        queue.push(t as usize);
                    }
                }
            }
        }
        Geometry {
            n,
            neighbours,
            count,
            dist,
        }
    }

    pub fn neighbours(&self, s: usize) -> &[u16] {
        &self.neighbours[s][..self.count[s] as usize]
    }

    pub fn dist(&self, a: usize, b: usize) -> u64 {
        u64::from(self.dist[a * self.n * self.n + b])
    }

    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        self.dist(a, b) == 1
    }
}
