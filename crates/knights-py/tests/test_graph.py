"""knights.graph: the move graph of a board as lists, a dict, a networkx
graph and a numpy matrix; and the statistics as numpy arrays."""

from __future__ import annotations

import doctest
import subprocess
import sys
import textwrap

import networkx as nx
import numpy as np
import pytest

import knights
from knights import _animation, _arrays, _graph

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def knight_edges(r: int, c: int) -> int:
    """The knight graph's edges on r x c (r, c >= 2): 2(r-2)(c-1) +
    2(r-1)(c-2), half the 4(r-2)(c-1) + 4(r-1)(c-2) moves counted both ways."""
    return (4 * (r - 2) * (c - 1) + 4 * (r - 1) * (c - 2)) // 2


def is_tour_of(g: knights.Graph, tour: knights.Tour) -> bool:
    """Whether ``tour`` is a Hamiltonian path of ``g`` (a cycle if closed),
    checked with the graph's own adjacency."""
    adjacency = g.adjacency()
    squares = tour.squares
    if sorted(squares) != sorted(g.nodes):
        return False
    steps = list(zip(squares, squares[1:]))
    if tour.closed:
        steps.append((squares[-1], squares[0]))
    return all(b in adjacency[a] for a, b in steps)


def test_the_8x8_graph_has_64_nodes_and_168_edges():
    g = knights.graph("8x8")
    assert len(g) == 64 and len(g.nodes) == 64 and len(g.edges) == 168
    nxg = g.to_networkx()
    assert isinstance(nxg, nx.Graph)
    assert nxg.number_of_nodes() == 64 and nxg.number_of_edges() == 168
    assert repr(g) == "<knights.Graph 8x8: 64 squares, 168 edges>"


@pytest.mark.parametrize("r", range(2, 10))
@pytest.mark.parametrize("c", range(2, 10))
def test_edge_counts_follow_the_formula(r, c):
    g = knights.graph((r, c))
    assert len(g.edges) == knight_edges(r, c)
    moves_both_ways = 4 * (r - 2) * (c - 1) + 4 * (r - 1) * (c - 2)
    assert sum(len(n) for n in g.adjacency().values()) == moves_both_ways
    assert g.to_networkx().number_of_edges() == knight_edges(r, c)


@pytest.mark.parametrize("n", [1, 2, 7])
def test_a_single_row_has_no_edges(n):
    g = knights.graph((1, n))
    assert len(g) == n and g.edges == [] and g.to_numpy().sum() == 0


def test_boards_are_given_as_the_package_takes_them():
    same = [knights.graph(b).edges for b in ("6x6", 6, (6, 6))]
    assert same[0] == same[1] == same[2]
    assert knights.graph("3x5").rows == 3 and knights.graph("3x5").cols == 5
    assert knights.graph("3x5").board == "3x5"


def test_nodes_and_edges_are_ordered_and_each_edge_is_a_move_once():
    g = knights.graph("7x9")
    assert g.nodes == [(r, c) for r in range(7) for c in range(9)]
    assert g.edges == sorted(g.edges)
    assert len(set(g.edges)) == len(g.edges)
    for a, b in g.edges:
        assert a < b
        assert sorted([abs(a[0] - b[0]), abs(a[1] - b[1])]) == [1, 2]
    assert not {(b, a) for a, b in g.edges} & set(g.edges)


def test_the_lists_are_copies():
    g = knights.graph("5x5")
    g.nodes.clear()
    g.edges.clear()
    assert len(g.nodes) == 25 and len(g.edges) == knight_edges(5, 5)
    a = g.adjacency()
    a[(0, 0)].append((4, 4))
    assert (4, 4) not in g.adjacency()[(0, 0)]


def test_adjacency_is_symmetric_and_sorted():
    g = knights.graph("8x8")
    a = g.adjacency()
    assert sorted(a) == g.nodes
    for s, neighbours in a.items():
        assert neighbours == sorted(neighbours)
        for t in neighbours:
            assert s in a[t]
    assert a[(0, 0)] == [(1, 2), (2, 1)]
    degrees = [len(a[s]) for s in g.nodes]
    assert sorted(set(degrees)) == [2, 3, 4, 6, 8]
    assert [g.degree(s) for s in g.nodes] == degrees
    with pytest.raises(KeyError):
        g.degree((8, 0))


def test_to_numpy_is_the_symmetric_adjacency_matrix():
    g = knights.graph("6x7")
    m = g.to_numpy()
    assert m.shape == (42, 42) and m.dtype == np.uint8
    assert (m == m.T).all() and not m.diagonal().any()
    assert set(np.unique(m).tolist()) == {0, 1}
    a = g.adjacency()
    assert m.sum(axis=1).tolist() == [len(a[s]) for s in g.nodes]
    assert int(m.sum()) == 2 * len(g.edges) == 4 * 4 * 6 + 4 * 5 * 5
    i = {s: k for k, s in enumerate(g.nodes)}
    assert all(m[i[x], i[y]] == 1 for x, y in g.edges)


def test_networkx_graph_has_positions_colours_and_the_board():
    g = knights.graph("4x5")
    nxg = g.to_networkx()
    assert sorted(nxg.nodes) == g.nodes
    assert {frozenset(e) for e in nxg.edges} == {frozenset(e) for e in g.edges}
    assert nxg.nodes[(0, 0)] == {"pos": (0, 3), "color": "light"}
    assert nxg.nodes[(3, 4)] == {"pos": (4, 0), "color": "dark"}
    assert nxg.nodes[(0, 1)]["color"] == "dark"
    assert nxg.graph["board"] == "4x5" and nxg.graph["leaper"] == (1, 2)
    assert nxg.graph["wrap"] == "none" and (nxg.graph["rows"], nxg.graph["cols"]) == (4, 5)
    # A knight's move always changes the square's colour: the graph is bipartite.
    assert all(nxg.nodes[a]["color"] != nxg.nodes[b]["color"] for a, b in nxg.edges)
    assert nx.is_bipartite(nxg)


@pytest.mark.parametrize(
    "board,kw",
    [
        ("8x8", {"kind": "closed"}),
        ("8x8", {"kind": "open", "algorithm": "warnsdorff", "start": (0, 0)}),
        ("5x5", {}),
        ("3x4", {}),
        ("12x10", {"algorithm": "construct"}),
        ("4x4", {"kind": "closed", "wrap": "both"}),
        ("5x6", {"wrap": "rows"}),
        ("10x10", {"leaper": (2, 3)}),
        ("5x5", {"holes": ".....\n.....\n..#..\n.....\n....."}),
        ("5x5", {"kind": "closed", "holes": "#..../...../...../...../....."}),
    ],
)
def test_a_tour_is_a_hamiltonian_path_of_its_graph(board, kw):
    t = knights.tour(board, **kw)
    shape = {k: kw[k] for k in ("wrap", "leaper", "holes") if k in kw}
    g = knights.graph(board, **shape)
    assert is_tour_of(g, t)
    assert knights.graph(t).edges == g.edges
    nxg = g.to_networkx()
    assert nx.is_simple_path(nxg, t.squares) and len(t) == nxg.number_of_nodes()
    if t.closed:
        assert nxg.has_edge(t.end, t.start)
        assert nx.is_simple_path(nxg, [*t.squares, t.start][1:])


def test_a_path_that_is_no_tour_is_no_path_of_the_graph():
    g = knights.graph("6x6")
    nxg = g.to_networkx()
    squares = knights.tour("6x6", kind="closed").squares
    # Two knight's moves never make one (each changes the square's colour).
    squares[3], squares[4] = squares[4], squares[3]
    assert not nx.is_simple_path(nxg, squares)
    assert not nxg.has_edge(squares[2], squares[3])


def test_wrapped_boards_leapers_and_holes():
    torus = knights.graph("8x8", wrap="both")
    assert torus.wrap == "both" and len(torus.edges) == 8 * 64 // 2
    assert {torus.degree(s) for s in torus} == {8}
    small = knights.graph("4x4", wrap="both")
    assert {small.degree(s) for s in small} == {4}
    cylinder = knights.graph("8x8", wrap="cols")
    assert len(knights.graph("8x8").edges) < len(cylinder.edges) < len(torus.edges)
    camel = knights.graph("8x8", leaper=(3, 1))
    assert camel.leaper == (1, 3) and camel.name == "8x8, leaper 1,3"
    # The camel keeps to its colour: two components, so no tour.
    assert nx.number_connected_components(camel.to_networkx()) == 2
    holed = knights.graph("3x3", holes="...\n.#.\n...")
    assert (1, 1) not in holed and len(holed) == 8 and holed.name == "3x3, 1 hole"
    assert all((1, 1) not in e for e in holed.edges)
    assert nx.is_connected(holed.to_networkx())
    assert knights.graph("3x3", holes="..#/.../...").nodes[:2] == [(0, 0), (0, 1)]


def test_bad_boards_and_options_are_refused():
    with pytest.raises(knights.BadInputError, match="at least one row"):
        knights.graph("0x8")
    with pytest.raises(knights.BadInputError):
        knights.graph("8x8", wrap="sideways")
    with pytest.raises(knights.BadInputError):
        knights.graph("8x8", leaper=(0, 0))
    with pytest.raises(knights.BadInputError):
        knights.graph("3x3", holes="....\n....")
    with pytest.raises(knights.BadInputError):
        knights.graph("2x2", holes="##\n##")
    with pytest.raises(knights.BadInputError, match="leave out"):
        knights.graph(knights.tour("5x5"), wrap="both")
    with pytest.raises(TypeError):
        knights.graph(True)
    with pytest.raises(TypeError):
        knights.graph(2.5)
    with pytest.raises(TypeError):
        knights.graph("8x8", leaper="1,2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        knights.graph("8x8", "both")  # type: ignore[misc]


def test_a_graph_too_large_for_memory_is_refused_before_it_is_built():
    # Some 3.6 billion squares: its lists alone would take hundreds of GB.
    with pytest.raises((knights.OverLimitError, MemoryError)):
        knights.graph("60000x60000")
    # More squares than the library takes.
    with pytest.raises(knights.BadInputError):
        knights.graph("100000x100000")


def test_under_a_memory_limit_big_lists_and_matrices_are_memory_errors():
    """Under a 1 GiB address-space limit the lists of a 3000x3000 graph
    (some 5 GB) and the matrix of a 200x200 one (1.6 GB) are refused with
    MemoryError before they are built, and smaller ones are built."""
    body = """
        import knights
        for call in ['knights.graph("3000x3000")', 'knights.graph("200x200").to_numpy()']:
            try:
                eval(call)
                print("built")
            except MemoryError as e:
                print("MemoryError", "needs about" in str(e))
        print(len(knights.graph("200x200").edges), knights.graph("60x60").to_numpy().shape)
    """
    prelude = "import resource\nresource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
    child = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.splitlines() == [
        "MemoryError True",
        "MemoryError True",
        f"{knight_edges(200, 200)} (3600, 3600)",
    ]


def test_the_matrix_is_refused_when_it_would_not_fit(monkeypatch):
    g = knights.graph("8x8")
    asked = []

    def ensure_fits(what: str, size: int) -> None:
        asked.append((what, size))
        raise MemoryError(f"{what} needs about {size} bytes")

    monkeypatch.setattr(_graph._native, "ensure_fits", ensure_fits)
    for call in (g.to_numpy, g.to_networkx, g.adjacency):
        with pytest.raises(MemoryError):
            call()
    assert [w.split(" of ")[0] for w, _ in asked] == [
        "the 64x64 adjacency matrix",
        "the networkx graph",
        "the adjacency dict",
    ]
    assert asked[0][1] >= 64 * 64


def test_missing_optional_packages_say_how_to_install_them(monkeypatch):
    g = knights.graph("5x5")
    monkeypatch.setitem(sys.modules, "networkx", None)
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match=r"pip install 'knights\[networkx\]'") as e:
        g.to_networkx()
    assert "Graph.to_networkx() needs networkx" in str(e.value) and e.value.name == "networkx"
    with pytest.raises(ImportError, match=r"knights\[numpy\]"):
        g.to_numpy()
    with pytest.raises(ImportError, match="as_numpy"):
        knights.stats(knights.tour("5x5"), as_numpy=True)


def test_iteration_membership_and_the_graph_class():
    g = knights.Graph("3x4", leaper=(1, 2))
    assert list(g) == g.nodes and (2, 3) in g and (3, 0) not in g and "a1" not in g
    assert isinstance(knights.graph("3x4"), knights.Graph)
    assert knights.Graph.__module__ == "knights" and knights.graph.__module__ == "knights"
    assert "Graph" in knights.__all__ and "graph" in knights.__all__


def test_stats_of_a_tour_as_numpy_arrays_keep_exact_counts():
    t = knights.tour("8x8", kind="closed", seed=1)
    plain = knights.stats(t)
    arrays = knights.stats(t, as_numpy=True)
    assert sorted(arrays) == sorted(plain) == ["moves", "relative"]
    for key in plain:
        assert arrays[key].dtype == np.int64 and arrays[key].tolist() == plain[key]
    assert int(arrays["moves"].sum()) == 64
    assert all(type(n) is int for n in plain["moves"])


def test_stats_of_a_board_as_numpy_arrays():
    plain = knights.stats("8x8", count=10, algorithm="warnsdorff", seed=2)
    arrays = knights.stats("8x8", count=10, algorithm="warnsdorff", seed=2, as_numpy=True)
    for key in ("moves", "relative", "moves_std", "relative_std"):
        assert arrays[key].dtype == np.float64 and arrays[key].shape == (8,)
        assert arrays[key].tolist() == plain[key]
    for key in ("count", "rows", "cols"):
        assert type(arrays[key]) is int and arrays[key] == plain[key]
    assert arrays["figures"] == plain["figures"]
    assert abs(float(arrays["moves"].sum()) - 1.0) < 1e-9


def test_docstrings_of_the_new_modules_run():
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs = vars(knights)
    tests = []
    for module in (_graph, _arrays, _animation):
        tests += finder.find(module, globs={**globs, **vars(module)})
    for obj in (knights.Graph, knights.graph, knights.Animation, knights.Tour.animate):
        tests += finder.find(obj, module=False, globs=dict(globs))
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 30 and result.failed == 0
