//! Python arguments as the library's values (boards, squares, shapes,
//! kinds), read by the library so that its messages are the ones every door shows.

use crate::errors::lib;
use knights::{Board, Error, Kind};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A board from `"8x8"`, `8` or `(rows, cols)`, read by the library so that
/// its messages are the command line's.
pub(crate) fn board_arg(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Board> {
    let text = if let Ok(s) = board.cast::<PyString>() {
        s.to_cow()?.into_owned()
    } else if board.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "a board is a size such as '8x8', 8 or (8, 8), not a bool",
        ));
    } else if let Ok(n) = board.extract::<i128>() {
        n.to_string()
    } else if let Ok((r, c)) = board.extract::<(i128, i128)>() {
        format!("{r}x{c}")
    } else {
        return Err(PyTypeError::new_err(format!(
            "a board is a size such as '8x8', 8 or (8, 8), not {}",
            board.get_type().name()?
        )));
    };
    lib(py, text.parse())
}

/// A square `(row, col)` of `board`.
pub(crate) fn square_arg(py: Python<'_>, board: Board, square: &Bound<'_, PyAny>) -> PyResult<u32> {
    let (r, c) = square.extract::<(i128, i128)>().map_err(|_| {
        PyTypeError::new_err("a square is a pair (row, col) of whole numbers such as (0, 0)")
    })?;
    lib(py, board.parse_square(&format!("{r},{c}")))
}

/// The board with its holes (a board file's text: one line a row, `.` a
/// square, `#` a hole, of the board's size), wrapping and leaper (`A,B`).
pub(crate) fn shape_arg(
    py: Python<'_>,
    board: Board,
    wrap: Option<&str>,
    leaper: Option<&str>,
    holes: Option<&str>,
) -> PyResult<knights::Shape> {
    let mut shape = knights::Shape::new(board);
    if let Some(text) = holes {
        shape = lib(py, knights::Shape::parse_board_text(text))?;
        if shape.board() != board {
            return lib(
                py,
                Err(Error::Board(format!(
                    "holes describes a {} board, but the board is {board}",
                    shape.board()
                ))),
            );
        }
    }
    if let Some(w) = wrap {
        shape = shape.with_wrap(lib(py, w.parse())?);
    }
    if let Some(l) = leaper {
        shape = shape.with_leaper(lib(py, l.parse())?);
    }
    Ok(shape)
}

/// A square `(row, col)` of a shape, not a hole.
pub(crate) fn shape_square(
    py: Python<'_>,
    shape: &knights::Shape,
    square: &Bound<'_, PyAny>,
) -> PyResult<u32> {
    let (r, c) = square.extract::<(i128, i128)>().map_err(|_| {
        PyTypeError::new_err("a square is a pair (row, col) of whole numbers such as (0, 0)")
    })?;
    lib(py, shape.parse_square(&format!("{r},{c}")))
}

/// `"any"`, `"closed"` or `"open"`.
pub(crate) fn kind_arg(py: Python<'_>, kind: &str) -> PyResult<Option<Kind>> {
    lib(py, Kind::parse_request(kind))
}

/// The `(rows, cols)` of a board argument, checked by the library.
#[pyfunction]
pub(crate) fn board(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
    let b = board_arg(py, board)?;
    Ok((b.rows(), b.cols()))
}
