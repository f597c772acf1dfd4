"""Tables as fixed-width text, for the plain-text part of the mails: a label column and a column per robot,
items wrapped inside their column; players beyond what fits the width go to a further block below."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from functools import lru_cache

from .report_types import Table

WIDTH = 78
COLUMN = 14
#: width of the row labels (the longest, 'checkpoint', and a space)
LABEL = 11
GUTTER = 2


_GLUE = "\x1f"


def _wrap(items: Sequence[str], width: int) -> list[str]:
    """Each item on lines of at most ``width``; a short last word (``at 670``) is not left alone on a line."""
    out: list[str] = []
    for item in items:
        out.extend(_wrap_item(item, width))
    return out


@lru_cache(maxsize=4096)  # the same few words ("-", "moved 2", a square...) in every table of every turn
def _wrap_item(item: str, width: int) -> tuple[str, ...]:
    head, sep, last = item.rpartition(" ")
    if sep and len(last) <= 4 and " " in head:
        before, _, word = head.rpartition(" ")
        item = f"{before} {word}{_GLUE}{last}"
    lines = textwrap.wrap(item, width, break_long_words=True, break_on_hyphens=False) or [""]
    return tuple(line.replace(_GLUE, " ") for line in lines)


def _grid_lines(label: str, cells: list[list[str]], label_w: int, col_w: int) -> list[str]:
    """One table row: the label, then each cell's lines side by side."""
    out = []
    for i in range(max(len(c) for c in cells)):
        parts = [f"{label if i == 0 else '':<{label_w}}"]
        parts += [f"{(c[i] if i < len(c) else ''):<{col_w}}" for c in cells]
        out.append((" " * GUTTER).join(parts).rstrip())
    return out


def text_table(table: Table, width: int = WIDTH) -> str:
    """The table as fixed-width text; players beyond what fits in ``width`` go to a further block below."""
    label_w = LABEL
    ncols = max(1, len(table.columns))
    fit = max(1, (width - label_w) // (COLUMN + GUTTER))
    # as few blocks as fit, shared out evenly; few players get wider columns, which wrap less
    per_block = math.ceil(ncols / math.ceil(ncols / fit))
    col_w = max(COLUMN, min(24, (width - label_w) // per_block - GUTTER))
    blocks = []
    for start in range(0, ncols, per_block):
        idx = list(range(start, min(ncols, start + per_block)))
        lines: list[str] = []
        header = [_wrap([table.columns[i].label], col_w) + _wrap([f"({table.columns[i].colour})"], col_w)
                  for i in idx]
        lines += _grid_lines("", header, label_w, col_w)
        lines.append((" " * GUTTER).join(["-" * label_w] + ["-" * col_w for _ in idx]))
        for row in table.rows:
            lines += _grid_lines(row.label, [_wrap(row.cells[i], col_w) for i in idx], label_w, col_w)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
