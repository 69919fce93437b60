//! Boards beyond the plain rectangle: squares cut out (holes), edges that
//! wrap round (cylinder and torus), and leapers other than the knight.
//!
//! A [`Shape`] is a [`Board`] (the rectangle that holds it, whose square
//! numbering it keeps) with a hole mask, a [`Wrap`] and a [`Leaper`]. Its
//! move graph is what every general method works on: the search methods
//! of [`crate::algorithms`] through [`Shape::graph`], the checker
//! ([`crate::check::check_path_on`], which recomputes the moves from the
//! definition below on its own), the formats (the optional `holes`, `wrap`
//! and `leaper` keys of tour JSON) and the counter.
//!
//! The moves of the leaper (a, b) with a <= b are numbered as the knight's
//! (which is the leaper (1, 2)): move 0 is (dx, dy) = (b, -a), then
//! (a, -b), (-a, -b), (-b, -a), (-b, a), (-a, b), (a, b), (b, a), so that
//! move `k ^ 4` undoes move `k`. Where two move numbers reach the same
//! square (a leaper with a = b or a = 0, or a wrapped side of at most
//! 2b), the smaller names the move; a move that comes back to its own
//! square, or lands on a hole, is no move.
//!
//! # Example
//! ```
//! use knights::shape::{Shape, Wrap, Leaper};
//! let torus = Shape::new("8x8".parse()?).with_wrap(Wrap::Both);
//! assert_eq!(torus.neighbours(0).count(), 8);
//! // On the 4x4 torus a move of +2 and one of -2 land on the same square.
//! let small = Shape::new("4x4".parse()?).with_wrap(Wrap::Both);
//! assert_eq!(small.neighbours(0).count(), 4);
//! let holed = Shape::parse_board_text("...\n.#.\n...\n")?;
//! assert_eq!(holed.squares(), 8);
//! let zebra = Shape::new("10x10".parse()?).with_leaper(Leaper::new(2, 3)?);
//! assert_eq!(zebra.to_string(), "10x10, leaper 2,3");
//! # Ok::<(), knights::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::board::Square;
use crate::{Board, Error, Result};

/// Which edges of the board are joined.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// None: the plain board.
    #[default]
    None,
    /// The top and bottom edges are joined: a move from the last row goes
    /// on in the first (a cylinder whose rows run round it).
    Rows,
    /// The left and right edges are joined (a cylinder whose columns run round it).
    Cols,
    /// Both: the torus.
    Both,
}

impl Wrap {
    /// Every wrap, in the order the help lists them.
    pub const ALL: [Wrap; 4] = [Wrap::None, Wrap::Rows, Wrap::Cols, Wrap::Both];

    /// `none`, `rows`, `cols` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Wrap::None => "none",
            Wrap::Rows => "rows",
            Wrap::Cols => "cols",
            Wrap::Both => "both",
        }
    }

    /// Whether moves wrap from the last row to the first.
    pub fn rows(self) -> bool {
        matches!(self, Wrap::Rows | Wrap::Both)
    }

    /// Whether moves wrap from the last column to the first.
    pub fn cols(self) -> bool {
        matches!(self, Wrap::Cols | Wrap::Both)
    }
}

impl FromStr for Wrap {
    type Err = Error;

    /// Reads `none`, `rows`, `cols` (`columns`) or `both` (`torus`).
    fn from_str(text: &str) -> Result<Wrap> {
        match text.trim().to_ascii_lowercase().as_str() {
            "none" | "" => Ok(Wrap::None),
            "rows" => Ok(Wrap::Rows),
            "cols" | "columns" => Ok(Wrap::Cols),
            "both" | "torus" => Ok(Wrap::Both),
            _ => Err(Error::Parse(format!(
                "'{}' is not a wrap; use rows (top and bottom joined), cols (left and right joined) or both (the torus)",
                crate::excerpt(text)
            ).into())),
        }
    }
}

impl fmt::Display for Wrap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A leaper: a piece that jumps `a` squares one way and `b` the other
/// (the knight is (1, 2), the camel (1, 3), the zebra (2, 3), the giraffe
/// (1, 4)). Stored with `a <= b`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Leaper {
    a: u32,
    b: u32,
}

impl Default for Leaper {
    fn default() -> Leaper {
        Leaper::KNIGHT
    }
}

impl Leaper {
    /// The knight, (1, 2).
    pub const KNIGHT: Leaper = Leaper { a: 1, b: 2 };
    /// The largest jump a leaper may make.
    pub const MAX_JUMP: u32 = 1000;

    /// The leaper (a, b), in either order.
    ///
    /// # Errors
    /// [`Error::Parse`] when both are 0 or one is over [`Leaper::MAX_JUMP`].
    pub fn new(a: u32, b: u32) -> Result<Leaper> {
        if a == 0 && b == 0 || a.max(b) > Self::MAX_JUMP {
            return Err(Error::Parse(
                format!(
                "a leaper ({a}, {b}) must jump at least one square and at most {} squares each way",
                Self::MAX_JUMP
            )
                .into(),
            ));
        }
        Ok(Leaper {
            a: a.min(b),
            b: a.max(b),
        })
    }

    /// The shorter jump.
    pub fn a(self) -> u32 {
        self.a
    }

    /// The longer jump.
    pub fn b(self) -> u32 {
        self.b
    }

    /// The eight moves as (dx, dy), numbered as the knight's.
    pub fn moves(self) -> [(i64, i64); 8] {
        let (a, b) = (i64::from(self.a), i64::from(self.b));
        [
            (b, -a),
            (a, -b),
            (-a, -b),
            (-b, -a),
            (-b, a),
            (-a, b),
            (a, b),
            (b, a),
        ]
    }

    /// The greatest common divisor of the two jumps.
    pub fn gcd(self) -> u32 {
        let (mut x, mut y) = (self.a, self.b);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    }
}

impl FromStr for Leaper {
    type Err = Error;

    /// Reads `A,B` such as `2,3`.
    fn from_str(text: &str) -> Result<Leaper> {
        let bad = || {
            Error::Parse(
                format!(
                    "'{}' is not a leaper; write A,B such as 1,2 (the knight) or 2,3 (the zebra)",
                    crate::excerpt(text)
                )
                .into(),
            )
        };
        let (a, b) = text.split_once(',').ok_or_else(bad)?;
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let b: u32 = b.trim().parse().map_err(|_| bad())?;
        Leaper::new(a, b)
    }
}

impl fmt::Display for Leaper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.a, self.b)
    }
}

/// A board: the rectangle, its holes, its wrapping and the leaper.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    board: Board,
    /// `true` for a hole, row-major; `None` when there are none.
    holes: Option<Arc<[bool]>>,
    /// Squares that are not holes.
    open: usize,
    wrap: Wrap,
    leaper: Leaper,
}

impl From<Board> for Shape {
    fn from(board: Board) -> Shape {
        Shape::new(board)
    }
}

impl Shape {
    /// The plain board: no holes, no wrapping, the knight.
    pub fn new(board: Board) -> Shape {
        Shape {
            board,
            holes: None,
            open: board.squares(),
            wrap: Wrap::None,
            leaper: Leaper::KNIGHT,
        }
    }

    /// With these squares cut out (repeats are ignored).
    ///
    /// # Errors
    /// [`Error::Board`] for a square off the board, or when every square is cut out.
    pub fn with_holes(mut self, holes: &[Square]) -> Result<Shape> {
        if holes.is_empty() {
            self.holes = None;
            self.open = self.board.squares();
            return Ok(self);
        }
        crate::memory::ensure_fits(self.board, "hole mask", 1)?;
        let mut mask = vec![false; self.board.squares()];
        for &h in holes {
            let slot = mask.get_mut(h as usize).ok_or_else(|| {
                Error::Board(
                    format!(
                        "hole {h} is not a square of {}, whose squares are 0..{}",
                        self.board,
                        self.board.squares()
                    )
                    .into(),
                )
            })?;
            *slot = true;
        }
        self.with_mask(mask)
    }

    fn with_mask(mut self, mask: Vec<bool>) -> Result<Shape> {
        let holes = mask.iter().filter(|&&h| h).count();
        if holes == mask.len() {
            return Err(Error::Board(
                format!(
                    "every square of {} is a hole; a board needs at least one square",
                    self.board
                )
                .into(),
            ));
        }
        self.open = mask.len() - holes;
        self.holes = (holes > 0).then(|| mask.into());
        Ok(self)
    }

    /// With this wrapping.
    pub fn with_wrap(mut self, wrap: Wrap) -> Shape {
        self.wrap = wrap;
        self
    }

    /// With this leaper.
    pub fn with_leaper(mut self, leaper: Leaper) -> Shape {
        self.leaper = leaper;
        self
    }

    /// Reads a board file: one line a row, `.` a square and `#` a hole.
    /// Blank lines before and after, blanks at the ends of lines and a
    /// byte-order mark are ignored; every row must be as long as the first.
    ///
    /// # Errors
    /// [`Error::Parse`] naming the first character or row that is wrong.
    ///
    /// # Example
    /// ```
    /// let s = knights::shape::Shape::parse_board_text("#..\n...\n")?;
    /// assert_eq!((s.board().rows(), s.board().cols(), s.squares()), (2, 3, 5));
    /// assert!(s.is_hole(0));
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn parse_board_text(text: &str) -> Result<Shape> {
        let text = text.trim_start_matches('\u{feff}');
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty())
            .collect();
        let rows: Vec<&str> = match rows.iter().rposition(|l| !l.is_empty()) {
            Some(last) => rows[..=last].to_vec(),
            None => {
                return Err(Error::Parse(
                    "the board file is empty; write one line per row, '.' for a square and '#' for a hole".into(),
                ))
            }
        };
        let cols = rows[0].chars().count();
        crate::memory::ensure_input_fits("board file", text.len(), 2)?;
        let mut mask = Vec::with_capacity(rows.len() * cols);
        for (r, line) in rows.iter().enumerate() {
            if line.chars().count() != cols {
                return Err(Error::Parse(format!(
                    "row {r} of the board file has {} characters where row 0 has {cols}; every row must be as long",
                    line.chars().count()
                ).into()));
            }
            for (c, ch) in line.chars().enumerate() {
                mask.push(match ch {
                    '.' => false,
                    '#' => true,
                    _ => {
                        return Err(Error::Parse(format!(
                            "'{}' at row {r}, column {c} of the board file is neither '.' (a square) nor '#' (a hole)",
                            ch.escape_default()
                        ).into()))
                    }
                });
            }
        }
        let board = Board::new(rows.len() as u64, cols as u64)?;
        Shape::new(board).with_mask(mask)
    }

    /// The board file of the shape's squares and holes (see
    /// [`Shape::parse_board_text`]).
    pub fn board_text(&self) -> String {
        let cols = self.board.cols() as usize;
        let mut out = String::with_capacity(self.board.squares() + self.board.rows() as usize);
        for s in 0..self.board.squares() {
            out.push(if self.is_hole(s as Square) { '#' } else { '.' });
            if s % cols == cols - 1 {
                out.push('\n');
            }
        }
        out
    }

    /// The rectangle that holds the shape.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The wrapping.
    pub fn wrap(&self) -> Wrap {
        self.wrap
    }

    /// The leaper.
    pub fn leaper(&self) -> Leaper {
        self.leaper
    }

    /// Whether this is the plain board (no holes, no wrapping, the knight),
    /// which every method handles with its own fast code.
    pub fn is_plain(&self) -> bool {
        self.holes.is_none() && self.wrap == Wrap::None && self.leaper == Leaper::KNIGHT
    }

    /// The number of squares that are not holes.
    pub fn squares(&self) -> usize {
        self.open
    }

    /// Whether `s` is a hole (squares off the board are not holes).
    #[inline]
    pub fn is_hole(&self, s: Square) -> bool {
        self.holes
            .as_ref()
            .is_some_and(|m| m.get(s as usize).copied().unwrap_or(false))
    }

    /// The holes, row-major.
    pub fn holes(&self) -> impl Iterator<Item = Square> + '_ {
        self.holes
            .iter()
            .flat_map(|m| m.iter().enumerate().filter(|(_, &h)| h))
            .map(|(s, _)| s as Square)
    }

    /// The number of holes.
    pub fn hole_count(&self) -> usize {
        self.board.squares() - self.open
    }

    /// The square move `k` reaches from `s` (wrapping where the board
    /// wraps), if it is on the board; holes and `s` itself included.
    #[inline]
    pub fn step(&self, s: Square, k: u8) -> Option<Square> {
        let (r, c) = self.board.coords(s);
        let (dx, dy) = self.leaper.moves()[k as usize];
        let (rows, cols) = (i64::from(self.board.rows()), i64::from(self.board.cols()));
        let mut nr = i64::from(r) + dy;
        let mut nc = i64::from(c) + dx;
        if self.wrap.rows() {
            nr = nr.rem_euclid(rows);
        }
        if self.wrap.cols() {
            nc = nc.rem_euclid(cols);
        }
        self.board
            .contains(nr, nc)
            .then(|| self.board.square(nr as u32, nc as u32))
    }

    /// The neighbours of a square that is not a hole, with the smallest move
    /// number that reaches each: squares that are not holes, not `s`
    /// itself, each once. A hole has none.
    pub fn neighbours(&self, s: Square) -> impl Iterator<Item = (u8, Square)> + '_ {
        let from_hole = self.is_hole(s);
        let mut seen = [Square::MAX; 8];
        (0..8u8).filter_map(move |k| {
            if from_hole {
                return None;
            }
            let t = self.step(s, k)?;
            if t == s || self.is_hole(t) || seen.contains(&t) {
                return None;
            }
            seen[k as usize] = t;
            Some((k, t))
        })
    }

    /// The number of neighbours of `s`.
    pub fn degree(&self, s: Square) -> u8 {
        self.neighbours(s).count() as u8
    }

    /// The smallest move number that takes the leaper from `a` to `b`, if any.
    pub fn move_between(&self, a: Square, b: Square) -> Option<u8> {
        if self.is_plain() {
            return self.board.move_between(a, b);
        }
        if a == b || self.is_hole(a) || self.is_hole(b) {
            return None;
        }
        (0..8u8).find(|&k| self.step(a, k) == Some(b))
    }

    /// The move graph as adjacency lists.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when it cannot fit in memory.
    ///
    /// # Complexity
    /// O(rows * cols) time; 4 bytes per square and per move.
    pub fn graph(&self) -> Result<Graph> {
        Graph::new(self)
    }

    /// The square at (r, c) as a short text for messages: `(r, c)`.
    pub fn name(&self, s: Square) -> String {
        let (r, c) = self.board.coords(s);
        format!("({r}, {c})")
    }

    /// Reads a square written `ROW,COL` or named such as `c3` (as
    /// [`Board::parse_square`] does) that must not be a hole.
    ///
    /// # Errors
    /// [`Error::Board`] for a square off the board or on a hole.
    pub fn parse_square(&self, text: &str) -> Result<Square> {
        let s = self.board.parse_square(text)?;
        if self.is_hole(s) {
            return Err(Error::Board(
                format!(
                    "square {} is a hole of the board; name a square that is not",
                    self.name(s)
                )
                .into(),
            ));
        }
        Ok(s)
    }
}

impl fmt::Display for Shape {
    /// `8x8`, or for example `8x8, 3 holes, wrap both, leaper 2,3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board)?;
        match self.hole_count() {
            0 => {}
            1 => f.write_str(", 1 hole")?,
            n => write!(f, ", {n} holes")?,
        }
        if self.wrap != Wrap::None {
            write!(f, ", wrap {}", self.wrap)?;
        }
        if self.leaper != Leaper::KNIGHT {
            write!(f, ", leaper {}", self.leaper)?;
        }
        Ok(())
    }
}

/// A shape's move graph as adjacency lists (compressed rows): the
/// neighbours of square `s` are `adj[start[s]..start[s + 1]]`, in move order.
#[derive(Clone, Debug)]
pub struct Graph {
    start: Vec<u32>,
    adj: Vec<Square>,
}

impl Graph {
    fn new(shape: &Shape) -> Result<Graph> {
        let board = shape.board();
        crate::memory::ensure_fits(board, "move graph", 36)?;
        let n = board.squares();
        let mut start = Vec::with_capacity(n + 1);
        let mut adj = Vec::with_capacity(n * 4);
        start.push(0);
        for s in 0..n as Square {
            adj.extend(shape.neighbours(s).map(|(_, t)| t));
            let len = u32::try_from(adj.len()).map_err(|_| {
                Error::Board(format!("{shape} has too many moves for this program").into())
            })?;
            start.push(len);
        }
        Ok(Graph { start, adj })
    }

    /// The number of squares of the rectangle (holes included, with no neighbours).
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    /// Whether the graph has no squares.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The neighbours of `s`.
    #[inline]
    pub fn neighbours(&self, s: Square) -> &[Square] {
        &self.adj[self.start[s as usize] as usize..self.start[s as usize + 1] as usize]
    }

    /// The number of neighbours of `s`.
    #[inline]
    pub fn degree(&self, s: Square) -> usize {
        (self.start[s as usize + 1] - self.start[s as usize]) as usize
    }

    /// The number of edges (each counted once).
    pub fn edges(&self) -> u64 {
        self.adj.len() as u64 / 2
    }

    /// Whether `a` and `b` are neighbours.
    pub fn adjacent(&self, a: Square, b: Square) -> bool {
        self.neighbours(a).contains(&b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_shape_matches_the_board() {
        for (r, c) in [(1, 1), (3, 4), (5, 5), (8, 8), (2, 7)] {
            let b = Board::new(r, c).unwrap();
            let s = Shape::new(b);
            assert!(s.is_plain());
            for q in 0..b.squares() as Square {
                let ours: Vec<_> = s.neighbours(q).collect();
                let theirs: Vec<_> = b.neighbours(q).collect();
                assert_eq!(ours, theirs, "{b} square {q}");
            }
            assert_eq!(s.graph().unwrap().edges(), b.edge_count());
        }
    }

    #[test]
    fn torus_and_cylinder_degrees() {
        let t = Shape::new(Board::new(8, 8).unwrap()).with_wrap(Wrap::Both);
        assert!((0..64).all(|q| t.degree(q) == 8));
        let c = Shape::new(Board::new(8, 8).unwrap()).with_wrap(Wrap::Cols);
        assert_eq!(c.degree(0), 4);
        // 3x3 torus: moves +-2 and +-1 coincide mod 3, so each square has 4 neighbours.
        let small = Shape::new(Board::new(3, 3).unwrap()).with_wrap(Wrap::Both);
        assert!(
            (0..9).all(|q| small.degree(q) == 4),
            "{:?}",
            small.neighbours(0).collect::<Vec<_>>()
        );
        // The smaller move number names a move that two numbers make.
        assert_eq!(
            small.move_between(0, small.step(0, 7).unwrap()),
            small
                .neighbours(0)
                .find(|&(_, t)| t == small.step(0, 7).unwrap())
                .map(|(k, _)| k)
        );
    }

    #[test]
    fn board_files() {
        let s = Shape::parse_board_text("\n ..#\n...\n\n").unwrap();
        assert_eq!(s.to_string(), "2x3, 1 hole");
        assert_eq!(s.board_text(), "..#\n...\n");
        assert_eq!(s.holes().collect::<Vec<_>>(), vec![2]);
        for bad in ["", "..\n...", ".x.", "##\n##"] {
            assert!(Shape::parse_board_text(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn leapers() {
        assert_eq!("2, 1".parse::<Leaper>().unwrap(), Leaper::KNIGHT);
        assert_eq!(Leaper::new(2, 4).unwrap().gcd(), 2);
        assert!("0,0".parse::<Leaper>().is_err());
        assert!("1".parse::<Leaper>().is_err());
        let w = Shape::new(Board::new(3, 3).unwrap()).with_leaper(Leaper::new(0, 1).unwrap());
        assert_eq!(w.degree(4), 4);
        assert_eq!(w.degree(0), 2);
    }
}
