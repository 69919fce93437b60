//! Published counts of knight's tours, with their sources: the numbers a
//! count can be compared with (the web page shows them beside a result).
//! Undirected; an open count counts every Hamiltonian path, including those
//! whose ends are a knight's move apart, as [`super::tours`] does with
//! [`Kind::Open`]. The library's tests check every entry against the
//! tests' own data (`tests/data/counts.toml`, `published_counts.toml`).

use serde::Serialize;

use crate::{Board, Kind};

/// A published count of the tours of one kind on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Published {
    /// The board's shorter side.
    pub rows: u32,
    /// The board's longer side.
    pub cols: u32,
    /// Closed or open tours.
    pub kind: Kind,
    /// The number of tours, undirected (a string in JSON: counts may pass
    /// what a JSON number holds exactly).
    #[serde(serialize_with = "as_text")]
    pub count: u64,
    /// Where it is published.
    pub source: &'static str,
}

fn as_text<S: serde::Serializer>(count: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(count)
}

const fn closed(rows: u32, cols: u32, count: u64, source: &'static str) -> Published {
    Published {
        rows,
        cols,
        kind: Kind::Closed,
        count,
        source,
    }
}

const fn open(rows: u32, cols: u32, count: u64, source: &'static str) -> Published {
    Published {
        kind: Kind::Open,
        ..closed(rows, cols, count, source)
    }
}

const A390833: &str = "OEIS A390833";

/// Every published count this library knows, closed first, each by size.
pub const PUBLISHED: &[Published] = &[
    closed(3, 4, 0, "Schwenk 1991"),
    closed(3, 10, 16, "OEIS A070030"),
    closed(3, 12, 176, "OEIS A070030"),
    closed(5, 6, 8, "OEIS A175855"),
    closed(5, 8, 44202, "OEIS A392000"),
    closed(6, 6, 9862, "OEIS A001230"),
    closed(6, 7, 1067638, "OEIS A175881"),
    closed(6, 8, 55488142, "OEIS A175881"),
    closed(8, 8, 13267364410532, "McKay 1997, OEIS A001230"),
    open(3, 4, 8, A390833),
    open(3, 7, 52, A390833),
    open(3, 8, 396, A390833),
    open(3, 9, 560, A390833),
    open(3, 10, 3048, A390833),
    open(3, 11, 10672, A390833),
    open(3, 12, 57248, A390833),
    open(4, 5, 82, A390833),
    open(4, 6, 744, A390833),
    open(4, 7, 6378, A390833),
    open(4, 8, 31088, A390833),
    open(4, 9, 189688, A390833),
    open(4, 10, 1213112, A390833),
    open(5, 5, 864, "OEIS A390833, A165134"),
    open(5, 6, 18784, A390833),
    open(5, 7, 622868, A390833),
    open(5, 8, 18061054, A390833),
    open(6, 6, 3318960, "OEIS A390833, A165134"),
];

/// The published count of `kind` tours on `board` (either orientation),
/// with its source, if this library knows one.
///
/// ```
/// use knights::count::{published, Kind};
/// let p = published("8x6".parse()?, Kind::Closed).unwrap();
/// assert_eq!((p.count, p.source), (55488142, "OEIS A175881"));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn published(board: Board, kind: Kind) -> Option<&'static Published> {
    let (rows, cols) = (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
    );
    PUBLISHED
        .iter()
        .find(|p| p.rows == rows && p.cols == cols && p.kind == kind)
}
