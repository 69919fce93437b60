"""knights.Position: play a tour by hand with legal moves, undo and hints
that keep a finish; refusals and dead ends in the library's words."""

from __future__ import annotations

import pytest

import knights


def test_a_whole_5x5_open_tour_follows_the_hints() -> None:
    p = knights.Position("5x5", kind="open")
    assert p.legal_moves and len(p.legal_moves) == 25
    p.play((0, 0))
    while p.left:
        safe = [h for h in p.hints(max_nodes=100_000) if h.status == "safe"]
        assert safe, (p.path, p.reason())
        h = safe[0]
        assert h.square == (h.row, h.col) and h.onward >= 0
        assert h.square in p.legal_moves
        p.play(h.square)
    assert p.finished == "open" and p.won
    assert p.legal_moves == []
    assert len(p) == 25
    tour = knights.Tour("5x5", p.path)
    assert tour.check() == "open tour on 5x5"


def test_undo_takes_back_and_squares_are_pairs_or_text() -> None:
    p = knights.Position((5, 5), path=[(0, 0), "1,2"])
    assert p.path == [(0, 0), (1, 2)]
    assert p.undo() == (1, 2)
    assert p.undo() == (0, 0)
    assert p.undo() is None
    p.play("0,0")
    assert p.legal_moves == [(1, 2), (2, 1)]
    assert p.finishable() is True
    assert p.verdict() == "finishable" and p.reason() is None
    completion = p.completion()
    assert completion is not None and len(completion) == 24


def test_illegal_moves_are_refused_in_the_librarys_words() -> None:
    p = knights.Position("5x5", path=[(0, 0)])
    with pytest.raises(knights.BadInputError, match="not one move from"):
        p.play((0, 1))
    with pytest.raises(knights.BadInputError, match="not a square of 5x5"):
        p.play((9, 9))
    with pytest.raises(knights.BadInputError, match="already on the path"):
        knights.Position("5x5", path=[(0, 0), (1, 2), (0, 0)])
    with pytest.raises(knights.BadInputError, match="hole"):
        knights.Position("3x3", holes="...\n.#.\n...", path=[(1, 1)])
    with pytest.raises(TypeError):
        p.play(3.5)
    with pytest.raises(knights.BadInputError, match="max_nodes"):
        p.verdict(max_nodes=0)
    # A refused move leaves the path as it was.
    assert p.path == [(0, 0)]


def test_a_dead_end_says_why() -> None:
    # Both squares that lead into the corner (0, 4) are on the path.
    path = [(0, 0), (1, 2), (2, 4), (0, 3), (1, 1), (2, 3), (0, 2)]
    p = knights.Position("5x5", path=path)
    assert p.finishable() is False
    assert p.verdict() == "not-finishable"
    reason = p.reason()
    assert reason is not None and "(0, 4)" in reason
    assert p.completion() is None
    assert all(h.status == "losing" and h.reason for h in p.hints())


def test_a_budget_too_small_is_unknown() -> None:
    p = knights.Position("8x8", path=[(0, 0), (1, 2), (0, 4)])
    assert p.finishable(max_nodes=1) is None
    assert p.verdict(max_nodes=1) == "unknown" and p.reason(max_nodes=1) is None
    assert [h.status for h in p.hints(max_nodes=1)] == ["unknown"] * 3


def test_shapes_and_files() -> None:
    torus = knights.Position("5x5", wrap="both", path=[(0, 0)])
    assert len(torus.legal_moves) == 8
    camel = knights.Position("6x6", leaper=(1, 3), path=[(0, 0)])
    assert camel.finishable() is False
    read = knights.Position.read(" 0 . .\n . . 1\n . . .\n", kind="open")
    assert read.path == [(0, 0), (1, 2)] and read.kind == "open"
    with pytest.raises(knights.BadInputError, match="written twice"):
        knights.Position.read(" 0 . 1\n . . 1\n")
    assert "5x5" in repr(knights.Position("5x5"))
