"""Clue puzzles from Python: ``knights.puzzle``, ``knights.solve`` and the
``Puzzle`` class. Every solution is checked here in Python (a knight's
move each step, every square once, every clue where the solution puts
it), independently of the library's checker. Small boards keep it cheap:
one 5x5 puzzle is generated for the module."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

import knights
from knights import BadInputError, GaveUpError, NoTourError, Puzzle, Solutions, Step, Tour

# Two solutions: the two open tours of 3x4 from the corner (0, 0).
TWO = "puzzle 3x4 open\n 1  .  .  .\n .  .  .  .\n .  .  .  .\n"
# The centre of 3x3 is no knight's move from any square.
NONE = "puzzle 3x3 open\n1 . .\n. . .\n. . .\n"


@pytest.fixture(scope="module")
def made() -> Puzzle:
    return knights.puzzle("5x5", seed=1)


def assert_solves(p: Puzzle, t: Tour) -> None:
    """``t`` numbers every square once by knight's moves, closed when the
    puzzle is, and puts every clue where the puzzle gives it."""
    squares = list(t)
    assert (t.rows, t.cols) == (p.rows, p.cols)
    assert sorted(squares) == [(r, c) for r in range(p.rows) for c in range(p.cols)]
    for a, b in zip(squares, squares[1:] + squares[:1] if p.closed else squares[1:]):
        assert {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2}, (a, b)
    numbered = {s: i + p.base for i, s in enumerate(squares)}
    for r, row in enumerate(p.clues):
        for c, clue in enumerate(row):
            if clue is not None:
                assert numbered[(r, c)] == clue, ((r, c), clue)


def test_a_generated_puzzle_has_its_solution_and_no_other(made):
    assert made.solution is not None
    assert_solves(made, made.solution)
    s = knights.solve(made)
    assert isinstance(s, Solutions)
    assert (s.count, s.unique, s.complete) == (1, True, True)
    assert s.tours == [made.solution]
    assert made.solve() == s


def test_every_clue_agrees_with_the_solution(made):
    assert made.solution is not None
    clues = [(r, c, n) for r, row in enumerate(made.clues) for c, n in enumerate(row) if n is not None]
    assert len(clues) == made.given > 0
    for r, c, n in clues:
        assert made.solution[n - made.base] == (r, c)


def test_a_generated_puzzle_knows_its_grade_and_work(made):
    assert made.difficulty in ("easy", "medium", "hard")
    assert isinstance(made.work, knights.Work)
    assert made.work.nodes >= 1 and made.work.guesses >= 0 and made.work.depth >= 0
    assert (made.rows, made.cols, made.base) == (5, 5, 1)
    assert made.closed is False  # 5x5 has no closed tour
    assert repr(made).startswith(f"<knights.Puzzle 5x5 open, {made.given} of 25 given, ")


def test_the_same_seed_gives_the_same_puzzle(made):
    again = knights.puzzle("5x5", seed=1)
    assert again.text == made.text
    assert again.solution == made.solution
    assert again.difficulty == made.difficulty


def test_the_text_and_json_forms_read_back(made):
    assert str(made) == made.text.rstrip("\n")
    assert made.text.startswith("puzzle 5x5 open\n")
    for form in (made.text, made.to_json(), json.loads(made.to_json()), made.text.encode()):
        p = Puzzle.read(form)
        assert p.text == made.text and p.clues == made.clues
        assert (p.solution, p.difficulty, p.work) == (None, None, None)
    assert Puzzle(made.text).text == made.text
    assert Puzzle.read(made).text == made.text


def test_several_solutions_are_counted_up_to_the_limit():
    s = knights.solve(TWO)
    assert (s.count, s.unique, s.complete) == (2, False, True)
    for t in s.tours:
        assert_solves(Puzzle(TWO), t)
    assert len(set(s.tours)) == 2
    assert knights.solve(TWO, limit=1).count == 1


def test_a_step_is_a_deduction_that_agrees_with_the_solution(made):
    assert made.solution is not None
    step = made.step()
    assert isinstance(step, Step)
    assert step.outcome == "deduction", step
    assert step.square is not None and step.number is not None and step.reason
    assert made.solution[step.number - made.base] == step.square
    assert knights.solve(made, step=True) == step


def test_a_step_from_progress(made):
    t = made.solution
    assert t is not None
    rows = [["." for _ in range(made.cols)] for _ in range(made.rows)]
    for i, (r, c) in enumerate(t):
        rows[r][c] = str(i + 1)
    header = made.text.splitlines()[0]
    solved = header + "\n" + "\n".join(" ".join(row) for row in rows) + "\n"
    assert made.step(progress=solved).outcome == "solved"
    assert made.step(progress=Puzzle(solved)).outcome == "solved"
    # Swap two numbers that are not clues: no numbering finishes that.
    blanks = [i for i, (r, c) in enumerate(t) if made.clues[r][c] is None]
    (ra, ca), (rb, cb) = t[blanks[0]], t[blanks[-1]]
    rows[ra][ca], rows[rb][cb] = rows[rb][cb], rows[ra][ca]
    wrong = header + "\n" + "\n".join(" ".join(row) for row in rows) + "\n"
    step = knights.solve(made, step=True, progress=wrong)
    assert step.outcome == "contradiction" and step.reason
    assert (step.square, step.number) == (None, None)


@pytest.mark.parametrize(
    "text, words",
    [
        ("puzzle 3x3 open\n1 . .\n. . .\n", "row"),
        ("puzzle 3x3 open\n1 . .\n. 1 .\n. . .\n", "twice"),
        ("puzzle 3x3 open\n1 . .\n. 99 .\n. . .\n", "outside"),
        ("1 . .\n. . .\n. . .\n", "puzzle"),
        ("puzzle 100000x100000 open\n1\n", "100000"),
        ("", "empty"),
    ],
)
def test_a_malformed_puzzle_is_bad_input(text, words):
    with pytest.raises(BadInputError, match=words):
        Puzzle(text)
    with pytest.raises(BadInputError):
        knights.solve(text)
    with pytest.raises(ValueError):
        Puzzle.read(text)


def test_the_arguments_are_checked():
    with pytest.raises(BadInputError, match="difficulty"):
        knights.puzzle("5x5", difficulty="fiendish")
    with pytest.raises(BadInputError):
        knights.puzzle("0x0")
    with pytest.raises(BadInputError, match="at most 32"):
        knights.puzzle("40x40")
    with pytest.raises(BadInputError, match="limit"):
        knights.solve(TWO, limit=0)
    with pytest.raises(BadInputError, match="max-nodes|max_nodes"):
        knights.solve(TWO, max_nodes=0)
    with pytest.raises(BadInputError, match="step=True"):
        knights.solve(TWO, progress=TWO)
    with pytest.raises(TypeError, match="knights.Puzzle"):
        knights.solve(12)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        knights.solve(TWO, limit="2")  # type: ignore[call-overload]


def test_no_solution_is_no_tour_with_the_reason():
    with pytest.raises(NoTourError, match="no solution"):
        knights.solve(NONE)
    with pytest.raises(NoTourError, match="no solution"):
        Puzzle(NONE).to_svg(solution=True)


def test_out_of_budget_is_gave_up():
    with pytest.raises(GaveUpError, match="max_nodes"):
        knights.solve("puzzle 6x6 open\n" + ". . . . . .\n" * 5 + ". . . . . 1\n", max_nodes=1)


def test_pictures_draw_the_clues_and_the_solution(made, tmp_path: Path):
    svg = made.to_svg()
    assert svg.startswith("<svg")
    assert svg.count('class="given"') == made.given
    assert 'class="step"' not in svg
    solved = made.to_svg(solution=True)
    assert solved.count('class="given"') == made.given
    assert solved.count('class="step"') == 25 - made.given
    assert made.to_png().startswith(b"\x89PNG\r\n\x1a\n")
    assert made._repr_svg_() == svg  # type: ignore[attr-defined]
    assert made._repr_png_() == made.to_png()  # type: ignore[attr-defined]
    made.save(tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")
    made.save(tmp_path / "p.svg", solution=True)
    assert (tmp_path / "p.svg").read_text() == solved
    made.save(tmp_path / "p.txt")
    assert Puzzle((tmp_path / "p.txt").read_text()).text == made.text
    made.save(tmp_path / "p.json")
    assert Puzzle((tmp_path / "p.json").read_text()).text == made.text
    made.save(tmp_path / "p", format="json")
    assert json.loads((tmp_path / "p").read_text())["rows"] == 5
    with pytest.raises(BadInputError, match=r"\.gif"):
        made.save(tmp_path / "p.gif")
    with pytest.raises(BadInputError, match="format='png'"):
        made.save(tmp_path / "p.svg", format="png")
    # A read puzzle is drawn solved by the solver.
    assert Puzzle(made.text).to_svg(solution=True).count('class="step"') == 25 - made.given


def test_the_signatures():
    def params(f: object) -> list[str]:
        return [str(p) for p in inspect.signature(f).parameters.values()]  # type: ignore[arg-type]

    assert params(knights.puzzle) == [
        "board: 'Board'", "difficulty: 'str' = 'medium'", "seed: 'int' = 0",
        "symmetric: 'bool' = False", "kind: 'str' = 'either'",
        "holes: 'Optional[str]' = None", "wrap: 'Optional[str]' = None",
        "leaper: 'Optional[Tuple[int, int]]' = None",
    ]
    assert [p.split(":")[0] for p in params(knights.solve)] == [
        "puzzle", "limit", "max_nodes", "step", "progress",
    ]
    assert params(Puzzle.to_svg) == ["self", "solution=False"]
    assert params(Puzzle.to_png) == ["self", "solution=False"]
    assert params(Puzzle.save) == ["self", "path", "format=None", "solution=False"]
    assert params(Puzzle.solve) == ["self", "limit=2", "max_nodes=None"]
    assert params(Puzzle.step) == ["self", "progress=None", "max_nodes=None"]
