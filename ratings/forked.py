"""Run part of a replay in a forked child process, on the second core.

The rating systems are independent of each other: ORR never reads an Mchess rating. A long
replay therefore rates ORR in a child while the parent rates Mchess and PlayChess. The child
gets everything it needs by fork (the history is read before it starts), never touches the
database, and sends its RatingChange rows as ready COPY lines through a pipe; the parent puts
them into its own COPY, inside its own transaction, so the run stays all or nothing. At the
end the child sends its final standings. Linux (fork) only: elsewhere the replay runs in one
process.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import traceback
from collections.abc import Callable

CHUNK = 1 << 20  # the child sends its lines in pieces of about a megabyte


class ChildFailed(RuntimeError):
    pass


class Child:
    """A forked child running `work(write_line) -> result`; lines are COPY text lines."""

    def __init__(self, work: Callable[[Callable[[str], None]], object]):
        lines_read, lines_write = os.pipe()
        result_read, result_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child, reported through the pipes
            os.close(lines_read)
            os.close(result_read)
            _child(work, lines_write, result_write)
        os.close(lines_write)
        os.close(result_write)
        self.pid = pid
        self._lines = lines_read
        self._result = result_read
        self._pending = b""
        os.set_blocking(lines_read, False)

    def forward(self, write: Callable[[bytes], None]) -> None:
        """Pass on the complete lines the child has sent so far, without waiting."""
        while select.select([self._lines], [], [], 0)[0]:
            data = os.read(self._lines, CHUNK)
            if not data:
                break
            self._send(data, write)

    def finish(self, write: Callable[[bytes], None]) -> object:
        """Pass on the rest of the lines, then return the child's result (or raise its error)."""
        os.set_blocking(self._lines, True)
        while data := os.read(self._lines, CHUNK):
            self._send(data, write)
        os.close(self._lines)
        if self._pending:
            raise ChildFailed("the child's last line was cut off")
        pieces = []  # joined once: the result holds tens of megabytes of ready COPY text
        while data := os.read(self._result, CHUNK):
            pieces.append(data)
        os.close(self._result)
        payload = b"".join(pieces)
        del pieces  # the worker's peak memory is measured: one copy of the result at a time
        _, status = os.waitpid(self.pid, 0)
        if not payload:
            raise ChildFailed(f"the child process ended without a result (status {status})")
        ok, result = pickle.loads(payload)  # noqa: S301 - our own child, through our own pipe
        del payload
        if not ok:
            raise ChildFailed(f"the child process failed:\n{result}")
        return result

    def kill(self) -> None:
        """Stop the child after a failure in the parent (the transaction rolls back anyway)."""
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        for fd in (self._lines, self._result):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _send(self, data: bytes, write: Callable[[bytes], None]) -> None:
        data = self._pending + data
        end = data.rfind(b"\n") + 1
        self._pending = data[end:]
        if end:
            write(data[:end])


def _child(work, lines_fd: int, result_fd: int) -> None:  # pragma: no cover - runs in the child
    status = 1
    try:
        buffer: list[str] = []
        size = 0

        def write_line(line: str) -> None:
            nonlocal size
            buffer.append(line)
            size += len(line)
            if size >= CHUNK:
                _write_all(lines_fd, "".join(buffer).encode())
                buffer.clear()
                size = 0

        result = work(write_line)
        _write_all(lines_fd, "".join(buffer).encode())
        os.close(lines_fd)
        _write_all(result_fd, pickle.dumps((True, result), protocol=pickle.HIGHEST_PROTOCOL))
        status = 0
    except BaseException:  # everything goes back to the parent; if even that fails, it sees no result
        with contextlib.suppress(BaseException):
            _write_all(result_fd, pickle.dumps((False, traceback.format_exc())))
    finally:
        # Never run the parent's exit handlers (database connections, logging) in the child.
        os._exit(status)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
