"""Helpers that the benchmark and check scripts share: running a process under a time limit
(stopping its whole process group), reading the first line of its output, and progress notes
on standard error. Only the Python standard library is used.

A script imports it from its own folder::

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from benchlib import Run, first_line, progress, run_limited
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

# Seconds a process gets to end after SIGTERM before SIGKILL.
GRACE_SECONDS = 3.0


@dataclass
class Run:
    """One finished (or stopped) process: its output, exit status and wall-clock time."""

    stdout: str
    stderr: str
    returncode: int | None
    seconds: float
    timed_out: bool


def run_limited(cmd: list[str], limit: float | None, grace: float = GRACE_SECONDS) -> Run:
    """Runs `cmd` in its own session; after `limit` seconds (never, if `None`) stops its
    process group, SIGTERM then, `grace` seconds later, SIGKILL."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
    )
    timed_out = False
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        timed_out = True
        signal_group(proc, signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=grace)
        except subprocess.TimeoutExpired:
            signal_group(proc, signal.SIGKILL)
            out, err = proc.communicate()
    return Run(out, err, proc.returncode, time.perf_counter() - start, timed_out)


def signal_group(proc: subprocess.Popen, sig: int) -> None:
    """Signals the process group of a process this script started (its own session)."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


def first_line(text: str) -> str:
    """The first line of `text` that is not blank, stripped; empty if none."""
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def progress(message: str) -> None:
    """A note on standard error, at once."""
    print(message, file=sys.stderr, flush=True)
