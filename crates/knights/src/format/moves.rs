//! Move lists: a start square and the move numbers (0-7) that follow.
//!
//! ```text
//! tour 5x5
//! from 0,0: 7 6 5 ...
//! ```
//! A closed tour lists its closing move too, so it has as many moves as
//! squares. A tourney has one `from` line per cycle, each closing on itself:
//! ```text
//! tourney 4x4
//! from 0,0: 7 6 4 1
//! ...
//! ```

use std::fmt;

use super::{board_of, Parsed};
use crate::check::Coord;
use crate::shape::{Leaper, Shape, Wrap};
use crate::{Board, Error, Result, Tour, Tourney};

/// A tour or tourney as a move list.
pub enum MoveList<'a> {
    /// A tour.
    Tour(&'a Tour),
    /// A tourney.
    Tourney(&'a Tourney),
}

/// The move list of a tour.
///
/// # Example
/// ```
/// use knights::{Board, Tour, format::move_list};
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// assert_eq!(move_list(&tour).to_string(), "tour 3x4\nfrom 0,0: 7 4 1 7 4 1 6 3 0 5 3\n");
/// # Ok::<(), knights::Error>(())
/// ```
pub fn move_list(tour: &Tour) -> MoveList<'_> {
    MoveList::Tour(tour)
}

/// The move list of a tourney, one line per cycle.
pub fn tourney_move_list(tourney: &Tourney) -> MoveList<'_> {
    MoveList::Tourney(tourney)
}

fn write_path(
    f: &mut fmt::Formatter<'_>,
    board: Board,
    start: u32,
    moves: impl Iterator<Item = u8>,
) -> fmt::Result {
    let (r, c) = board.coords(start);
    write!(f, "from {r},{c}:")?;
    for k in moves {
        write!(f, " {k}")?;
    }
    f.write_str("\n")
}

impl<'a> MoveList<'a> {
    /// The first line: `tour RxC` with the board's options, or `tourney RxC`.
    fn write_head(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = match self {
            MoveList::Tour(t) => t,
            MoveList::Tourney(t) => return writeln!(f, "tourney {}", t.board()),
        };
        write!(f, "tour {}", t.board())?;
        if !t.is_plain() {
            let shape = t.shape();
            let b = t.board();
            if shape.wrap() != crate::shape::Wrap::None {
                write!(f, " wrap={}", shape.wrap())?;
            }
            if shape.leaper() != crate::shape::Leaper::KNIGHT {
                write!(f, " leaper={}", shape.leaper())?;
            }
            let holes: Vec<String> = shape
                .holes()
                .map(|h| {
                    let (r, c) = b.coords(h);
                    format!("{r},{c}")
                })
                .collect();
            if !holes.is_empty() {
                write!(f, " holes={}", holes.join(";"))?;
            }
        }
        writeln!(f)
    }

    /// The same list written in algebraic notation ([`AlgebraicMoveList`]).
    ///
    /// # Errors
    /// [`Error::Board`] for a board wider than 26 columns, whose squares
    /// have no letter names.
    ///
    /// # Example
    /// ```
    /// use knights::{Board, Tour, format::move_list};
    /// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
    /// assert_eq!(
    ///     move_list(&tour).algebraic()?.to_string(),
    ///     "tour 3x4\na3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2\n"
    /// );
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn algebraic(self) -> Result<AlgebraicMoveList<'a>> {
        let board = match &self {
            MoveList::Tour(t) => t.board(),
            MoveList::Tourney(t) => t.board(),
        };
        if board.algebraic(0).is_none() {
            return Err(Error::Board(
                format!(
                    "a {board} board has more than 26 columns, so its squares have no letter names; write the move list in numbers"
                )
                .into(),
            ));
        }
        Ok(AlgebraicMoveList(self))
    }
}

impl fmt::Display for MoveList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_head(f)?;
        match self {
            MoveList::Tour(t) => write_path(f, t.board(), t.start(), t.moves()),
            MoveList::Tourney(t) => {
                let b = t.board();
                for c in t.cycles() {
                    let moves = b.path_moves(c, true).map(|k| {
                        k.expect("consecutive squares of a cycle are a knight's move apart")
                    });
                    write_path(f, b, c[0], moves)?;
                }
                Ok(())
            }
        }
    }
}

/// A move list naming the squares visited, in order, by their algebraic
/// names (`a8 b6 ...`, see [`Board::parse_algebraic`]) after the same first
/// line as the numeric list. A closed tour, and each cycle of a tourney,
/// ends by naming its start again, as the numeric list ends with the
/// closing move. Made by [`MoveList::algebraic`]; [`parse_move_list`]
/// reads it back.
pub struct AlgebraicMoveList<'a>(MoveList<'a>);

impl fmt::Display for AlgebraicMoveList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_head(f)?;
        let line = |f: &mut fmt::Formatter<'_>, board: Board, squares: &[u32], closed: bool| {
            let name = |s: u32| board.algebraic(s).expect("checked by MoveList::algebraic");
            let again = closed.then(|| squares[0]);
            for (i, &s) in squares.iter().chain(again.iter()).enumerate() {
                let gap = if i == 0 { "" } else { " " };
                write!(f, "{gap}{}", name(s))?;
            }
            f.write_str("\n")
        };
        match &self.0 {
            MoveList::Tour(t) => line(f, t.board(), t.squares(), t.is_closed()),
            MoveList::Tourney(t) => t
                .cycles()
                .iter()
                .try_for_each(|c| line(f, t.board(), c, true)),
        }
    }
}

/// Reads a move list.
pub fn parse_move_list(text: &str) -> Result<Parsed> {
    // 16 bytes of coordinates for each move of one character, and the
    // growth of the vector.
    crate::memory::ensure_input_fits("move list", text.len(), 40)?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, head) = lines
        .next()
        .ok_or_else(|| Error::Parse("the move list is empty".into()))?;
    let head = parse_head(head)?;
    let shape = super::shape_of(head.board, &head.holes, head.wrap, head.leaper)?;
    if head.kind == "tourney" && shape.is_some() {
        return Err(Error::Parse(
            "tourneys are read on the plain board only; this one has holes, wrapping or a leaper"
                .into(),
        ));
    }
    let squares_total = shape.as_ref().map_or(head.board.squares(), Shape::squares);
    let mut lines = lines.peekable();
    let named = lines.peek().is_some_and(|(_, l)| {
        let l = l.trim_start();
        !l.starts_with("from") && l.starts_with(|c: char| c.is_ascii_alphabetic())
    });
    let mut paths = if named {
        parse_named_paths(lines, &head)?
    } else {
        parse_paths(lines, &head, squares_total)?
    };
    let board = head.board;
    if head.kind == "tour" {
        if paths.len() != 1 {
            return Err(Error::Parse(
                format!(
                    "a tour's move list has one 'from' line, this one has {}",
                    paths.len()
                )
                .into(),
            ));
        }
        let mut squares = paths.pop().expect("one path");
        // A tour that lists its closing move returns to its start.
        let closed = squares.len() == squares_total + 1 && squares[0] == squares[squares.len() - 1];
        if closed {
            squares.pop();
        }
        Ok(Parsed::Tour {
            board,
            closed: closed.then_some(true),
            squares,
            shape,
        })
    } else {
        for (ci, path) in paths.iter_mut().enumerate() {
            if path.len() < 2 || path[0] != path[path.len() - 1] {
                return Err(Error::Parse(format!(
                    "cycle {ci} of the tourney does not return to its start; list every move of each cycle, the closing one included"
                ).into()));
            }
            path.pop();
        }
        Ok(Parsed::Tourney {
            board,
            cycles: paths,
        })
    }
}

/// The first line of a move list: `tour` or `tourney`, the board and its
/// options.
pub(super) struct Head<'a> {
    pub(super) kind: &'a str,
    pub(super) board: Board,
    pub(super) wrap: Wrap,
    pub(super) leaper: Leaper,
    pub(super) holes: Vec<Coord>,
}

/// Reads the first line of a move list (`head`).
pub(super) fn parse_head(head: &str) -> Result<Head<'_>> {
    let mut words = head.split_whitespace();
    let kind = words.next().unwrap_or("");
    let bad_head = || {
        Error::Parse(
            format!(
                "line 1 is '{}'; a move list starts with 'tour ROWSxCOLS' or 'tourney ROWSxCOLS'",
                crate::excerpt(head)
            )
            .into(),
        )
    };
    if kind != "tour" && kind != "tourney" {
        return Err(bad_head());
    }
    let board: Board = words
        .next()
        .ok_or_else(bad_head)?
        .parse()
        .map_err(|e: Error| Error::Parse(e.to_string().into()))?;
    let board = board_of(u64::from(board.rows()), u64::from(board.cols()))?;
    // Optional words after the board: wrap=W, leaper=A,B, holes=R,C;R,C...
    let (mut wrap, mut leaper, mut holes) = (Wrap::None, Leaper::KNIGHT, Vec::new());
    for word in words {
        match word.split_once('=') {
            Some(("wrap", w)) => wrap = w.parse()?,
            Some(("leaper", l)) => leaper = l.parse()?,
            Some(("holes", h)) => {
                for sq in h.split(';').filter(|q| !q.is_empty()) {
                    let (r, c) = sq.split_once(',').ok_or_else(bad_head)?;
                    let num = |t: &str| t.trim().parse::<i64>().map_err(|_| bad_head());
                    holes.push((num(r)?, num(c)?));
                }
            }
            _ => {
                return Err(Error::Parse(format!(
                    "'{}' on line 1 is not a board option; write wrap=rows|cols|both, leaper=A,B or holes=R,C;R,C",
                    crate::excerpt(word)
                ).into()))
            }
        }
    }
    Ok(Head {
        kind,
        board,
        wrap,
        leaper,
        holes,
    })
}

/// Reads the lines after the head (numbered from 0) in algebraic notation
/// ([`AlgebraicMoveList`]): a tour's squares over any number of lines, or
/// one line a cycle of a tourney.
fn parse_named_paths<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    head: &Head,
) -> Result<Vec<Vec<Coord>>> {
    let mut paths: Vec<Vec<Coord>> = Vec::new();
    for (i, line) in lines {
        let mut path = Vec::new();
        for name in line.split_whitespace() {
            let s = head
                .board
                .parse_algebraic(name)
                .map_err(|e| Error::Parse(format!("line {}: {e}", i + 1).into()))?;
            let (r, c) = head.board.coords(s);
            path.push((i64::from(r), i64::from(c)));
        }
        match paths.last_mut() {
            Some(tour) if head.kind == "tour" => tour.extend(path),
            _ => paths.push(path),
        }
    }
    Ok(paths)
}

/// Reads the lines after the head (numbered from 0) into paths of squares,
/// one per `from` line, refusing more than `squares_total` moves in one.
fn parse_paths<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    head: &Head,
    squares_total: usize,
) -> Result<Vec<Vec<Coord>>> {
    let (board, wrap) = (head.board, head.wrap);
    let moves = head.leaper.moves();
    let (rows, cols) = (i64::from(board.rows()), i64::from(board.cols()));
    let mut paths: Vec<Vec<Coord>> = Vec::new();
    for (i, line) in lines {
        let line_no = i + 1;
        let mut rest = line.trim();
        if let Some(after) = rest.strip_prefix("from") {
            let (start, moves) = parse_from(line_no, after)?;
            paths.push(vec![start]);
            rest = moves;
        }
        let Some(path) = paths.last_mut() else {
            return Err(Error::Parse(
                format!("line {line_no}: moves come after a 'from ROW,COL:' line").into(),
            ));
        };
        for ch in rest.chars().filter(|c| !c.is_whitespace() && *c != ',') {
            let k = ch.to_digit(10).filter(|&d| d < 8).ok_or_else(|| {
                Error::Parse(
                    format!("line {line_no}: '{ch}' is not a move; moves are the digits 0 to 7")
                        .into(),
                )
            })?;
            let (dx, dy) = moves[k as usize];
            let &(r, c) = path.last().expect("a path has its start");
            if path.len() > squares_total {
                return Err(Error::Parse(
                    format!(
                    "line {line_no}: more moves than the {squares_total} squares of {board} allow"
                )
                    .into(),
                ));
            }
            let (mut nr, mut nc) = (r + dy, c + dx);
            if wrap.rows() {
                nr = nr.rem_euclid(rows);
            }
            if wrap.cols() {
                nc = nc.rem_euclid(cols);
            }
            path.push((nr, nc));
        }
    }
    Ok(paths)
}

/// Reads what follows `from` on line `line_no`: the start square, and the
/// moves after the colon.
fn parse_from(line_no: usize, after: &str) -> Result<(Coord, &str)> {
    let (at, moves) = after.split_once(':').ok_or_else(|| {
        Error::Parse(format!("line {line_no}: a 'from' line reads 'from ROW,COL: MOVES'").into())
    })?;
    let (r, c) = at.trim().split_once(',').ok_or_else(|| {
        Error::Parse(
            format!(
                "line {line_no}: the start square '{}' should read ROW,COL",
                crate::excerpt(at)
            )
            .into(),
        )
    })?;
    let parse = |t: &str| {
        t.trim().parse::<i64>().map_err(|_| {
            Error::Parse(
                format!(
                    "line {line_no}: the start square '{}' should read ROW,COL",
                    crate::excerpt(at)
                )
                .into(),
            )
        })
    };
    Ok(((parse(r)?, parse(c)?), moves))
}
