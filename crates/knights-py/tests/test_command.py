"""The ``knights`` command that the wheel brings: the console script on the
environment's path and ``python -m knights`` run the Rust command itself
(the CLI library's entry), with its output, its exit statuses, its page
(``knights serve``) and Ctrl-C carried through.

scripts/test.sh runs these in an environment where the wheel is all that
was installed (its python in ``KNIGHTS_PY_WHEEL_ONLY``); without it, in
this one."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

#: The python of the environment under test, and the console script pip
#: installed beside it.
PYTHON = os.environ.get("KNIGHTS_PY_WHEEL_ONLY") or sys.executable
SCRIPT = Path(PYTHON).parent / "knights"


def run(*args: str, timeout: float = 120):
    """``python -m knights ARGS``: its exit status, stdout and stderr."""
    proc = subprocess.run([PYTHON, "-m", "knights", *args], capture_output=True,
                          text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def knight_move(a, b):
    return {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2}


def test_the_console_script_prints_a_closed_tour_of_8x8():
    assert SCRIPT.exists(), f"pip did not install the console script {SCRIPT}"
    proc = subprocess.run([str(SCRIPT), "tour", "8x8"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    grid = [[int(n) for n in line.split()] for line in proc.stdout.splitlines()]
    assert len(grid) == 8 and all(len(row) == 8 for row in grid)
    at = {grid[r][c]: (r, c) for r in range(8) for c in range(8)}
    assert sorted(at) == list(range(64))
    assert all(knight_move(at[i], at[(i + 1) % 64]) for i in range(64))


def test_import_knights_works_with_the_wheel_alone():
    code = "import knights; print(knights.count('6x6'), knights.__version__)"
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[0] == "9862"


def test_python_dash_m_knights_is_the_same_command():
    status, out, _ = run("--version")
    assert status == 0 and re.fullmatch(r"knights \d+\.\d+\.\d+\s*", out), out
    status, out, _ = run("count", "6x6")
    assert (status, out.strip()) == (0, "9862")


@pytest.mark.parametrize(
    "args, status, said",
    [
        # A valid request without an answer: 1, with the theorem's reason.
        (["exists", "4x7", "--closed"], 1, "no - "),
        # Bad usage: 2, in the command's words.
        (["tour", "8x8", "--no-such-flag"], 2, "knights: unexpected argument"),
        (["tour", "0x0"], 2, "knights: "),
        # The wheel is built without MPI: --processes says how to get it.
        (["count", "5x6", "--processes", "2"], 2, "--features distributed"),
    ],
)
def test_exit_statuses_and_messages_are_the_commands(args, status, said):
    got, out, err = run(*args)
    assert got == status, (out, err)
    assert said in out + err


def test_serve_answers_on_loopback_and_ctrl_c_stops_it():
    """``python -m knights serve`` serves the page on a free loopback port;
    SIGINT ends it with status 130, as it ends the Rust binary."""
    proc = subprocess.Popen([PYTHON, "-m", "knights", "serve", "--port", "0"],
                            stderr=subprocess.PIPE, text=True,
                            # Not SIGINT ignored, as a background shell gives it.
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = proc.stderr.readline()
        found = re.search(r"serving the web page on (http://127\.0\.0\.1:\d+/)", line)
        assert found, line
        with urllib.request.urlopen(found.group(1), timeout=30) as page:
            assert page.status == 200
            assert "<html" in page.read().decode().lower()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_ctrl_c_stops_a_long_count_with_status_130(tmp_path):
    """A count of minutes, stopped by SIGINT once its first layer is done:
    status 130 and the message the binary gives."""
    # A status line every second (the command's own setting for tests).
    env = dict(os.environ, KNIGHTS_STATUS_SECONDS="1")
    proc = subprocess.Popen([PYTHON, "-m", "knights", "count", "8x8"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # The handler is the command's once it has parsed its arguments;
        # the count's first status line comes after that.
        proc.stderr.readline()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert out == ""
