"""The move graph of a board, for plain Python, networkx and numpy.

Its nodes are the squares ``(row, col)`` of the board (holes left out) and
its edges the moves of the leaper (the knight unless given) between them,
each once, as the library's own move graph has them: the board may have
holes, wrapped edges (a cylinder or the torus) and another leaper, as
:func:`knights.tour` takes them. A knight's tour is a Hamiltonian path of
this graph, and a closed tour a Hamiltonian cycle.

>>> import knights
>>> g = knights.graph("8x8")
>>> g
<knights.Graph 8x8: 64 squares, 168 edges>
>>> len(g.nodes), len(g.edges)
(64, 168)
>>> g.adjacency()[(0, 0)]
[(1, 2), (2, 1)]
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from . import _native
from ._arrays import networkx_module, numpy_module
from ._native import Tour

__all__ = ["Graph", "graph"]

Square = Tuple[int, int]
Edge = Tuple[Square, Square]
_Board = Union[str, int, Tuple[int, int], Tour]

#: Bytes a square takes in an adjacency dict (its entry and its list; about
#: 150 as measured) and an edge (its two places in the lists).
_ADJACENCY_SQUARE_BYTES = 200
_ADJACENCY_EDGE_BYTES = 16
#: Bytes a networkx graph takes for a square (its node with two attributes
#: and its adjacency dict) and for an edge (its attribute dict and its two
#: places in the adjacency dicts): about 370 and 140 as measured with
#: networkx 3, with room to spare.
_NETWORKX_SQUARE_BYTES = 600
_NETWORKX_EDGE_BYTES = 250


class Graph:
    """The move graph of a board: the squares are its nodes, and two
    squares are joined when the leaper moves from one to the other. Make
    one with :func:`graph` (or ``Graph(board, ...)``, which takes the same
    arguments).

    - ``nodes``: the squares ``(row, col)``, row by row, holes left out;
    - ``edges``: the moves, each once, as pairs of squares (the square
      that comes first row by row first), sorted;
    - :meth:`adjacency`: each square's neighbours;
    - :meth:`to_networkx` and :meth:`to_numpy`: the graph for networkx, the
      adjacency matrix for numpy (each imported only then).

    The lists are new on every call, so changing one changes nothing here.

    >>> g = Graph("3x4")
    >>> len(g), g.edges[:3]
    (12, [((0, 0), (1, 2)), ((0, 0), (2, 1)), ((0, 1), (1, 3))])
    >>> (1, 1) in g, (5, 5) in g
    (True, False)
    >>> Graph("3x3", holes="...\\n.#.\\n...")
    <knights.Graph 3x3, 1 hole: 8 squares, 8 edges>
    """

    __slots__ = (
        "_name", "_rows", "_cols", "_wrap", "_leaper", "_nodes", "_edges", "_index", "_degrees",
    )

    def __init__(
        self,
        board: _Board,
        *,
        wrap: Optional[str] = None,
        leaper: Optional[Tuple[int, int]] = None,
        holes: Optional[str] = None,
    ) -> None:
        (
            self._name,
            self._rows,
            self._cols,
            self._wrap,
            self._leaper,
            self._nodes,
            self._edges,
        ) = _native.graph(board, holes, wrap, leaper)
        self._index: Optional[Dict[Square, int]] = None
        self._degrees: Optional[List[int]] = None

    @property
    def rows(self) -> int:
        """Rows of the board."""
        return self._rows

    @property
    def cols(self) -> int:
        """Columns of the board."""
        return self._cols

    @property
    def board(self) -> str:
        """The board as ``"ROWSxCOLS"``, as :attr:`Tour.board` gives it."""
        return f"{self._rows}x{self._cols}"

    @property
    def name(self) -> str:
        """The board with its holes, wrapping and leaper, as the checker
        names it: ``"8x8"``, ``"8x8, 2 holes, wrap both, leaper 1,3"``."""
        return self._name

    @property
    def wrap(self) -> str:
        """``"none"``, ``"rows"``, ``"cols"`` or ``"both"`` (the torus)."""
        return self._wrap

    @property
    def leaper(self) -> Tuple[int, int]:
        """The leaper ``(a, b)`` with ``a <= b``: ``(1, 2)`` is the knight."""
        return self._leaper

    @property
    def nodes(self) -> List[Square]:
        """The squares ``(row, col)``, row by row, holes left out."""
        return list(self._nodes)

    @property
    def edges(self) -> List[Edge]:
        """The moves as pairs of squares, each once, the square that comes
        first row by row first; sorted (by the first square, then the
        second)."""
        return list(self._edges)

    def adjacency(self) -> Dict[Square, List[Square]]:
        """Each square's neighbours, row by row: a dict from every square
        (holes left out) to the list of squares one move away. A dict too
        large for this machine's memory raises ``MemoryError``.

        >>> a = graph("4x4").adjacency()
        >>> a[(0, 0)], len(a[(1, 1)])
        ([(1, 2), (2, 1)], 4)
        """
        _native.ensure_fits(
            f"the adjacency dict of the {self._name} graph",
            len(self._nodes) * _ADJACENCY_SQUARE_BYTES
            + len(self._edges) * _ADJACENCY_EDGE_BYTES,
        )
        adjacency: Dict[Square, List[Square]] = {s: [] for s in self._nodes}
        for a, b in self._edges:
            adjacency[a].append(b)
            adjacency[b].append(a)
        for neighbours in adjacency.values():
            neighbours.sort()
        return adjacency

    def degree(self, square: Square) -> int:
        """The number of moves from ``square``; a square that is not a node
        (off the board, or a hole) raises :class:`KeyError`.

        >>> g = graph("8x8")
        >>> g.degree((0, 0)), g.degree((3, 3))
        (2, 8)
        """
        if self._degrees is None:
            index = self._node_index()
            degrees = [0] * len(self._nodes)
            for a, b in self._edges:
                degrees[index[a]] += 1
                degrees[index[b]] += 1
            self._degrees = degrees
        return self._degrees[self._node_index()[square]]

    def to_networkx(self) -> Any:
        """The graph as a ``networkx.Graph``: the squares ``(row, col)`` as
        nodes, each with the attributes ``pos`` (its ``(x, y)`` for
        ``networkx.draw``: the column, and the row counted from the bottom,
        so the picture is the board's) and ``color`` (``"light"`` or
        ``"dark"``, the square ``(0, 0)`` light), the moves as edges, and
        the graph's attributes ``board``, ``rows``, ``cols``, ``wrap``,
        ``leaper`` and ``name``. Needs networkx, imported only here.

        >>> nx_graph = graph("8x8").to_networkx()
        >>> nx_graph.number_of_nodes(), nx_graph.number_of_edges()
        (64, 168)
        >>> nx_graph.nodes[(0, 0)]
        {'pos': (0, 7), 'color': 'light'}
        """
        nx = networkx_module("Graph.to_networkx()")
        _native.ensure_fits(
            f"the networkx graph of the {self._name} graph",
            len(self._nodes) * _NETWORKX_SQUARE_BYTES
            + len(self._edges) * _NETWORKX_EDGE_BYTES,
        )
        g = nx.Graph(
            board=self.board,
            rows=self._rows,
            cols=self._cols,
            wrap=self._wrap,
            leaper=self._leaper,
            name=self._name,
        )
        top = self._rows - 1
        g.add_nodes_from(
            (s, {"pos": (s[1], top - s[0]), "color": "dark" if (s[0] + s[1]) % 2 else "light"})
            for s in self._nodes
        )
        g.add_edges_from(self._edges)
        return g

    def to_numpy(self) -> Any:
        """The adjacency matrix as a square numpy array of ``uint8``, 1
        where two squares are a move apart, its rows and columns in the
        order of :attr:`nodes`; symmetric, its row sums the degrees. It
        takes a byte for every pair of squares: a matrix too large for this
        machine's memory raises ``MemoryError``. Needs numpy, imported only
        here.

        >>> m = graph("3x3").to_numpy()
        >>> m.shape, int(m.sum()), m[4].tolist()
        ((9, 9), 16, [0, 0, 0, 0, 0, 0, 0, 0, 0])
        """
        np = numpy_module("Graph.to_numpy()")
        n, e = len(self._nodes), len(self._edges)
        _native.ensure_fits(
            f"the {n}x{n} adjacency matrix of the {self._name} graph",
            n * n + e * 32,
        )
        matrix = np.zeros((n, n), dtype=np.uint8)
        if e:
            index = self._node_index()
            ends = np.fromiter(
                (index[s] for edge in self._edges for s in edge), dtype=np.intp, count=2 * e
            ).reshape(e, 2)
            matrix[ends[:, 0], ends[:, 1]] = 1
            matrix[ends[:, 1], ends[:, 0]] = 1
        return matrix

    def _node_index(self) -> Dict[Square, int]:
        """Each square's place in :attr:`nodes`, made once."""
        if self._index is None:
            self._index = {s: i for i, s in enumerate(self._nodes)}
        return self._index

    def __len__(self) -> int:
        """The number of squares (nodes)."""
        return len(self._nodes)

    def __iter__(self) -> Iterator[Square]:
        """The squares, row by row."""
        return iter(list(self._nodes))

    def __contains__(self, square: object) -> bool:
        """Whether ``square`` is a node: a square of the board, not a hole."""
        return square in self._node_index()

    def __repr__(self) -> str:
        return f"<knights.Graph {self._name}: {len(self._nodes)} squares, {len(self._edges)} edges>"


def graph(
    board: _Board,
    *,
    wrap: Optional[str] = None,
    leaper: Optional[Tuple[int, int]] = None,
    holes: Optional[str] = None,
) -> Graph:
    """The move graph of ``board`` (a :class:`Graph`): the squares as
    nodes, the moves as edges. The board is ``"8x8"``, ``8`` or ``(rows,
    cols)`` with ``wrap``, ``leaper`` and ``holes`` as :func:`tour` takes
    them, or a :class:`Tour`, whose own board (with its holes, wrapping and
    leaper) it is.

    The lists are built in memory, a few hundred bytes a move: a board
    whose graph would not fit in this machine's memory is refused before
    they are built (:class:`OverLimitError` or ``MemoryError``).

    >>> graph("8x8")
    <knights.Graph 8x8: 64 squares, 168 edges>
    >>> graph(8, wrap="both")
    <knights.Graph 8x8, wrap both: 64 squares, 256 edges>
    >>> graph((4, 5), leaper=(1, 1)).degree((0, 0))
    1
    >>> t = tour("5x5", seed=1)
    >>> g = graph(t)
    >>> all(b in g.adjacency()[a] for a, b in zip(t.squares, t.squares[1:]))
    True
    >>> graph("0x8")
    Traceback (most recent call last):
    ...
    knights.BadInputError: a board needs at least one row and one column, not 0x8
    """
    return Graph(board, wrap=wrap, leaper=leaper, holes=holes)


for _public in (Graph, graph):
    _public.__module__ = "knights"
del _public
