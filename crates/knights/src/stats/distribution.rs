//! Move and relative-move counts of one tour, and their summary over many.

use serde::Serialize;

use crate::{Board, Tour, Tourney};

/// How often each move and each relative move occurs in one tour or tourney.
///
/// # Example
/// ```
/// use knights::{Board, stats::MoveCounts};
/// let tour = knights::Tour::builder(Board::new(8, 8)?).closed()
///     .algorithm(knights::algorithms::Warnsdorff::default()).seed(1).build()?;
/// let counts = MoveCounts::of_tour(&tour);
/// assert_eq!(counts.moves.iter().sum::<u64>(), 64);
/// assert_eq!(counts.relative[4], 0);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MoveCounts {
    /// Number of moves of each kind 0-7.
    pub moves: [u64; 8],
    /// Number of relative moves of each kind 0-7.
    pub relative: [u64; 8],
}

impl MoveCounts {
    fn add_path(&mut self, board: Board, squares: &[u32], closed: bool) {
        let mut first = None;
        let mut prev: Option<u8> = None;
        for k in board.path_moves(squares, closed) {
            let k = k.expect("consecutive squares are a knight's move apart");
            self.moves[k as usize] += 1;
            if let Some(p) = prev {
                self.relative[((k + 8 - p) % 8) as usize] += 1;
            }
            first.get_or_insert(k);
            prev = Some(k);
        }
        if closed {
            if let (Some(p), Some(k)) = (prev, first) {
                self.relative[((k + 8 - p) % 8) as usize] += 1;
            }
        }
    }

    /// The counts of a tour.
    ///
    /// # Complexity
    /// O(squares).
    pub fn of_tour(tour: &Tour) -> MoveCounts {
        let mut c = MoveCounts::default();
        c.add_path(tour.board(), tour.squares(), tour.is_closed());
        c
    }

    /// The counts of a tourney, every cycle closed.
    pub fn of_tourney(tourney: &Tourney) -> MoveCounts {
        let mut c = MoveCounts::default();
        for cycle in tourney.cycles() {
            c.add_path(tourney.board(), cycle, true);
        }
        c
    }

    /// Move frequencies (summing to 1).
    pub fn move_frequencies(&self) -> [f64; 8] {
        frequencies(&self.moves)
    }

    /// Relative-move frequencies (summing to 1).
    pub fn relative_frequencies(&self) -> [f64; 8] {
        frequencies(&self.relative)
    }
}

fn frequencies(counts: &[u64; 8]) -> [f64; 8] {
    let total: u64 = counts.iter().sum();
    let mut f = [0.0; 8];
    if total > 0 {
        for (out, &c) in f.iter_mut().zip(counts) {
            *out = c as f64 / total as f64;
        }
    }
    f
}

/// Running mean and (sample) standard deviation, by Welford's method.
#[derive(Clone, Copy, Debug, Default)]
struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    fn std(&self) -> f64 {
        if self.n > 1 {
            (self.m2 / (self.n - 1) as f64).sqrt()
        } else {
            0.0
        }
    }
}

/// Collects per-tour counts and figures in order and summarises them
/// (what [`SummaryBuilder::run`](super::SummaryBuilder::run) does for
/// generated samples).
#[derive(Clone, Debug, Default)]
pub struct RunningSummary {
    moves: [Welford; 8],
    relative: [Welford; 8],
    extra: Vec<(String, Welford)>,
    count: u64,
}

impl RunningSummary {
    /// Adds one tour's (or tourney's) counts.
    pub fn push(&mut self, counts: &MoveCounts) {
        self.count += 1;
        for (w, f) in self.moves.iter_mut().zip(counts.move_frequencies()) {
            w.push(f);
        }
        for (w, f) in self.relative.iter_mut().zip(counts.relative_frequencies()) {
            w.push(f);
        }
    }

    /// Adds one value of a named per-tour figure (rails, cycles, attempts, ...).
    pub fn push_figure(&mut self, name: &str, value: f64) {
        match self.extra.iter_mut().find(|(n, _)| n == name) {
            Some((_, w)) => w.push(value),
            None => {
                let mut w = Welford::default();
                w.push(value);
                self.extra.push((name.to_string(), w));
            }
        }
    }

    /// The summary of everything pushed.
    pub fn finish(&self, board: Board) -> Summary {
        Summary {
            rows: board.rows(),
            cols: board.cols(),
            count: self.count,
            moves: self.moves.map(|w| w.mean),
            moves_std: self.moves.map(|w| w.std()),
            relative_moves: self.relative.map(|w| w.mean),
            relative_moves_std: self.relative.map(|w| w.std()),
            figures: self
                .extra
                .iter()
                .map(|(n, w)| FigureSummary {
                    name: n.clone(),
                    mean: w.mean,
                    std: w.std(),
                })
                .collect(),
        }
    }
}

/// A named per-tour figure's mean and standard deviation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FigureSummary {
    /// Its name (`rails`, `cycles`, ...).
    pub name: String,
    /// Mean over the tours.
    pub mean: f64,
    /// Sample standard deviation over the tours.
    pub std: f64,
}

/// Means and standard deviations of the distributions over many tours.
///
/// # Example
/// ```
/// use knights::{Board, stats::{MoveCounts, RunningSummary}};
/// let board = Board::new(8, 8)?;
/// let mut b = RunningSummary::default();
/// for seed in 0..10 {
///     let t = knights::Tour::builder(board).closed()
///         .algorithm(knights::algorithms::Warnsdorff::default()).seed(seed).build()?;
///     b.push(&MoveCounts::of_tour(&t));
/// }
/// let s = b.finish(board);
/// assert_eq!(s.count, 10);
/// assert!((s.moves.iter().sum::<f64>() - 1.0).abs() < 1e-9);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Number of tours summarised.
    pub count: u64,
    /// Mean frequency of each move.
    pub moves: [f64; 8],
    /// Standard deviation of each move's frequency across tours.
    pub moves_std: [f64; 8],
    /// Mean frequency of each relative move.
    pub relative_moves: [f64; 8],
    /// Standard deviation of each relative move's frequency across tours.
    pub relative_moves_std: [f64; 8],
    /// Other per-tour figures.
    pub figures: Vec<FigureSummary>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_of_a_small_open_tour() {
        let b = Board::new(3, 4).unwrap();
        let t = Tour::new(b, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4]).unwrap();
        let c = MoveCounts::of_tour(&t);
        // Moves 7 4 1 7 4 1 6 3 0 5 3 (see format::move_list).
        assert_eq!(c.moves, [1, 2, 0, 2, 2, 1, 1, 2]);
        assert_eq!(c.moves.iter().sum::<u64>(), 11);
        assert_eq!(c.relative.iter().sum::<u64>(), 10);
        assert_eq!(c.relative[4], 0);
        // 7->4, 4->1 are relative 5; 1->7 is relative 6; ...
        assert_eq!(c.relative, [0, 0, 0, 0, 0, 8, 2, 0]);
    }

    #[test]
    fn welford_matches_two_pass() {
        let xs = [0.1, 0.4, 0.25, 0.3, 0.05];
        let mut w = Welford::default();
        xs.iter().for_each(|&x| w.push(x));
        let mean = xs.iter().sum::<f64>() / 5.0;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 4.0;
        assert!((w.mean - mean).abs() < 1e-12 && (w.std() - var.sqrt()).abs() < 1e-12);
    }
}
