//! A knight's tour as the ordered list of its squares.

use crate::board::Square;
use crate::check;
use crate::shape::Shape;
use crate::{Board, Error, Result};

/// Closed or open: whether a tour's last square is a knight's move from its
/// first. The one closed/open type of the crate: what [`crate::check`]
/// finds, what [`crate::count`] counts (there `Open` counts every Hamiltonian path,
/// whether or not its ends happen to be a knight's move apart). A request
/// asks for a [`crate::Wanted`], which adds "either".
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The last square is a knight's move from the first (a Hamiltonian cycle).
    #[default]
    Closed,
    /// The last square is not a knight's move from the first (a Hamiltonian path).
    Open,
}

impl Kind {
    /// `"closed"` or `"open"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Closed => "closed",
            Kind::Open => "open",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A knight's tour: every square of the board once, in the knight's order.
///
/// A tour is closed when its last square is a knight's move from its first.
/// Values are only built from paths that passed the checker, or by
/// generators whose tests run every output through it.
///
/// # Example
/// ```
/// use knights::{Board, Tour};
/// // An open tour of the 3x4 board, square indices row-major.
/// let tour = Tour::new(Board::new(3, 4)?, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4])?;
/// assert!(!tour.is_closed());
/// assert_eq!(tour.moves().count(), 11);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tour {
    board: Board,
    squares: Vec<Square>,
    /// The holes, wrapping and leaper; `None` for the plain board.
    shape: Option<Box<Shape>>,
}

impl Tour {
    /// A tour from its squares in order, checked by the independent checker.
    pub fn new(board: Board, squares: Vec<Square>) -> Result<Tour> {
        if let Some(&bad) = squares.iter().find(|&&s| s as usize >= board.squares()) {
            return Err(Error::Parse(
                format!(
                    "square index {bad} is outside the {board} board, whose squares are 0..{}",
                    board.squares()
                )
                .into(),
            ));
        }
        let tour = Tour {
            board,
            squares,
            shape: None,
        };
        check::check_tour(&tour)?;
        Ok(tour)
    }

    /// A tour of a [`Shape`] (holes, wrapping, another leaper) from its
    /// squares in order, checked by the independent checker.
    ///
    /// # Example
    /// ```
    /// use knights::{Tour, shape::{Shape, Wrap}};
    /// let ring = Shape::new("1x5".parse()?).with_wrap(Wrap::Both);
    /// let tour = Tour::on(&ring, vec![0, 2, 4, 1, 3])?;
    /// assert!(tour.is_closed());
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn on(shape: &Shape, squares: Vec<Square>) -> Result<Tour> {
        let board = shape.board();
        if let Some(&bad) = squares.iter().find(|&&s| s as usize >= board.squares()) {
            return Err(Error::Parse(
                format!(
                    "square index {bad} is outside the {board} board, whose squares are 0..{}",
                    board.squares()
                )
                .into(),
            ));
        }
        let tour = Tour::from_squares_unchecked_on(shape, squares);
        check::check_tour(&tour)?;
        Ok(tour)
    }

    /// A tour from squares the caller guarantees to form one (generators use
    /// this; their tests run every result through the checker).
    pub fn from_squares_unchecked(board: Board, squares: Vec<Square>) -> Tour {
        debug_assert_eq!(squares.len(), board.squares());
        Tour {
            board,
            squares,
            shape: None,
        }
    }

    /// [`Tour::from_squares_unchecked`] on a shape.
    pub fn from_squares_unchecked_on(shape: &Shape, squares: Vec<Square>) -> Tour {
        debug_assert_eq!(squares.len(), shape.squares());
        Tour {
            board: shape.board(),
            squares,
            shape: (!shape.is_plain()).then(|| Box::new(shape.clone())),
        }
    }

    /// The board: the rectangle that holds the tour.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The board with its holes, wrapping and leaper.
    pub fn shape(&self) -> Shape {
        match &self.shape {
            Some(s) => (**s).clone(),
            None => Shape::new(self.board),
        }
    }

    /// Whether the tour is on the plain board with the knight.
    pub fn is_plain(&self) -> bool {
        self.shape.is_none()
    }

    /// The move from `a` to `b` on the tour's board, if any.
    fn move_between(&self, a: Square, b: Square) -> Option<u8> {
        match &self.shape {
            Some(s) => s.move_between(a, b),
            None => self.board.move_between(a, b),
        }
    }

    /// The squares in the knight's order.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The squares, giving up the tour.
    pub fn into_squares(self) -> Vec<Square> {
        self.squares
    }

    /// The first square.
    pub fn start(&self) -> Square {
        self.squares[0]
    }

    /// The last square.
    pub fn end(&self) -> Square {
        self.squares[self.squares.len() - 1]
    }

    /// Whether the last square is a knight's move from the first.
    pub fn is_closed(&self) -> bool {
        self.squares.len() > 2 && self.move_between(self.end(), self.start()).is_some()
    }

    /// Closed or open.
    pub fn kind(&self) -> Kind {
        if self.is_closed() {
            Kind::Closed
        } else {
            Kind::Open
        }
    }

    /// The moves of the tour in order: `len - 1` of them for an open tour,
    /// `len` for a closed one (the last returns to the start).
    pub fn moves(&self) -> impl Iterator<Item = u8> + '_ {
        let n = self.squares.len();
        let count = if self.is_closed() {
            n
        } else {
            n.saturating_sub(1)
        };
        (0..count).map(move |i| {
            self.move_between(self.squares[i], self.squares[(i + 1) % n])
                .expect("consecutive squares of a tour are a move apart")
        })
    }

    /// The step number of every square, row-major (the numbered grid);
    /// `u32::MAX` on a hole.
    pub fn step_numbers(&self) -> Vec<u32> {
        let mut steps = vec![u32::MAX; self.board.squares()];
        for (i, &s) in self.squares.iter().enumerate() {
            steps[s as usize] = i as u32;
        }
        steps
    }

    /// The same tour walked the other way round. A closed tour keeps its start.
    pub fn reversed(&self) -> Tour {
        let mut squares = self.squares.clone();
        if self.is_closed() {
            squares[1..].reverse();
        } else {
            squares.reverse();
        }
        Tour {
            board: self.board,
            squares,
            shape: self.shape.clone(),
        }
    }

    /// A closed tour rotated to start at `start`.
    pub fn rotated_to(&self, start: Square) -> Result<Tour> {
        if !self.is_closed() {
            return Err(Error::Unsupported(
                "only a closed tour can be rotated to start on another square".into(),
            ));
        }
        let i = self
            .squares
            .iter()
            .position(|&s| s == start)
            .ok_or_else(|| {
                Error::Board(format!("square {start} is not on the {} board", self.board).into())
            })?;
        let mut squares = self.squares.clone();
        squares.rotate_left(i);
        Ok(Tour {
            board: self.board,
            squares,
            shape: self.shape.clone(),
        })
    }
}
