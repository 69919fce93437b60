"""The answers of ``knights.exists``, ``knights.decide``, a count's
progress and a puzzle's solve: plain named tuples, made from the
binding's values so that they unpack and compare as tuples (but for
``Solutions``, a frozen dataclass: a tuple's ``count`` is a method)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, List, NamedTuple, Optional, Tuple

if TYPE_CHECKING:
    from ._native import Tour


class Existence(NamedTuple):
    """Whether a tour exists, and why (true when it does)."""

    exists: bool
    reason: str
    theorem: str

    def __bool__(self) -> bool:
        return self.exists


class Decision(NamedTuple):
    """Whether a tour exists beyond the plain board: ``answer`` is
    ``"yes"``, ``"no"`` or ``"unknown"`` (the search ran out of its
    budget), with the reason; true only for ``"yes"``."""

    answer: str
    reason: str

    def __bool__(self) -> bool:
        return self.answer == "yes"


class Progress(NamedTuple):
    """Where a count is: after square ``step`` of ``steps``, the frontier
    holds ``states`` states (at most ``peak`` so far), on disk or not."""

    step: int
    steps: int
    states: int
    peak: int
    on_disk: bool


class Work(NamedTuple):
    """What the puzzle solver spent: search ``nodes``, ``guesses`` (the
    alternatives tried where propagation could not decide) and ``depth``
    (the deepest nesting of guesses; 0 is propagation alone)."""

    nodes: int
    guesses: int
    depth: int


@dataclass(frozen=True)
class Solutions:
    """The solutions of a puzzle found up to the limit: ``count`` of them,
    each a :class:`Tour` in ``tours`` (from the square numbered first);
    ``unique`` when exactly one exists (found, and the search finished);
    ``complete`` when the search finished within its budget; ``work``."""

    count: int
    unique: bool
    complete: bool
    tours: List[Tour]
    work: Work


class Step(NamedTuple):
    """One step of reasoning: ``outcome`` is ``"deduction"`` (``number``,
    as the puzzle writes it, must go on ``square`` ``(row, col)``, because
    of ``reason``), ``"contradiction"`` (the numbers so far cannot all be
    right: ``reason``), ``"solved"`` or ``"stuck"``."""

    outcome: str
    square: Optional[Tuple[int, int]]
    number: Optional[int]
    reason: Optional[str]


class LineSums(NamedTuple):
    """A tour's line sums, its squares numbered 1, 2, ... in its order
    (:attr:`Tour.magic`): the sum of each row (top to bottom) and of each
    column (left to right), and on a square board of the two main
    diagonals (top left to bottom right, then the other). ``magic`` is
    ``"semimagic"`` when every row sums alike and every column alike,
    ``"magic"`` when the diagonals give the same sum too, else ``"no"``."""

    magic: str
    rows: List[int]
    cols: List[int]
    diagonals: Optional[Tuple[int, int]]
