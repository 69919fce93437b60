//! The numbers of the tourney paper (Parberry 2020) that `knights paper` puts
//! beside its own: Tables 1 and 2 (move and relative-move distributions of
//! obfuscated tours from five generators, Section 7) and the relative moves
//! of plain Warnsdorff tours (Section 3.1). Transcribed from the seed; the
//! test suite checks them against `tests/data/paper_tables.toml`.

/// One row of Table 1 and Table 2: a generator's name in the paper, our
/// generator's name, its move distribution (moves 0-7) and relative-move
/// distribution (relative moves 0-7, with 4 always 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaperRow {
    /// The name in the paper's tables.
    pub paper_name: &'static str,
    /// Our generator (`knights ... --algorithm NAME`).
    pub generator: &'static str,
    /// Table 1: frequency of moves 0-7.
    pub moves: [f64; 8],
    /// Table 2: frequency of relative moves 0-7 (4 is 0 in every tour).
    pub relative_moves: [f64; 8],
}

/// Tables 1 and 2 of the paper, row by row. The paper's Four-Cover rows
/// repeat its Warnsdorff rows digit for digit (see `knights paper`).
///
/// # Example
/// ```
/// let t = knights::stats::PAPER_TABLES;
/// assert_eq!(t.len(), 5);
/// assert_eq!(t[4].moves, t[0].moves);
/// ```
pub const PAPER_TABLES: [PaperRow; 5] = [
    PaperRow {
        paper_name: "Warnsdorff",
        generator: "warnsdorff",
        moves: [
            0.1249, 0.1248, 0.1250, 0.1251, 0.1252, 0.1249, 0.1245, 0.1256,
        ],
        relative_moves: [0.1444, 0.1591, 0.1345, 0.1334, 0.0, 0.1339, 0.1361, 0.1587],
    },
    PaperRow {
        paper_name: "Takefuji-Lee",
        generator: "neural",
        moves: [
            0.1255, 0.1249, 0.1247, 0.1252, 0.1250, 0.1250, 0.1252, 0.1244,
        ],
        relative_moves: [0.1514, 0.1488, 0.1359, 0.1406, 0.0, 0.1390, 0.1353, 0.1490],
    },
    PaperRow {
        paper_name: "Div-and-Conq",
        generator: "divide",
        moves: [
            0.1214, 0.1210, 0.1289, 0.1286, 0.1217, 0.1208, 0.1289, 0.1287,
        ],
        relative_moves: [0.1494, 0.1527, 0.1379, 0.1356, 0.0, 0.1350, 0.1368, 0.1527],
    },
    PaperRow {
        paper_name: "Braid",
        generator: "braid",
        moves: [
            0.1253, 0.1250, 0.1251, 0.1246, 0.1253, 0.1249, 0.1253, 0.1245,
        ],
        relative_moves: [0.1570, 0.1485, 0.1355, 0.1374, 0.0, 0.1387, 0.1352, 0.1477],
    },
    PaperRow {
        paper_name: "Four-Cover",
        generator: "four-cover",
        moves: [
            0.1249, 0.1248, 0.1250, 0.1251, 0.1252, 0.1249, 0.1245, 0.1256,
        ],
        relative_moves: [0.1444, 0.1591, 0.1345, 0.1334, 0.0, 0.1339, 0.1361, 0.1587],
    },
];

/// Section 3.1: relative moves 0-7 of 1,000 plain Warnsdorff tours, as the
/// text gives them (0 at 27.2 %, 1 and 7 at 14.5 %, 3 and 5 at 12.9 %, 2 and
/// 6 at 9 %; they sum to 1.002, the text rounds).
pub const PAPER_WARNSDORFF_RELATIVE: [f64; 8] =
    [0.272, 0.145, 0.09, 0.129, 0.0, 0.129, 0.09, 0.145];
