"""Logging: one line per event, ``time level logger: message``, to standard error.

``referee --verbose`` (or ``log_level = "debug"`` in the settings) shows every step; the default
shows warnings and errors only, so cron mails the operator only when something needs a look.
"""

from __future__ import annotations

import logging
import sys
import time


class LineFormatter(logging.Formatter):
    converter = time.gmtime

    def __init__(self) -> None:
        super().__init__("%(asctime)sZ %(levelname)s %(name)s: %(message)s", "%Y-%m-%dT%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text.replace("\n", " | ")  # one event, one line


def setup(level: str = "warning", verbose: bool = False, file: str | None = None) -> None:
    """Log at ``level`` (everything when ``verbose``) to standard error, or appended to ``file``."""
    root = logging.getLogger("referee")
    if getattr(root, "_referee_configured", False):
        root.setLevel(logging.DEBUG if verbose else getattr(logging, level.upper(), logging.WARNING))
        if file is None:
            return
        for old in list(root.handlers):
            root.removeHandler(old)
    handler: logging.Handler = logging.FileHandler(file) if file else logging.StreamHandler(sys.stderr)
    handler.setFormatter(LineFormatter())
    root.addHandler(handler)
    root.propagate = False
    root.setLevel(logging.DEBUG if verbose else getattr(logging, level.upper(), logging.WARNING))
    root._referee_configured = True  # type: ignore[attr-defined]
