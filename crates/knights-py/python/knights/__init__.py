"""Knight's tours on any board, from Python.

Tours by every classical algorithm and a linear-time construction, the
tourney method (cycle covers, join, shatter, obfuscate), the existence
theorems, exact counts, move statistics and the knight's tour cipher: the
Rust library ``knights`` behind a small Pythonic surface. Tours and tourneys
draw themselves in a Jupyter notebook.

>>> import knights
>>> t = knights.tour("8x8", kind="closed", seed=1)
>>> t.closed, len(t)
(True, 64)
>>> knights.check(t)
'closed tour on 8x8'
>>> knights.count("6x6")
9862

Boards are ``"8x8"``, ``8`` or ``(rows, cols)``; squares are ``(row, col)``,
0-based from the top-left corner. Errors are :class:`KnightsError`; those
where the input is at fault are also :class:`ValueError`:

>>> knights.tour("0x0")
Traceback (most recent call last):
...
knights.BadInputError: a board needs at least one row and one column, not 0x0
"""

from __future__ import annotations

import json as _json
import typing as _typing
from typing import NamedTuple as _NamedTuple
from typing import overload as _overload

if _typing.TYPE_CHECKING:  # names for annotations only, kept out of dir(knights)
    from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from . import _native
from ._errors import (
    BadInputError,
    GaveUpError,
    InternalError,
    InvalidTourError,
    KnightsError,
    NoAnswerError,
    NoTourError,
    OverLimitError,
    StoppedError,
    FileError,
)

__all__ = [
    "Tour",
    "Tourney",
    "Existence",
    "Decision",
    "decide",
    "Progress",
    "tour",
    "tourney",
    "join",
    "shatter",
    "obfuscate",
    "exists",
    "check",
    "read",
    "count",
    "encrypt",
    "decrypt",
    "stats",
    "algorithms",
    "KnightsError",
    "BadInputError",
    "NoAnswerError",
    "NoTourError",
    "InvalidTourError",
    "GaveUpError",
    "OverLimitError",
    "StoppedError",
    "FileError",
    "InternalError",
]

__version__: str = _native.VERSION

Board = _typing.Union[str, int, _typing.Tuple[int, int]]
"""A board: ``"8x8"`` (also ``"6x10"``), ``8`` for a square board, or ``(rows, cols)``."""

Square = _typing.Tuple[int, int]
"""A square: ``(row, col)``, 0-based from the top-left corner."""

#: Above this many squares ``_repr_svg_`` draws nothing (a notebook shows
#: the ``repr``); ``to_svg()`` still draws any size.
SVG_MAX_SQUARES = 250_000


#: Bytes a ``(row, col)`` pair takes in a Python list: the list's slot, the
#: tuple and two ints (those up to 256 are shared, larger ones are not).
_PAIR_BYTES = 8 + 56 + 2 * 32

#: Bytes a step number takes in a Python list of rows: the slot and the int.
_NUMBER_BYTES = 8 + 32

#: A hole of the board in the numbered grid.
_HOLE = 2**32 - 1


def _pairs(squares: bytearray, cols: int, what: str) -> List[Square]:
    """``(row, col)`` pairs from native ``uint32`` square numbers: a list
    that does not fit in memory raises ``MemoryError`` before it is built."""
    numbers = memoryview(squares).cast("I")
    _native.ensure_memory(what, len(numbers) * _PAIR_BYTES)
    return [divmod(s, cols) for s in numbers]


def _whole(name: str, value: Any, bits: int) -> int:
    """``value`` as a whole number from 0 to ``2**bits - 1``, else a
    :class:`BadInputError` that says so (not a bare ``OverflowError``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__}")
    if not 0 <= value < 2**bits:
        raise BadInputError(f"{name} must be a whole number from 0 to 2**{bits}-1, not {value}")
    return int(value)


def _seed(seed: Any) -> int:
    return _whole("seed", seed, 64)


def _svg_or_none(squares: int, draw: Callable[[], str]) -> Optional[str]:
    return draw() if squares <= SVG_MAX_SQUARES else None


def _text(x: Any) -> str:
    """JSON text from a str, bytes, or an already parsed dict."""
    if isinstance(x, str):
        return x
    if isinstance(x, (bytes, bytearray)):
        return bytes(x).decode("utf-8")
    if isinstance(x, dict):
        return _json.dumps(x)
    raise TypeError(
        f"expected a tour as text (JSON, a numbered grid or a move list) or a dict, not {type(x).__name__}"
    )


class Tour:
    """A knight's tour: every square of a board once, each step a knight's
    move; *closed* when the last square is a knight's move from the first.

    Make one with :func:`tour`, read one with :meth:`from_json` or
    :func:`read`, or give its squares (checked by the independent checker):

    >>> t = Tour((3, 4), [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1),
    ...                   (0, 2), (2, 3), (1, 1), (0, 3), (2, 2), (1, 0)])
    >>> t
    <knights.Tour 3x4 open, 12 squares from (0, 0) to (1, 0)>
    >>> t.grid()
    [[0, 3, 6, 9], [11, 8, 1, 4], [2, 5, 10, 7]]
    >>> print(t)
     0  3  6  9
    11  8  1  4
     2  5 10  7
    >>> Tour.from_json(t.to_json()) == t
    True
    >>> t.to_svg().startswith("<svg")
    True
    """

    __slots__ = ("_t",)
    _t: _native.NativeTour

    def __init__(self, board: Board, squares: Any) -> None:
        self._t = _native.tour_from_squares(board, squares)

    @classmethod
    def _wrap(cls, native: _native.NativeTour) -> "Tour":
        obj = cls.__new__(cls)
        obj._t = native
        return obj

    @classmethod
    def from_json(cls, text: Union[str, bytes, Dict[str, Any]]) -> "Tour":
        """The tour in the project's JSON (a ``str`` or a parsed ``dict``),
        checked by the independent checker.

        >>> Tour.from_json('{"rows": 1, "cols": 1, "squares": [[0, 0]]}')
        <knights.Tour 1x1 open, 1 squares from (0, 0) to (0, 0)>
        >>> Tour.from_json('{"rows": 3, "cols": 3, "squares": [[0, 0]]}')
        Traceback (most recent call last):
        ...
        knights.InvalidTourError: 8 squares of the 3x3 board are never visited, the first being (0, 1)
        """
        x = read(_text(text))
        if not isinstance(x, Tour):
            raise BadInputError(
                "the text is a tourney, not a tour; read it with knights.read() or Tourney.from_json()"
            )
        return x

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return self._t.rows

    @property
    def cols(self) -> int:
        """Columns of the board."""
        return self._t.cols

    @property
    def board(self) -> str:
        """The board as ``"ROWSxCOLS"``."""
        return f"{self._t.rows}x{self._t.cols}"

    @property
    def closed(self) -> bool:
        """Whether the last square is a knight's move from the first."""
        return self._t.closed

    @property
    def kind(self) -> str:
        """``"closed"`` or ``"open"``."""
        return "closed" if self._t.closed else "open"

    @property
    def squares(self) -> List[Square]:
        """The squares in the knight's order, as ``(row, col)``; a list too
        large for this machine's memory raises ``MemoryError``."""
        what = f"a list of the squares of this {self.board} tour"
        return _pairs(self._t.order_bytes(), self.cols, what)

    @property
    def start(self) -> Square:
        """The first square."""
        return self[0]

    @property
    def end(self) -> Square:
        """The last square."""
        return self[-1]

    def __len__(self) -> int:
        return len(self._t)

    def __iter__(self) -> Iterator[Square]:
        return iter(self.squares)

    def __getitem__(self, i: int) -> Square:
        n = len(self._t)
        j = i + n if i < 0 else i
        s = self._t.square(j) if 0 <= j else None
        if s is None:
            raise IndexError(f"step {i} is not on a tour of {n} squares")
        return s

    def grid(self, base: int = 0) -> List[List[int]]:
        """The numbered grid: the step at which the knight reaches each
        square, as a list of rows, counting from ``base`` (0 or 1); a hole
        of the board holds 2**32 - 1. A grid too large for this machine's
        memory raises ``MemoryError``."""
        steps = memoryview(self._t.step_bytes()).cast("I")
        _native.ensure_memory(f"the grid of this {self.board} tour", len(steps) * _NUMBER_BYTES)
        rows = (steps[i : i + self.cols] for i in range(0, len(steps), self.cols))
        if not base:
            return [row.tolist() for row in rows]
        return [[n if n == _HOLE else n + base for n in row] for row in rows]

    def to_numpy(self, base: int = 0) -> Any:
        """The numbered grid as a ``(rows, cols)`` numpy array of ``uint32``
        step numbers from ``base``; needs numpy (imported only here).

        >>> tour("5x5", seed=1).to_numpy().shape
        (5, 5)
        """
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - exercised without numpy
            raise ImportError(
                "Tour.to_numpy() needs numpy; install it with: pip install numpy"
            ) from None
        a = np.frombuffer(self._t.step_bytes(), dtype=np.uint32).reshape(self.rows, self.cols)
        if base:
            a += np.uint32(base)
        return a

    def to_json(self) -> str:
        """The tour in the project's JSON: ``{"rows", "cols", "closed", "squares"}``."""
        return self._t.to_json()

    def to_moves(self) -> str:
        """The tour as a move list (``docs/formats.md``)."""
        return self._t.move_list()

    def to_svg(self, animate: bool = False) -> str:
        """An SVG picture of the tour; ``animate=True`` draws it step by step."""
        return self._t.to_svg(animate)

    def _repr_svg_(self) -> Optional[str]:
        return _svg_or_none(len(self), lambda: self._t.to_svg(False))

    def check(self) -> str:
        """The independent checker's verdict, such as ``"closed tour on 8x8"``."""
        return self._t.check()

    def rails(self) -> int:
        """The number of rails (pairs of parallel moves that can be switched)
        of a closed tour; an open tour raises :class:`BadInputError`."""
        if not self.closed:
            raise BadInputError("rails are counted on closed tours, and this tour is open")
        return self._t.rails()

    def shatter(self, seed: int = 0) -> "Tourney":
        """The closed tour shattered into a tourney (see :func:`shatter`)."""
        return shatter(self, seed=seed)

    def obfuscate(self, shatters: int = 16, seed: int = 0) -> "Tour":
        """The closed tour obfuscated (see :func:`obfuscate`)."""
        return obfuscate(self, shatters=shatters, seed=seed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        return self._t.same(other._t)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, bytes(self._t.order_bytes())))

    def __repr__(self) -> str:
        return (
            f"<knights.Tour {self.board} {self.kind}, {len(self)} squares"
            f" from {self.start} to {self.end}>"
        )

    def __str__(self) -> str:
        return self._t.grid_text(0).rstrip("\n")


class Tourney:
    """A tourney: a set of closed knight's cycles covering the board, each
    square on exactly one (Parberry 2020). :func:`join` makes it one closed
    tour.

    >>> t = tourney("8x8", generator="four-cover")
    >>> len(t), t.rails
    (16, 16)
    >>> t.join(seed=1).closed
    True
    """

    __slots__ = ("_t",)
    _t: _native.NativeTourney

    def __init__(self, board: Board, cycles: Any) -> None:
        rows, cols = _native.board(board)
        doc = {
            "rows": rows,
            "cols": cols,
            "cycles": [[list(s) for s in c] for c in cycles],
        }
        x = _native.read(_json.dumps(doc))
        if not isinstance(x, _native.NativeTourney):  # pragma: no cover - one cycle reads as a tourney
            raise BadInputError("the cycles are not a tourney")
        self._t = x

    @classmethod
    def _wrap(cls, native: _native.NativeTourney) -> "Tourney":
        obj = cls.__new__(cls)
        obj._t = native
        return obj

    @classmethod
    def from_json(cls, text: Union[str, bytes, Dict[str, Any]]) -> "Tourney":
        """The tourney in the project's JSON, checked."""
        x = read(_text(text))
        if not isinstance(x, Tourney):
            raise BadInputError("the text is a tour, not a tourney; read it with Tour.from_json()")
        return x

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return self._t.rows

    @property
    def cols(self) -> int:
        """Columns of the board."""
        return self._t.cols

    @property
    def board(self) -> str:
        """The board as ``"ROWSxCOLS"``."""
        return f"{self._t.rows}x{self._t.cols}"

    @property
    def cycles(self) -> List[List[Square]]:
        """The cycles, each a list of ``(row, col)``; lists too large for
        this machine's memory raise ``MemoryError``."""
        squares, lengths = self._t.cycle_bytes()
        pairs = _pairs(squares, self.cols, f"a list of the cycles of this {self.board} tourney")
        cycles, at = [], 0
        for n in lengths:
            cycles.append(pairs[at : at + n])
            at += n
        return cycles

    @property
    def rails(self) -> int:
        """The number of rails: pairs of parallel moves that can be switched."""
        return self._t.rails()

    def __len__(self) -> int:
        """The number of cycles."""
        return len(self._t)

    def __iter__(self) -> Iterator[List[Square]]:
        return iter(self.cycles)

    def to_json(self) -> str:
        """The tourney in the project's JSON: ``{"rows", "cols", "cycles"}``."""
        return self._t.to_json()

    def to_svg(self, animate: bool = False) -> str:
        """An SVG picture of the tourney, one colour a cycle."""
        return self._t.to_svg(animate)

    def _repr_svg_(self) -> Optional[str]:
        return _svg_or_none(self.rows * self.cols, lambda: self._t.to_svg(False))

    def check(self) -> str:
        """The independent checker's verdict, such as ``"tourney of 16 cycles on 8x8"``."""
        return self._t.check()

    def join(self, seed: int = 0) -> Tour:
        """One closed tour from the tourney (see :func:`join`)."""
        return join(self, seed=seed)

    def shatter(self, seed: int = 0) -> "Tourney":
        """The tourney with rails switched at random (see :func:`shatter`)."""
        return shatter(self, seed=seed)

    def obfuscate(self, shatters: int = 16, seed: int = 0) -> Tour:
        """One closed tour, shattered and joined again (see :func:`obfuscate`)."""
        return obfuscate(self, shatters=shatters, seed=seed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tourney):
            return NotImplemented
        return self._t.same(other._t)

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"<knights.Tourney {self.board}, {len(self)} cycles>"


def _wrap(native: Union[_native.NativeTour, _native.NativeTourney]) -> Union[Tour, Tourney]:
    if isinstance(native, _native.NativeTour):
        return Tour._wrap(native)
    return Tourney._wrap(native)


def _option(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise TypeError(
            f"an algorithm option is a name or a whole number, not {type(value).__name__}"
        )
    return str(value)


def tour(
    board: Board,
    *,
    kind: str = "any",
    start: Optional[Square] = None,
    algorithm: str = "auto",
    seed: int = 0,
    obfuscate: Optional[int] = None,
    end: Optional[Square] = None,
    wrap: Optional[str] = None,
    leaper: Optional[Tuple[int, int]] = None,
    holes: Optional[str] = None,
    **algorithm_options: Union[str, int],
) -> Tour:
    """One knight's tour of ``board``, with the same defaults as the
    library and ``knights tour``: either kind, any start, seed 0, and the
    ``auto`` algorithm (the construction, closed wherever the board has a
    closed tour).

    - ``kind``: ``"any"``, ``"closed"`` or ``"open"``.
    - ``start``: the first square ``(row, col)``.
    - ``algorithm``: ``"auto"``, ``"warnsdorff"``, ``"backtrack"``,
      ``"hybrid"``, ``"tourney"``, ``"braid"``, ``"four-cover"``,
      ``"neural"``, ``"takefuji-lee"``, ``"construct"`` or ``"divide"``
      (see :func:`algorithms`).
    - ``seed``: the same seed gives the same tour on every machine.
    - ``obfuscate``: shatter and join the closed tour this many times.
    - ``end``: the last square ``(row, col)`` (needs ``start``): a tour
      from the start to it.
    - ``wrap``: ``"rows"``, ``"cols"`` or ``"both"`` (the torus) joins the
      board's edges; ``leaper``: ``(a, b)`` instead of the knight's (1, 2);
      ``holes``: the board as text, one line a row, ``.`` a square and
      ``#`` a hole. These need ``warnsdorff``, ``backtrack``, ``hybrid`` or
      ``auto`` (``auto`` and ``construct`` also take start and end on the
      plain board).
    - ``algorithm_options``: ``tie="pohl"`` (``"random"``, ``"first"``,
      ``"centre"``), ``max_attempts=50``, ``max_nodes=10**6``; an option the
      algorithm does not take is refused.

    The work runs with the GIL released; Ctrl-C stops a long search.

    >>> t = tour("8x8", kind="open", start=(0, 0), algorithm="warnsdorff", tie="pohl", seed=7)
    >>> t.start, t.closed
    ((0, 0), False)
    >>> tour("4x4")
    Traceback (most recent call last):
    ...
    knights.NoTourError: no open tour exists on 4x4: an exhaustive search shows that 4x4 has no open tour; ...
    >>> tour("8x8", algorithm="construct", tie="pohl")
    Traceback (most recent call last):
    ...
    knights.BadInputError: tie does not apply to construct; it is an option of warnsdorff
    >>> t = tour("8x8", start=(0, 0), end=(7, 0))
    >>> t.start, t.end
    ((0, 0), (7, 0))
    >>> tour("4x4", kind="closed", wrap="both").closed
    True
    """
    options = [(name, _option(v)) for name, v in algorithm_options.items()]
    return Tour._wrap(
        _native.tour(
            board, kind, start, algorithm, _seed(seed), options,
            None if obfuscate is None else _whole("obfuscate", obfuscate, 32),
            end, wrap, _leaper(leaper), holes,
        )
    )


def tourney(board: Board, *, generator: str = "warnsdorff", seed: int = 0) -> Tourney:
    """One tourney (cycle cover) of ``board`` by ``generator``, named as
    in ``knights tourney --algorithm``: ``"warnsdorff"`` (the default: random
    Warnsdorff walks closed early, any board; ``"tourney"`` is an older name
    of it), ``"braid"``, ``"four-cover"``, ``"neural"`` or ``"divide"``
    (Parberry 2020).

    >>> tourney("12x12", generator="braid", seed=3).check().startswith("tourney of")
    True
    >>> len(tourney("8x8", seed=1)) >= 1
    True
    """
    if generator == "tourney":
        generator = "warnsdorff"
    return Tourney._wrap(_native.tourney(board, generator, _seed(seed)))


def join(x: Union[Tour, Tourney], *, seed: int = 0) -> Tour:
    """One closed tour from a tourney (or a closed tour, unchanged in
    substance), by switching rails until one cycle is left; a tour keeps its start.

    >>> join(tourney("10x10", seed=2), seed=2).closed
    True
    """
    return Tour._wrap(_native.join(_inner(x), _seed(seed)))


def shatter(x: Union[Tour, Tourney], *, seed: int = 0) -> Tourney:
    """The closed tour or tourney with rails switched at random: a tourney
    of (usually) many cycles.

    >>> len(shatter(tour("8x8", kind="closed"), seed=1)) > 1
    True
    """
    return Tourney._wrap(_native.shatter(_inner(x), _seed(seed)))


def obfuscate(x: Union[Tour, Tourney], *, shatters: int = 16, seed: int = 0) -> Tour:
    """A closed tour shattered and joined ``shatters`` times (16 in
    Parberry 2020): a tour with little trace of how it was made; a tour keeps its start.

    >>> t = tour("10x10", kind="closed")
    >>> o = obfuscate(t, seed=1)
    >>> o.closed, o.start == t.start, o != t
    (True, True, True)
    """
    return Tour._wrap(
        _native.obfuscate(_inner(x), _whole("shatters", shatters, 32), _seed(seed))
    )


def _inner(x: Any) -> Any:
    if isinstance(x, (Tour, Tourney)):
        return x._t
    raise TypeError(f"expected a knights.Tour or knights.Tourney, not {type(x).__name__}")


class Existence(_NamedTuple):
    """Whether a tour exists, and why (true when it does)."""

    exists: bool
    reason: str
    theorem: str

    def __bool__(self) -> bool:
        return self.exists


def exists(board: Board, kind: str = "any") -> Existence:
    """Whether ``board`` has a tour of ``kind`` (``"any"``, ``"closed"`` or
    ``"open"``), by the theorems of Schwenk 1991 (closed) and
    Conrad et al. 1994 (open), with the reason.

    >>> e = exists("4x7", kind="closed")
    >>> bool(e), "side of 4" in e.reason
    (False, True)
    >>> bool(exists("4x7"))
    True
    """
    return Existence(*_native.exists(board, kind))


def _leaper(leaper: Optional[Tuple[int, int]]) -> Optional[str]:
    if leaper is None:
        return None
    a, b = leaper
    return f"{int(a)},{int(b)}"


class Decision(_NamedTuple):
    """Whether a tour exists beyond the plain board: ``answer`` is
    ``"yes"``, ``"no"`` or ``"unknown"`` (the search ran out of its
    budget), with the reason; true only for ``"yes"``."""

    answer: str
    reason: str

    def __bool__(self) -> bool:
        return self.answer == "yes"


def decide(
    board: Board,
    kind: str = "any",
    *,
    start: Optional[Square] = None,
    end: Optional[Square] = None,
    wrap: Optional[str] = None,
    leaper: Optional[Tuple[int, int]] = None,
    holes: Optional[str] = None,
    max_nodes: int = 1_000_000,
) -> Decision:
    """Whether a tour exists with given ends, holes (board text, ``.`` a
    square and ``#`` a hole), wrapping or another leaper: by the necessary
    conditions (colour, connectedness, degrees), the theorems and the table
    of small boards, then an exhaustive search of at most ``max_nodes``.

    >>> decide("8x8", start=(0, 0), end=(7, 7)).answer
    'no'
    >>> "colour" in decide("8x8", leaper=(1, 3)).reason
    True
    >>> bool(decide("4x4", kind="closed", wrap="both"))
    True
    """
    return Decision(
        *_native.decide(
            board, kind, start, end, wrap, _leaper(leaper), holes, _whole("max_nodes", max_nodes, 64)
        )
    )


def read(text: Union[str, bytes, Dict[str, Any]]) -> Union[Tour, Tourney]:
    """A tour or tourney from text in any of the project's formats (JSON,
    a numbered grid or a move list), checked by the independent checker.

    >>> read(" 0  3  6  9\\n11  8  1  4\\n 2  5 10  7\\n")
    <knights.Tour 3x4 open, 12 squares from (0, 0) to (1, 0)>
    """
    return _wrap(_native.read(_text(text)))


def check(x: Union[Tour, Tourney, str, bytes, Dict[str, Any]]) -> str:
    """The independent checker's verdict on a tour, tourney, or text in any
    format, such as ``"closed tour on 8x8"``; a text that is no valid tour
    raises :class:`InvalidTourError` (a ``ValueError``) with its first fault.

    >>> check('{"rows": 3, "cols": 4, "squares": [[0,0],[1,2]]}')
    Traceback (most recent call last):
    ...
    knights.InvalidTourError: 10 squares of the 3x4 board are never visited, the first being (0, 1)
    """
    if isinstance(x, (Tour, Tourney)):
        return x.check()
    return _native.check_text(_text(x))


class Progress(_NamedTuple):
    """Where a count is: after square ``step`` of ``steps``, the frontier
    holds ``states`` states (at most ``peak`` so far), on disk or not."""

    step: int
    steps: int
    states: int
    peak: int
    on_disk: bool


def count(
    board: Board,
    kind: str = "closed",
    *,
    directed: bool = False,
    symmetric: bool = False,
    classes: bool = False,
    progress: Optional[Callable[[Progress], Any]] = None,
) -> int:
    """The exact number of knight's tours of ``board``: undirected (a tour
    and its reverse are one) unless ``directed``, closed unless
    ``kind="open"``; with ``symmetric``, only the closed tours unchanged by a
    half turn; with ``classes``, the classes of tours under the board's
    rotations and reflections.

    ``progress`` is called after every square with a :class:`Progress`.
    The count runs with the GIL released; Ctrl-C stops it (raising
    ``KeyboardInterrupt``), and so does an exception raised by ``progress``.
    Counts grow fast: 6x6 closed takes a fraction of a second, 8x8 closed
    minutes.

    >>> count("6x6"), count("5x5", kind="open"), count("5x5", kind="open", directed=True)
    (9862, 864, 1728)
    >>> count("3x4", kind="open")
    8
    >>> count("4x4")
    0
    """
    if classes and directed:
        raise BadInputError("directed does not apply to classes; classes are of undirected tours")
    callback = None
    if progress is not None:
        user = progress

        def callback(*p: Any) -> None:
            user(Progress(*p))

    n = _native.count(board, kind, bool(symmetric), bool(classes), callback)
    return n * 2 if directed else n


def _key(key: Union[Tour, str]) -> Any:
    return key._t if isinstance(key, Tour) else key


def encrypt(text: str, key: Union[Tour, str], *, classic: bool = False) -> str:
    """``text`` enciphered with the knight's tour cipher. The key is a
    :class:`Tour` or a key description such as ``"8x8,seed=5"`` (the board,
    then ``algorithm=``, ``seed=``, ``start=ROW,COL``, ``open``/``closed``:
    ``docs/formats.md``). The default form round-trips any text exactly;
    ``classic=True`` is the article's form (letters A-Z in groups of five).

    >>> secret = encrypt("Meet me at the old mill.", "8x8,seed=5")
    >>> decrypt(secret, "8x8,seed=5")
    'Meet me at the old mill.'
    """
    return _native.cipher(text, _key(key), bool(classic), False)


def decrypt(text: str, key: Union[Tour, str], *, classic: bool = False) -> str:
    """``text`` deciphered with the key it was enciphered with (see
    :func:`encrypt`)."""
    return _native.cipher(text, _key(key), bool(classic), True)


@_overload
def stats(x: Union[Tour, Tourney]) -> Dict[str, List[int]]: ...


@_overload
def stats(
    x: Board,
    *,
    count: int = 100,
    algorithm: str = "auto",
    kind: str = "any",
    seed: int = 0,
    obfuscate: bool = False,
    tourneys: bool = False,
) -> Dict[str, Any]: ...


def stats(
    x: Union[Tour, Tourney, Board],
    *,
    count: int = 100,
    algorithm: str = "auto",
    kind: str = "any",
    seed: int = 0,
    obfuscate: bool = False,
    tourneys: bool = False,
) -> Dict[str, Any]:
    """Move statistics (Parberry 2020, Section 3) as plain dicts and lists.

    Of one tour or tourney: ``{"moves": [8 counts], "relative": [8 counts]}``,
    the number of moves of each of the 8 kinds (numbered as in the paper)
    and of each relative move ``(b - a) mod 8``.

    Of a board: the summary of ``count`` tours by ``algorithm`` (or with
    ``tourneys=True``, raw tourneys of a generator), seeded and the same on
    any number of threads: ``rows``, ``cols``, ``count``, ``moves`` and
    ``relative`` (mean frequencies, named as in the one-tour form; the
    command line's JSON calls them ``relative_moves``), their ``moves_std``
    and ``relative_std`` deviations, and
    ``figures`` (``rails``, ``cycles``, ``closed``: the share of closed tours).

    >>> s = stats(tour("6x6", kind="closed"))
    >>> sum(s["moves"]), s["relative"][4]
    (36, 0)
    >>> summary = stats("8x8", count=20, algorithm="warnsdorff", seed=1)
    >>> summary["count"], round(sum(summary["moves"]), 6)
    (20, 1.0)
    """
    if isinstance(x, (Tour, Tourney)):
        moves, relative = x._t.move_counts()
        return {"moves": moves, "relative": relative}
    summary: Dict[str, Any] = _json.loads(
        _native.stats(
            x, _whole("count", count, 64), algorithm, kind, _seed(seed), bool(obfuscate),
            bool(tourneys),
        )
    )
    # The names of the one-tour form (the library's JSON says relative_moves).
    summary["relative"] = summary.pop("relative_moves")
    summary["relative_std"] = summary.pop("relative_moves_std")
    return summary


def algorithms() -> List[Dict[str, Any]]:
    """The tour algorithms: ``name``, ``about`` and the ``options`` each takes.

    >>> [a["name"] for a in algorithms()][:3]
    ['auto', 'warnsdorff', 'backtrack']
    """
    return [
        {"name": name, "about": about, "options": [o.replace("-", "_") for o in options]}
        for name, about, options in _native.algorithms()
    ]


del annotations  # the name the __future__ import leaves behind
