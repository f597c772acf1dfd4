"""Free loopback ports, and a port that listens but never answers."""

from __future__ import annotations

import socket
import time

from .processes import patience


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    """Until something listens on ``port``: ``timeout`` seconds on a quiet machine, longer on a loaded one."""
    timeout = patience(timeout)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout:.0f} s")


class SilentPort:
    """A loopback port that accepts connections but never answers: :meth:`knocked` says whether anyone came."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = int(self.sock.getsockname()[1])

    def knocked(self) -> bool:
        self.sock.setblocking(False)
        try:
            conn, _ = self.sock.accept()
        except BlockingIOError:
            return False
        conn.close()
        return True

    def close(self) -> None:
        self.sock.close()
