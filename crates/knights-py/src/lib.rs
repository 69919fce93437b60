//! The native half of the Python package `knights`: thin calls into the
//! library's front door ([`knights::Tour::builder`], [`knights::Tourney::builder`],
//! [`knights::count`], [`knights::cipher`], ...), compiled as the extension
//! module `knights._native` (PyO3, stable ABI 3.9+).
//!
//! The Pythonic surface (keyword arguments, the `Tour` and `Tourney`
//! classes, docstrings, numpy) is `python/knights/__init__.py`; this module
//! only converts arguments, runs the work and maps errors:
//!
//! - every library error becomes an exception of `knights._errors` chosen
//!   from [`knights::Error::category`] in one place, `to_pyerr`;
//! - every long call runs on a worker thread with the GIL released while
//!   the calling thread watches for Ctrl-C (`run_watched`): a signal raises
//!   the library's [`StopFlag`] and the call ends with `KeyboardInterrupt`;
//! - large results leave as `uint32` buffers that Python turns into lists
//!   after `ensure_memory` has checked they fit: a list too large for
//!   memory is `MemoryError`, never a null pointer or an aborted allocation;
//! - a panic of the library is caught and raised as `knights.InternalError`,
//!   never as a Rust panic.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use knights::algorithms::{Algorithm, Generator};
use knights::cipher::{self, Key, KeySpec, Mode};
use knights::count;
use knights::format::{self, SvgOptions, Valid};
use knights::rails::{self, JoinOptions, ObfuscateOptions};
use knights::stats::{Job, MoveCounts};
use knights::{Board, Category, Cover, Error, Kind, StopFlag, Tour, Tourney};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyString};

/// How often the calling thread looks for Ctrl-C while a worker runs.
const WATCH: Duration = Duration::from_millis(20);

// ---------------------------------------------------------------- errors

/// The exception class for a library error: the one place where
/// [`knights::Error::category`] is mapped to Python (the classes themselves
/// are in `knights/_errors.py`, so that they can also be `ValueError`s).
fn error_class(e: &Error) -> &'static str {
    match e.category() {
        Category::BadInput => "BadInputError",
        Category::NoAnswer => match e {
            Error::NoTour(_) => "NoTourError",
            Error::Invalid(_) => "InvalidTourError",
            _ => "GaveUpError",
        },
        Category::OverLimit => "OverLimitError",
        Category::Interrupted => "StoppedError",
        Category::Internal => "InternalError",
        _ => "KnightsError",
    }
}

/// The command line's words in the library's messages, as a Python caller
/// says them: keyword arguments instead of flags (applied in order).
const PYTHON_WORDS: &[(&str, &str)] = &[
    (
        "the options are tie, max-attempts and max-nodes",
        "the options are tie=, max_attempts= and max_nodes=",
    ),
    ("Allow more with --max-nodes", "Allow more with max_nodes="),
    ("raise --max-nodes", "raise max_nodes="),
    ("(--max-attempts)", "(max_attempts=)"),
    ("more --max-attempts", "more max_attempts="),
    ("another tie-break", "another tie="),
    (
        "--algorithm construct, warnsdorff, backtrack or hybrid",
        "algorithm='construct', 'warnsdorff', 'backtrack' or 'hybrid'",
    ),
    ("--algorithm warnsdorff", "algorithm='warnsdorff'"),
    ("--algorithm hybrid", "algorithm='hybrid'"),
    ("drop --classic", "leave out classic=True"),
    ("without --classic", "with classic=False"),
    ("with --classic", "with classic=True"),
    (
        "(ask --closed with only --start)",
        "(ask kind='closed' with only start=)",
    ),
    ("drop --open", "count kind='closed'"),
    // A count from Python chooses its method and works in the temporary folder.
    ("; use --method forward", ""),
    (" (--max-disk sets the budget)", ""),
    (
        "; give it a --work-dir on a disk with more room, or more --max-memory",
        "; set TMPDIR to a folder on a disk with more room",
    ),
    ("max-attempts", "max_attempts"),
    ("max-nodes", "max_nodes"),
];

/// A library message in Python's words ([`PYTHON_WORDS`]).
fn python_words(message: String) -> String {
    PYTHON_WORDS.iter().fold(message, |m, (cli, py)| {
        if m.contains(cli) {
            m.replace(cli, py)
        } else {
            m
        }
    })
}

/// A library error as the Python exception of its category, with the
/// library's sentences in Python's words as its message.
fn to_pyerr(py: Python<'_>, e: &Error) -> PyErr {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let class = ERRORS
        .get_or_try_init(py, || py.import("knights._errors").map(Bound::unbind))
        .and_then(|m| m.bind(py).getattr(error_class(e)));
    match class {
        Ok(class) => PyErr::from_value(match class.call1((python_words(e.to_string()),)) {
            Ok(exc) => exc,
            Err(err) => return err,
        }),
        Err(err) => err,
    }
}

/// A library result as a Python result.
fn lib<T>(py: Python<'_>, r: knights::Result<T>) -> PyResult<T> {
    r.map_err(|e| to_pyerr(py, &e))
}

/// A caught panic as an internal error.
fn panic_error(payload: &(dyn std::any::Any + Send)) -> Error {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    Error::Internal(what)
}

/// Runs quick library work on the calling thread, a panic becoming an
/// internal error.
fn guard<T>(py: Python<'_>, work: impl FnOnce() -> knights::Result<T>) -> PyResult<T> {
    let r = catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|p| Err(panic_error(&*p)));
    lib(py, r)
}

/// Runs quick work on the calling thread with the GIL released (other
/// Python threads go on meanwhile), a panic becoming an internal error.
fn run_inline<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> knights::Result<T> + Send,
) -> PyResult<T> {
    let r = py
        .detach(|| catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|p| Err(panic_error(&*p))));
    lib(py, r)
}

/// How long an interrupted call waits for its worker to see the stop flag
/// before it raises `KeyboardInterrupt` all the same. Work that watches the
/// flag returns well within it; work that does not yet (see `run_watched`)
/// finishes on its own in the background.
const GRACE: Duration = Duration::from_secs(1);

/// What a watched call shares with its worker thread: the flag that Ctrl-C
/// raises, and the first exception raised by Python code the work calls
/// back (a progress callback), which wins over the work's result.
#[derive(Clone, Default)]
struct Watch {
    stop: StopFlag,
    failed: Arc<Mutex<Option<PyErr>>>,
}

impl Watch {
    /// Keeps the first exception of a callback and stops the work.
    fn fail(&self, e: PyErr) {
        if let Ok(mut slot) = self.failed.lock() {
            slot.get_or_insert(e);
        }
        self.stop.stop();
    }

    /// The exception a callback raised, if any.
    fn failure(&self) -> Option<PyErr> {
        self.failed.lock().map(|mut f| f.take()).unwrap_or(None)
    }
}

/// Runs `work` on a worker thread with the GIL released (other Python
/// threads go on meanwhile), handing it the watch's stop flag, while this
/// thread checks for signals every [`WATCH`]. A pending `KeyboardInterrupt`
/// (or any exception a signal handler raises) raises the flag, waits up to
/// [`GRACE`] for the worker to return, and is raised instead of the work's
/// result. Every long call goes through here, so that the library's
/// entry points that do not yet take a stop flag still give Ctrl-C back to
/// Python at once; their worker then ends in the background. A panic of
/// the work is an internal error.
fn run_watched<T: Send + 'static>(
    py: Python<'_>,
    watch: &Watch,
    work: impl FnOnce(StopFlag) -> knights::Result<T> + Send + 'static,
) -> PyResult<T> {
    let (tx, mut rx) = mpsc::channel();
    let stop = watch.stop.clone();
    std::thread::Builder::new()
        .name("knights-work".into())
        .spawn(move || {
            let r = catch_unwind(AssertUnwindSafe(|| work(stop)))
                .unwrap_or_else(|p| Err(panic_error(&*p)));
            let _ = tx.send(r);
        })
        .map_err(|e| PyRuntimeError::new_err(format!("could not start a worker thread: {e}")))?;
    let result = loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(WATCH);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(r) => break r,
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    watch.stop.stop();
                    py.detach(move || {
                        let _ = rx.recv_timeout(GRACE);
                    });
                    return Err(watch.failure().unwrap_or(interrupt));
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                break Err(Error::Internal(
                    "the worker thread ended without an answer".into(),
                ))
            }
        }
    };
    match watch.failure() {
        Some(e) => Err(e),
        None => lib(py, result),
    }
}

// ---------------------------------------------------------------- arguments

/// A board from `"8x8"`, `8` or `(rows, cols)`, read by the library so that
/// its messages are the command line's.
fn board_arg(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Board> {
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
fn square_arg(py: Python<'_>, board: Board, square: &Bound<'_, PyAny>) -> PyResult<u32> {
    let (r, c) = square.extract::<(i128, i128)>().map_err(|_| {
        PyTypeError::new_err("a square is a pair (row, col) of whole numbers such as (0, 0)")
    })?;
    lib(py, board.parse_square(&format!("{r},{c}")))
}

/// The board with its holes (a board file's text: one line a row, `.` a
/// square, `#` a hole, of the board's size), wrapping and leaper (`A,B`).
fn shape_arg(
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
fn shape_square(
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
fn kind_arg(py: Python<'_>, kind: &str) -> PyResult<Option<Kind>> {
    lib(py, Kind::parse_request(kind))
}

// ---------------------------------------------------------------- memory

/// Requests smaller than this are not checked against the memory left
/// (reading it costs more than a small tour); the library's threshold.
const ALWAYS_FITS: u64 = 64 << 20;

/// Bytes a square of a tour takes as text (JSON, a move list, a grid or an
/// SVG picture, 7 to 14 bytes a square): the library's string, the room it
/// grows into and Python's copy.
const TEXT_BYTES: u64 = 48;

/// `MemoryError` unless `bytes` more fit in this process's memory (the
/// library's [`knights::memory::available_bytes`]): big Python objects are
/// refused before they are built, as the library refuses big boards.
#[pyfunction]
fn ensure_memory(what: &str, bytes: u64) -> PyResult<()> {
    if bytes < ALWAYS_FITS {
        return Ok(());
    }
    match knights::memory::available_bytes() {
        Some(available) if bytes > available => Err(PyMemoryError::new_err(format!(
            "{what} needs about {} of memory, but {}",
            knights::memory::human_bytes(bytes),
            knights::memory::available_phrase()
        ))),
        _ => Ok(()),
    }
}

/// [`ensure_memory`] for `what`, a text of a board ([`TEXT_BYTES`] a square).
fn ensure_text_fits(what: &str, board: Board) -> PyResult<()> {
    let what = format!("{what} of this {board} board");
    ensure_memory(&what, (board.squares() as u64).saturating_mul(TEXT_BYTES))
}

/// `len` numbers as native-endian `uint32` bytes, written in place (a
/// failed allocation is Python's `MemoryError`, never a panic).
fn uint32_bytes(
    py: Python<'_>,
    numbers: impl Iterator<Item = u32>,
    len: usize,
) -> PyResult<Bound<'_, PyByteArray>> {
    PyByteArray::new_with(py, len * 4, |bytes| {
        for (at, n) in bytes.chunks_exact_mut(4).zip(numbers) {
            at.copy_from_slice(&n.to_ne_bytes());
        }
        Ok(())
    })
}

// ---------------------------------------------------------------- tours

/// A checked tour (the Python `knights.Tour` wraps one).
#[pyclass(frozen, module = "knights._native", name = "NativeTour")]
struct PyTour {
    tour: Tour,
}

#[pymethods]
impl PyTour {
    /// Rows of the board.
    #[getter]
    fn rows(&self) -> u32 {
        self.tour.board().rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> u32 {
        self.tour.board().cols()
    }

    /// Whether the last square is a knight's move from the first.
    #[getter]
    fn closed(&self) -> bool {
        self.tour.is_closed()
    }

    fn __len__(&self) -> usize {
        self.tour.squares().len()
    }

    /// The squares in order, as native-endian `uint32` square numbers
    /// (`row * cols + col`), from which Python builds its lists.
    fn order_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        uint32_bytes(
            py,
            self.tour.squares().iter().copied(),
            self.tour.squares().len(),
        )
    }

    /// Square `i` of the tour as `(row, col)`.
    fn square(&self, i: usize) -> Option<(u32, u32)> {
        let s = *self.tour.squares().get(i)?;
        Some(self.tour.board().coords(s))
    }

    /// The step numbers, row-major, as native-endian `uint32` bytes; a
    /// hole of the board holds `2**32 - 1`.
    fn step_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyByteArray>> {
        let board = self.tour.board();
        // Written in place: no copy of a 4-bytes-a-square buffer.
        PyByteArray::new_with(py, board.squares() * 4, |bytes| {
            bytes.fill(0xff);
            for (i, &s) in self.tour.squares().iter().enumerate() {
                let at = s as usize * 4;
                bytes[at..at + 4].copy_from_slice(&(i as u32).to_ne_bytes());
            }
            Ok(())
        })
    }

    /// The numbered grid as text.
    fn grid_text(&self, base: u32) -> PyResult<String> {
        ensure_text_fits("the numbered grid", self.tour.board())?;
        Ok(format::grid(&self.tour, base).to_string())
    }

    /// The tour as the project's JSON.
    fn to_json(&self) -> PyResult<String> {
        ensure_text_fits("the JSON", self.tour.board())?;
        Ok(format::tour_json(&self.tour).to_string())
    }

    /// The tour as a move list.
    fn move_list(&self) -> PyResult<String> {
        ensure_text_fits("the move list", self.tour.board())?;
        Ok(format::move_list(&self.tour).to_string())
    }

    /// The tour as an SVG picture.
    fn to_svg(&self, animate: bool) -> PyResult<String> {
        ensure_text_fits("the SVG picture", self.tour.board())?;
        let options = SvgOptions {
            animate,
            ..SvgOptions::default()
        };
        Ok(format::tour_svg(&self.tour, options).to_string())
    }

    /// Equality of board and squares in order.
    fn same(&self, other: &PyTour) -> bool {
        self.tour == other.tour
    }

    /// The checker's verdict: `"closed tour on 8x8"`.
    fn check(&self, py: Python<'_>) -> PyResult<String> {
        let kind = lib(
            py,
            knights::check::check_tour(&self.tour).map_err(Error::from),
        )?;
        Ok(format!("{} tour on {}", kind.name(), self.tour.board()))
    }

    /// The move counts of the tour.
    fn move_counts(&self) -> (Vec<u64>, Vec<u64>) {
        let m = MoveCounts::of_tour(&self.tour);
        (m.moves.to_vec(), m.relative.to_vec())
    }

    /// The number of rails (switchable pairs of moves) of a closed tour.
    fn rails(&self, py: Python<'_>) -> PyResult<usize> {
        let cover = lib(py, Cover::from_tour(&self.tour))?;
        Ok(rails::count_rails(&cover))
    }
}

/// One tour through [`Tour::builder`], with the algorithm's options set
/// by name (`options` as name, text pairs).
#[pyfunction]
#[pyo3(signature = (board, kind, start, algorithm, seed, options, obfuscate, end=None, wrap=None, leaper=None, holes=None))]
#[allow(clippy::too_many_arguments)]
fn tour(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    start: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    seed: u64,
    options: Vec<(String, String)>,
    obfuscate: Option<u32>,
    end: Option<&Bound<'_, PyAny>>,
    wrap: Option<&str>,
    leaper: Option<&str>,
    holes: Option<&str>,
) -> PyResult<PyTour> {
    let board = board_arg(py, board)?;
    let shape = shape_arg(py, board, wrap, leaper, holes)?;
    let kind = kind_arg(py, kind)?;
    let start = start.map(|s| shape_square(py, &shape, s)).transpose()?;
    let end = end.map(|s| shape_square(py, &shape, s)).transpose()?;
    let mut algorithm: Algorithm = lib(py, algorithm.parse())?;
    for (name, value) in &options {
        lib(py, algorithm.set_option(name, value))?;
    }
    // Options (a larger budget) may make even a small board's search long.
    let quick =
        shape.is_plain() && end.is_none() && options.is_empty() && is_quick(board, algorithm);
    let mut request = Tour::builder(board)
        .shape(shape)
        .kind(kind)
        .start_at(start)
        .end_at(end)
        .algorithm(algorithm)
        .seed(seed);
    if let Some(shatters) = obfuscate {
        request = request.obfuscate(shatters);
    }
    let tour = if quick {
        run_inline(py, || request.build())?
    } else {
        run_watched(py, &Watch::default(), move |stop| {
            request.stop_flag(stop).build()
        })?
    };
    Ok(PyTour { tour })
}

/// Whether a tour is done in about a millisecond at most, so that the
/// worker thread and the watch for Ctrl-C (some 20 microseconds) would
/// cost more than they are worth: the linear-time methods on boards up to
/// 100x100, Warnsdorff's rule (bounded restarts) up to 32x32.
fn is_quick(board: Board, algorithm: Algorithm) -> bool {
    let n = board.squares();
    match algorithm {
        Algorithm::Auto
        | Algorithm::Construct
        | Algorithm::Tourney(Generator::FourCover | Generator::Braid | Generator::Divide) => {
            n <= 10_000
        }
        Algorithm::Warnsdorff(_) => n <= 1024,
        _ => false,
    }
}

/// The algorithms: name, one-line description and option names.
#[pyfunction]
fn algorithms() -> Vec<(&'static str, String, Vec<&'static str>)> {
    Algorithm::ALL
        .iter()
        .map(|a| (a.name(), a.about().to_string(), a.option_names().to_vec()))
        .collect()
}

// ---------------------------------------------------------------- tourneys

/// A checked tourney (the Python `knights.Tourney` wraps one).
#[pyclass(frozen, module = "knights._native", name = "NativeTourney")]
struct PyTourney {
    tourney: Tourney,
}

#[pymethods]
impl PyTourney {
    /// Rows of the board.
    #[getter]
    fn rows(&self) -> u32 {
        self.tourney.board().rows()
    }

    /// Columns of the board.
    #[getter]
    fn cols(&self) -> u32 {
        self.tourney.board().cols()
    }

    fn __len__(&self) -> usize {
        self.tourney.len()
    }

    /// The cycles' squares one cycle after the other, as native-endian
    /// `uint32` square numbers (`row * cols + col`), and each cycle's length.
    fn cycle_bytes<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyByteArray>, Vec<usize>)> {
        let cycles = self.tourney.cycles();
        let squares = cycles.iter().flatten().copied();
        let bytes = uint32_bytes(py, squares, cycles.iter().map(Vec::len).sum())?;
        Ok((bytes, cycles.iter().map(Vec::len).collect()))
    }

    /// The tourney as the project's JSON.
    fn to_json(&self) -> PyResult<String> {
        ensure_text_fits("the JSON", self.tourney.board())?;
        Ok(format::tourney_json(&self.tourney).to_string())
    }

    /// The tourney as an SVG picture.
    fn to_svg(&self, animate: bool) -> PyResult<String> {
        ensure_text_fits("the SVG picture", self.tourney.board())?;
        let options = SvgOptions {
            animate,
            ..SvgOptions::default()
        };
        Ok(format::tourney_svg(&self.tourney, options).to_string())
    }

    /// Equality of board and cycles.
    fn same(&self, other: &PyTourney) -> bool {
        self.tourney == other.tourney
    }

    /// The checker's verdict: `"tourney of 16 cycles on 8x8"`.
    fn check(&self, py: Python<'_>) -> PyResult<String> {
        let t = &self.tourney;
        let cycles = lib(py, knights::check::check_tourney(t).map_err(Error::from))?;
        Ok(knights::check::Verdict::Tourney {
            rows: t.board().rows(),
            cols: t.board().cols(),
            cycles,
        }
        .to_string())
    }

    /// The number of rails.
    fn rails(&self, py: Python<'_>) -> PyResult<usize> {
        let cover = lib(py, Cover::from_tourney(&self.tourney))?;
        Ok(rails::count_rails(&cover))
    }

    /// The move counts of the tourney.
    fn move_counts(&self) -> (Vec<u64>, Vec<u64>) {
        let m = MoveCounts::of_tourney(&self.tourney);
        (m.moves.to_vec(), m.relative.to_vec())
    }
}

/// One tourney through [`Tourney::builder`].
#[pyfunction]
fn tourney(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    generator: &str,
    seed: u64,
) -> PyResult<PyTourney> {
    let board = board_arg(py, board)?;
    let generator: Generator = lib(py, generator.parse())?;
    let request = Tourney::builder(board).generator(generator).seed(seed);
    let tourney = run_watched(py, &Watch::default(), move |stop| {
        request.cover_with_stop(&stop)?.to_tourney()
    })?;
    Ok(PyTourney { tourney })
}

/// The cover of a closed tour or tourney, and the tour's start.
fn cover_of(py: Python<'_>, x: &Bound<'_, PyAny>, what: &str) -> PyResult<(Cover, Option<u32>)> {
    if let Ok(t) = x.cast::<PyTour>() {
        let tour = &t.get().tour;
        if !tour.is_closed() {
            return lib(
                py,
                Err(Error::Unsupported(format!(
                    "{what} needs a closed tour or a tourney, and this is an open tour of {}",
                    tour.board()
                ))),
            );
        }
        return Ok((lib(py, Cover::from_tour(tour))?, Some(tour.start())));
    }
    if let Ok(t) = x.cast::<PyTourney>() {
        return Ok((lib(py, Cover::from_tourney(&t.get().tourney))?, None));
    }
    Err(PyTypeError::new_err(format!(
        "{what} needs a knights.Tour (closed) or a knights.Tourney"
    )))
}

/// [`rails::join`]: one closed tour from a tourney.
#[pyfunction]
fn join(py: Python<'_>, x: &Bound<'_, PyAny>, seed: u64) -> PyResult<PyTour> {
    let (mut cover, start) = cover_of(py, x, "join")?;
    let tour = run_watched(py, &Watch::default(), move |stop| {
        let mut rng = knights::rng::seeded(seed);
        let options = JoinOptions {
            stop,
            ..Default::default()
        };
        rails::join(&mut cover, &options, &mut rng)?;
        cover.to_tour(start.unwrap_or(0), None)
    })?;
    Ok(PyTour { tour })
}

/// [`rails::shatter`]: switch rails at random into a tourney.
#[pyfunction]
fn shatter(py: Python<'_>, x: &Bound<'_, PyAny>, seed: u64) -> PyResult<PyTourney> {
    let (mut cover, _) = cover_of(py, x, "shatter")?;
    let tourney = run_watched(py, &Watch::default(), move |_stop| {
        let mut rng = knights::rng::seeded(seed);
        rails::shatter(&mut cover, &mut rng)?;
        cover.to_tourney()
    })?;
    Ok(PyTourney { tourney })
}

/// [`rails::obfuscate`]: shatter and join `shatters` times.
#[pyfunction]
fn obfuscate(py: Python<'_>, x: &Bound<'_, PyAny>, shatters: u32, seed: u64) -> PyResult<PyTour> {
    let (mut cover, start) = cover_of(py, x, "obfuscate")?;
    let tour = run_watched(py, &Watch::default(), move |stop| {
        let mut rng = knights::rng::seeded(seed);
        let options = ObfuscateOptions {
            shatters,
            join: JoinOptions {
                stop,
                ..Default::default()
            },
        };
        rails::obfuscate(&mut cover, &options, &mut rng)?;
        cover.to_tour(start.unwrap_or(0), None)
    })?;
    Ok(PyTour { tour })
}

// ---------------------------------------------------------------- files

/// Reads and checks a tour or tourney (JSON, a numbered grid or a move list).
#[pyfunction]
fn read(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    let valid = guard(py, || format::read(text)?.into_valid())?;
    Ok(match valid {
        Valid::Tour(tour) => Py::new(py, PyTour { tour })?.into_any(),
        Valid::Tourney(tourney) => Py::new(py, PyTourney { tourney })?.into_any(),
    })
}

/// The checker's verdict on a text, or its first fault as an error.
#[pyfunction]
fn check_text(py: Python<'_>, text: &str) -> PyResult<String> {
    guard(py, || {
        let doc = format::read(text)?;
        Ok(doc.check()?.to_string())
    })
}

/// Whether a tour exists beyond the plain board (holes, wrapping, a
/// leaper, given start and end): `"yes"`, `"no"` or `"unknown"` (the
/// search of at most `max_nodes` ran out), and the reason.
#[pyfunction]
#[pyo3(signature = (board, kind, start, end, wrap, leaper, holes, max_nodes))]
#[allow(clippy::too_many_arguments)]
fn decide(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
    wrap: Option<&str>,
    leaper: Option<&str>,
    holes: Option<&str>,
    max_nodes: u64,
) -> PyResult<(String, String)> {
    let board = board_arg(py, board)?;
    let shape = shape_arg(py, board, wrap, leaper, holes)?;
    let kind = kind_arg(py, kind)?;
    let start = start.map(|s| shape_square(py, &shape, s)).transpose()?;
    let end = end.map(|s| shape_square(py, &shape, s)).transpose()?;
    let d = run_watched(py, &Watch::default(), move |stop| {
        let spec = knights::algorithms::Spec {
            kind,
            start,
            end,
            stop,
            ..knights::algorithms::Spec::on(shape)
        };
        knights::decide::decide(&spec, max_nodes)
    })?;
    Ok((d.answer.word().to_string(), d.reason))
}

/// Whether a tour of the kind exists: the answer, the reason and the theorem.
#[pyfunction]
fn exists(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
) -> PyResult<(bool, String, String)> {
    let board = board_arg(py, board)?;
    let closed = knights::exists::closed_tour(board);
    let open = knights::exists::open_tour(board);
    let pick = |e: knights::exists::Existence| (e.exists, e.reason, e.theorem.to_string());
    Ok(match kind_arg(py, kind)? {
        Some(Kind::Closed) => pick(closed),
        Some(Kind::Open) => pick(open),
        None if closed.exists => pick(closed),
        None => pick(open),
    })
}

// ---------------------------------------------------------------- counts

/// An exact count of undirected tours (with `symmetric`, of those a half
/// turn leaves unchanged; with `classes`, of their classes under the
/// board's symmetries). `progress` is called
/// with `(step, steps, states, peak, on_disk)` after every square.
#[pyfunction]
#[pyo3(name = "count", signature = (board, kind, symmetric, classes, progress))]
fn count_tours(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    kind: &str,
    symmetric: bool,
    classes: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let board = board_arg(py, board)?;
    let kind = match kind_arg(py, kind)? {
        Some(k) => k,
        None => {
            return lib(
                py,
                Err(Error::Unsupported(
                    "a count is of closed or of open tours; give kind='closed' or kind='open'"
                        .into(),
                )),
            )
        }
    };
    if classes && symmetric {
        return lib(
            py,
            Err(Error::Unsupported(
                "symmetric and classes are two different counts; give one of them".into(),
            )),
        );
    }
    let watch = Watch::default();
    let calls_back = watch.clone();
    let n = run_watched(py, &watch, move |stop| {
        let control = knights::Control::new().stop(stop).progress(move |p| {
            let (Some(f), Some(p)) = (&progress, p.frontier) else {
                return;
            };
            Python::attach(|py| {
                let args = (p.step, p.steps, p.states, p.peak, p.on_disk);
                if let Err(e) = f.call1(py, args) {
                    calls_back.fail(e);
                }
            });
        });
        let opts = count::Options {
            kind,
            control: Some(&control),
            ..count::Options::default()
        };
        if classes {
            Ok(count::classes(board, &opts)?.classes)
        } else if symmetric {
            Ok(count::symmetric(board, &opts)?.count)
        } else {
            Ok(count::tours(board, &opts)?.count)
        }
    })?;
    big_int(py, n)
}

/// A count as a Python `int`, exact at any size.
fn big_int(py: Python<'_>, n: count::Count) -> PyResult<Py<PyAny>> {
    match n.to_u128() {
        Some(x) => Ok(x.into_pyobject(py)?.into_any().unbind()),
        None => Ok(py
            .get_type::<pyo3::types::PyInt>()
            .call1((n.to_string(),))?
            .unbind()),
    }
}

// ---------------------------------------------------------------- cipher

/// Where a cipher key comes from: a tour, or a key description whose tour
/// is generated (a search that may be long) on the worker thread.
enum KeySource {
    Tour(Tour),
    Spec(KeySpec),
}

impl KeySource {
    /// The key: the tour checked, or the description's tour generated.
    fn key(self, stop: &StopFlag) -> knights::Result<Key> {
        match self {
            KeySource::Tour(tour) => Key::new(tour),
            KeySource::Spec(spec) => Key::from_spec_with_stop(&spec, stop),
        }
    }
}

/// The cipher key: a tour, or a key description such as `"8x8,seed=5"`
/// (read here; its tour is generated later, by [`KeySource::key`]).
fn key_arg(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<KeySource> {
    if let Ok(t) = key.cast::<PyTour>() {
        return Ok(KeySource::Tour(t.get().tour.clone()));
    }
    if let Ok(s) = key.cast::<PyString>() {
        let text = s.to_cow()?;
        return guard(py, || Ok(KeySource::Spec(text.parse()?)));
    }
    Err(PyTypeError::new_err(
        "a key is a knights.Tour or a key description such as '8x8,seed=5'",
    ))
}

/// Enciphers (or with `decrypt`, deciphers) `text`.
#[pyfunction]
#[pyo3(name = "cipher")]
fn run_cipher(
    py: Python<'_>,
    text: &str,
    key: &Bound<'_, PyAny>,
    classic: bool,
    decrypt: bool,
) -> PyResult<String> {
    let key = key_arg(py, key)?;
    let mode = if classic { Mode::Classic } else { Mode::Exact };
    let text = text.to_string();
    run_watched(py, &Watch::default(), move |stop| {
        let key = key.key(&stop)?;
        if decrypt {
            cipher::decrypt(&key, &text, mode)
        } else {
            cipher::encrypt(&key, &text, mode)
        }
    })
}

// ---------------------------------------------------------------- stats

/// The summary of `count` tours (or raw tourneys with `tourneys`) as JSON:
/// move and relative-move frequencies, their deviations, and the figures
/// (rails of closed tours, cycles of tourneys, the share of closed tours).
#[pyfunction]
#[pyo3(signature = (board, count, algorithm, kind, seed, obfuscate, tourneys))]
#[allow(clippy::too_many_arguments)]
fn stats(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    count: u64,
    algorithm: &str,
    kind: &str,
    seed: u64,
    obfuscate: bool,
    tourneys: bool,
) -> PyResult<String> {
    const MAX: u64 = 10_000_000;
    let board = board_arg(py, board)?;
    let algorithm: Algorithm = lib(py, algorithm.parse())?;
    let kind = if obfuscate {
        Some(Kind::Closed)
    } else {
        kind_arg(py, kind)?
    };
    if count == 0 || count > MAX {
        return lib(
            py,
            Err(Error::Unsupported(format!(
                "count must be between 1 and {MAX}, not {count}"
            ))),
        );
    }
    let generator = match (tourneys, algorithm) {
        (false, _) => None,
        (true, Algorithm::Tourney(g)) => Some(g),
        (true, _) => {
            return lib(
                py,
                Err(Error::Unsupported(
                    "tourneys=True needs a tourney generator: algorithm='tourney', 'braid', 'four-cover', 'neural' or 'divide'".into(),
                )),
            )
        }
    };
    let job = match generator {
        Some(g) => Job::Tourney(g),
        None => Job::Tour(algorithm, kind.into(), obfuscate.then_some(16)),
    };
    run_watched(py, &Watch::default(), move |stop| {
        let control = knights::Control::new().stop(stop);
        let summary = knights::stats::Summary::builder(board, job)
            .samples(count)
            .seed(seed)
            .control(&control)
            .run()?;
        serde_json::to_string(&summary)
            .map_err(|e| Error::Internal(format!("the summary did not serialise: {e}")))
    })
}

// ---------------------------------------------------------------- module

/// The `(rows, cols)` of a board argument, checked by the library.
#[pyfunction]
fn board(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
    let b = board_arg(py, board)?;
    Ok((b.rows(), b.cols()))
}

/// A tour from its squares, checked by the independent checker.
#[pyfunction]
fn tour_from_squares(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    squares: &Bound<'_, PyAny>,
) -> PyResult<PyTour> {
    let b = board_arg(py, board)?;
    let mut order = Vec::new();
    for s in squares.try_iter()? {
        order.push(square_arg(py, b, &s?)?);
    }
    let tour = guard(py, || {
        let tour = Tour::from_squares_unchecked(b, order);
        knights::check::check_tour(&tour)?;
        Ok(tour)
    })?;
    Ok(PyTour { tour })
}

/// The native module `knights._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTour>()?;
    m.add_class::<PyTourney>()?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(board, m)?)?;
    m.add_function(wrap_pyfunction!(check_text, m)?)?;
    m.add_function(wrap_pyfunction!(run_cipher, m)?)?;
    m.add_function(wrap_pyfunction!(count_tours, m)?)?;
    m.add_function(wrap_pyfunction!(exists, m)?)?;
    m.add_function(wrap_pyfunction!(decide, m)?)?;
    m.add_function(wrap_pyfunction!(ensure_memory, m)?)?;
    m.add_function(wrap_pyfunction!(join, m)?)?;
    m.add_function(wrap_pyfunction!(obfuscate, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(shatter, m)?)?;
    m.add_function(wrap_pyfunction!(stats, m)?)?;
    m.add_function(wrap_pyfunction!(tour, m)?)?;
    m.add_function(wrap_pyfunction!(tour_from_squares, m)?)?;
    m.add_function(wrap_pyfunction!(tourney, m)?)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
