"""The answers of ``knights.exists``, ``knights.decide`` and a count's
progress: plain named tuples, made in Python from the binding's tuples so
that they unpack and compare as tuples."""

from __future__ import annotations

from typing import NamedTuple


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
