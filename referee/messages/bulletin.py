"""The words of the one notice a GM mail gives each player (:mod:`referee.gm.bulletin`): a subject under 78
characters, one line per robot or matter changed, then what the player must do about it (a new hand and its
order form, an invitation to send orders while the turn is open).

The lines are written as ``- `` bullets in the first paragraph of the notice: the turn mail's "New since your
last mail" block (:mod:`referee.reports.news`) takes those lines and nothing after them, so a results mail
never repeats an invitation meant for the open turn.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

#: a turn without a deadline
NO_DEADLINE = "the deadline (none is set: the turn waits for every program)"
#: the longest subject a notice gets (mail clients show about this much; RFC 5322 advises 78 a line)
SUBJECT_MAX = 77
BULLET = "- "


def subject(game: str, subjects: Sequence[str]) -> str:
    """The notice's subject: the one change's own (``RR-1: Twonky corrected``), else how many changes."""
    one = f"{game}: {subjects[0]}" if len(subjects) == 1 else f"{game}: {len(subjects)} changes by the game master"
    return one if len(one) <= SUBJECT_MAX else one[:SUBJECT_MAX - 3].rstrip() + "..."


def body(game: str, lines: Sequence[str], tails: Sequence[str]) -> str:
    """The notice: a head, one bullet per change, then the paragraphs the player must act on."""
    head = f"The game master of {game} made {'this change' if len(lines) == 1 else 'these changes'}:"
    out = [head]
    for line in lines:
        out += textwrap.wrap(line, 78, initial_indent=BULLET, subsequent_indent="  ", break_long_words=False,
                             break_on_hyphens=False) or [BULLET.rstrip()]
    for tail in tails:
        out += ["", tail.rstrip("\n")]
    return "\n".join(out) + "\n"


def bullets(paragraph: str) -> list[str] | None:
    """The changes of a notice's first paragraph written by :func:`body`, each on one line; None when the
    paragraph holds no bullets (a notice of another shape)."""
    found: list[str] = []
    for line in paragraph.split("\n"):
        if line.startswith(BULLET):
            found.append(line[len(BULLET):].strip())
        elif line.startswith("  ") and found:
            found[-1] += " " + line.strip()
    return found or None


# -- the lines and what the player must do -------------------------------------------------------------------
def robot_changed(robot: str, what: Sequence[str]) -> str:
    return f"{robot}: {', '.join(what)}" if what else f"{robot}: set again, nothing changed"


def program_entered(turn: int, program: str) -> str:
    return f"your program for turn {turn} was entered by the game master: {program}"


STILL_OPEN = "You may still send your own orders before the deadline; the last ones count."


def new_hand(turn: int, hand: Sequence[str], locked: Sequence[tuple[int, str]], deadline: str, form: str) -> str:
    """Sent to a player whose hand the GM's correction dealt again: the hand and the order form."""
    cards = f"{len(hand)} card{'s' if len(hand) != 1 else ''}"
    head = (f"Your hand for turn {turn} was dealt again ({cards}); orders sent for this turn before the correction "
            f"no longer count. Send your program by {deadline}.")
    lines = [*textwrap.wrap(head, 78), "", f"Your hand ({cards}, numbered as you may name them):"]
    lines += [f"  {i:2d}  {card}" for i, card in enumerate(hand, start=1)]
    lines += [f"  register {reg} is fused with {card}" for reg, card in locked]
    lines += ["", "Reply to this mail with this block filled in:", "", form.rstrip("\n")]
    return "\n".join(lines)


def orders_void(turn: int, deadline: str) -> str:
    """To a player whose hand stayed the same but whose orders the correction voided."""
    return "\n".join(textwrap.wrap(f"Your hand for turn {turn} is unchanged, but orders sent for this turn before "
                                   f"the correction no longer count: send your program again by {deadline}.", 78))


def new_option(line: str) -> str:
    """The line that explains an option card the GM gave the reader's robot."""
    return f"your new option card {line}"
