"""Magic tours from Python: ``Tour.magic`` gives a tour's line sums (the
library's ``magic::sums``), ``knights.magic`` looks for semimagic tours
(the library's magic request): its refusals are BadInputError, and from
the first 40 steps of Dudeney's tour it finds a semimagic completion."""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

import pytest

import knights

#: The semimagic tour Dudeney printed (Amusements in Mathematics, 1917,
#: problem 412), rows top to bottom: each number its step, from 1 (the
#: repository's example).
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "data" / "dudeney_semimagic.txt"
DUDENEY = [[int(n) for n in line.split()] for line in EXAMPLE.read_text().splitlines()]


def dudeney_path() -> List[Tuple[int, int]]:
    at = {n: (r, c) for r, row in enumerate(DUDENEY) for c, n in enumerate(row)}
    return [at[n] for n in range(1, 65)]


def test_dudeneys_tour_is_semimagic_with_its_sums():
    t = knights.Tour("8x8", dudeney_path())
    s = t.magic
    assert isinstance(s, knights.LineSums)
    assert s.magic == "semimagic"
    assert s.rows == [260] * 8 and s.cols == [260] * 8
    assert s.diagonals == (264, 256)
    # The grid numbered from 1 is Dudeney's.
    assert t.grid(base=1) == DUDENEY


def test_an_ordinary_tour_is_not_semimagic_and_its_sums_add_up():
    s = knights.tour("8x8", seed=3).magic
    assert s is not None and s.magic == "no"
    assert sum(s.rows) == sum(s.cols) == 64 * 65 // 2
    assert len(set(s.rows)) > 1 or len(set(s.cols)) > 1
    # A rectangle has no diagonals; a board with holes has no sums.
    assert knights.tour("5x6").magic.diagonals is None
    assert knights.tour("3x3", holes="...\n.#.\n...").magic is None


def test_check_keeps_its_verdict():
    t = knights.Tour("8x8", dudeney_path())
    assert knights.check(t) == "closed tour on 8x8"


@pytest.mark.parametrize("board", ["7x7", "8x10", "4x4", "18x18"])
def test_boards_the_search_does_not_take_are_bad_input(board):
    with pytest.raises(knights.BadInputError):
        knights.magic(board)


def test_a_start_off_the_board_and_a_path_that_is_no_path_are_bad_input():
    with pytest.raises(knights.BadInputError):
        knights.magic("8x8", start=(8, 0))
    with pytest.raises(knights.BadInputError):
        knights.magic("8x8", from_=[(0, 0), (0, 1)])
    with pytest.raises(TypeError):
        knights.magic("8x8", from_=3)  # type: ignore[arg-type]


def test_a_semimagic_completion_of_dudeneys_first_40_steps():
    prefix = dudeney_path()[:40]
    tours = knights.magic("8x8", from_=prefix, max_nodes=200_000_000)
    assert len(tours) == 1, tours
    t = tours[0]
    assert knights.check(t).endswith("tour on 8x8")
    assert t.squares[:40] == prefix
    assert t.magic is not None and t.magic.magic in ("semimagic", "magic")
    assert t.magic.rows == [260] * 8 and t.magic.cols == [260] * 8


def test_a_bare_seed_finds_tours_symmetric_under_the_half_turn():
    tours = knights.magic("8x8", seed=3, limit=2, symmetric=True, max_nodes=50_000_000)
    assert len(tours) == 2 and tours[0] != tours[1]
    for t in tours:
        assert knights.check(t).endswith("tour on 8x8")
        squares = t.squares
        assert all(squares[k + 32] == (7 - r, 7 - c) for k, (r, c) in enumerate(squares[:32]))
        assert t.magic is not None and t.magic.rows == [260] * 8
    with pytest.raises(knights.BadInputError, match="closed"):
        knights.magic("8x8", kind="open", symmetric=True)
