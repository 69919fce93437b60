"""Knight's tours on any board, from Python.

Tours by every classical algorithm and a linear-time construction, the
tourney method (cycle covers, join, shatter, obfuscate), the existence
theorems, exact counts (and their dry runs), estimates, move statistics, the knight's tour cipher and
clue puzzles with exactly one solution (:func:`puzzle`, :func:`solve`): the
Rust library ``knights`` behind a small Pythonic surface. Tours and tourneys
draw themselves in a Jupyter notebook, and save themselves as PNG, an
animated GIF, SVG or text (``Tour.save("tour.png")``); ``Tour.animate()``
draws a tour move by move, and :func:`graph` gives a board's move graph
as lists, a networkx graph or a numpy matrix.

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
from typing import overload as _overload

if _typing.TYPE_CHECKING:  # names for annotations only, kept out of dir(knights)
    from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _native
from ._native import Hint, Position, Puzzle, Tour, Tourney, dry_run, estimate
from ._answers import Decision, Existence, LineSums, Progress, Solutions, Step, Work
from ._animation import Animation, animate as _animate
from ._arrays import stats_arrays as _stats_arrays
from ._graph import Graph, graph
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
    "Position",
    "Hint",
    "Graph",
    "graph",
    "Animation",
    "Existence",
    "Decision",
    "decide",
    "Progress",
    "Puzzle",
    "Solutions",
    "Step",
    "Work",
    "LineSums",
    "magic",
    "puzzle",
    "solve",
    "tour",
    "tourney",
    "join",
    "shatter",
    "obfuscate",
    "exists",
    "check",
    "read",
    "count",
    "count_lengths",
    "count_cells",
    "dry_run",
    "estimate",
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

SVG_MAX_SQUARES = 250_000
"""Above this many squares a notebook shows a tour's or tourney's ``repr``
instead of its picture; ``to_svg()``, ``to_png()`` and ``save()`` still
draw any size."""


def _repr_svg_(self: Union[Tour, Tourney, Puzzle]) -> Optional[str]:
    """The picture a notebook shows: ``to_svg()``, or nothing on a board
    of more than :data:`SVG_MAX_SQUARES` squares."""
    if self.rows * self.cols > SVG_MAX_SQUARES:
        return None
    return self.to_svg()


def _repr_png_(self: Union[Tour, Tourney, Puzzle]) -> Optional[bytes]:
    """The picture as PNG bytes, for the notebooks and viewers that show
    PNG rather than SVG (and for exports): ``to_png()``, or nothing on a
    board of more than :data:`SVG_MAX_SQUARES` squares."""
    if self.rows * self.cols > SVG_MAX_SQUARES:
        return None
    return self.to_png()


for _class in (Tour, Tourney, Puzzle):
    setattr(_class, "_repr_svg_", _repr_svg_)
    setattr(_class, "_repr_png_", _repr_png_)
del _class
# A tour drawn move by move as HTML (knights/_animation.py).
setattr(Tour, "animate", _animate)

def tour(
    board: Board,
    *,
    kind: str = "any",
    start: Optional[Union[Square, str]] = None,
    algorithm: str = "auto",
    seed: int = 0,
    obfuscate: Optional[int] = None,
    end: Optional[Union[Square, str]] = None,
    wrap: Optional[str] = None,
    leaper: Optional[Tuple[int, int]] = None,
    holes: Optional[str] = None,
    tie: Optional[str] = None,
    max_attempts: Optional[int] = None,
    max_nodes: Optional[int] = None,
) -> Tour:
    """One knight's tour of ``board``, with the same defaults as the
    library and ``knights tour``: either kind, any start, seed 0, and the
    ``auto`` algorithm (the construction, closed wherever the board has a
    closed tour).

    - ``kind``: ``"any"``, ``"closed"`` or ``"open"``.
    - ``start``: the first square ``(row, col)``, or as text: its
      algebraic name such as ``"c3"`` (file from the left, rank from the
      bottom: ``"c3"`` on 8x8 is ``(5, 2)``) or ``"5,2"``.
    - ``algorithm``: ``"auto"``, ``"warnsdorff"``, ``"backtrack"``,
      ``"hybrid"``, ``"tourney"``, ``"braid"``, ``"four-cover"``,
      ``"neural"``, ``"takefuji-lee"``, ``"construct"`` or ``"divide"``
      (see :func:`algorithms`).
    - ``seed``: the same seed gives the same tour on every machine.
    - ``obfuscate``: shatter and join the closed tour this many times.
    - ``end``: the last square, written as ``start`` (needs ``start``): a
      tour from the start to it.
    - ``wrap``: ``"rows"``, ``"cols"`` or ``"both"`` (the torus) joins the
      board's edges; ``leaper``: ``(a, b)`` instead of the knight's (1, 2);
      ``holes``: the board as text, one line a row, ``.`` a square and
      ``#`` a hole. These need ``warnsdorff``, ``backtrack``, ``hybrid`` or
      ``auto`` (``auto`` and ``construct`` also take start and end on the
      plain board).
    - the algorithm's options: ``tie="pohl"`` (``"random"``, ``"first"``,
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
    >>> tour("8x8", start="c3").start
    (5, 2)
    >>> tour("4x4", kind="closed", wrap="both").closed
    True
    """
    return _native.tour(
        board, kind, start, algorithm, seed, obfuscate,
        end, wrap, leaper, holes, tie, max_attempts, max_nodes,
    )


def magic(
    board: Board,
    *,
    kind: Optional[str] = None,
    start: Optional[Union[Square, str]] = None,
    from_: Optional[Union[Tour, str, bytes, Dict[str, Any], _typing.Iterable[Square]]] = None,
    seed: int = 0,
    limit: int = 1,
    max_nodes: Optional[int] = None,
    symmetric: bool = False,
) -> List[Tour]:
    """Up to ``limit`` semimagic tours of the square ``board`` (even, from
    6x6 to 16x16): tours whose step numbers, from 1, sum alike along every
    row and every column (:attr:`Tour.magic` gives the sums), each checked
    by the independent checker. The same search as ``knights magic``.

    - ``kind``: ``"closed"``, ``"open"`` or ``None`` (either).
    - ``start``: the square numbered 1, ``(row, col)`` or a name such as
      ``"a8"``.
    - ``from_``: a partial path to extend: ``(row, col)`` pairs, a
      :class:`Tour`, or a path's text (docs/formats.md, "Partial paths").
    - ``seed``: the order of the choices; the same seed gives the same
      tours on every machine.
    - ``max_nodes``: the search's budget (none unless given: Ctrl-C stops
      it, as every long call here).
    - ``symmetric``: only tours symmetric under the half turn (number
      ``k + N/2`` on the square opposite ``k``; they are closed). Without
      it the search looks at these first, then at every tour.

    A board the search does not take, a ``start`` off the board or a
    ``from_`` that is no legal partial path is :class:`BadInputError`; a
    search that ends with no tour is :class:`NoTourError` (its space
    searched) or :class:`GaveUpError` (``max_nodes`` spent). The search runs
    with the GIL released.

    >>> magic("7x7")
    Traceback (most recent call last):
    ...
    knights.BadInputError: ...
    """
    return _native.magic(board, kind, start, from_, seed, limit, max_nodes, symmetric)


def tourney(board: Board, *, generator: str = "warnsdorff", seed: int = 0) -> Tourney:
    """One tourney (cycle cover) of ``board`` by ``generator``, named as
    in ``knights tourney --algorithm``: ``"warnsdorff"`` (the default: random
    Warnsdorff walks closed early, any board), ``"braid"``, ``"four-cover"``,
    ``"neural"`` or ``"divide"`` (Parberry 2020).

    >>> tourney("12x12", generator="braid", seed=3).check().startswith("tourney of")
    True
    >>> len(tourney("8x8", seed=1)) >= 1
    True
    """
    return _native.tourney(board, generator, seed)


def join(x: Union[Tour, Tourney], *, seed: int = 0) -> Tour:
    """One closed tour from a tourney (or a closed tour, unchanged in
    substance), by switching rails until one cycle is left; a tour keeps its start.

    >>> join(tourney("10x10", seed=2), seed=2).closed
    True
    """
    return _native.join(x, seed)


def shatter(x: Union[Tour, Tourney], *, seed: int = 0) -> Tourney:
    """The closed tour or tourney with rails switched at random: a tourney
    of (usually) many cycles.

    >>> len(shatter(tour("8x8", kind="closed"), seed=1)) > 1
    True
    """
    return _native.shatter(x, seed)


def obfuscate(x: Union[Tour, Tourney], *, shatters: int = 16, seed: int = 0) -> Tour:
    """A closed tour shattered and joined ``shatters`` times (16 in
    Parberry 2020): a tour with little trace of how it was made; a tour keeps its start.

    >>> t = tour("10x10", kind="closed")
    >>> o = obfuscate(t, seed=1)
    >>> o.closed, o.start == t.start, o != t
    (True, True, True)
    """
    return _native.obfuscate(x, shatters, seed)


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


def decide(
    board: Board,
    kind: str = "any",
    *,
    start: Optional[Union[Square, str]] = None,
    end: Optional[Union[Square, str]] = None,
    wrap: Optional[str] = None,
    leaper: Optional[Tuple[int, int]] = None,
    holes: Optional[str] = None,
    max_nodes: Optional[int] = None,
) -> Decision:
    """Whether a tour exists with given ends, holes (board text, ``.`` a
    square and ``#`` a hole), wrapping or another leaper: by the necessary
    conditions (colour, connectedness, degrees), the theorems and the table
    of small boards, then an exhaustive search of at most ``max_nodes``
    (10,000,000 unless given, as ``knights exists --max-nodes``).

    >>> decide("8x8", start=(0, 0), end=(7, 7)).answer
    'no'
    >>> decide("8x8", start="a8", end="a1").answer
    'yes'
    >>> "colour" in decide("8x8", leaper=(1, 3)).reason
    True
    >>> bool(decide("4x4", kind="closed", wrap="both"))
    True
    """
    return Decision(
        *_native.decide(
            board, kind, start, end, wrap, leaper, holes, max_nodes
        )
    )


def read(text: Union[str, bytes, Dict[str, Any]]) -> Union[Tour, Tourney]:
    """A tour or tourney from text in any of the project's formats (JSON,
    a numbered grid or a move list), checked by the independent checker.

    >>> read(" 0  3  6  9\\n11  8  1  4\\n 2  5 10  7\\n")
    <knights.Tour 3x4 open, 12 squares from (0, 0) to (1, 0)>
    """
    return _native.read(text)


def check(
    x: Union[Tour, Tourney, str, bytes, Dict[str, Any]],
    puzzle: Optional[Union[Puzzle, str, bytes, Dict[str, Any]]] = None,
) -> str:
    """The independent checker's verdict on a tour, tourney, or text in any
    format, such as ``"closed tour on 8x8"``; a text that is no valid tour
    raises :class:`InvalidTourError` (a ``ValueError``) with its first fault.
    A puzzle's text is checked as a puzzle (its solutions counted); with
    ``puzzle`` (a :class:`Puzzle` or its text), ``x`` (a tour or a filled
    grid) must be a solution of it.

    >>> check('{"rows": 3, "cols": 4, "squares": [[0,0],[1,2]]}')
    Traceback (most recent call last):
    ...
    knights.InvalidTourError: 10 squares of the 3x4 board are never visited, the first being (0, 1)
    """
    return _native.check(x, puzzle)


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
    callback = _callback(progress)
    return _native.count(board, kind, bool(directed), bool(symmetric), bool(classes), callback)


def _callback(progress: Optional[Callable[[Progress], Any]]) -> Optional[Callable[..., None]]:
    if progress is None:
        return None
    user = progress

    def callback(*p: Any) -> None:
        user(Progress(*p))

    return callback


def count_lengths(
    board: Board,
    kind: str = "closed",
    *,
    directed: bool = False,
    progress: Optional[Callable[[Progress], Any]] = None,
) -> List[Tuple[str, int]]:
    """The tours of every length of a strip in one pass: for a board
    ``WxN``, ``(f"{W}x{L}", count)`` for ``L = 1..N`` (``knights count WxN
    --all-lengths``). Undirected unless ``directed``; ``progress`` as in
    :func:`count`.

    >>> count_lengths("6x6")
    [('6x1', 0), ('6x2', 0), ('6x3', 0), ('6x4', 0), ('6x5', 8), ('6x6', 9862)]
    """
    sweep = _native.count_sweep(board, kind, bool(directed), False, _callback(progress))
    return [(str(b), n) for b, n in sweep]


def count_cells(
    board: Board,
    kind: str = "closed",
    *,
    directed: bool = False,
    progress: Optional[Callable[[Progress], Any]] = None,
) -> List[Tuple[int, int]]:
    """The tours of every prefix of cells in one pass: for a board ``KxN``
    taken as ``N`` columns of ``K`` cells, ``(c, count)`` for the first
    ``c`` cells, ``c = 1..K*N`` (``knights count KxN --all-cells``; Knuth's
    "first n cells" tables, The Art of Computer Programming, Prefascicle
    8a, 2025). Undirected unless ``directed``; ``progress`` as in
    :func:`count`.

    >>> [n for c, n in count_cells("3x4", kind="open")][9:]
    [2, 2, 8]
    """
    sweep = _native.count_sweep(board, kind, bool(directed), True, _callback(progress))
    return [(int(c), n) for c, n in sweep]


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
    return _native.cipher(text, key, bool(classic), False)


def decrypt(text: str, key: Union[Tour, str], *, classic: bool = False) -> str:
    """``text`` deciphered with the key it was enciphered with (see
    :func:`encrypt`)."""
    return _native.cipher(text, key, bool(classic), True)


@_overload
def stats(
    x: Union[Tour, Tourney], *, as_numpy: _typing.Literal[False] = False
) -> Dict[str, List[int]]: ...


@_overload
def stats(x: Union[Tour, Tourney], *, as_numpy: bool) -> Dict[str, Any]: ...


@_overload
def stats(
    x: Board,
    *,
    count: int = 100,
    algorithm: str = "auto",
    kind: str = "any",
    seed: int = 1,
    obfuscate: bool = False,
    tourneys: bool = False,
    as_numpy: bool = False,
) -> Dict[str, Any]: ...


def stats(
    x: Union[Tour, Tourney, Board],
    *,
    count: int = 100,
    algorithm: str = "auto",
    kind: str = "any",
    seed: int = 1,
    obfuscate: bool = False,
    tourneys: bool = False,
    as_numpy: bool = False,
) -> Dict[str, Any]:
    """Move statistics (Parberry 2020, Section 3) as plain dicts and lists.

    Of one tour or tourney: ``{"moves": [8 counts], "relative": [8 counts]}``,
    the number of moves of each of the 8 kinds (numbered as in the paper)
    and of each relative move ``(b - a) mod 8``.

    Of a board: the summary of ``count`` tours by ``algorithm`` (or with
    ``tourneys=True``, raw tourneys of a generator), seeded (seed 1 unless
    given, as ``knights stats``) and the same on any number of threads:
    ``rows``, ``cols``, ``count``, ``moves`` and
    ``relative`` (mean frequencies, named as in the one-tour form; the
    command line's JSON calls them ``relative_moves``), their ``moves_std``
    and ``relative_std`` deviations, and
    ``figures`` (``rails``, ``cycles``, ``closed``: the share of closed tours).

    With ``as_numpy=True`` the lists of 8 numbers are numpy arrays (``int64``
    counts of one tour, ``float64`` frequencies and deviations of a summary);
    ``count``, ``rows`` and ``cols`` stay Python ints.

    >>> s = stats(tour("6x6", kind="closed"))
    >>> sum(s["moves"]), s["relative"][4]
    (36, 0)
    >>> summary = stats("8x8", count=20, algorithm="warnsdorff", seed=1)
    >>> summary["count"], round(sum(summary["moves"]), 6)
    (20, 1.0)
    >>> stats("6x6", count=4, as_numpy=True)["moves_std"].shape
    (8,)
    """
    if isinstance(x, (Tour, Tourney)):
        moves, relative = x._move_counts()
        counts: Dict[str, Any] = {"moves": moves, "relative": relative}
        return _stats_arrays(counts, counts=True) if as_numpy else counts
    summary: Dict[str, Any] = _json.loads(
        _native.stats(
            x, count, algorithm, kind, seed, bool(obfuscate),
            bool(tourneys),
        )
    )
    return _stats_arrays(summary, counts=False) if as_numpy else summary


def puzzle(
    board: Board,
    difficulty: str = "medium",
    seed: int = 0,
    symmetric: bool = False,
    kind: str = "either",
    holes: Optional[str] = None,
    wrap: Optional[str] = None,
    leaper: Optional[Tuple[int, int]] = None,
) -> Puzzle:
    """A clue puzzle on ``board`` with exactly one solution: a tour drawn
    from ``seed``, then clues removed while the solution stays unique
    (proved by the solver) and the puzzle within ``difficulty``
    (``"easy"``: propagation alone; ``"medium"``: each guess settled by
    propagation; ``"hard"``: more). The same seed gives the same puzzle on
    every machine. ``symmetric`` keeps the given squares symmetric under a
    half turn; ``kind`` (``"either"``, ``"closed"`` or ``"open"``) is the
    solution's; ``holes``, ``wrap`` and ``leaper`` as in :func:`tour`.

    The puzzle knows its ``solution`` (a :class:`Tour`), ``difficulty``
    and the solver's ``work``.

    >>> p = puzzle("5x5", seed=1)
    >>> p.solution is not None and p.solve().unique
    True
    """
    return _native.puzzle(
        board, difficulty, seed, bool(symmetric), kind, holes, wrap, leaper
    )


@_overload
def solve(
    puzzle: Union[Puzzle, str, bytes, Dict[str, Any]],
    limit: int = 2,
    max_nodes: Optional[int] = None,
    step: _typing.Literal[False] = False,
    progress: None = None,
) -> Solutions: ...


@_overload
def solve(
    puzzle: Union[Puzzle, str, bytes, Dict[str, Any]],
    limit: int = 2,
    max_nodes: Optional[int] = None,
    *,
    step: _typing.Literal[True],
    progress: Optional[Union[Puzzle, str, bytes, Dict[str, Any]]] = None,
) -> Step: ...


def solve(
    puzzle: Union[Puzzle, str, bytes, Dict[str, Any]],
    limit: int = 2,
    max_nodes: Optional[int] = None,
    step: bool = False,
    progress: Optional[Union[Puzzle, str, bytes, Dict[str, Any]]] = None,
) -> Union[Solutions, Step]:
    """Solves a clue puzzle (a :class:`Puzzle`, or its text form or JSON):
    up to ``limit`` solutions (2 proves one unique) within ``max_nodes``
    search nodes (10,000,000 unless given), as :class:`Solutions`; or with
    ``step=True`` the next deduction from the clues, or from ``progress``
    (the puzzle with more numbers placed, same header), as :class:`Step`.

    A malformed puzzle is :class:`BadInputError`; a puzzle without a
    solution :class:`NoTourError` with the reason; a budget spent before
    any solution :class:`GaveUpError`.

    >>> s = solve("puzzle 3x4 open\\n 1  .  .  .\\n .  .  .  .\\n .  .  .  .\\n")
    >>> s.count, s.unique, s.complete
    (2, False, True)
    >>> solve("puzzle 3x3 open\\n1 . .\\n. . .\\n. . .\\n")
    Traceback (most recent call last):
    ...
    knights.NoTourError: this puzzle has no solution: ...
    """
    answer: Union[Solutions, Step] = _native.solve(
        puzzle, limit, max_nodes, bool(step), progress
    )
    return answer


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
