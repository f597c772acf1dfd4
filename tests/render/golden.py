"""Golden files: what a template renders for the seeded turn, kept under ``tests/render/golden/``.

After a deliberate change to a template or to the tables, regenerate them and review the diff:

    REFEREE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render -q
"""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no golden file {path}; run with REFEREE_UPDATE_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name} differs from its golden file (REFEREE_UPDATE_GOLDEN=1 to accept)"
