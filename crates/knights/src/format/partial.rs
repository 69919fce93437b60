//! Partial paths: the squares a knight has visited so far, read from the
//! tour formats for the position job (`knights hint`, Python's
//! `Position.read`). A numbered grid writes a square not yet visited as
//! `.`; JSON's `squares` and a move list's moves may stop before every
//! square is visited (docs/formats.md, "Partial paths"). Whether the moves
//! are legal is the position's to say, not the reader's.

use super::grid::{grid_numbers, numbered};
use super::moves::parse_head;
use super::{parse_json, parse_move_list, shape_of, Parsed};
use crate::check::Coord;
use crate::shape::{Leaper, Shape, Wrap};
use crate::{Error, Result};

/// A partial path as read: the board it is on (holes, wrapping, leaper)
/// and the squares visited, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialPath {
    /// The board with its holes, wrapping and leaper.
    pub shape: Shape,
    /// The squares visited, in order, as `(row, column)` as written: a
    /// square off the board is the position's to refuse, in the words it
    /// uses for every door.
    pub path: Vec<Coord>,
}

/// Reads a partial path in any tour format, told apart as [`super::read`]
/// tells them: `{` for JSON, a letter for a move list, else a grid.
///
/// # Example
/// ```
/// use knights::format::read_partial;
/// let p = read_partial(" 0 . .\n . . 1\n . . .\n")?;
/// assert_eq!(p.path, vec![(0, 0), (1, 2)]);
/// let p = read_partial(r#"{"rows": 5, "cols": 5, "squares": [[0, 0], [2, 1]]}"#)?;
/// assert_eq!(p.path, vec![(0, 0), (2, 1)]);
/// assert_eq!(read_partial("tour 5x5\nfrom 0,0: 6\n")?.path, vec![(0, 0), (2, 1)]);
/// # Ok::<(), knights::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`], in one sentence, for text that is no partial path:
/// no format, a step written twice or missing, a tourney.
pub fn read_partial(text: &str) -> Result<PartialPath> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    match t.chars().next() {
        None => Err(Error::Parse(
            "the input is empty; expected a partial path as JSON, a numbered grid or a move list"
                .into(),
        )),
        Some('{') => from_document(parse_json(t)?),
        Some(c) if c.is_ascii_alphabetic() => partial_moves(t),
        Some(_) => partial_grid(t),
    }
}

/// The partial path of a tour's document (JSON or a move list).
fn from_document(doc: Parsed) -> Result<PartialPath> {
    let Parsed::Tour {
        board,
        squares,
        shape,
        ..
    } = doc
    else {
        return Err(Error::Parse(
            "this is a tourney; a partial path is one path of squares (\"squares\" in JSON, one 'from' line in a move list)".into(),
        ));
    };
    Ok(PartialPath {
        shape: shape.unwrap_or_else(|| Shape::new(board)),
        path: squares,
    })
}

/// A move list, whose `from` line may carry fewer moves than a tour; its
/// first line alone is the empty path.
fn partial_moves(text: &str) -> Result<PartialPath> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let head = lines.next().unwrap_or_default();
    if lines.next().is_some() {
        return from_document(parse_move_list(text)?);
    }
    let head = parse_head(head)?;
    if head.kind != "tour" {
        return Err(Error::Parse(
            "a partial path's move list starts with 'tour ROWSxCOLS', not 'tourney'".into(),
        ));
    }
    let shape = shape_of(head.board, &head.holes, head.wrap, head.leaper)?;
    Ok(PartialPath {
        shape: shape.unwrap_or_else(|| Shape::new(head.board)),
        path: Vec::new(),
    })
}

/// A numbered grid with `.` for the squares not yet visited: the numbered
/// squares, in the order of their numbers, which must be `base..base + k`
/// for the `k` numbered squares (base 0 when some square holds 0, else 1).
fn partial_grid(text: &str) -> Result<PartialPath> {
    let (board, numbers) = grid_numbers(text, true)?;
    let base = if numbers.contains(&0) { 0 } else { 1 };
    let (path, holes) = numbered(board, &numbers, base, |n, at, visited| {
        format!(
            "the number {n} at {at:?} is not a step of a path of {visited} squares, which are numbered {base} to {}; number the visited squares from {base} without a gap and write '.' for the others",
            base + visited as u64 - 1
        )
    })?;
    let shape = shape_of(board, &holes, Wrap::None, Leaper::KNIGHT)?;
    Ok(PartialPath {
        shape: shape.unwrap_or_else(|| Shape::new(board)),
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_reads_the_same_partial_path() {
        let grid = " 0 . .  .\n .  . 1 .\n 2 . . .\n";
        let json = r#"{"rows": 3, "cols": 4, "squares": [[0, 0], [1, 2], [2, 0]]}"#;
        let moves = "tour 3x4\nfrom 0,0: 7 4\n";
        for text in [grid, json, moves] {
            let p = read_partial(text).unwrap();
            assert_eq!(p.path, vec![(0, 0), (1, 2), (2, 0)], "{text}");
            assert!(p.shape.is_plain());
        }
        assert_eq!(
            read_partial(" 1 . .\n . . 2\n").unwrap().path,
            vec![(0, 0), (1, 2)]
        );
        assert!(read_partial(". . .\n. . .\n").unwrap().path.is_empty());
        assert!(read_partial("tour 5x5 wrap=both\n")
            .unwrap()
            .path
            .is_empty());
    }

    #[test]
    fn shapes_come_with_the_path() {
        let p = read_partial(" 0 . .\n . # 1\n . . .\n").unwrap();
        assert_eq!(
            (p.shape.hole_count(), p.path.clone()),
            (1, vec![(0, 0), (1, 2)])
        );
        let p = read_partial(
            r#"{"rows": 4, "cols": 4, "wrap": "both", "leaper": [1, 3], "squares": [[0, 0]]}"#,
        )
        .unwrap();
        assert_eq!(p.shape.wrap(), Wrap::Both);
        assert_eq!(p.shape.leaper(), Leaper::new(1, 3).unwrap());
    }

    #[test]
    fn what_is_no_partial_path_is_refused_in_a_sentence() {
        for (text, words) in [
            ("", "empty"),
            (" 0 . .\n . . 2\n", "not a step of a path of 2 squares"),
            (" 0 . 1\n . . 1\n", "written twice"),
            (" 0 x .\n", "'.' for a square not yet visited"),
            (r#"{"rows": 4, "cols": 4, "cycles": []}"#, "tourney"),
            ("tourney 4x4\n", "not 'tourney'"),
        ] {
            let e = read_partial(text).unwrap_err();
            assert!(matches!(e, Error::Parse(_)), "{text}: {e}");
            assert!(e.to_string().contains(words), "{text}: {e}");
        }
    }
}
