"""SIGTERM and SIGHUP stop a command as Ctrl-C does.

A closed terminal (SIGHUP), ``timeout`` or a process manager (SIGTERM) would otherwise end
the process on the spot: no traceback, but the hidden ``.part`` file of a file being
written (voyage.base.atomicfile) stays behind, and the referee is not told whether the campaign
changed. Here they raise :class:`Stopped`, a KeyboardInterrupt, so everything that unwinds
a Ctrl-C unwinds them too: the campaign's transaction rolls back unless it was committed
(voyage.store.campaign), the temporary files are removed (voyage.base.atomicfile.FileBatch), and the
command line says in one line whether the campaign changed, exiting 128 + the signal's
number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), as a shell reports a command a
signal stopped.

The signal is also remembered (:data:`received`, Ctrl-C's too): an exception raised inside
a callback SQLite makes (the undo journal's authorizer, voyage.store.lazyjournal, runs on every
statement prepared) cannot leave it, and SQLite reports "not authorized" instead; whoever
meets such an error asks :func:`raise_received` to raise the interrupt again.

While a forecast's worker processes run (nothing is being written), SIGTERM and SIGHUP
end the process at once instead, its workers killed (:func:`ending_at_once`): closing the
pool after a signal sent to the whole process group could wait for ever.

A signal the process was started ignoring (``nohup voyage advance ...`` ignores SIGHUP)
stays ignored. Installed only by the console script (voyage.entry) while a command runs.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

#: the stop signals this platform has, besides SIGINT (Python's own KeyboardInterrupt)
STOP_SIGNALS: tuple[int, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)

#: the signal that stopped the command (SIGINT included), None while none came
received: int | None = None

#: the handlers :func:`install` replaced, put back by :func:`uninstall`
_BEFORE: dict[int, Any] = {}
#: the campaign commits this process had made when :func:`install` ran (voyage.store.campaign)
_COMMITS = [0]
#: Campaign transactions this process has committed (voyage.store.campaigndb counts them
#: here): a signal after a commit is told that the change was saved.
commits = 0


def count_commit() -> None:
    """One more campaign transaction committed (called by the store)."""
    global commits
    commits += 1


#: the process that ran :func:`install` (a forked worker inherits the handlers a moment)
_PID = [0]
#: how many :func:`held` blocks are running, and the signals that came meanwhile
_HELD = [0]
_PENDING: list[int] = []


class Stopped(KeyboardInterrupt):
    """A stop signal (SIGTERM, SIGHUP) arrived: unwound as a Ctrl-C is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def install() -> None:
    """Make each stop signal raise :class:`Stopped`, and Ctrl-C its KeyboardInterrupt as
    before, each remembered (a signal ignored at start-up stays ignored)."""
    global received
    received = None
    _COMMITS[0] = commits
    _PID[0] = os.getpid()
    for signum in (signal.SIGINT, *STOP_SIGNALS):
        before = signal.getsignal(signum)
        if signum == signal.SIGINT and before is not signal.default_int_handler:
            continue  # Python's own handler only: an ignored or a caller's handler stays
        if before is not signal.SIG_IGN and before is not _stop:
            _BEFORE[signum] = before
            signal.signal(signum, _stop)


def uninstall() -> None:
    """Put back the handlers :func:`install` replaced (the command has ended: a signal
    while the interpreter shuts down ends the process as it did before, not with an
    exception Python can only print). One ignored after a first signal stays ignored."""
    for signum, before in list(_BEFORE.items()):
        if signal.getsignal(signum) is _stop:
            signal.signal(signum, before)
        del _BEFORE[signum]


def for_pool_worker(closing: Any) -> None:
    """In a forked pool worker (voyage.actions.forecast) while its parent catches the stop signals:
    SIGTERM and SIGHUP sent to the whole process group (a closed terminal, ``timeout``)
    are the parent's to act on (:func:`ending_at_once` kills its workers), so the worker
    goes on; it ends on the SIGTERM its pool sends when closing, once the parent has set
    ``closing.value`` (a shared flag). A worker the group's signal ended on the spot would
    be replaced by its pool at once, behind the parent's back. Without the parent's
    handlers nothing changes: the signal ends the worker, as it always did. A signal
    ignored from the start (nohup) stays ignored."""

    def end(_signum: int, _frame: FrameType | None) -> None:
        if closing.value:
            os._exit(1)

    if _BEFORE and closing.value:  # started after its parent was stopped: nothing to do
        os._exit(1)
    for signum in _BEFORE:  # installed in the parent, not ignored from the start
        if signum in STOP_SIGNALS:  # Ctrl-C: the worker's own choice (it ignores it)
            signal.signal(signum, end)


@contextmanager
def ending_at_once(cleanup: Callable[[], None]) -> Iterator[None]:
    """While nothing is being written and worker processes run (a forecast's runs): a stop
    signal ends the process at once, after ``cleanup`` (the workers killed) and the one
    line, instead of unwinding. Unwinding would close the pool, which waits for the locks
    of its queues, and a worker the same signal ended (it reaches the whole process group:
    a closed terminal, ``timeout``) may have died holding one: the pool would wait for
    ever. Ctrl-C unwinds as before (the workers ignore it, so none dies holding a lock)."""
    if not _BEFORE:
        yield
        return

    parent = os.getpid()

    def now(signum: int, _frame: FrameType | None) -> None:
        global received
        if os.getpid() != parent:  # a worker not yet set up (for_pool_worker): just end
            os._exit(1)
        received = signum
        cleanup()
        saved = bool(commits - _COMMITS[0])
        line = f"Error: {interrupted_line(signum, saved=saved)}\n"
        with contextlib.suppress(OSError):  # the terminal is gone (SIGHUP): nobody to tell
            if os.isatty(2):
                line = "\r\x1b[K" + line  # over a progress bar the forecast was drawing
            os.write(2, line.encode())
        os._exit(exit_status(signum))

    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is _stop:
            signal.signal(signum, now)
    try:
        yield
    finally:
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is now:
                signal.signal(signum, _stop)


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait till the block has run (files put in place
    together, voyage.base.atomicfile: all of them or none); then the first is raised."""
    _HELD[0] += 1
    try:
        yield
    finally:
        _HELD[0] -= 1
        if not _HELD[0] and _PENDING:
            signum = _PENDING[0]
            _PENDING.clear()
            raise interrupt(signum)


def _stop(signum: int, _frame: FrameType | None) -> None:
    global received
    if os.getpid() != _PID[0]:  # a forked worker before it set its own (voyage.actions.forecast)
        if signum == signal.SIGINT:
            return  # Ctrl-C is its parent's, as the worker will say in a moment
        os._exit(exit_status(signum))
    received = signum
    if signum != signal.SIGINT:
        # once: a repeated signal (a process manager may send it again) must not break
        # into the rollback and the removal of temporary files the first one started
        for other in STOP_SIGNALS:
            if signal.getsignal(other) is _stop:
                signal.signal(other, signal.SIG_IGN)
    if _HELD[0]:
        _PENDING.append(signum)  # raised when the block ends (:func:`held`)
        return
    raise interrupt(signum)


def interrupt(signum: int) -> KeyboardInterrupt:
    """The exception a signal raises: KeyboardInterrupt for Ctrl-C, else :class:`Stopped`."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


def raise_received() -> None:
    """After an error that may be what became of a signal's exception (see the module's
    docstring): raise the interrupt again when a signal came."""
    if received is not None:
        raise interrupt(received)


def signal_number(exc: BaseException | None) -> int:
    """The signal behind a KeyboardInterrupt: SIGINT (Ctrl-C) unless it is :class:`Stopped`."""
    return exc.signum if isinstance(exc, Stopped) else int(signal.SIGINT)


def exit_status(signum: int) -> int:
    """What a shell reports for a command the signal stopped: 128 + its number."""
    return 128 + signum


def interrupted_line(signum: int, saved: bool) -> str:
    """The one line (after "Error: ") for a command a signal stopped: what stopped it and
    whether the campaign changed."""
    what = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    if saved:
        return (
            f"interrupted ({what}) after the change was saved: `voyage history` shows it "
            "and `voyage undo` takes it back"
        )
    return f"interrupted ({what}): the campaign was not changed"
