"""The Python package as a user sees it: every function, each tour through
a checker written here in Python (independent of the library's), bad
inputs, known counts, round trips, Ctrl-C and threads."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import knights
from knights import (
    BadInputError,
    GaveUpError,
    InvalidTourError,
    KnightsError,
    NoTourError,
    Tour,
    Tourney,
)

# ------------------------------------------------------------ the checker


def is_knight_move(a, b):
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return {dr, dc} == {1, 2}


def assert_tour(t, rows, cols, closed=None):
    """Every square once, each step a knight's move, closed exactly when
    the ends are a knight's move apart."""
    squares = list(t)
    assert t.rows == rows and t.cols == cols
    assert len(t) == rows * cols == len(squares)
    assert sorted(squares) == [(r, c) for r in range(rows) for c in range(cols)]
    for a, b in zip(squares, squares[1:]):
        assert is_knight_move(a, b), (a, b)
    ends_meet = len(squares) > 2 and is_knight_move(squares[0], squares[-1])
    assert t.closed == ends_meet
    if closed is not None:
        assert t.closed == closed


def assert_tourney(t, rows, cols):
    seen = []
    for cycle in t.cycles:
        assert len(cycle) >= 4
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            assert is_knight_move(a, b), (a, b)
        seen += cycle
    assert sorted(seen) == [(r, c) for r in range(rows) for c in range(cols)]


# ------------------------------------------------------------ tours


def test_acceptance_line():
    t = knights.tour("8x8", kind="closed", seed=1)
    assert (t.closed, len(t)) == (True, 64)
    assert_tour(t, 8, 8, closed=True)


@pytest.mark.parametrize("board", ["8x8", 8, (8, 8), " 8 x 8 ", "8X8"])
def test_board_forms(board):
    t = knights.tour(board)
    assert (t.rows, t.cols) == (8, 8)


@pytest.mark.parametrize(
    "board,kind",
    [("8x8", "any"), ("8x8", "closed"), ("8x8", "open"), ("5x5", "open"), ((3, 4), "open"),
     ((6, 9), "closed"), ("1x1", "any"), (30, "closed"), ((10, 3), "any")],
)
def test_kinds_and_boards(board, kind):
    t = knights.tour(board, kind=kind)
    rows, cols = (board, board) if isinstance(board, int) else knights._native.board(board)
    assert_tour(t, rows, cols, closed={"closed": True, "open": False}.get(kind))


@pytest.mark.parametrize("algorithm", [a["name"] for a in knights.algorithms()])
def test_every_algorithm(algorithm):
    board = "8x8" if algorithm != "braid" else "12x12"
    t = knights.tour(board, algorithm=algorithm, seed=3)
    assert_tour(t, t.rows, t.cols)
    assert t.rows == int(board.split("x")[0])


def test_start_seed_and_options():
    t = knights.tour("8x8", kind="open", start=(2, 3), algorithm="warnsdorff", tie="pohl",
                     max_attempts=50, seed=7)
    assert_tour(t, 8, 8, closed=False)
    assert t.start == (2, 3) and t[0] == (2, 3) and t[-1] == t.end
    again = knights.tour("8x8", kind="open", start=(2, 3), algorithm="warnsdorff", tie="pohl",
                         max_attempts=50, seed=7)
    assert again == t and hash(again) == hash(t)
    b = knights.tour("6x6", algorithm="backtrack", max_nodes=10**6, kind="closed")
    assert_tour(b, 6, 6, closed=True)


def test_same_defaults_as_the_library_and_cli():
    assert knights.tour("8x8") == knights.tour("8x8", kind="any", algorithm="auto", seed=0)


def test_obfuscated_tour():
    t = knights.tour("10x10", kind="closed", obfuscate=16, seed=4)
    assert_tour(t, 10, 10, closed=True)


def test_tour_object():
    t = knights.tour("5x6", kind="closed")
    assert t.board == "5x6" and t.kind == "closed"
    grid = t.grid()
    assert len(grid) == 5 and all(len(row) == 6 for row in grid)
    for i, (r, c) in enumerate(t.squares):
        assert grid[r][c] == i
    assert t.grid(base=1)[t.start[0]][t.start[1]] == 1
    assert str(t).splitlines()[0].split() == [str(n) for n in grid[0]]
    assert "5x6 closed" in repr(t)
    assert list(iter(t)) == t.squares
    with pytest.raises(IndexError):
        t[30]
    assert t != knights.tour("5x6", kind="closed", algorithm="warnsdorff", seed=2) or True
    assert t != "not a tour"
    assert t.check() == "closed tour on 5x6"
    assert t.rails() > 0


def test_numpy():
    import numpy as np  # installed by scripts/test.sh: a missing numpy fails
    t = knights.tour("6x7", kind="open", seed=2)
    a = t.to_numpy()
    assert a.shape == (6, 7) and a.dtype == np.uint32
    assert a.tolist() == t.grid()
    assert (t.to_numpy(base=1) == a + 1).all()
    a[0, 0] = 99  # a writable copy of its own
    assert t.grid() != a.tolist()


def test_json_round_trip():
    for t in [knights.tour("8x8"), knights.tour("5x5", kind="open", seed=9)]:
        text = t.to_json()
        doc = json.loads(text)
        assert (doc["rows"], doc["cols"]) == (t.rows, t.cols)
        assert [tuple(s) for s in doc["squares"]] == t.squares
        assert Tour.from_json(text) == t
        assert Tour.from_json(doc) == t
        assert knights.read(text) == t
    t = knights.tour("3x4")
    assert knights.read(t.to_moves()) == t
    assert knights.read(str(t)) == t


def test_tour_from_squares():
    t = knights.tour("3x4")
    assert Tour((3, 4), t.squares) == t
    bad = t.squares[:]
    bad[3], bad[4] = bad[4], bad[3]
    with pytest.raises(InvalidTourError):
        Tour((3, 4), bad)
    with pytest.raises(BadInputError):
        Tour((3, 4), [(5, 5)])


def test_the_library_names_the_generators():
    # "tourney" was the package's own alias of "warnsdorff"; the library's
    # names are the names, as on the command line.
    with pytest.raises(BadInputError, match="'tourney' is not a tourney generator"):
        knights.tourney("6x6", generator="tourney")


def test_stats_default_seed_is_the_librarys():
    # knights stats and the request model default to seed 1.
    ask = {"count": 5, "algorithm": "warnsdorff"}
    assert knights.stats("6x6", **ask) == knights.stats("6x6", seed=1, **ask)
    assert knights.stats("6x6", **ask) != knights.stats("6x6", seed=0, **ask)


def test_svg_of_a_board_too_large_for_a_notebook():
    t = knights.tourney("8x8")
    assert t._repr_svg_() is not None
    knights.SVG_MAX_SQUARES, before = 63, knights.SVG_MAX_SQUARES
    try:
        assert t._repr_svg_() is None
        assert knights.tour("8x8")._repr_svg_() is None
    finally:
        knights.SVG_MAX_SQUARES = before


def test_svg():
    t = knights.tour("6x6")
    svg = t._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "animate" in t.to_svg(animate=True)
    ty = knights.tourney("8x8")
    assert ty._repr_svg_().startswith("<svg")


# ------------------------------------------------------------ errors


@pytest.mark.parametrize("board", ["0x0", "abc", "8x", -1, (0, 3), "", "9" * 80])
def test_bad_boards(board):
    with pytest.raises(BadInputError) as e:
        knights.tour(board)
    assert isinstance(e.value, ValueError) and isinstance(e.value, KnightsError)
    message = str(e.value)
    assert message and len(message) < 300 and "\n" not in message


def test_zero_board_message():
    with pytest.raises(ValueError, match="at least one row and one column"):
        knights.tour("0x0")


@pytest.mark.parametrize("board", [3.5, True, None, [8, 8, 8], object()])
def test_board_of_wrong_type(board):
    with pytest.raises(TypeError, match="board"):
        knights.tour(board)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"kind": "round"}, "round"),
        ({"algorithm": "magic"}, "magic"),
        ({"start": (8, 0)}, "not a square of 8x8"),
        ({"start": (-1, 0)}, "not a square"),
        ({"algorithm": "construct", "tie": "pohl"}, "tie"),
        ({"algorithm": "warnsdorff", "tie": "sideways"}, "sideways"),
        ({"algorithm": "warnsdorff", "max_attempts": 0}, "from 1 to"),
    ],
)
def test_bad_requests(kwargs, match):
    with pytest.raises(BadInputError, match=match):
        knights.tour("8x8", **kwargs)


def test_an_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError, match="colour"):
        knights.tour("8x8", colour="blue")


def test_no_tour():
    with pytest.raises(NoTourError) as e:
        knights.tour("4x4")
    assert isinstance(e.value, ValueError)
    assert "4x4" in str(e.value)
    with pytest.raises(NoTourError):
        knights.tour("5x5", kind="closed")


def test_gave_up():
    with pytest.raises(GaveUpError) as e:
        knights.tour("8x8", kind="closed", algorithm="backtrack", start=(0, 0), max_nodes=10)
    assert not isinstance(e.value, ValueError)


def test_bad_files():
    with pytest.raises(BadInputError):
        knights.read("{ not json")
    with pytest.raises(BadInputError):
        knights.read("")
    with pytest.raises(InvalidTourError, match="never visited"):
        knights.check('{"rows": 3, "cols": 4, "squares": [[0,0],[1,2]]}')
    with pytest.raises(TypeError):
        knights.check(42)


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda: knights.tour("8x8", kind="closed", algorithm="backtrack", start=(0, 0),
                              max_nodes=10), "allow more with max_nodes="),
        (lambda: knights.tour("8x8", algorithm="warnsdorff", max_attempts=0),
         "max-attempts must be from 1"),
        (lambda: knights.tour("20x20", kind="closed", algorithm="warnsdorff", max_attempts=1,
                              tie="first"), "allow more with max_attempts="),
        (lambda: knights.encrypt("hi", "500x500,attempts=1,closed"),
         "give the key more attempts (attempts=N), another seed (seed=N)"),
        (lambda: knights.encrypt("123", "8x8", classic=True), "leave out classic=True"),
        (lambda: knights.decrypt("ABCDE FGHIJ", "8x8"), "decrypt it with classic=True"),
        (lambda: knights.decrypt(knights.encrypt("hi", "8x8"), "8x8", classic=True),
         "leave out classic=True"),
        (lambda: knights.count("6x6", kind="open", symmetric=True), "count kind='closed'"),
    ],
)
def test_errors_speak_python_not_command_line_flags(call, words):
    with pytest.raises(KnightsError) as e:
        call()
    assert words in str(e.value)
    assert "--" not in str(e.value)


def test_every_hint_is_said_in_python_words():
    words = knights._native.hint_words()
    assert len(words) > 20
    for library, python in words:
        assert python and python != library, library
        assert "--" not in python or "knights count --method" in python, python


def test_a_file_error_is_an_os_error():
    # The library's I/O errors (a count's files on a full disk) are raised
    # as FileError, which code catching OSError catches, errno included.
    assert issubclass(knights.FileError, OSError)
    assert issubclass(knights.FileError, knights.KnightsError)
    e = knights.FileError("could not write /tmp/x: No space left on device")
    e.errno = 28
    with pytest.raises(OSError) as caught:
        raise e
    assert caught.value.errno == 28
    assert str(caught.value) == "could not write /tmp/x: No space left on device"


@pytest.mark.parametrize("seed", [-1, 2**64, -(2**70)])
def test_a_seed_out_of_range_says_what_a_seed_is(seed):
    for call in [lambda: knights.tour("8x8", seed=seed),
                 lambda: knights.tourney("8x8", seed=seed),
                 lambda: knights.stats("8x8", count=2, seed=seed),
                 lambda: knights.join(knights.tourney("8x8"), seed=seed)]:
        with pytest.raises(BadInputError,
                           match=r"seed must be a whole number from 0 to 2\*\*64-1"):
            call()
    with pytest.raises(TypeError, match="seed must be a whole number"):
        knights.tour("8x8", seed=1.5)
    assert knights.tour("8x8", seed=2**64 - 1).check() == "closed tour on 8x8"


def test_other_whole_numbers_out_of_range():
    with pytest.raises(BadInputError, match="shatters must be"):
        knights.obfuscate(knights.tour("8x8", kind="closed"), shatters=-1)
    with pytest.raises(BadInputError, match="max_nodes must be"):
        knights.decide("8x8", wrap="cols", max_nodes=-5)
    with pytest.raises(BadInputError, match="count must be"):
        knights.stats("8x8", count=-1)


# ------------------------------------------------------------ exists, check
# ------------------------------------------------------------ exists, check


def test_exists():
    e = knights.exists("8x8", kind="closed")
    assert e and e.exists and e.reason and e.theorem
    e = knights.exists("4x7", kind="closed")
    assert not e and "side of 4" in e.reason
    assert knights.exists("4x7") and knights.exists("4x7", kind="open")
    assert not knights.exists("4x4")
    assert knights.exists((1, 1))
    with pytest.raises(BadInputError):
        knights.exists("8x8", kind="sometimes")


def test_check():
    t = knights.tour("8x8", kind="closed")
    assert knights.check(t) == "closed tour on 8x8"
    assert knights.check(t.to_json()) == "closed tour on 8x8"
    assert knights.check(json.loads(t.to_json())) == "closed tour on 8x8"
    assert knights.check(str(t)) == "closed tour on 8x8"
    assert knights.check(knights.tour("3x4")) == "open tour on 3x4"
    ty = knights.tourney("8x8", generator="four-cover")
    assert knights.check(ty) == knights.check(ty.to_json())
    assert "16" in knights.check(ty)


# ------------------------------------------------------------ tourneys


@pytest.mark.parametrize("generator,board", [("warnsdorff", "10x10"), ("braid", "12x12"),
                                             ("four-cover", "8x8"), ("neural", "8x8"),
                                             ("divide", "12x12")])
def test_tourney_join_shatter_obfuscate(generator, board):
    ty = knights.tourney(board, generator=generator, seed=5)
    rows, cols = knights._native.board(board)
    assert_tourney(ty, rows, cols)
    assert len(ty) == len(ty.cycles) >= 1 and ty.rails >= 0
    assert Tourney.from_json(ty.to_json()) == ty
    joined = ty.join(seed=5)
    assert_tour(joined, rows, cols, closed=True)
    shattered = knights.shatter(joined, seed=5)
    assert_tourney(shattered, rows, cols)
    ob = knights.obfuscate(ty, shatters=4, seed=5)
    assert_tour(ob, rows, cols, closed=True)
    t2 = joined.obfuscate(seed=1)
    assert_tour(t2, rows, cols, closed=True)
    assert t2.start == joined.start


def test_tourney_errors():
    with pytest.raises(BadInputError):
        knights.tourney("8x8", generator="spiral")
    with pytest.raises(BadInputError, match="open tour"):
        knights.join(knights.tour("5x5"))
    with pytest.raises(TypeError):
        knights.join("8x8")
    with pytest.raises(BadInputError):
        Tourney.from_json(knights.tour("6x6").to_json())
    with pytest.raises(BadInputError):
        Tour.from_json(knights.tourney("6x6").to_json())
    with pytest.raises(BadInputError):
        knights.tour("5x5").rails()


def test_tourney_from_cycles():
    ty = knights.tourney("8x8", generator="four-cover")
    assert Tourney("8x8", ty.cycles) == ty
    assert "8x8, 16 cycles" in repr(ty)


# ------------------------------------------------------------ counts


@pytest.mark.parametrize(
    "board,kwargs,expected",
    [
        ("6x6", {}, 9862),
        ("6x6", {"kind": "closed"}, 9862),
        ("6x6", {"directed": True}, 2 * 9862),
        ("5x5", {"kind": "open"}, 864),
        ("5x5", {"kind": "open", "directed": True}, 1728),
        ("3x4", {"kind": "open"}, 8),
        ((3, 4), {"kind": "open", "directed": True}, 16),
        ("5x6", {}, 8),
        ("4x4", {}, 0),
        ("1x1", {"kind": "open"}, 1),
        ("6x6", {"symmetric": True}, 78),
    ],
)
def test_small_counts(board, kwargs, expected):
    n = knights.count(board, **kwargs)
    assert n == expected and type(n) is int


def test_counts_past_2_128_are_exact_ints():
    """3x200 closed needs 316 bits; the value is pinned from the Rust tests,
    where a sweep over the lengths and single counts agree on it."""
    n = knights.count("3x200")
    assert type(n) is int and n > 2**128
    assert n == int(
        "124501910168810666645641047757345373225069779843587796786673739715880583934519924058706919030784"
    )
    assert knights.count("3x200", directed=True) == 2 * n


def test_sweeps_over_cells_and_lengths():
    """Knuth's first-cells tables (The Art of Computer Programming,
    Prefascicle 8a, 2025): OEIS A389759 opens 1, 0 x 8, 2, 2, 8 (open
    tours of the first n cells of 3-row boards) and A383661 has 1 closed
    tour of the first 18 cells of a 5-row board, 0 of 20; the lengths of
    6 x n closed are OEIS A175881."""
    cells = knights.count_cells("3x4", kind="open")
    assert cells == [(c, n) for c, n in enumerate([1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 8], 1)]
    assert all(type(n) is int for _, n in cells)
    five = dict(knights.count_cells("5x4"))
    assert (five[18], five[20], len(five)) == (1, 0, 20)
    assert knights.count_cells("3x4", kind="open", directed=True)[-1] == (12, 16)
    lengths = knights.count_lengths("6x8")
    assert lengths[4:] == [("6x5", 8), ("6x6", 9862), ("6x7", 1067638), ("6x8", 55488142)]
    assert lengths[-1][1] == knights.count("6x8")
    steps = []
    knights.count_cells("4x5", progress=lambda p: steps.append(p.step))
    assert steps and steps == sorted(steps)
    with pytest.raises(knights.BadInputError):
        knights.count_cells("4x5", kind="sideways")
    with pytest.raises(knights.BadInputError):
        knights.count_lengths("0x5")


def test_3x4_open_count_by_brute_force():
    """The count of the library against a search written here."""
    rows, cols = 3, 4
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    found = 0

    def walk(path, seen):
        nonlocal found
        if len(path) == len(squares):
            found += 1
            return
        r, c = path[-1]
        for dr, dc in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]:
            s = (r + dr, c + dc)
            if s in seen or not (0 <= s[0] < rows and 0 <= s[1] < cols):
                continue
            seen.add(s)
            path.append(s)
            walk(path, seen)
            path.pop()
            seen.discard(s)

    for s in squares:
        walk([s], {s})
    assert knights.count("3x4", kind="open", directed=True) == found == 16


def test_classes_and_progress():
    seen = []
    n = knights.count("6x6", classes=True, progress=seen.append)
    assert n == 1245  # classes of the 9862 closed 6x6 tours under the 8 symmetries
    assert seen and isinstance(seen[-1], knights.Progress)
    assert all(p.step <= p.steps for p in seen)


def test_count_errors():
    with pytest.raises(BadInputError):
        knights.count("6x6", kind="any")
    with pytest.raises(BadInputError):
        knights.count("6x6", classes=True, directed=True)
    with pytest.raises(BadInputError):
        knights.count("6x6", classes=True, symmetric=True)
    with pytest.raises(BadInputError, match="past 2\\^4096"):
        knights.count((3, 3000), kind="open")


def test_progress_exception_stops_the_count():
    class Enough(Exception):
        pass

    def progress(p):
        if p.step >= 3:
            raise Enough("stop here")

    with pytest.raises(Enough):
        knights.count("8x6", progress=progress)


def test_8x8_symmetric_count():
    """Closed 8x8 tours unchanged by a half turn (about 20 s of CPU)."""
    assert knights.count("8x8", kind="closed", symmetric=True) == 2432932


def test_ctrl_c_stops_a_long_count():
    """SIGINT during knights.count("8x8") (minutes of work) ends it with
    KeyboardInterrupt soon after, raised in Python, without killing it."""
    script = textwrap.dedent(
        """
        import signal, sys, knights
        # A child started in the background of a non-interactive shell
        # inherits SIGINT ignored, and Python then leaves it so: restore
        # Python's handler, as an interactive session has it.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        def progress(p):
            if p.step == 1:
                print("counting", flush=True)
        try:
            knights.count("8x8", progress=progress)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "counting"
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert out.strip() == "interrupted"
    assert proc.returncode == 3


def run_child(body, limit=None):
    """Runs ``body`` in a fresh Python with Python's own SIGINT handler (a
    child started in the background of a non-interactive shell inherits
    SIGINT ignored) and, with ``limit``, an address-space limit of that
    many bytes; its stdout and exit status. A child that hangs is killed and
    fails the test."""
    prelude = "import os, resource, signal, sys, threading, time, knights\n"
    prelude += "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    if limit is not None:
        prelude += f"resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))\n"
    proc = subprocess.Popen([sys.executable, "-c", prelude + textwrap.dedent(body)],
                            stdout=subprocess.PIPE, text=True)
    try:
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return out.strip(), proc.returncode


@pytest.mark.parametrize(
    "call",
    [
        'knights.tour("1000x1000", algorithm="warnsdorff", max_attempts=4294967295)',
        'knights.tour("200x200", algorithm="takefuji-lee", max_attempts=4294967295)',
        'knights.encrypt("Meet me at the old mill.", "500x500,attempts=4294967295")',
        'knights.tour("60x60", kind="closed", algorithm="backtrack", max_nodes=10**18)',
        'knights.stats("300x300", count=10_000_000, algorithm="warnsdorff")',
        'knights.obfuscate(knights.tour("1000x1000", kind="closed"), shatters=1000)',
    ],
)
def test_ctrl_c_stops_every_long_call_and_other_threads_run(call):
    """Another thread of the child runs while the call works (the GIL is
    released) and sends SIGINT after a fifth of a second of it: the call
    ends with KeyboardInterrupt, and the process's CPU is back to idle
    within three seconds (the work stopped, not only the wait for it).
    Each call would run for days: before,
    Warnsdorff's restarts and the network never stopped, and the key's
    search held the GIL, so the signal was never even sent."""
    out, status = run_child(
        f"""
        calling = threading.Event()
        def interrupt():
            calling.wait()
            for _ in range(20):
                time.sleep(0.01)
            os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=interrupt, daemon=True).start()
        try:
            calling.set()
            {call}
        except KeyboardInterrupt:
            # The work itself ended, not only the wait for it: within three
            # seconds the process's CPU time stops growing (less than a
            # tenth of a second of CPU in half a second).
            def cpu():
                r = resource.getrusage(resource.RUSAGE_SELF)
                return r.ru_utime + r.ru_stime
            deadline = time.monotonic() + 3
            while True:
                before = cpu()
                time.sleep(0.5)
                if cpu() - before < 0.1:
                    break
                if time.monotonic() > deadline:
                    print("still working", flush=True)
                    sys.exit(4)
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    assert (out, status) == ("interrupted", 3)


# ------------------------------------------------------------ memory


def test_a_list_too_large_for_memory_is_memory_error():
    """Under an address-space limit the squares, grid, cycles and JSON of a large
    board are a clean MemoryError (before: PyO3's panic "PyObject pointer is
    null", then SIGABRT), and the tour stays usable."""
    out, status = run_child(
        """
        t = knights.tour("6000x6000")
        ty = knights.tourney("3200x3200", generator="four-cover")
        for what in ["t.squares", "t.grid()", "list(t)", "ty.cycles", "t.to_json()"]:
            try:
                eval(what)
                print(what, "built")
            except MemoryError as e:
                print(what, "MemoryError", "needs about" in str(e))
        print(len(t), t[-1] == t.end)
        """,
        limit=1 << 30,
    )
    assert out.splitlines() == [
        "t.squares MemoryError True",
        "t.grid() MemoryError True",
        "list(t) MemoryError True",
        "ty.cycles MemoryError True",
        "t.to_json() MemoryError True",
        "36000000 True",
    ], out
    assert status == 0


@pytest.mark.skipif(sys.maxsize < 2**40, reason="a 64-bit address space")
def test_a_board_too_large_for_memory_is_refused_before_allocating():
    out, status = run_child(
        """
        try:
            knights.tour("65535x65535")
        except (knights.OverLimitError, MemoryError) as e:
            print(type(e).__name__)
        """,
        limit=4 << 30,
    )
    assert (out, status) == ("OverLimitError", 0)


# ------------------------------------------------------------ cipher


@pytest.mark.parametrize("message", ["Meet me at the old mill.", "é ü 漢字 🐴\nline two\n", "x",
                                     "A" * 1000])
def test_cipher_round_trip(message):
    for key in ["8x8,seed=5", knights.tour("5x5", seed=1), "6x6,algorithm=braid,closed"]:
        secret = knights.encrypt(message, key)
        assert secret != message
        assert knights.decrypt(secret, key) == message


def test_classic_cipher():
    secret = knights.encrypt("Attack at dawn", "8x8,seed=1", classic=True)
    assert set(secret.replace(" ", "").strip()) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    plain = knights.decrypt(secret, "8x8,seed=1", classic=True)
    assert plain.startswith("ATTACKATDAWN")


def test_cipher_errors():
    with pytest.raises(BadInputError):
        knights.encrypt("", "8x8")
    with pytest.raises(BadInputError):
        knights.encrypt("hi", "4x4")
    with pytest.raises(BadInputError):
        knights.decrypt("not a ciphertext", "8x8")
    with pytest.raises(TypeError):
        knights.encrypt("hi", 8)


# ------------------------------------------------------------ stats


def test_stats_of_one_tour_and_tourney():
    t = knights.tour("8x8", kind="closed")
    s = knights.stats(t)
    assert sum(s["moves"]) == 64 and sum(s["relative"]) == 64 and s["relative"][4] == 0
    o = knights.stats(knights.tour("8x8", kind="open"))
    assert sum(o["moves"]) == 63 and sum(o["relative"]) == 62
    ty = knights.stats(knights.tourney("8x8", generator="four-cover"))
    assert sum(ty["moves"]) == 64


def test_stats_of_a_tour_and_of_a_board_use_the_same_names():
    one = knights.stats(knights.tour("8x8", kind="closed"))
    many = knights.stats("8x8", count=3, seed=1)
    assert set(one) == {"moves", "relative"}
    assert set(one) <= set(many)
    assert {"moves_std", "relative_std"} <= set(many)
    assert not any(k.startswith("relative_moves") for k in many)
    assert len(many["relative"]) == 8 and abs(sum(many["relative"]) - 1) < 1e-9


def test_stats_summary():
    s = knights.stats("8x8", count=30, algorithm="warnsdorff", seed=2)
    assert s["count"] == 30 and (s["rows"], s["cols"]) == (8, 8)
    assert abs(sum(s["moves"]) - 1) < 1e-9 and len(s["moves_std"]) == 8
    names = {f["name"] for f in s["figures"]}
    assert "closed" in names
    assert knights.stats("8x8", count=30, algorithm="warnsdorff", seed=2) == s
    t = knights.stats("8x8", count=5, algorithm="braid", tourneys=True)
    assert {f["name"] for f in t["figures"]} == {"cycles"}
    json.dumps(s)  # plain data
    with pytest.raises(BadInputError):
        knights.stats("8x8", count=0)
    with pytest.raises(BadInputError):
        knights.stats("8x8", tourneys=True, algorithm="warnsdorff")


# ------------------------------------------------------------ threads


def test_tours_from_many_threads():
    jobs = [("8x8", s) for s in range(16)] + [("20x20", s) for s in range(8)]

    def make(job):
        board, seed = job
        return knights.tour(board, algorithm="warnsdorff", kind="open", seed=seed)

    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(make, jobs))
    for (board, _), t in zip(jobs, parallel):
        n = int(board.split("x")[0])
        assert_tour(t, n, n, closed=False)
    assert parallel == [make(j) for j in jobs]


def test_counts_from_threads():
    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(lambda b: knights.count(b), ["6x6", "5x6", "6x6", "4x4"]))
    assert counts == [9862, 8, 9862, 0]


# ------------------------------------------------------------ the package


def test_typing_files_ship():
    pkg = Path(knights.__file__).parent
    assert (pkg / "py.typed").exists()
    assert (pkg / "__init__.pyi").exists() or (pkg / "_native.pyi").exists()


def test_dir_lists_only_the_package():
    public = {name for name in dir(knights) if not name.startswith("_")}
    assert not {"Any", "Dict", "overload", "Optional", "annotations"} & public
    assert public - set(knights.__all__) <= {"Board", "Square", "SVG_MAX_SQUARES"}
    assert all(hasattr(knights, name) for name in knights.__all__)


def test_holes_read_as_the_hole_number_in_numpy_and_grid():
    holes = "......\n.#....\n......\n......\n.#....\n......\n"
    t = knights.tour("6x6", holes=holes, algorithm="hybrid")
    hole = 2**32 - 1
    assert t.grid()[1][1] == hole and t.grid(base=1)[4][1] == hole
    assert t.to_numpy()[1, 1] == hole
    assert t.to_numpy().tolist() == t.grid()


def test_version():
    assert knights.__version__.count(".") == 2


# ---------------------------------------------------------- beyond the rectangle


def test_start_and_end():
    t = knights.tour("8x8", start=(0, 0), end=(7, 0))
    assert (t.start, t.end, t.closed) == ((0, 0), (7, 0), False)
    assert t.check() == "open tour on 8x8"
    with pytest.raises(knights.NoTourError, match="same colour"):
        knights.tour("8x8", start=(0, 0), end=(7, 7))
    with pytest.raises(knights.BadInputError):
        knights.tour("8x8", end=(7, 0))


def test_torus_holes_and_leapers_are_checked():
    torus = knights.tour("4x4", kind="closed", wrap="both")
    assert torus.closed and len(torus) == 16
    assert '"wrap":"both"' in torus.to_json()
    # The library's verdict, as the command line's and the server's: the
    # board with its wrapping.
    assert knights.check(torus.to_json()) == "closed tour on 4x4, wrap both"
    assert knights.check(torus) == "closed tour on 4x4, wrap both"
    holes = "......\n.#....\n......\n......\n.#....\n......\n"
    t = knights.tour("6x6", holes=holes, algorithm="hybrid")
    assert len(t) == 34 and (1, 1) not in t.squares
    assert knights.read(t.to_json()).squares == t.squares
    zebra = knights.tour("10x10", leaper=(2, 3))
    assert len(zebra) == 100
    with pytest.raises(knights.NoTourError, match="colour"):
        knights.tour("8x8", leaper=(1, 3))
    with pytest.raises(knights.BadInputError):
        knights.tour("6x6", holes="...\n...\n")


def test_decide():
    assert knights.decide("8x8", start=(0, 0), end=(7, 0)).answer == "yes"
    assert knights.decide("8x8", start=(0, 0), end=(7, 7)).answer == "no"
    assert not knights.decide("8x8", leaper=(1, 3))
    assert knights.decide("4x4", kind="closed", wrap="both")
    d = knights.decide("8x8", kind="closed", wrap="cols", max_nodes=5)
    assert d.answer == "unknown" and not d
