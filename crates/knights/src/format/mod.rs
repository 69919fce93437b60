//! Reading and writing tours and tourneys: JSON, numbered grids, move lists
//! and pictures: SVG, and with the `raster` feature PNG and animated GIF;
//! printable sheets of boards to solve by hand ([`sheet`]) (see
//! `docs/formats.md`).
//!
//! Reading goes in two stages: [`read`] turns text into what it says, [`Parsed`]
//! (coordinates as written, possibly off the board or repeated), and
//! [`Parsed::check`] or [`Parsed::into_checked`] runs the independent
//! checker over it. A text that cannot be read is an [`Error::Parse`]; one that
//! reads but is no tour is an [`Error::Invalid`].
//!
//! # Example
//! ```
//! use knights::format::{read, Checked};
//! let text = r#"{"rows": 3, "cols": 4, "squares": [[0,0],[1,2],[2,0],[0,1],[1,3],[2,1],
//!                [0,2],[2,3],[1,1],[0,3],[2,2],[1,0]]}"#;
//! let doc = read(text)?;
//! assert_eq!(doc.check()?.to_string(), "open tour on 3x4");
//! let Checked::Tour(tour) = doc.into_checked()? else { unreachable!() };
//! assert_eq!(knights::format::grid(&tour, 0).to_string(),
//!            " 0  3  6  9\n11  8  1  4\n 2  5 10  7\n");
//! # Ok::<(), knights::Error>(())
//! ```

#[cfg(feature = "raster")]
mod animation;
#[cfg(feature = "raster")]
mod canvas;
mod grid;
mod json;
mod look;
mod moves;
mod partial;
mod puzzle;
#[cfg(feature = "raster")]
mod raster;
pub mod sheet;
mod svg;

#[cfg(feature = "raster")]
pub use animation::{tour_gif, GifOptions};
pub use grid::{grid, parse_grid, Grid};
pub use json::{parse_json, tour_json, tourney_json, TourJson, TourneyJson};
pub use look::StepNumbers;
pub use moves::{move_list, parse_move_list, tourney_move_list, AlgebraicMoveList, MoveList};
pub use partial::{read_partial, PartialPath};
pub use puzzle::{puzzle_json, puzzle_text, read_puzzle};
#[cfg(feature = "raster")]
pub use raster::{path_png, svg_to_png, tour_png, tourney_png};
pub use svg::{path_svg, tour_svg, tourney_svg, Svg, SvgOptions};

use crate::board::Square;
use crate::check::{self, Coord, Fault, Verdict};
use crate::shape::{Leaper, Shape, Wrap};
use crate::{Board, Error, Result, Tour, Tourney};

/// A tour or tourney as read from text, before checking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A tour as a list of squares (JSON, move list, or a grid with holes).
    Tour {
        /// The board.
        board: Board,
        /// What the text says about closure, if anything.
        closed: Option<bool>,
        /// The squares in order, as written.
        squares: Vec<Coord>,
        /// The holes, wrapping and leaper the text declares (`None` for the
        /// plain board); its board is `board`.
        shape: Option<Shape>,
    },
    /// A numbered grid: the step number of every square, row-major.
    Grid {
        /// The board.
        board: Board,
        /// The numbers as written.
        numbers: Vec<u64>,
        /// The first step number: 0 or 1.
        base: u64,
    },
    /// A tourney as its cycles.
    Tourney {
        /// The board.
        board: Board,
        /// The cycles, as written.
        cycles: Vec<Vec<Coord>>,
    },
}

/// A checked tour or tourney.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// A tour.
    Tour(Tour),
    /// A tourney.
    Tourney(Tourney),
}

impl Parsed {
    /// The document of `tour`, as its JSON reads (for a caller holding a
    /// tour to check, with no text to write and read again).
    pub fn of_tour(tour: &Tour) -> Parsed {
        let board = tour.board();
        Parsed::Tour {
            board,
            closed: Some(tour.is_closed()),
            squares: coords(board, tour.squares()),
            shape: (!tour.is_plain()).then(|| tour.shape()),
        }
    }

    /// The document of `tourney`, as its JSON reads.
    pub fn of_tourney(tourney: &Tourney) -> Parsed {
        let board = tourney.board();
        Parsed::Tourney {
            board,
            cycles: tourney.cycles().iter().map(|c| coords(board, c)).collect(),
        }
    }

    /// The board the document is on.
    pub fn board(&self) -> Board {
        match self {
            Parsed::Tour { board, .. }
            | Parsed::Grid { board, .. }
            | Parsed::Tourney { board, .. } => *board,
        }
    }

    /// The holes, wrapping and leaper the document declares, if any.
    pub fn shape(&self) -> Option<&Shape> {
        match self {
            Parsed::Tour { shape, .. } => shape.as_ref(),
            _ => None,
        }
    }

    /// Runs the checker: what the document is, or its first fault.
    pub fn check(&self) -> Result<Verdict, Fault> {
        let b = self.board();
        let (rows, cols) = (b.rows(), b.cols());
        match self {
            Parsed::Tour {
                closed,
                squares,
                shape,
                ..
            } => {
                let kind = match shape {
                    Some(shape) => {
                        check::check_path_on(&check::Rules::of(shape), squares, *closed)?
                    }
                    None => check::check_path(rows, cols, squares, *closed)?,
                };
                Ok(Verdict::Tour { rows, cols, kind })
            }
            Parsed::Grid { numbers, base, .. } => {
                let path = check::grid_to_path(rows, cols, numbers, *base)?;
                let kind = check::check_path(rows, cols, &path, None)?;
                Ok(Verdict::Tour { rows, cols, kind })
            }
            Parsed::Tourney { cycles, .. } => {
                let cycles = check::check_cycles(rows, cols, cycles)?;
                Ok(Verdict::Tourney { rows, cols, cycles })
            }
        }
    }

    /// The checked tour or tourney.
    pub fn into_checked(self) -> Result<Checked> {
        self.check()?;
        let b = self.board();
        let index = |(r, c): Coord| b.square(r as u32, c as u32);
        Ok(match self {
            Parsed::Tour { squares, shape, .. } => {
                let squares = squares.into_iter().map(index).collect();
                Checked::Tour(match shape {
                    Some(shape) => Tour::from_squares_unchecked_on(&shape, squares),
                    None => Tour::from_squares_unchecked(b, squares),
                })
            }
            Parsed::Grid { numbers, base, .. } => {
                let mut squares = vec![0 as Square; numbers.len()];
                for (i, n) in numbers.into_iter().enumerate() {
                    squares[(n - base) as usize] = i as Square;
                }
                Checked::Tour(Tour::from_squares_unchecked(b, squares))
            }
            Parsed::Tourney { cycles, .. } => Checked::Tourney(Tourney::from_cycles_unchecked(
                b,
                cycles
                    .into_iter()
                    .map(|c| c.into_iter().map(index).collect())
                    .collect(),
            )),
        })
    }
}

/// The (row, column) of each of `squares`.
fn coords(board: Board, squares: &[Square]) -> Vec<Coord> {
    squares
        .iter()
        .map(|&s| {
            let (r, c) = board.coords(s);
            (i64::from(r), i64::from(c))
        })
        .collect()
}

/// Reads a tour or tourney in any supported format, told apart by its first
/// character: `{` for JSON, a letter for a move list, a digit, `|` or `+` for a grid.
pub fn read(text: &str) -> Result<Parsed> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    match t.chars().next() {
        None => Err(Error::Parse("the input is empty; expected a tour or tourney as JSON, a numbered grid or a move list".into())),
        Some('{') => parse_json(t),
        Some(c) if c.is_ascii_alphabetic() => parse_move_list(t),
        Some(_) => parse_grid(t),
    }
}

/// A board from sides read in a document, as a parse error if out of range.
fn board_of(rows: u64, cols: u64) -> Result<Board> {
    Board::new(rows, cols).map_err(|e| Error::Parse(e.to_string().into()))
}

/// The shape a document declares: `None` for the plain board.
fn shape_of(board: Board, holes: &[Coord], wrap: Wrap, leaper: Leaper) -> Result<Option<Shape>> {
    let mut squares = Vec::with_capacity(holes.len());
    for &(r, c) in holes {
        if !board.contains(r, c) {
            return Err(Error::Parse(
                format!("the hole ({r}, {c}) is off the {board} board").into(),
            ));
        }
        squares.push(board.square(r as u32, c as u32));
    }
    let shape = Shape::new(board)
        .with_holes(&squares)
        .map_err(|e| Error::Parse(e.to_string().into()))?
        .with_wrap(wrap)
        .with_leaper(leaper);
    Ok((!shape.is_plain()).then_some(shape))
}

/// Text output in 64 KiB chunks with fast integer formatting, for writers
/// of huge tours: `Display` implementations call `f.write_str` once a chunk
/// instead of once a number.
struct Chunked<'a, 'b> {
    f: &'a mut std::fmt::Formatter<'b>,
    buf: String,
    ints: itoa::Buffer,
}

impl<'a, 'b> Chunked<'a, 'b> {
    const CHUNK: usize = 1 << 16;

    fn new(f: &'a mut std::fmt::Formatter<'b>) -> Self {
        Chunked {
            f,
            buf: String::with_capacity(Self::CHUNK + 64),
            ints: itoa::Buffer::new(),
        }
    }

    fn str(&mut self, s: &str) -> std::fmt::Result {
        self.buf.push_str(s);
        if self.buf.len() >= Self::CHUNK {
            self.f.write_str(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn int(&mut self, n: u64) -> std::fmt::Result {
        let s = self.ints.format(n);
        self.buf.push_str(s);
        Ok(())
    }

    /// `n` right-aligned in `width` columns.
    fn int_padded(&mut self, n: u64, width: usize) -> std::fmt::Result {
        let s = self.ints.format(n);
        for _ in s.len()..width {
            self.buf.push(' ');
        }
        self.buf.push_str(s);
        Ok(())
    }

    fn finish(self) -> std::fmt::Result {
        self.f.write_str(&self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::TourneyMethod;

    #[test]
    fn the_document_of_a_tour_or_tourney_is_the_document_of_its_json() {
        let board: Board = "6x6".parse().unwrap();
        let plain = Tour::builder(board).build().unwrap();
        let wrapped = Shape::new(board).with_wrap("both".parse().unwrap());
        let wrapped = Tour::builder(board).shape(wrapped).build().unwrap();
        assert!(!wrapped.is_plain());
        for tour in [plain, wrapped] {
            let text = tour_json(&tour).to_string();
            assert_eq!(Parsed::of_tour(&tour), read(&text).unwrap(), "{text}");
        }
        let tourney = Tourney::builder("8x8".parse().unwrap())
            .method(TourneyMethod::FourCover)
            .cover()
            .unwrap()
            .to_tourney()
            .unwrap();
        let text = tourney_json(&tourney).to_string();
        assert_eq!(Parsed::of_tourney(&tourney), read(&text).unwrap());
    }
}
