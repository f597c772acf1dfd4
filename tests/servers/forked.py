"""``referee`` processes forked from a Python that has already imported the product: for tests that start and
kill dozens of them one after another.

A fresh ``python -m referee.cli`` spends most of a short run importing (about 0.7 s of processor time for a
poll or a tick that takes 1 s). :class:`Forker` starts one helper process (``python -m tests.servers.forked``)
that imports every module of ``referee`` once; each :meth:`Forker.start` then has it fork a child that runs the
command line with the given arguments, environment, working directory and standard input, its output in pipes
of the caller's. The child is a real process of its own, killed by a real signal; only the imports are done
before it starts. :class:`Forked` answers what the tests ask of a :class:`subprocess.Popen` (``pid``,
``communicate``, ``returncode``, ``send_signal``, ``kill``) and ``cpu``, the processor time of the whole run.

One child at a time per forker (the helper waits for each before the next).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import pkgutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the largest request: arguments, environment, working directory
_MAX_REQUEST = 1 << 20


class Forker:
    """The helper process; close it when done (the session fixture ``forker`` does)."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        self._helper = subprocess.Popen([sys.executable, "-m", "tests.servers.forked", str(theirs.fileno())],
                                        pass_fds=[theirs.fileno()], cwd=ROOT, stdin=subprocess.DEVNULL)
        theirs.close()
        self._sock = ours
        self._answers = ours.makefile("rb")
        self._lock = threading.Lock()
        self._last: Forked | None = None

    def start(self, args: list[str], *, env: dict[str, str], cwd: Path | str = ROOT,
              stdin: int | None = None) -> Forked:
        """``referee ARGS`` in a forked child; ``stdin``: a file descriptor to read (default: /dev/null). The
        child started before must have ended."""
        assert self._last is None or self._last._status, "one child at a time"
        self._last = Forked(self, args, env, str(cwd), stdin)
        return self._last

    def close(self) -> None:
        self._sock.close()
        self._answers.close()
        self._helper.wait(timeout=60)


class Forked:
    """A running (or finished) child of a :class:`Forker`."""

    def __init__(self, forker: Forker, args: list[str], env: dict[str, str], cwd: str, stdin: int | None) -> None:
        self.args = ["referee", *args]
        self.returncode: int | None = None
        #: processor time of the whole run (user + system), once it ended
        self.cpu = 0.0
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        in_fd = os.open(os.devnull, os.O_RDONLY) if stdin is None else os.dup(stdin)
        request = json.dumps({"args": args, "env": env, "cwd": cwd}).encode()
        with forker._lock:
            socket.send_fds(forker._sock, [request], [in_fd, out_w, err_w])
            for fd in (in_fd, out_w, err_w):
                os.close(fd)
            self.pid = int(json.loads(forker._answers.readline())["pid"])
        self._out: list[bytes] = []
        self._err: list[bytes] = []
        self._status: dict[str, float] = {}
        self._threads = [threading.Thread(target=_drain, args=(out_r, self._out), daemon=True),
                         threading.Thread(target=_drain, args=(err_r, self._err), daemon=True),
                         threading.Thread(target=self._wait, args=(forker,), daemon=True)]
        for thread in self._threads:
            thread.start()

    def _wait(self, forker: Forker) -> None:
        line = forker._answers.readline()
        self._status.update(json.loads(line) if line else {"status": -1, "cpu": 0.0})

    def communicate(self, timeout: float | None = None) -> tuple[bytes, bytes]:
        """Its whole output and error output once it ended; :class:`subprocess.TimeoutExpired` before."""
        for thread in self._threads:
            thread.join(timeout)
            if thread.is_alive():
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
        status = int(self._status["status"])
        self.returncode = os.waitstatus_to_exitcode(status) if status >= 0 else 255
        self.cpu = float(self._status["cpu"])
        return b"".join(self._out), b"".join(self._err)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None and not self._status:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _drain(fd: int, into: list[bytes]) -> None:
    with open(fd, "rb", buffering=0) as pipe:
        while chunk := pipe.read(65536):
            into.append(chunk)


# -- the helper process -------------------------------------------------------------------------------------------
def _serve(sock: socket.socket) -> None:
    import referee

    for module in pkgutil.walk_packages(referee.__path__, "referee."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    while True:
        request, fds, _, _ = socket.recv_fds(sock, _MAX_REQUEST, 3)
        if not request:
            return
        pid = os.fork()
        if pid == 0:
            sock.close()
            _child(json.loads(request), fds)
        for fd in fds:
            os.close(fd)
        sock.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        _, status, usage = os.wait4(pid, 0)
        sock.sendall(json.dumps({"status": status, "cpu": usage.ru_utime + usage.ru_stime}).encode() + b"\n")


def _child(request: dict[str, object], fds: list[int]) -> None:
    """Run the command line as ``python -m referee.cli`` would, then exit (never returns)."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(str(request["cwd"]))
        os.environ.clear()
        os.environ.update(request["env"])  # type: ignore[arg-type]
        sys.argv = ["referee", *request["args"]]  # type: ignore[misc]
        from referee.cli import main

        try:
            main(args=list(request["args"]), prog_name="referee")  # type: ignore[call-overload]
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
        import atexit

        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


if __name__ == "__main__":
    _serve(socket.socket(fileno=int(sys.argv[1])))
