//! Python arguments as the library's values (boards, squares, shapes,
//! kinds), read by the library so that its messages are the ones every door shows.

use crate::errors::lib;
use knights::{Board, Error, Wanted};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A board from `"8x8"`, `8` or `(rows, cols)`, read by the library so that
/// its messages are the command line's.
pub(crate) fn board_arg(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Board> {
    lib(py, board_text(board)?.parse())
}

/// A board `"8x8"`, `8` or `(rows, cols)` as a request's text, for the
/// library to read.
pub(crate) fn board_text(board: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(if let Ok(s) = board.cast::<PyString>() {
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
    })
}

/// A square `(row, col)` of `board`.
pub(crate) fn square_arg(py: Python<'_>, board: Board, square: &Bound<'_, PyAny>) -> PyResult<u32> {
    let (r, c) = square.extract::<(i128, i128)>().map_err(|_| {
        PyTypeError::new_err("a square is a pair (row, col) of whole numbers such as (0, 0)")
    })?;
    lib(py, board.parse_square(&format!("{r},{c}")))
}

/// `"any"` (or the request's `"either"`), `"closed"` or `"open"` as the
/// kind a request wants, read by the library.
pub(crate) fn wanted_arg(py: Python<'_>, kind: &str) -> PyResult<Wanted> {
    lib(py, kind.parse())
}

/// The kind of a count, estimate or dry run: closed or open, never either.
pub(crate) fn count_kind(py: Python<'_>, kind: &str) -> PyResult<knights::Kind> {
    match wanted_arg(py, kind)? {
        Wanted::Closed => Ok(knights::Kind::Closed),
        Wanted::Open => Ok(knights::Kind::Open),
        Wanted::Either => bad_input(
            py,
            "a count is of closed or of open tours; give kind='closed' or kind='open'".into(),
        ),
    }
}

/// The `TypeError` for a square that is neither a pair of whole numbers nor text.
pub(crate) const SQUARE: &str =
    "a square is a pair (row, col) of whole numbers such as (0, 0), or its name such as 'c3'";

/// A square argument as the request's text: a pair `(row, col)` as
/// `row,col`, or text such as `'c3'` (or `'5,2'`) as it is, for the
/// library to read ([`knights::Board::parse_square`]).
pub(crate) fn square_text(square: &Bound<'_, PyAny>) -> PyResult<String> {
    match square.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => pair_text(square, SQUARE),
    }
}

/// The `TypeError` for a leaper that is no pair of whole numbers.
pub(crate) const LEAPER: &str = "a leaper is a pair (a, b) of whole numbers such as (1, 3)";

/// A pair `(a, b)` of whole numbers (a square or a leaper) as the request's
/// text `a,b`, or a `TypeError` saying `wrong` for anything else.
pub(crate) fn pair_text(pair: &Bound<'_, PyAny>, wrong: &'static str) -> PyResult<String> {
    let (a, b) = pair
        .extract::<(i128, i128)>()
        .map_err(|_| PyTypeError::new_err(wrong))?;
    Ok(format!("{a},{b}"))
}

/// The `(rows, cols)` of a board argument, checked by the library.
#[pyfunction]
pub(crate) fn board(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
    let b = board_arg(py, board)?;
    Ok((b.rows(), b.cols()))
}

/// The library's bad-input error with `message`, as Python's `BadInputError`.
pub(crate) fn bad_input<T>(py: Python<'_>, message: String) -> PyResult<T> {
    lib(py, Err(Error::Refused(message.into())))
}

/// `value` as a whole number from 0 to `2**bits - 1`: a `TypeError` for a
/// bool or a non-integer, a `BadInputError` out of range (never a bare
/// `OverflowError`).
pub(crate) fn whole(
    py: Python<'_>,
    name: &str,
    value: &Bound<'_, PyAny>,
    bits: u32,
) -> PyResult<u64> {
    if value.is_instance_of::<pyo3::types::PyBool>()
        || !value.is_instance_of::<pyo3::types::PyInt>()
    {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a whole number, not {}",
            value.get_type().name()?
        )));
    }
    match value.extract::<u64>() {
        Ok(n) if bits >= 64 || n < 1u64 << bits => Ok(n),
        _ => bad_input(
            py,
            format!("{name} must be a whole number from 0 to 2**{bits}-1, not {value}"),
        ),
    }
}

/// Tour text from a `str`, UTF-8 `bytes` or an already parsed `dict` (as JSON).
pub(crate) fn text_arg(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = x.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if x.is_instance_of::<pyo3::types::PyBytes>() || x.is_instance_of::<pyo3::types::PyByteArray>()
    {
        return py
            .import("builtins")?
            .getattr("bytes")?
            .call1((x,))?
            .call_method1("decode", ("utf-8",))?
            .extract();
    }
    if x.is_instance_of::<pyo3::types::PyDict>() {
        return py.import("json")?.call_method1("dumps", (x,))?.extract();
    }
    Err(PyTypeError::new_err(format!(
        "expected a tour as text (JSON, a numbered grid or a move list) or a dict, not {}",
        x.get_type().name()?
    )))
}

/// [`whole`] for an optional argument: `default` when it is left out.
pub(crate) fn whole_or(
    py: Python<'_>,
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
    bits: u32,
    default: u64,
) -> PyResult<u64> {
    value.map_or(Ok(default), |v| whole(py, name, v, bits))
}
