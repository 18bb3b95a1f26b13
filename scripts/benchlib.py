"""Helpers that the benchmark and check scripts share: running a process under a time limit
(stopping its whole process group), reading the first line of its output, progress notes on
standard error, ranges of numbers such as ``1-100,250``, and random pictures from the oracle's
generator. Only the Python standard library is used.

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
from pathlib import Path

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


def seconds_cell(run: Run, timeout: float) -> str:
    """A run's wall time for a table, or `>T` when it was stopped at `timeout`."""
    return f">{timeout:g}" if run.timed_out else f"{run.seconds:.2f}"


def parse_range(spec: str | None, count: int) -> list[int]:
    """`1-100,250` -> the numbers named, within `1..=count`; all of them when `spec` is empty."""
    if not spec:
        return list(range(1, count + 1))
    chosen: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            chosen.update(range(int(lo), int(hi) + 1))
        elif part:
            chosen.add(int(part))
    return sorted(n for n in chosen if 1 <= n <= count)


def random_picture(oracle: Path, rows: int, cols: int, density: str, seed: int) -> str:
    """The clues of a random picture from the oracle's generator (`oracle.py gen`), each cell
    black with probability `density`; exits the script if the generator fails."""
    cmd = [sys.executable, str(oracle), "gen", "--rows", str(rows), "--cols", str(cols),
           "--density", density, "--seed", str(seed)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {first_line(done.stderr)}")
    return done.stdout
