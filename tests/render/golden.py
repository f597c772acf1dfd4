"""Golden files: what a template renders for the seeded turn, kept under ``tests/render/golden/``.

After a deliberate change to a template or to the tables, regenerate them and review the diff:

    REFEREE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render -q
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

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


def check_golden_png(name: str, img: Image.Image) -> None:
    """``img`` (any mode, compared as RGB) is the picture kept as ``golden/<name>``: pixel for pixel."""
    path = GOLDEN / name
    rgb = img.convert("RGB")
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        rgb.save(path, "PNG", optimize=True)
    assert path.is_file(), f"no golden picture {path}; run with REFEREE_UPDATE_GOLDEN=1 to write it (and look at it)"
    with Image.open(path) as golden:
        assert golden.size == rgb.size, f"{name}: {rgb.size}, the golden picture {golden.size}"
        box = ImageChops.difference(golden.convert("RGB"), rgb).getbbox()
    assert box is None, f"{name} differs from its golden picture in {box} (REFEREE_UPDATE_GOLDEN=1 to accept)"
