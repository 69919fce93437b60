//! The cipher's key: a knight's tour checked by the independent checker, and
//! the block transposition it defines (shared by both modes).

use super::spec::KeySpec;
use crate::board::Square;
use crate::check::{self, Verdict};
use crate::format::{self, Checked};
use crate::{Board, Control, Error, Result, Tour};

/// A cipher key: a checked knight's tour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    board: Board,
    order: Vec<Square>,
}

impl Key {
    /// The key of a tour, after running the independent checker over it.
    ///
    /// # Example
    /// ```
    /// use knights::{cipher::Key, Tour};
    /// let t = Tour::builder("5x5".parse()?).seed(1).build()?;
    /// assert_eq!(Key::new(t)?.block_len(), 25);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn new(tour: Tour) -> Result<Key> {
        check::check_tour(&tour).map_err(|fault| {
            Error::Parse(format!("the key is not a knight's tour: {fault}").into())
        })?;
        let board = tour.board();
        Ok(Key {
            board,
            order: tour.into_squares(),
        })
    }

    /// The key described by a [`KeySpec`]: the tour it regenerates.
    ///
    /// A description that gives no tour (a board without one, or a search
    /// that runs out of attempts) is an [`Error::BadKey`]: it is bad input to
    /// the cipher. Raising `control`'s stop flag stops the generator
    /// ([`Error::Interrupted`]; see [`KeySpec::tour`]).
    pub fn from_spec(spec: &KeySpec, control: &Control) -> Result<Key> {
        match spec.tour(control) {
            Ok(tour) => Key::new(tour),
            Err(e)
                if matches!(
                    e,
                    Error::NoTour(_) | Error::GaveUp(_) | Error::Unsupported(_) | Error::Refused(_)
                ) =>
            {
                Err(Error::BadKey {
                    key: spec.to_string(),
                    source: Box::new(e),
                })
            }
            Err(e) => Err(e),
        }
    }

    /// The key in a tour file: JSON, a numbered grid or a move list, as read
    /// by [`crate::format::read`] and checked by the independent checker.
    ///
    /// # Example
    /// ```
    /// use knights::cipher::Key;
    /// let key = Key::from_text(" 0  3  6  9\n11  8  1  4\n 2  5 10  7\n")?;
    /// assert_eq!(key.order()[..3], [0, 6, 8]);
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn from_text(text: &str) -> Result<Key> {
        let doc = format::read(text)?;
        match doc.check() {
            Ok(Verdict::Tour { .. }) => {}
            Ok(Verdict::Tourney { cycles, .. }) if cycles > 1 => {
                return Err(Error::Parse(format!(
                    "the key is a tourney of {cycles} cycles, not a tour; a key must visit every square in one path"
                ).into()))
            }
            Ok(Verdict::Tourney { .. }) => {}
            Err(fault) => {
                return Err(Error::Parse(format!(
                    "the key is not a knight's tour: {fault}"
                ).into()))
            }
        }
        match doc.into_checked()? {
            Checked::Tour(tour) => Key::new(tour),
            Checked::Tourney(t) => {
                // A tourney of one cycle is a closed tour.
                let cycle = t.cycles().first().cloned().unwrap_or_default();
                Key::new(Tour::new(t.board(), cycle)?)
            }
        }
    }

    /// The board of the tour.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The squares in the knight's order (row-major indices).
    pub fn order(&self) -> &[Square] {
        &self.order
    }

    /// Characters per block: the number of squares.
    pub fn block_len(&self) -> usize {
        self.order.len()
    }

    /// Enciphers one block of at most [`Key::block_len`] items, appending to
    /// `out`: item `i` of the block sits on square `i`, and the squares are
    /// read in the knight's order, skipping squares past the end of a short block.
    ///
    /// # Example
    /// ```
    /// use knights::cipher::Key;
    /// let key = Key::from_text(" 0  3  6  9\n11  8  1  4\n 2  5 10  7\n")?;
    /// let mut out = Vec::new();
    /// key.encipher_block(b"ABCDEFGHIJKL", &mut out);
    /// assert_eq!(out, b"AGIBHJCLFDKE");
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn encipher_block<T: Copy>(&self, block: &[T], out: &mut Vec<T>) {
        let m = block.len();
        assert!(
            m <= self.order.len(),
            "a block holds at most rows * cols items"
        );
        if m == self.order.len() {
            out.extend(self.order.iter().map(|&s| block[s as usize]));
        } else {
            out.extend(
                self.order
                    .iter()
                    .filter(|&&s| (s as usize) < m)
                    .map(|&s| block[s as usize]),
            );
        }
    }

    /// Deciphers one block made by [`Key::encipher_block`], appending the
    /// items in row-major order to `out`.
    pub fn decipher_block<T: Copy>(&self, block: &[T], out: &mut Vec<T>) {
        let m = block.len();
        assert!(
            m <= self.order.len(),
            "a block holds at most rows * cols items"
        );
        let Some(&fill) = block.first() else { return };
        let base = out.len();
        out.resize(base + m, fill);
        let plain = &mut out[base..];
        let mut items = block.iter();
        for &s in &self.order {
            if (s as usize) < m {
                if let Some(&x) = items.next() {
                    plain[s as usize] = x;
                }
            }
        }
    }
}
