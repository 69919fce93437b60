"""The example notebooks (examples/notebooks/*.ipynb) run from top to bottom
without an error, in a kernel of this very Python (which has the package
installed), and are kept clean: no outputs, no execution counts.

They need nbclient, nbformat and ipykernel (and numpy and networkx, which
the notebooks import): a missing one fails the test, saying what to
install, rather than skipping it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[3] / "examples" / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
#: Seconds a cell may take.
CELL_TIMEOUT = 300


def _require(name: str):
    try:
        return __import__(name)
    except ImportError as e:
        pytest.fail(
            f"running the example notebooks needs {name}; install it with: "
            f"pip install nbclient nbformat ipykernel numpy networkx ({e})"
        )


@pytest.fixture
def python3_kernel(tmp_path, monkeypatch):
    """A kernel spec ``python3`` that runs this interpreter, found first (a
    ``python3`` kernel installed elsewhere, for another Python, would not
    have the package)."""
    _require("ipykernel")
    spec = tmp_path / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Python 3 (knights tests)",
                "language": "python",
            }
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    return "python3"


def test_there_are_example_notebooks():
    assert {p.name for p in PATHS} >= {"getting-started.ipynb", "graphs.ipynb"}


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_a_notebook_is_kept_clean(path: Path):
    nbformat = _require("nbformat")
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.id


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_a_notebook_runs_without_an_error(path: Path, python3_kernel: str, tmp_path: Path):
    nbformat = _require("nbformat")
    nbclient = _require("nbclient")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        kernel_name=python3_kernel,
        timeout=CELL_TIMEOUT,
        # Run where nothing it might write lands in the repository.
        resources={"metadata": {"path": str(tmp_path)}},
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        pytest.fail(f"{path.name} failed:\n{e}")
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    # Every code cell ran, and the animations came out as HTML.
    assert all(c.execution_count for c in nb.cells if c.cell_type == "code")
    if path.name == "getting-started.ipynb":
        html = [o for o in outputs if "text/html" in o.get("data", {})]
        assert any('class="knights-animation"' in o["data"]["text/html"] for o in html)
