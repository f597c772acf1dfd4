"""What every part of the order reader shares: a line made ready to read, and how a line is refused."""

from __future__ import annotations

import re
from dataclasses import dataclass


class Bad(Exception):
    """A line that cannot be read; the message is for the player."""


_COMMENT = re.compile(r"#(?!\d).*$")
_BULLET = re.compile(r"^(?:[*•·‣◦]+|-(?=\s))\s*")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_SPACES = re.compile(r"[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_DASHES = re.compile(r"[\u2010-\u2015\u2212]")


def reg_number(label: str) -> int:
    """A register label (``1``-``5`` or phase ``A``-``E``) as its number."""
    return int(label) if label.isdigit() else "ABCDE".index(label) + 1


def normalize_line(raw: str) -> str:
    """A line as the parser sees it: comments, bullets, odd spaces and dashes removed, upper case."""
    text = raw.translate(_INVISIBLE)
    text = _DASHES.sub("-", text)
    text = _SPACES.sub(" ", text).strip()
    text = text.replace("\u2019", "'")
    text = _COMMENT.sub("", text).strip()
    text = _BULLET.sub("", text.upper()).strip()
    return text


def short(text: str, width: int = 80) -> str:
    """``text`` cut to ``width`` characters for an error message."""
    text = text.strip()
    return text if len(text) <= width else text[: width - 3] + "..."


@dataclass(frozen=True)
class Line:
    """One line of orders: its number in the mail, as written, and as normalized (upper case)."""

    number: int
    raw: str
    text: str

    @property
    def bare(self) -> str:
        """The normalized line without its closing punctuation."""
        return self.text.rstrip(".!?").strip()

    @property
    def first(self) -> str:
        return self.text.split()[0]

    @property
    def pair(self) -> tuple[str, str]:
        """The first two words (the second empty when there is one)."""
        words = self.text.split()
        return words[0], words[1] if len(words) > 1 else ""
