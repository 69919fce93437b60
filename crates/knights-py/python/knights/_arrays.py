"""The optional packages, imported only when a call needs them, and the
numpy forms of the statistics.

numpy and networkx are not dependencies of ``knights``: a call that needs
one imports it then, and says how to install it when it is missing.

>>> import knights
>>> s = knights.stats(knights.tour("6x6", kind="closed"), as_numpy=True)
>>> s["moves"].dtype.name, int(s["moves"].sum())
('int64', 36)
"""

from __future__ import annotations

import importlib
from typing import Any, Dict

__all__ = ["numpy_module", "networkx_module", "stats_arrays"]


def _optional(name: str, what: str) -> Any:
    """The module ``name``, or an ``ImportError`` saying that ``what``
    needs it and how to install it (its own name, or the extra of
    ``knights`` that brings it)."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise ImportError(
            f"{what} needs {name}, which is not installed; install it with: "
            f"pip install {name} (or the package's extra: pip install 'knights[{name}]')",
            name=name,
        ) from e


def numpy_module(what: str) -> Any:
    """numpy, imported now; ``what`` (such as ``"Graph.to_numpy()"``) names
    the call that needs it in the ``ImportError`` when it is missing."""
    return _optional("numpy", what)


def networkx_module(what: str) -> Any:
    """networkx, imported now, as :func:`numpy_module` imports numpy."""
    return _optional("networkx", what)


#: The lists of 8 numbers of the statistics: the one-tour form's move
#: counts, the summary's mean frequencies and their deviations.
_EIGHTS = ("moves", "relative", "moves_std", "relative_std")


def stats_arrays(stats: Dict[str, Any], *, counts: bool) -> Dict[str, Any]:
    """``knights.stats``'s dict with its lists of 8 numbers as numpy arrays:
    with ``counts``, one tour's move counts as ``int64`` (exact: a tour has
    fewer than 2**32 moves, so every count and every sum of them fits);
    otherwise a summary's frequencies and deviations as ``float64``.
    Everything else is as it was: ``count``, ``rows`` and ``cols`` stay
    Python ints, ``figures`` a list of dicts.

    >>> s = stats_arrays({"count": 2, "moves": [0.5] * 8, "figures": []}, counts=False)
    >>> s["moves"].dtype.name, type(s["count"]).__name__, s["figures"]
    ('float64', 'int', [])
    """
    np = numpy_module("knights.stats(..., as_numpy=True)")
    dtype = np.int64 if counts else np.float64
    out = dict(stats)
    for key in _EIGHTS:
        if key in out:
            out[key] = np.array(out[key], dtype=dtype)
    return out
