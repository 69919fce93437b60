"""The conformance table (crates/knights/tests/data/conformance.toml)
through Python: each case's request, in the library's request model,
becomes the keyword arguments a caller writes (the translation table
below), and the result or the exception class must show the facts or the
error category the table expects (classes as docs/formats.md lists them).
"""

from __future__ import annotations

import pathlib
from typing import Any, Callable, Dict, List

import pytest

import knights

try:
    import tomllib
except ModuleNotFoundError:  # Python before 3.11
    tomllib = pytest.importorskip("tomli")

TABLE = pathlib.Path(__file__).resolve().parents[2] / "knights/tests/data/conformance.toml"
CASES: List[Dict[str, Any]] = [
    case
    for case in tomllib.loads(TABLE.read_text())["case"]
    if "python" in case["doors"]
]

# The request's fields as keyword arguments (a field mapped to None is
# translated by the job's runner below); squares and leapers become tuples.
KEYWORDS: Dict[str, str] = {
    "kind": "kind",
    "algorithm": "algorithm",
    "seed": "seed",
    "start": "start",
    "end": "end",
    "wrap": "wrap",
    "leaper": "leaper",
    "holes": "holes",
    "tie": "tie",
    "max-attempts": "max_attempts",
    "max-nodes": "max_nodes",
    "obfuscate": "obfuscate",
    "shatters": "shatters",
    "directed": "directed",
    "classic": "classic",
    "tourneys": "tourneys",
    "samples": "count",
    "method": "method",
    "outside-in": "outside_in",
    "staggered": "staggered",
    "keep": "keep",
    "seconds": "seconds",
    "difficulty": "difficulty",
    "symmetric": "symmetric",
    "limit": "limit",
    "from": "from_",
    "step": "step",
    "progress": "progress",
}

# The exception class of each error category.
EXCEPTIONS = {
    "bad-input": knights.BadInputError,
    "no-answer": knights.NoAnswerError,
    "over-limit": knights.OverLimitError,
    "interrupted": knights.StoppedError,
    "io": knights.FileError,
}


def keywords(request: Dict[str, Any], skip: tuple[str, ...]) -> Dict[str, Any]:
    """The keyword arguments of the request's fields but `skip`."""
    out: Dict[str, Any] = {}
    for field, value in request.items():
        if field in skip:
            continue
        if field not in KEYWORDS:
            raise AssertionError(f"no keyword for the field {field}")
        if field in ("start", "end", "leaper") and "," in value:
            value = tuple(int(x) for x in value.split(","))
        # A square named algebraically ("c3") goes to the package as text.
        if field == "kind" and value == "either":
            value = "any"
        out[KEYWORDS[field]] = value
    return out


def tour_facts(t: knights.Tour) -> Dict[str, Any]:
    t.check()
    order = [r * t.cols + c for r, c in t.squares]
    return {
        "closed": t.closed,
        "squares": len(t),
        "start": list(t.start),
        "end": list(t.end),
        "order": order,
    }


def tourney_facts(t: knights.Tourney) -> Dict[str, Any]:
    t.to_json()
    return {"squares": sum(len(c) for c in t.cycles), "cycles": len(t.cycles)}


def run_tourney(r: Dict[str, Any]) -> Dict[str, Any]:
    generator = {"generator": r["algorithm"]} if "algorithm" in r else {}
    t = knights.tourney(r["board"], **generator, **keywords(r, ("board", "algorithm")))
    return tourney_facts(t)


def run_exists(r: Dict[str, Any]) -> Dict[str, Any]:
    # The plain question is exists(); squares, holes, wrapping, another
    # leaper or a budget are decide()'s.
    kw = keywords(r, ("board",))
    kind = kw.pop("kind", "any")
    if kw:
        return {"answer": knights.decide(r["board"], kind, **kw).answer}
    return {"answer": "yes" if knights.exists(r["board"], kind) else "no"}


def run_count(r: Dict[str, Any]) -> Dict[str, Any]:
    of = r.get("of", "tours")
    flags = {"symmetric": of == "symmetric", "classes": of == "classes"}
    kw = keywords(r, ("board", "of"))
    return {"count": str(knights.count(r["board"], **kw, **flags))}


def run_dry_run(r: Dict[str, Any]) -> Dict[str, Any]:
    of = {"of": r["of"]} if "of" in r else {}
    p = knights.dry_run(r["board"], **of, **keywords(r, ("board", "of")))
    return {"method": p["method"], "order": p["order"], "steps": p["steps"]}


def run_estimate(r: Dict[str, Any]) -> Dict[str, Any]:
    # The request's samples are the estimate's own keyword (stats calls
    # them count).
    samples = {"samples": r["samples"]} if "samples" in r else {}
    e = knights.estimate(r["board"], **samples, **keywords(r, ("board", "samples")))
    return {"method": e["method"]}


def run_check(r: Dict[str, Any]) -> Dict[str, Any]:
    # A solution of a puzzle is checked against it with puzzle=.
    puzzle = {"puzzle": r["puzzle"]} if "puzzle" in r else {}
    try:
        facts: Dict[str, Any] = {"valid": True, "verdict": knights.check(r["text"], **puzzle)}
    except knights.InvalidTourError as e:
        return {"valid": False, "verdict": str(e)}
    # A tour's sums; a puzzle's text reads as no tour and has none.
    try:
        read = None if puzzle else knights.read(r["text"])
    except knights.BadInputError:
        read = None
    if isinstance(read, knights.Tour) and read.magic is not None:
        facts["magic"] = read.magic.magic
    return facts


def run_position(r: Dict[str, Any]) -> Dict[str, Any]:
    # The request's fields are Position's keyword arguments; the budget is
    # each question's.
    kw: Dict[str, Any] = {}
    for field, value in r.items():
        if field in ("board", "max-nodes"):
            continue
        if field == "leaper":
            value = tuple(int(x) for x in value.split(","))
        kw[field] = value
    p = knights.Position(r["board"], **kw)
    budget = r.get("max-nodes")
    number = lambda sq: sq[0] * p.cols + sq[1]
    facts: Dict[str, Any] = {
        "verdict": p.verdict(max_nodes=budget),
        "reason": p.reason(max_nodes=budget),
        "path": [number(sq) for sq in p.path],
        "left": p.left,
        "legal-moves": [number(sq) for sq in p.legal_moves],
        "won": p.won,
        "finished": p.finished or "",
    }
    completion = p.completion(max_nodes=budget)
    if completion is not None:
        facts["completes"] = len(completion)
    return facts


def run_puzzle(r: Dict[str, Any]) -> Dict[str, Any]:
    # The puzzle made, and whether the package's own solve of its text
    # proves its solution unique.
    p = knights.puzzle(r["board"], **keywords(r, ("board",)))
    assert p.solution is not None
    return {
        "closed": p.closed,
        "squares": len(p.solution),
        "unique": knights.solve(p.text).unique,
    }


def run_solve(r: Dict[str, Any]) -> Dict[str, Any]:
    answer = knights.solve(r["puzzle"], **keywords(r, ("puzzle",)))
    if isinstance(answer, knights.Step):
        return {"outcome": answer.outcome}
    return {"found": answer.count, "unique": answer.unique, "complete": answer.complete}


def run_magic(r: Dict[str, Any]) -> Dict[str, Any]:
    tours = knights.magic(r["board"], **keywords(r, ("board",)))
    facts: Dict[str, Any] = {"tours": len(tours)}
    if tours and tours[0].magic is not None:
        facts["magic"] = tours[0].magic.magic
    return facts


def cover(r: Dict[str, Any]) -> Any:
    return knights.read(r["cover"])


RUNNERS: Dict[str, Callable[[Dict[str, Any]], Dict[str, Any]]] = {
    "tour": lambda r: tour_facts(knights.tour(r["board"], **keywords(r, ("board",)))),
    "tourney": run_tourney,
    "join": lambda r: tour_facts(knights.join(cover(r), **keywords(r, ("cover",)))),
    "shatter": lambda r: tourney_facts(knights.shatter(cover(r), **keywords(r, ("cover",)))),
    "obfuscate": lambda r: tour_facts(knights.obfuscate(cover(r), **keywords(r, ("cover",)))),
    "exists": run_exists,
    "count": run_count,
    "dry-run": run_dry_run,
    "estimate": run_estimate,
    "encrypt": lambda r: {
        "text": knights.encrypt(r["text"], r["key"], **keywords(r, ("text", "key")))
    },
    "decrypt": lambda r: {
        "text": knights.decrypt(r["text"], r["key"], **keywords(r, ("text", "key")))
    },
    "stats": lambda r: {
        "samples": knights.stats(r["board"], **keywords(r, ("board",)))["count"]
    },
    "check": run_check,
    "position": run_position,
    "puzzle": run_puzzle,
    "solve": run_solve,
    "magic": run_magic,
}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_conformance(case: Dict[str, Any]) -> None:
    run = RUNNERS[case["job"]]
    if "refused" in case:
        with pytest.raises(EXCEPTIONS[case["refused"]]) as refusal:
            run(case["request"])
        # The library's sentence, unchanged.
        assert case.get("says", "") in str(refusal.value)
        # The advice names the keyword argument.
        if "hint" in case:
            assert KEYWORDS[case["hint"]] + "=" in str(refusal.value)
        return
    facts = run(case["request"])
    for key, want in case["expect"].items():
        assert facts.get(key) == want, (key, facts)
