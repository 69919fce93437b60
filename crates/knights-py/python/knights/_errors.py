"""The exceptions of ``knights``, one class per category of the library's
errors (``knights::Error::category``); the native module picks the class in
one place and raises it with the library's message, the same sentences the
command line prints, with its advice (a hint) as the keyword argument
that follows it.

Errors where the input is at fault are also ``ValueError``, so code that
already catches ``ValueError`` for bad arguments keeps working; a file that
could not be read or written is also ``OSError``, with the system's
``errno``::

    KnightsError
    ├── BadInputError (ValueError)       a bad board, square, option, file or key
    ├── NoAnswerError                    a valid request without an answer
    │   ├── NoTourError (ValueError)     no tour of that kind exists (the theorem says why)
    │   ├── InvalidTourError (ValueError) the text is no valid tour or tourney
    │   └── GaveUpError                  a search ran out of its budget
    ├── OverLimitError                   over this machine's memory or disk
    ├── StoppedError                     the work was stopped
    ├── FileError (OSError)              a file could not be read or written
    └── InternalError (RuntimeError)     a fault of the library; please report it
"""

from __future__ import annotations

__all__ = [
    "KnightsError",
    "BadInputError",
    "NoAnswerError",
    "NoTourError",
    "InvalidTourError",
    "GaveUpError",
    "OverLimitError",
    "StoppedError",
    "FileError",
    "InternalError",
]


class KnightsError(Exception):
    """Base class of every error that ``knights`` raises."""


class BadInputError(KnightsError, ValueError):
    """The input or the request is malformed: a bad board, square, option,
    combination of options, file or key."""


class NoAnswerError(KnightsError):
    """A valid request that has no answer."""


class NoTourError(NoAnswerError, ValueError):
    """No tour of the requested kind exists on the board; the message gives
    the theorem."""


class InvalidTourError(NoAnswerError, ValueError):
    """The text or squares were read but are not a valid tour or tourney;
    the message gives the first fault."""


class GaveUpError(NoAnswerError):
    """A search ran out of its budget (nodes, attempts, restarts) before it
    found an answer; a larger budget or another seed may succeed."""


class OverLimitError(KnightsError):
    """The request needs more memory or disk than this machine has."""


class StoppedError(KnightsError):
    """The work was stopped before it finished."""


class FileError(KnightsError, OSError):
    """A file could not be read or written (a full disk, a failing device, a
    path that cannot be made): a fault of the machine, not of the request.
    ``errno`` is the system's error number where there is one."""


class InternalError(KnightsError, RuntimeError):
    """A fault of the library itself, never of the input; please report it."""


# Shown as knights.BadInputError (not knights._errors.BadInputError) in
# tracebacks: the classes are used through the package.
for _cls in (
    KnightsError,
    BadInputError,
    NoAnswerError,
    NoTourError,
    InvalidTourError,
    GaveUpError,
    OverLimitError,
    StoppedError,
    FileError,
    InternalError,
):
    _cls.__module__ = "knights"
del _cls
