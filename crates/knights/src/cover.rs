//! The compact form of a set of knight's moves: one byte per square.
//!
//! Bit `k` of a square's byte says that move `k` from that square is chosen.
//! A move is stored at both ends (bit `k` at one end, bit `k ^ 4` at the
//! other). A tourney is a cover in which every square has exactly two chosen
//! moves; a closed tour is a tourney with one cycle, and an open tour has two
//! squares (its ends) with one chosen move each. Switching a rail of the
//! tourney paper is four bit flips at each of four squares: O(1).

use crate::board::{opposite, Square};
use crate::{memory, Board, Error, Result, Tour, Tourney};

/// A set of knight's moves on a board, one byte per square.
///
/// # Example
/// ```
/// use knights::{Board, Cover, Tour};
/// let board = Board::new(5, 5)?;
/// let tour = Tour::builder(board).algorithm(knights::algorithms::Warnsdorff::default())
///     .seed(1).build()?;
/// let cover = Cover::from_tour(&tour)?;
/// // Walk the cover back into a tour from the same start, the same way round.
/// let again = cover.to_tour(tour.start(), Some(tour.squares()[1]))?;
/// assert_eq!(again, tour);
/// # Ok::<(), knights::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cover {
    board: Board,
    links: Vec<u8>,
}

impl Cover {
    /// A cover with no moves chosen.
    pub fn empty(board: Board) -> Result<Cover> {
        Ok(Cover {
            board,
            links: memory::try_vec(board, "cover", 1, 0u8)?,
        })
    }

    /// A cover from its raw bytes (bit k = move k chosen), unchecked.
    pub fn from_bytes_unchecked(board: Board, links: Vec<u8>) -> Cover {
        debug_assert_eq!(links.len(), board.squares());
        Cover { board, links }
    }

    /// The moves of a tour (closing move included when the tour is closed).
    pub fn from_tour(tour: &Tour) -> Result<Cover> {
        let board = tour.board();
        let mut cover = Cover::empty(board)?;
        // `moves` includes the closing move of a closed tour.
        for (&s, k) in tour.squares().iter().zip(tour.moves()) {
            cover.add(s, k);
        }
        Ok(cover)
    }

    /// The moves of every cycle of a tourney.
    pub fn from_tourney(tourney: &Tourney) -> Result<Cover> {
        let board = tourney.board();
        let mut cover = Cover::empty(board)?;
        for cycle in tourney.cycles() {
            for (i, k) in board.path_moves(cycle, true).enumerate() {
                let a = cycle[i];
                let k = k.ok_or_else(|| {
                    let b = cycle[(i + 1) % cycle.len()];
                    Error::Parse(
                        format!("squares {a} and {b} are not a knight's move apart").into(),
                    )
                })?;
                cover.add(a, k);
            }
        }
        Ok(cover)
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The raw bytes, one per square, row-major.
    pub fn as_bytes(&self) -> &[u8] {
        &self.links
    }

    /// The chosen moves at `s` as a bit set.
    #[inline]
    pub fn links(&self, s: Square) -> u8 {
        self.links[s as usize]
    }

    /// Whether move `k` from `s` is chosen.
    #[inline]
    pub fn has(&self, s: Square, k: u8) -> bool {
        self.links[s as usize] & (1 << k) != 0
    }

    /// Chooses move `k` from `s` (at both ends). The move must stay on the board.
    #[inline]
    pub fn add(&mut self, s: Square, k: u8) {
        let t = self.board.step(s, k).expect("move stays on the board");
        self.links[s as usize] |= 1 << k;
        self.links[t as usize] |= 1 << opposite(k);
    }

    /// Removes move `k` from `s` (at both ends).
    #[inline]
    pub fn remove(&mut self, s: Square, k: u8) {
        let t = self.board.step(s, k).expect("move stays on the board");
        self.links[s as usize] &= !(1 << k);
        self.links[t as usize] &= !(1 << opposite(k));
    }

    /// The number of chosen moves at `s`.
    #[inline]
    pub fn degree(&self, s: Square) -> u32 {
        self.links[s as usize].count_ones()
    }

    /// Whether every square has exactly two chosen moves.
    pub fn is_two_regular(&self) -> bool {
        self.links.iter().all(|b| b.count_ones() == 2)
    }

    /// The square after `cur` when it was entered from `prev` (pass `None` at a
    /// start to take its lowest-numbered move).
    #[inline]
    fn next(&self, cur: Square, came_by: Option<u8>) -> Option<(u8, Square)> {
        let mut bits = self.links[cur as usize];
        if let Some(k) = came_by {
            bits &= !(1 << opposite(k));
        }
        if bits == 0 {
            return None;
        }
        let k = bits.trailing_zeros() as u8;
        Some((
            k,
            self.board
                .step(cur, k)
                .expect("chosen moves stay on the board"),
        ))
    }

    /// Walks from `start` (first to `second` if given), until the walk returns
    /// to `start` or ends; the squares visited.
    fn walk(&self, start: Square, second: Option<Square>) -> Result<Vec<Square>> {
        let first_move = match second {
            Some(t) => {
                let k = self
                    .board
                    .move_between(start, t)
                    .filter(|&k| self.has(start, k));
                Some(k.ok_or_else(|| {
                    Error::Unsupported(
                        format!(
                            "square {t} is not joined to the start square {start} in this cover"
                        )
                        .into(),
                    )
                })?)
            }
            None => None,
        };
        let mut out = vec![start];
        let mut step = match first_move {
            Some(k) => Some((k, self.board.step(start, k).expect("on board"))),
            None => self.next(start, None),
        };
        while let Some((k, t)) = step {
            if t == start {
                break;
            }
            if out.len() > self.links.len() {
                return Err(Error::Unsupported(
                    "the cover is not a set of paths and cycles".into(),
                ));
            }
            out.push(t);
            step = self.next(t, Some(k));
        }
        Ok(out)
    }

    /// The cycles of a tourney, each starting at its lowest square, in order
    /// of their lowest squares.
    ///
    /// # Complexity
    /// O(rows * cols).
    pub fn to_tourney(&self) -> Result<Tourney> {
        if let Some(s) = self.links.iter().position(|b| b.count_ones() != 2) {
            return Err(Error::Unsupported(
                format!(
                    "square {s} has {} chosen moves, so this is not a cycle cover",
                    self.links[s].count_ones()
                )
                .into(),
            ));
        }
        let mut done = vec![false; self.links.len()];
        let mut cycles = Vec::new();
        for s in 0..self.links.len() {
            if !done[s] {
                let cycle = self.walk(s as Square, None)?;
                for &t in &cycle {
                    done[t as usize] = true;
                }
                cycles.push(cycle);
            }
        }
        Ok(Tourney::from_cycles_unchecked(self.board, cycles))
    }

    /// The tour this cover describes (a single cycle, or a single path),
    /// starting at `start` and going first to `second` when given.
    ///
    /// An open tour must start at one of its ends.
    pub fn to_tour(&self, start: Square, second: Option<Square>) -> Result<Tour> {
        if start as usize >= self.links.len() {
            return Err(Error::Board(
                format!("square {start} is not on the {} board", self.board).into(),
            ));
        }
        let squares = self.walk(start, second)?;
        if squares.len() != self.links.len() {
            return Err(Error::Unsupported(format!(
                "the walk from square {start} covers {} of the {} squares: the cover is not a single tour, or the start is not an end of the path",
                squares.len(),
                self.links.len()
            ).into()));
        }
        Tour::new(self.board, squares)
    }
}
