//! The move graph of a board for `knights.graph` (`python/knights/_graph.py`):
//! its squares and moves as Python lists, read off the library's own
//! [`knights::shape::Graph`] of the board with its holes, wrapped edges and
//! leaper, after `memory::ensure_memory` has checked that the lists fit.

use crate::classes::PyTour;
use crate::convert::{bad_input, board_text, pair_text, LEAPER};
use crate::errors::lib;
use crate::memory::ensure_memory;
use crate::tour::PAIR_BYTES;
use knights::{Shape, Square};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// Bytes an edge takes in a Python list: the list's slot and a pair (a
/// tuple with its header) of the two squares' tuples, which it shares with
/// the list of squares; and its slot in the vector the list is made from.
const EDGE_BYTES: u64 = 8 + 72 + 8;

/// Bytes a square takes in the library's graph (its adjacency lists and
/// the index of each square's list), and in the index of squares here.
const LIBRARY_GRAPH_BYTES: u64 = 36 + 8;

/// Squares between two looks for Ctrl-C while the lists are built.
const CHECK_EVERY: usize = 1 << 16;

/// A move graph as `knights.Graph` holds it: the board's description (as
/// the checker names it, such as `8x8, wrap both`), its rows and columns,
/// its wrap, its leaper `(a, b)`, the squares that are not holes
/// (row-major) and the moves, each once.
type GraphParts<'py> = (
    String,
    u32,
    u32,
    &'static str,
    (u32, u32),
    Bound<'py, PyList>,
    Bound<'py, PyList>,
);

/// The board of a graph: a tour's own (its holes, wrap and leaper), or a
/// board `"8x8"`, `8` or `(rows, cols)` with `holes`, `wrap` and `leaper`
/// as `knights.tour` takes them, read by the library.
fn shape_arg(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    holes: Option<String>,
    wrap: Option<String>,
    leaper: Option<&Bound<'_, PyAny>>,
) -> PyResult<Shape> {
    if let Ok(tour) = board.cast::<PyTour>() {
        if holes.is_some() || wrap.is_some() || leaper.is_some() {
            return bad_input(
                py,
                "a tour's graph is the graph of the tour's own board; leave out holes, wrap and leaper"
                    .into(),
            );
        }
        return Ok(tour.get().tour.shape());
    }
    let leaper = leaper.map(|l| pair_text(l, LEAPER)).transpose()?;
    lib(
        py,
        knights::request::shape(
            &board_text(board)?,
            holes.as_deref(),
            wrap.as_deref(),
            leaper.as_deref(),
        ),
    )
}

/// The move graph of a board: its squares `(row, col)` (row-major, holes
/// left out) and its edges as pairs of squares, each move once with the
/// square that comes first row-major first, sorted row-major (by their
/// first square, then their second); each square's tuple is shared by the
/// square list and the edges. A board whose graph does not fit in memory
/// is refused before the lists are built (`OverLimitError` for the
/// library's graph, `MemoryError` for the lists); Ctrl-C stops the building.
#[pyfunction]
#[pyo3(signature = (board, holes, wrap, leaper))]
pub(crate) fn graph<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    holes: Option<String>,
    wrap: Option<String>,
    leaper: Option<&Bound<'py, PyAny>>,
) -> PyResult<GraphParts<'py>> {
    let shape = shape_arg(py, board, holes, wrap, leaper)?;
    ensure_memory(
        &format!("the lists of the squares and edges of the {shape} graph"),
        list_bytes(&shape),
    )?;
    let moves = lib(py, shape.graph())?;
    let rect = shape.board();
    let mut squares = Vec::with_capacity(shape.squares());
    let mut at: Vec<Option<Bound<'py, PyTuple>>> = Vec::with_capacity(rect.squares());
    for s in 0..rect.squares() {
        if s % CHECK_EVERY == 0 {
            py.check_signals()?;
        }
        if shape.is_hole(s as Square) {
            at.push(None);
            continue;
        }
        let (r, c) = rect.coords(s as Square);
        let pair = PyTuple::new(py, [r, c])?;
        squares.push(pair.clone());
        at.push(Some(pair));
    }
    let mut edges = Vec::with_capacity(usize::try_from(moves.edges()).unwrap_or(0));
    for (s, from) in at.iter().enumerate() {
        if s % CHECK_EVERY == 0 {
            py.check_signals()?;
        }
        let Some(from) = from else { continue };
        // At most 8 neighbours (a leaper's moves), in row-major order.
        let mut later = [Square::MAX; 8];
        let mut count = 0;
        for &t in moves
            .neighbours(s as Square)
            .iter()
            .filter(|&&t| t as usize > s)
        {
            later[count] = t;
            count += 1;
        }
        later[..count].sort_unstable();
        for &t in &later[..count] {
            if let Some(Some(to)) = at.get(t as usize) {
                edges.push(PyTuple::new(py, [from, to])?);
            }
        }
    }
    let leaper = shape.leaper();
    Ok((
        shape.to_string(),
        rect.rows(),
        rect.cols(),
        shape.wrap().name(),
        (leaper.a(), leaper.b()),
        PyList::new(py, squares)?,
        PyList::new(py, edges)?,
    ))
}

/// Bytes the lists of a shape's graph take, with the library's graph they
/// are read from (36 bytes a square): the plain board's edges are counted
/// exactly, another shape's bounded by 4 a square (8 moves each way).
fn list_bytes(shape: &Shape) -> u64 {
    let squares = shape.squares() as u64;
    let edges = if shape.is_plain() {
        shape.board().edge_count()
    } else {
        squares.saturating_mul(4)
    };
    (shape.board().squares() as u64)
        .saturating_mul(LIBRARY_GRAPH_BYTES)
        .saturating_add(squares.saturating_mul(PAIR_BYTES))
        .saturating_add(edges.saturating_mul(EDGE_BYTES))
}

/// Raises `MemoryError` unless `bytes` more fit in this process's memory,
/// naming `what`: the check the native lists pass before they are built,
/// for the dicts and arrays that the Python side builds from them.
#[pyfunction]
pub(crate) fn ensure_fits(what: &str, bytes: u64) -> PyResult<()> {
    ensure_memory(what, bytes)
}
