"""Text from mail and from players, made safe to show: no bidi controls, no terminal escapes.

A name holding U+202E (RIGHT-TO-LEFT OVERRIDE) shows the text after it backwards, in a mail client,
a web page or a terminal, so a robot's "name" can make the archive or an answer say what it does
not. A mail header holding ESC [ ... can clear or rewrite an operator's terminal. So:

- :func:`strip_bidi` takes the bidi formatting characters out (every output the referee writes:
  names and titles when they are stored, answers, turn mails and the archive's templates);
- :func:`clean_name` also takes control characters out of a name or title given by a GM;
- :func:`clean_text` takes them out of a player's text relayed to others (press), keeping its lines;
- :func:`for_terminal` writes control, bidi and other invisible format characters as visible escapes
  (``\\x1b``, ``\\u202e``), for the command line's listings of mail.
"""

from __future__ import annotations

import unicodedata

#: the bidi embedding, override, isolate and mark characters
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NO_BIDI = dict.fromkeys(map(ord, BIDI))


def strip_bidi(text: str) -> str:
    return text.translate(_NO_BIDI)


def clean_name(text: str) -> str:
    """A name or title: no bidi controls, no control characters, single spaces."""
    kept = "".join(" " if unicodedata.category(c) == "Cc" else c for c in strip_bidi(text))
    return " ".join(kept.split())


def clean_text(text: str) -> str:
    """A player's text relayed to others (press): no bidi controls, no control characters (ESC and the
    like) but line breaks and tabs."""
    return "".join(c for c in strip_bidi(text) if c in "\n\t" or unicodedata.category(c) != "Cc")


def for_terminal(text: str) -> str:
    """``text`` with every control, bidi or format character written as a visible escape."""
    out = []
    for c in text:
        if c in BIDI or unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            code = ord(c)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(c)
    return "".join(out)
