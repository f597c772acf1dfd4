"""``referee`` processes forked from a Python that has already imported the product: for tests that start (and
kill) dozens of them.

A fresh ``python -m referee.cli`` spends most of a short run importing (about 0.7 s of processor time for a
poll or a tick that takes 1 s). :class:`Forker` starts one helper process (``python -m tests.servers.forked``)
that imports every module of ``referee`` once; each :meth:`Forker.start` has it fork a child that runs the
command line with the given arguments, environment, working directory and standard input, its output in pipes
of the caller's. The child is a real process of its own, killed by a real signal, racing the others for real;
only the imports are done before it starts. :class:`Forked` answers what the tests ask of a
:class:`subprocess.Popen` (``pid``, ``poll``, ``wait``, ``communicate``, ``returncode``, ``send_signal``,
``kill``) and ``cpu``, the processor time of its whole run. :func:`shared` is this process's forker.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import pkgutil
import queue
import select
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: the largest request: arguments, environment, working directory
_MAX_MESSAGE = 1 << 20
_shared: Forker | None = None


def shared() -> Forker:
    """The forker of this process (started when first asked for, stopped at exit)."""
    global _shared
    if _shared is None:
        _shared = Forker()
        atexit.register(_shared.close)
    return _shared


class Forker:
    """The helper process and what it reports (``started`` and ``ended`` messages, one packet each)."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._helper = subprocess.Popen([sys.executable, "-m", "tests.servers.forked", str(theirs.fileno())],
                                        pass_fds=[theirs.fileno()], cwd=ROOT, stdin=subprocess.DEVNULL)
        theirs.close()
        self._sock = ours
        self._lock = threading.Lock()
        self._started: queue.Queue[int] = queue.Queue()
        self._ended: dict[int, dict[str, Any]] = {}
        self._changed = threading.Condition()
        self._closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while message := self._sock.recv(65536):
            report = json.loads(message)
            if "started" in report:
                self._started.put(int(report["started"]))
                continue
            with self._changed:
                self._ended[int(report["ended"])] = report
                self._changed.notify_all()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def start(self, args: list[str], *, env: dict[str, str], cwd: Path | str | None = None,
              stdin: int | None = None, text: bool = False) -> Forked:
        """``referee ARGS`` in a forked child; ``stdin``: a file descriptor to read (default: /dev/null)."""
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        in_fd = os.open(os.devnull, os.O_RDONLY) if stdin is None else os.dup(stdin)
        request = json.dumps({"args": args, "env": env, "cwd": str(cwd or os.getcwd())}).encode()
        with self._lock:
            socket.send_fds(self._sock, [request], [in_fd, out_w, err_w])
            for fd in (in_fd, out_w, err_w):
                os.close(fd)
            pid = self._started.get(timeout=600)
        return Forked(self, pid, ["referee", *args], out_r, err_r, text)

    def ended(self, pid: int, timeout: float | None) -> dict[str, Any] | None:
        """How ``pid`` ended (``status``, ``cpu``), waiting at most ``timeout`` seconds; None if it still runs."""
        with self._changed:
            self._changed.wait_for(lambda: pid in self._ended or self._closed, timeout)
            return self._ended.get(pid, {"status": -1, "cpu": 0.0} if self._closed else None)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)   # the helper sees the end (and so does our reader)
        self._sock.close()
        self._helper.wait(timeout=60)


class Forked:
    """A running (or finished) child of a :class:`Forker`."""

    def __init__(self, forker: Forker, pid: int, args: list[str], out_fd: int, err_fd: int, text: bool) -> None:
        self._forker = forker
        self.pid = pid
        self.args = args
        self.returncode: int | None = None
        #: processor time of the whole run (user + system), once it ended
        self.cpu = 0.0
        self._text = text
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._drains = [threading.Thread(target=_drain, args=(out_fd, self._out), daemon=True),
                        threading.Thread(target=_drain, args=(err_fd, self._err), daemon=True)]
        for thread in self._drains:
            thread.start()

    def poll(self) -> int | None:
        return self.wait(0) if self.returncode is None else self.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        """Its exit status (``-N``: killed by signal N); None if still running after ``timeout`` (0: a look)."""
        if self.returncode is None:
            report = self._forker.ended(self.pid, timeout)
            if report is None:
                if timeout:
                    raise subprocess.TimeoutExpired(self.args, timeout)
                return None
            status = int(report["status"])
            self.returncode = os.waitstatus_to_exitcode(status) if status >= 0 else 255
            self.cpu = float(report["cpu"])
        return self.returncode

    def communicate(self, timeout: float | None = None) -> tuple[Any, Any]:
        """Its whole output and error output once it ended; :class:`subprocess.TimeoutExpired` before."""
        if self.wait(timeout) is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        for thread in self._drains:
            thread.join(timeout)
            if thread.is_alive():   # a grandchild holds the pipe
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
        out, err = b"".join(self._out), b"".join(self._err)
        if self._text:
            return _text(out), _text(err)
        return out, err

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _drain(fd: int, into: list[bytes]) -> None:
    with open(fd, "rb", buffering=0) as pipe:
        while chunk := pipe.read(65536):
            into.append(chunk)


def _text(data: bytes) -> str:
    return data.decode().replace("\r\n", "\n").replace("\r", "\n")


# -- the helper process -------------------------------------------------------------------------------------------
def _serve(sock: socket.socket) -> None:
    import referee

    for module in pkgutil.walk_packages(referee.__path__, "referee."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    children: set[int] = set()
    while True:
        ready, _, _ = select.select([sock], [], [], 0.01 if children else None)
        if ready:
            request, fds, _, _ = socket.recv_fds(sock, _MAX_MESSAGE, 3)
            if not request:
                return
            pid = os.fork()
            if pid == 0:
                sock.close()
                _child(json.loads(request), fds)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            sock.send(json.dumps({"started": pid}).encode())
        while children:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
            if pid == 0:
                break
            children.discard(pid)
            sock.send(json.dumps({"ended": pid, "status": status, "cpu": usage.ru_utime + usage.ru_stime}).encode())


def _child(request: dict[str, Any], fds: list[int]) -> None:
    """Run the command line as ``python -m referee.cli`` would, then exit (never returns)."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["referee", *request["args"]]
        from referee.cli import main

        try:
            main(args=list(request["args"]), prog_name="referee")
            code = 0
        except SystemExit as exc:
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


if __name__ == "__main__":
    _serve(socket.socket(fileno=int(sys.argv[1])))
