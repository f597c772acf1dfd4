"""The turn's GIF written from palette frames that share one palette.

Each frame after the first is stored as the box that changed since the frame before, its unchanged pixels
made transparent (long runs compress well), under the one global palette: what Pillow's ``optimize`` does,
without its whole-frame work per frame (a palette remapped per frame, an RGBA diff, a full-frame mask and
copy). Pillow still writes the header and LZW-encodes every box (``GifImagePlugin.getheader`` and
``getdata``, its GIF helpers for writing a file frame by frame).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import cast

from PIL import GifImagePlugin, Image, ImageChops

Box = tuple[int, int, int, int]


def _pillow_gif(frames: Sequence[Image.Image], durations: list[int]) -> bytes:
    """Pillow's own optimising writer: for frames that do not share one palette."""
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=list(frames[1:]), duration=durations, loop=0,
                   optimize=True, disposal=1)
    return buf.getvalue()


class _Table(Image.ImagePointHandler):
    """A lookup table of whole numbers for ``Image.point``, applied as it applies a list (Pillow's own mapping)
    without its rounding every entry again on each call (once a frame)."""

    def __init__(self, table: list[int]) -> None:
        self.table = table

    def point(self, im: Image.Image) -> Image.Image:
        return im._new(im.im.point(self.table, None))


def gif_bytes(frames: Iterable[Image.Image], durations: Sequence[int] | int = 1000) -> bytes:
    """An endlessly looping GIF of palette frames; a frame the same as the one before adds its time to it.

    ``frames`` may come one at a time (an iterator: only the frame before is kept, so a turn's frames need not
    all be in memory at once); they must then share the first one's palette. A sequence of frames that do not
    goes to Pillow's own writer."""
    sequence = isinstance(frames, Sequence)
    it = iter(frames)
    first = next(it, None)
    if first is None:
        raise ValueError("a GIF needs at least one frame")
    palette = first.getpalette() if first.mode == "P" else None
    if sequence:
        listed = list(cast(Sequence[Image.Image], frames))
        durs = list(durations) if not isinstance(durations, int) else [durations] * len(listed)
        if palette is None or any(f.mode != "P" or f.size != first.size or f.getpalette() != palette
                                  for f in listed[1:]):
            return _pillow_gif(listed, durs)
    elif palette is None:
        raise ValueError("frames one at a time must be palette images")
    times = iter([durations] * (1 << 30) if isinstance(durations, int) else durations)
    colours = len(palette) // 3
    clear = colours if colours < 256 else None  # a palette entry no frame uses
    # where a pixel did not change, the clear entry: the changed pixels are 0 after this table, the unchanged
    # ones the clear entry, so the lighter of it and the frame is the frame with its unchanged pixels clear
    unchanged = _Table([clear or 0] + [0] * 255)
    shown = first.copy()  # Pillow's helpers set things on the image they write
    first_ms = next(times)
    kept: list[tuple[Image.Image, Box | None, int]] = [(shown, None, first_ms)]
    before = first
    for after in it:
        ms = next(times)
        if not sequence and (after.mode != "P" or after.size != first.size or after.getpalette() != palette):
            raise ValueError("frames one at a time must share the first one's palette and size")
        delta = ImageChops.subtract_modulo(after, before)
        before = after
        box = delta.getbbox(alpha_only=False)
        if box is None:
            img, was, total = kept[-1]
            kept[-1] = (img, was, total + ms)
            continue
        part = after.crop(box)
        if clear is not None:
            part = ImageChops.lighter(part, delta.crop(box).point(unchanged))
        kept.append((part, box, ms))
    header, _ = GifImagePlugin.getheader(shown, None, {"loop": 0, "duration": first_ms})
    out = list(header)
    for img, box, ms in kept:
        info: dict[str, int] = {"duration": ms, "disposal": 1}
        if box is not None and clear is not None:
            info["transparency"] = clear
        out += GifImagePlugin.getdata(img, box[:2] if box else (0, 0), **info)
    out.append(b";")
    return b"".join(out)
