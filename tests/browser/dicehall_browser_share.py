"""Two pytest-xdist workers on a two-core machine (`DICEHALL_BROWSER_WORKERS=2 bash test.sh`, or
pytest's `-n 2 --dist worksteal`), and the tests that must have it to themselves.

A test marked `alone` asserts on what a busy machine slows down: no main-thread task over 100 ms
while the computer thinks, the computer's answer within 1.5 s, a guest back within 2 s of its
host. It runs only while the other worker runs nothing (an exclusive lock on a file both workers
see); every other test, and each worker's set-up of its session (its build of the site, its
returning profile: a cold boot and a boot snapshot), shares the machine (a shared lock). An
`alone` test waiting for its turn goes next: it holds a turnstile that a shared lock passes
through first, so the other worker cannot keep the machine by starting test after test.

Without xdist (one process: `pytest tests/browser/test_x.py`) nothing is locked.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path

_held = 0  # this worker's depth of machine_share (a session set-up inside a test's set-up)


def shared_dir(tmp_path_factory) -> Path | None:
    """The folder every worker of this run sees (the parent of each worker's own basetemp)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return None
    return tmp_path_factory.getbasetemp().parent


@contextmanager
def machine_share(tmp_path_factory, alone: bool = False):
    """Hold the machine: alone (exclusive) or shared with the other worker's shared holds."""
    global _held
    where = shared_dir(tmp_path_factory)
    if where is None or _held:
        # (one lock per worker: a session set-up started inside a test's set-up runs under the
        # test's hold; flock would make a second hold of the same worker wait for the first)
        _held += 1
        try:
            yield
        finally:
            _held -= 1
        return
    with open(where / "machine.turnstile", "a") as gate, open(where / "machine.lock", "a") as lock:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            if not alone:
                fcntl.flock(gate, fcntl.LOCK_UN)
        _held += 1
        try:
            yield
        finally:
            _held -= 1
            fcntl.flock(lock, fcntl.LOCK_UN)
            if alone:
                fcntl.flock(gate, fcntl.LOCK_UN)
