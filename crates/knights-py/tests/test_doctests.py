"""The examples in the docstrings and in docs/python.md run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import knights

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
TUTORIAL = Path(__file__).resolve().parents[3] / "docs" / "python.md"


def test_docstrings():
    result = doctest.testmod(knights, optionflags=FLAGS, raise_on_error=False)
    assert result.attempted >= 30 and result.failed == 0


def test_tutorial():
    assert TUTORIAL.exists(), TUTORIAL
    result = doctest.testfile(str(TUTORIAL), module_relative=False, optionflags=FLAGS)
    assert result.attempted >= 10 and result.failed == 0
