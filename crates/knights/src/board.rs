//! The board: its size, the numbering of squares and moves, and the knight graph.
//!
//! Squares are numbered row-major, `r * cols + c`, with row 0 at the top.
//! Moves are numbered 0 to 7 as in the tourney paper (Parberry 2020), so that move
//! `k ^ 4` (that is, `k + 4 mod 8`) is the opposite of move `k` and moves 4 to 7 go down.

use std::fmt;
use std::str::FromStr;

use crate::{Error, Result};

/// A square's index, `row * cols + col`. Boards have fewer than 2^32 squares.
pub type Square = u32;

/// The eight knight's moves as (dx, dy): dx the change of column, dy the
/// change of row, down positive. Index = move number.
pub const MOVES: [(i32, i32); 8] = [
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
];

/// The opposite of move `k`.
///
/// # Example
/// ```
/// assert_eq!(knights::board::opposite(1), 5);
/// ```
pub const fn opposite(k: u8) -> u8 {
    k ^ 4
}

/// The move number for a displacement (dx, dy), if it is a knight's move.
///
/// # Example
/// ```
/// assert_eq!(knights::board::move_for(2, -1), Some(0));
/// assert_eq!(knights::board::move_for(1, 1), None);
/// ```
pub fn move_for(dx: i64, dy: i64) -> Option<u8> {
    /// Move numbers by (dy + 2) * 5 + (dx + 2); 8 for none.
    const TABLE: [u8; 25] = {
        let mut t = [8u8; 25];
        let mut k = 0;
        while k < 8 {
            let (dx, dy) = MOVES[k];
            t[((dy + 2) * 5 + dx + 2) as usize] = k as u8;
            k += 1;
        }
        t
    };
    if !(-2..=2).contains(&dx) || !(-2..=2).contains(&dy) {
        return None;
    }
    let k = TABLE[((dy + 2) * 5 + dx + 2) as usize];
    (k < 8).then_some(k)
}

/// An R x C rectangular board.
///
/// # Example
/// ```
/// use knights::Board;
/// let b: Board = "8x8".parse()?;
/// assert_eq!(b.squares(), 64);
/// assert_eq!(b.edge_count(), 168);
/// assert_eq!(b.neighbours(0).count(), 2);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: u32,
    cols: u32,
}

impl Board {
    /// The largest number of squares a board may have (square indices are `u32`).
    pub const MAX_SQUARES: u64 = u32::MAX as u64;

    /// A board of `rows` x `cols`; both must be at least 1 and the product at
    /// most [`Board::MAX_SQUARES`].
    pub fn new(rows: u64, cols: u64) -> Result<Board> {
        if rows == 0 || cols == 0 {
            return Err(Error::Board(
                format!("a board needs at least one row and one column, not {rows}x{cols}").into(),
            ));
        }
        match rows.checked_mul(cols) {
            Some(n) if n <= Self::MAX_SQUARES => Ok(Board {
                rows: rows as u32,
                cols: cols as u32,
            }),
            _ => Err(Error::Board(
                format!(
                    "a {rows}x{cols} board has more than {} squares, the most this program handles",
                    Self::MAX_SQUARES
                )
                .into(),
            )),
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// Number of squares, `rows * cols`.
    pub fn squares(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// The same board turned on its side (`cols x rows`).
    pub fn transposed(&self) -> Board {
        Board {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// Reads a square written `ROW,COL` (0-based), as every format writes
    /// them, or by its algebraic name such as `c3` ([`Board::parse_algebraic`]):
    /// the command line, the web page, requests and cipher keys take both.
    ///
    /// # Errors
    /// [`Error::Board`] for text that is neither, or a square off the board,
    /// naming the range.
    ///
    /// # Example
    /// ```
    /// let board: knights::Board = "8x8".parse()?;
    /// assert_eq!(board.parse_square("1, 2")?, 10);
    /// assert_eq!(board.parse_square("c3")?, board.square(5, 2));
    /// assert!(board.parse_square("8,0").is_err());
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn parse_square(&self, text: &str) -> Result<Square> {
        let t = text.trim();
        if !t.contains(',') && t.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return self.parse_algebraic(t);
        }
        let bad = || {
            let named = match self.files() {
                Some(last) => format!(
                    ", or a name such as c3 (file a to {last} from the left, rank 1 to {} from the bottom)",
                    self.rows
                ),
                None => String::new(),
            };
            Error::Board(format!(
                "'{}' is not a square of {self}; write ROW,COL with 0 <= ROW < {} and 0 <= COL < {}{named}",
                crate::excerpt(text),
                self.rows,
                self.cols
            ).into())
        };
        let (r, c) = t.split_once(',').ok_or_else(bad)?;
        let r: u32 = r.trim().parse().map_err(|_| bad())?;
        let c: u32 = c.trim().parse().map_err(|_| bad())?;
        if r >= self.rows || c >= self.cols {
            return Err(bad());
        }
        Ok(self.square(r, c))
    }

    /// The letter of the last file when the board has algebraic names (at
    /// most 26 columns).
    fn files(&self) -> Option<char> {
        (self.cols <= 26).then(|| char::from(b'a' + self.cols as u8 - 1))
    }

    /// Reads an algebraic square name, as in chess: a file letter counted
    /// from the left (`a` is column 0; upper case is read as lower case)
    /// and a rank number counted from the bottom (rank 1 is the last row,
    /// `rows - 1`). Only boards of at most 26 columns have such names.
    ///
    /// # Errors
    /// [`Error::Board`] for text that is not one letter and a number, a
    /// file or rank off the board (naming the range), or a board wider than
    /// 26 columns (saying to write `ROW,COL`).
    ///
    /// # Example
    /// ```
    /// let board: knights::Board = "8x8".parse()?;
    /// assert_eq!(board.parse_algebraic("a1")?, board.square(7, 0));
    /// assert_eq!(board.parse_algebraic("H8")?, board.square(0, 7));
    /// assert!(board.parse_algebraic("i1").is_err());
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn parse_algebraic(&self, text: &str) -> Result<Square> {
        let t = text.trim();
        let shown = crate::excerpt(text);
        let Some(last) = self.files() else {
            return Err(Error::Board(format!(
                "'{shown}' names a square by letter, which only boards of at most 26 columns have; write ROW,COL (0-based) for a square of {self}"
            ).into()));
        };
        let rows = self.rows;
        let mut chars = t.chars();
        let file = chars.next().filter(char::is_ascii_alphabetic);
        let rank = chars.as_str();
        let (Some(file), true) = (
            file,
            !rank.is_empty() && rank.bytes().all(|b| b.is_ascii_digit()),
        ) else {
            return Err(Error::Board(format!(
                "'{shown}' is not a square of {self}; name a square by one file letter a to {last} and a rank 1 to {rows}, such as c3, or write ROW,COL"
            ).into()));
        };
        let col = u32::from(file.to_ascii_lowercase() as u8 - b'a');
        if col >= self.cols {
            return Err(Error::Board(
                format!("'{shown}' is off {self}: its files run from a to {last}").into(),
            ));
        }
        match rank.parse::<u32>() {
            Ok(rank) if (1..=rows).contains(&rank) => Ok(self.square(rows - rank, col)),
            _ => Err(Error::Board(
                format!("'{shown}' is off {self}: its ranks run from 1 (the bottom row) to {rows}")
                    .into(),
            )),
        }
    }

    /// The algebraic name of square `s` (see [`Board::parse_algebraic`]),
    /// or `None` on a board wider than 26 columns.
    ///
    /// # Example
    /// ```
    /// let board: knights::Board = "8x8".parse()?;
    /// assert_eq!(board.algebraic(board.square(5, 2)).as_deref(), Some("c3"));
    /// assert_eq!(board.algebraic(0).as_deref(), Some("a8"));
    /// let wide: knights::Board = "3x27".parse()?;
    /// assert_eq!(wide.algebraic(0), None);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn algebraic(&self, s: Square) -> Option<String> {
        self.files()?;
        let (r, c) = self.coords(s);
        Some(format!("{}{}", char::from(b'a' + c as u8), self.rows - r))
    }

    /// The square at row `r`, column `c`.
    #[inline]
    pub fn square(&self, r: u32, c: u32) -> Square {
        debug_assert!(r < self.rows && c < self.cols);
        r * self.cols + c
    }

    /// The (row, column) of a square.
    #[inline]
    pub fn coords(&self, s: Square) -> (u32, u32) {
        (s / self.cols, s % self.cols)
    }

    /// Whether (r, c), given as signed numbers, lies on the board.
    #[inline]
    pub fn contains(&self, r: i64, c: i64) -> bool {
        r >= 0 && c >= 0 && r < i64::from(self.rows) && c < i64::from(self.cols)
    }

    /// The square reached from `s` by move `k`, if it is on the board.
    #[inline]
    pub fn step(&self, s: Square, k: u8) -> Option<Square> {
        let (r, c) = self.coords(s);
        let (dx, dy) = MOVES[k as usize];
        let (nr, nc) = (i64::from(r) + i64::from(dy), i64::from(c) + i64::from(dx));
        self.contains(nr, nc)
            .then(|| self.square(nr as u32, nc as u32))
    }

    /// The move that takes a knight from `a` to `b`, if any.
    pub fn move_between(&self, a: Square, b: Square) -> Option<u8> {
        let (ra, ca) = self.coords(a);
        let (rb, cb) = self.coords(b);
        move_for(i64::from(cb) - i64::from(ca), i64::from(rb) - i64::from(ra))
    }

    /// The move between each square of `squares` and the next, and from the
    /// last back to the first when `closed`; `None` where two squares are not
    /// a knight's move apart.
    pub fn path_moves<'a>(
        &'a self,
        squares: &'a [Square],
        closed: bool,
    ) -> impl Iterator<Item = Option<u8>> + 'a {
        let n = squares.len();
        let count = if closed { n } else { n.saturating_sub(1) };
        (0..count).map(move |i| self.move_between(squares[i], squares[(i + 1) % n]))
    }

    /// The neighbours of `s` in the knight graph, with the move that reaches each.
    pub fn neighbours(&self, s: Square) -> impl Iterator<Item = (u8, Square)> + '_ {
        (0..8u8).filter_map(move |k| self.step(s, k).map(|t| (k, t)))
    }

    /// The number of knight's moves from `s` that stay on the board.
    pub fn degree(&self, s: Square) -> u8 {
        self.neighbours(s).count() as u8
    }

    /// The degree of every square, row-major.
    ///
    /// # Complexity
    /// O(rows * cols) time and one byte per square.
    pub fn degree_map(&self) -> Result<Vec<u8>> {
        let mut map = crate::memory::try_vec(*self, "degree map", 1, 0u8)?;
        for (s, d) in map.iter_mut().enumerate() {
            *d = self.degree(s as Square);
        }
        Ok(map)
    }

    /// The number of undirected edges of the knight graph (each move counted once).
    pub fn edge_count(&self) -> u64 {
        let (r, c) = (u64::from(self.rows), u64::from(self.cols));
        2 * r.saturating_sub(2) * c.saturating_sub(1)
            + 2 * r.saturating_sub(1) * c.saturating_sub(2)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Board {
    type Err = Error;

    /// Reads `RxC` (also `R x C`, `RXC`, `R*C`) or a single number for a square board.
    fn from_str(text: &str) -> Result<Board> {
        let bad = || {
            Error::Board(format!(
                "'{}' is not a board size; write ROWSxCOLS such as 8x8 or 6x10, or one number such as 8 for a square board",
                crate::excerpt(text)
            ).into())
        };
        let t = text.trim();
        let parts: Vec<&str> = t.split(['x', 'X', '*', '×']).map(str::trim).collect();
        let num = |p: &str| -> Result<u64> {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            p.parse::<u64>().map_err(|_| {
                Error::Board(
                    format!(
                        "'{}' in '{}' is too large for a board side",
                        crate::excerpt(p),
                        crate::excerpt(text)
                    )
                    .into(),
                )
            })
        };
        match parts.as_slice() {
            [n] => {
                let n = num(n)?;
                Board::new(n, n)
            }
            [r, c] => Board::new(num(r)?, num(c)?),
            _ => Err(bad()),
        }
    }
}

/// Fast square arithmetic for the hot loops of the rails and the tourney
/// generators: the signed index offset of each move, so that a step is one
/// addition once the caller knows it stays on the board.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Geometry {
    pub rows: u32,
    pub cols: u32,
    pub off: [isize; 8],
}

impl Geometry {
    pub fn new(board: Board) -> Geometry {
        let cols = board.cols() as isize;
        let mut off = [0isize; 8];
        for (k, &(dx, dy)) in MOVES.iter().enumerate() {
            off[k] = dy as isize * cols + dx as isize;
        }
        Geometry {
            rows: board.rows(),
            cols: board.cols(),
            off,
        }
    }

    /// The square reached from `s` (at row `r`, column `c`) by move `k`, if on the board.
    #[inline]
    pub fn step_rc(&self, s: usize, r: u32, c: u32, k: u8) -> Option<usize> {
        let (dx, dy) = MOVES[k as usize];
        let nr = r as i64 + dy as i64;
        let nc = c as i64 + dx as i64;
        (nr >= 0 && nc >= 0 && nr < self.rows as i64 && nc < self.cols as i64)
            .then(|| (s as isize + self.off[k as usize]) as usize)
    }

    /// Whether `a` and `b` are a knight's move apart.
    #[inline]
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        let cols = self.cols as usize;
        let dr = (a / cols).abs_diff(b / cols);
        let dc = (a % cols).abs_diff(b % cols);
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    /// The move from `a` to `b` (a knight's move apart).
    #[inline]
    pub fn move_between(&self, a: usize, b: usize) -> u8 {
        let d = b as isize - a as isize;
        // Offsets are distinct when cols >= 5; check coordinates otherwise.
        let cols = self.cols as isize;
        let (ar, ac) = (a as isize / cols, a as isize % cols);
        let (br, bc) = (b as isize / cols, b as isize % cols);
        let (dx, dy) = (bc - ac, br - ar);
        debug_assert_eq!(dy * cols + dx, d);
        move_for(dx as i64, dy as i64).expect("squares are a knight's move apart")
    }
}

/// The board inside a frame two squares wide, so that a hot loop can step
/// from any board square by any move without checking the edges: the frame's
/// squares are simply never free. Index of board square (r, c):
/// `(r + 2) * width + c + 2`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Padded {
    /// Columns of the padded board (`cols + 4`).
    pub width: usize,
    /// The moves' index offsets on the padded board.
    pub off: [isize; 8],
    /// The moves' index offsets on the board itself ([`Geometry::off`]).
    pub uoff: [isize; 8],
}

impl Padded {
    pub fn new(board: Board) -> Padded {
        let width = board.cols() as usize + 4;
        let mut off = [0isize; 8];
        for (k, &(dx, dy)) in MOVES.iter().enumerate() {
            off[k] = dy as isize * width as isize + dx as isize;
        }
        Padded {
            width,
            off,
            uoff: Geometry::new(board).off,
        }
    }

    /// The padded index of board square (r, c).
    #[inline]
    pub fn index(&self, r: usize, c: usize) -> usize {
        (r + 2) * self.width + c + 2
    }

    /// Squares of the padded board: `(rows + 4) * (cols + 4)`.
    pub fn len(&self, board: Board) -> usize {
        (board.rows() as usize + 4) * self.width
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_paired_with_their_opposites() {
        for k in 0..8u8 {
            let (dx, dy) = MOVES[k as usize];
            assert_eq!(MOVES[opposite(k) as usize], (-dx, -dy));
            assert_eq!(dy > 0, k >= 4, "moves 4-7 go down");
        }
    }

    #[test]
    fn edge_count_matches_neighbour_sum() {
        for r in 1..12 {
            for c in 1..12 {
                let b = Board::new(r, c).unwrap();
                let sum: u64 = (0..b.squares() as Square)
                    .map(|s| u64::from(b.degree(s)))
                    .sum();
                assert_eq!(sum, 2 * b.edge_count(), "{b}");
            }
        }
    }

    #[test]
    fn parse_boards() {
        assert_eq!("8".parse::<Board>().unwrap(), Board::new(8, 8).unwrap());
        assert_eq!("6x10".parse::<Board>().unwrap().cols(), 10);
        assert_eq!(" 3 X 4 ".parse::<Board>().unwrap().rows(), 3);
        for bad in [
            "",
            "x",
            "8x",
            "0x5",
            "-3x4",
            "8x8x8",
            "eight",
            "99999999999x99999999999",
        ] {
            assert!(bad.parse::<Board>().is_err(), "{bad}");
        }
    }
}
