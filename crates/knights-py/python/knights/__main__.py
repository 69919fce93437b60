"""The ``knights`` command, from the wheel: ``python -m knights tour 8x8``,
or the console script ``knights`` that ``pip install knights`` puts on
the path. Every subcommand of the Rust binary is here (``knights serve``
opens the page), with the same output and exit statuses, since both call
the same entry of the CLI library. Counts spread over MPI processes
(``--processes``) need the binary built with the feature
``distributed``; this one says so.
"""

from __future__ import annotations

import sys

from . import _native


def main() -> None:
    """Runs the command on ``sys.argv`` and exits with its status."""
    sys.stdout.flush()
    sys.stderr.flush()
    raise SystemExit(_native.run_command_line(["knights", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
