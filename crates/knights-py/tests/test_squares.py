"""Squares named as in chess (c3) wherever the package takes a square, and
the move list in algebraic notation (docs/formats.md, Square names)."""

import pytest

import knights
from knights import BadInputError


def test_start_is_a_pair_or_a_name():
    # Text is read by the library: an algebraic name, or ROW,COL.
    assert knights.tour("8x8", start="c3").start == (5, 2)
    assert knights.tour("8x8", start="C3").start == (5, 2)
    assert knights.tour("8x8", start="5,2").start == (5, 2)
    t = knights.tour("8x8", start="a8", end="a1")
    assert (t.start, t.end) == ((0, 0), (7, 0))
    assert knights.decide("8x8", start="a8", end="h1").answer == "no"
    with pytest.raises(TypeError, match="such as 'c3'"):
        knights.tour("8x8", start=5)
    with pytest.raises(BadInputError, match="ranks run from 1 \\(the bottom row\\) to 8"):
        knights.tour("8x8", start="c9")
    with pytest.raises(BadInputError, match="write ROW,COL"):
        knights.tour("4x30", start="a1")


def test_the_move_list_in_algebraic_notation():
    t = knights.Tour("3x4", [(0, 0), (1, 2), (2, 0), (0, 1), (1, 3), (2, 1),
                             (0, 2), (2, 3), (1, 1), (0, 3), (2, 2), (1, 0)])
    assert t.to_moves(notation="algebraic") == "tour 3x4\na3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2\n"
    assert t.to_moves() == t.to_moves(notation="numeric")
    with pytest.raises(BadInputError, match="'numeric' or 'algebraic'"):
        t.to_moves(notation="chess")
    wide = knights.tour("3x27", algorithm="warnsdorff")
    with pytest.raises(BadInputError, match="more than 26 columns"):
        wide.to_moves(notation="algebraic")
