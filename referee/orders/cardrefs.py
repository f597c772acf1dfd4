"""Cards as players write them: ``FWD2 670``, ``Move-2 P670``, a priority, a hand position, a type alone.

:func:`scan_cards` reads the cards of a stretch of text; :func:`reads_as_program` tells a line meant as
a program (if a broken one) from prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.engine.cards import BY_PRIORITY, Card, CardError, CardType, card_type, parse_card

from .reading import Bad, short


@dataclass(frozen=True)
class Ref:
    """One card as written: exactly (type and priority), by priority, by hand position, or by type."""

    line: int
    text: str
    card: Card | None = None         # exact or by priority
    position: int | None = None      # 1-based hand position
    ctype: CardType | None = None    # type alone
    #: the type was written out in words ("Turn right", "Reverse", "Forward 3"): it must name exactly one
    #: card of the hand, or the player is asked which
    loose: bool = False
    #: "locked" in a list: the locked register's own card
    locked: bool = False


_NUMBER = re.compile(r"#?(\d{1,6})")
_PRIORITY = re.compile(r"P(\d{1,6})")
_GLUED_TAIL = re.compile(r"[-:/]?P?(\d{2,3})")
_TOKEN_SPLIT = re.compile(r"[\s|/()\[\]{}+]+")
HARD_SPLIT = re.compile(r"[,;&]|\bAND\b|\bTHEN\b")


def type_of(word: str) -> CardType | None:
    try:
        return card_type(word)
    except CardError:
        return None


#: card types as players write them out, one word (read against the hand: see ``Ref.loose``)
_WORDS = {"REVERSE": "RVS1", "BACKWARD": "RVS1", "BACKWARDS": "RVS1", "REV": "RVS1", "RVS": "RVS1",
          "R": "RT90", "L": "LF90", "U": "UTRN", "RIGHT90": "RT90", "LEFT90": "LF90", "RT": "RT90", "LF": "LF90",
          "RIGHTTURN": "RT90", "LEFTTURN": "LF90", "TURNRIGHT": "RT90", "TURNLEFT": "LF90", "UTRN": "UTRN"}
#: ... and two words
_PAIRS = {("TURN", "RIGHT"): "RT90", ("ROTATE", "RIGHT"): "RT90", ("RIGHT", "TURN"): "RT90",
          ("TURN", "LEFT"): "LF90", ("ROTATE", "LEFT"): "LF90", ("LEFT", "TURN"): "LF90",
          ("TURN", "AROUND"): "UTRN"}
_FORWARD = re.compile(r"^(?:FORWARD|FWD|MOVE|M)-?([123])$")
_FORWARD_WORD = {"FORWARD", "FWD", "MOVE", "M"}


def written_type(tokens: list[str], i: int) -> tuple[CardType, int] | None:
    """A card type written out in words at ``tokens[i]`` ("Forward 3", "Turn right", "M3", "Reverse",
    "R" before a priority): the type and how many tokens it takes; None when there is none."""
    tok = tokens[i]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    if (tok, nxt) in _PAIRS:
        return card_type(_PAIRS[tok, nxt]), 2
    if tok in _FORWARD_WORD and nxt in ("1", "2", "3"):
        return card_type(f"FWD{nxt}"), 2
    m = _FORWARD.match(tok)
    if m:
        return card_type(f"FWD{m.group(1)}"), 1
    if tok in _WORDS:
        return card_type(_WORDS[tok]), 1
    return None


def _exact(ctype: CardType, priority: int, line: int, text: str) -> Ref:
    try:
        card = parse_card(f"{ctype.code} {priority}")
    except CardError:
        others = BY_PRIORITY.get(priority)
        hint = f"; {priority} is {others}" if others else ""
        raise Bad(f"there is no {ctype.code} card with priority {priority}{hint}") from None
    return Ref(line, text, card=card)


def scan_cards(text: str, line: int) -> list[Ref]:
    """The cards written in ``text``, in order. Raises Bad for a word that is not a card.

    Commas, semicolons, "and" and "then" always separate cards; within one stretch a type followed
    by a priority is one card (``LF90 90``), so ``LF90 40`` is an error rather than two cards.
    """
    refs: list[Ref] = []
    for chunk in HARD_SPLIT.split(text.upper()):
        refs.extend(_scan_chunk(chunk, line))
    return refs


def _scan_chunk(text: str, line: int) -> list[Ref]:
    tokens = [t.strip(".:!?'\"") for t in _TOKEN_SPLIT.split(text)]
    tokens = [t for t in tokens if t.strip("-")]
    refs: list[Ref] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        m = _NUMBER.fullmatch(tok) or _PRIORITY.fullmatch(tok)
        if m:
            value = int(m.group(1))
            if tok.startswith("P") or value >= 10:
                card = BY_PRIORITY.get(value)
                if card is None:
                    raise Bad(f"there is no card with priority {value}")
                refs.append(Ref(line, tok, card=card))
            else:
                refs.append(Ref(line, tok, position=value))
            i += 1
            continue
        if tok in ("LOCKED", "FUSED"):
            if not refs or refs[-1].locked:   # "locked" standing for a card; after a card it only marks it
                refs.append(Ref(line, tok, locked=True))
            i += 1
            continue
        ctype = None
        loose = False
        two = type_of(f"{tok} {tokens[i + 1]}") if i + 1 < len(tokens) else None   # U TURN, MOVE 2
        if two is None and type_of(tok) is None and (written := written_type(tokens, i)) is not None:
            ctype, taken = written
            word = " ".join(tokens[i:i + taken])
            i += taken
            loose = True
        if ctype is None and i + 1 < len(tokens):
            ctype = type_of(f"{tok} {tokens[i + 1]}")
            if ctype is not None:
                word = f"{tok} {tokens[i + 1]}"
                i += 2
        if ctype is None:
            ctype = type_of(tok)
            word = tok
            i += 1
        if ctype is None:
            for cut in range(1, len(tok)):
                if tok[:cut] in ("RIGHT", "LEFT") and tok[cut:] == "90":
                    continue   # RIGHT90 is the type, not Right with priority 90
                glued_type = type_of(tok[:cut])
                tail = _GLUED_TAIL.fullmatch(tok[cut:])
                if glued_type is not None and tail:
                    refs.append(_exact(glued_type, int(tail.group(1)), line, tok))
                    break
            else:
                raise Bad(f"{short(tok, 30)!r} is not a card (a card is written like FWD2 670, Move-2 P670, "
                           f"a hand position like 3, or a type alone like FWD1)")
            continue
        if ctype.code in ("LF90", "RT90") and not word.endswith("90") and tokens[i:i + 1] == ["90"] \
                and i + 1 < len(tokens) and (_NUMBER.fullmatch(tokens[i + 1]) or _PRIORITY.fullmatch(tokens[i + 1])):
            i += 1   # "Right 90 80": the 90 is the turn, 80 the priority ("LF90 90 50": LF90 90, then 50)
        if i < len(tokens):
            m = _PRIORITY.fullmatch(tokens[i]) or _NUMBER.fullmatch(tokens[i])
            if m and not tokens[i].startswith("#") and (tokens[i].startswith("P") or int(m.group(1)) >= 10):
                refs.append(_exact(ctype, int(m.group(1)), line, f"{word} {tokens[i]}"))
                i += 1
                continue
        refs.append(Ref(line, word, ctype=ctype, loose=loose))
    return refs


def is_cardish(text: str) -> bool:
    """Whether a line starts with a card (a number, a type, or a type glued to its priority)."""
    words = text.upper().split()
    if len(words) > 1 and type_of(f"{words[0]} {words[1]}".strip(".:,;!?()")) is not None:
        return True   # MOVE 2, U TURN, BACK UP
    firsts = [w.strip(".:,;!?()") for w in re.split(r"[\s,;()]+", text.upper()) if w.strip(".:,;!?()")][:2]
    if firsts and written_type(firsts, 0) is not None:
        return True   # Forward 3, Turn right, Reverse, M3, R 80
    word = re.split(r"[,;(]", words[0].strip(".:,;!?()"))[0] if words else ""  # "1,2,3,4,5" starts with 1
    if _NUMBER.fullmatch(word) or _PRIORITY.fullmatch(word):
        return True
    if type_of(word) is not None:
        return True
    return any(type_of(word[:k]) is not None and _GLUED_TAIL.fullmatch(word[k:]) for k in range(1, len(word)))


def _cardlike(token: str) -> bool:
    """A word that names a card, or nearly: a hand position, a priority, a type, a type glued to a number."""
    if not token:
        return False
    m = _NUMBER.fullmatch(token)
    if m:
        value = int(m.group(1))
        return 1 <= value <= 9 or value in BY_PRIORITY
    if _PRIORITY.fullmatch(token) or type_of(token) is not None or token in _WORDS or _FORWARD.match(token):
        return True
    return any(type_of(token[:k]) is not None and re.fullmatch(r"[-:/]?P?\d{1,4}", token[k:])
               for k in range(1, len(token)))


_FILLER = {"AND", "THEN", "LOCKED", "FUSED", "(LOCKED)", "REGISTER", "REG", "PHASE", "MY", "PROGRAM", "ORDERS",
           "ORDER", "CARDS"}
_LEADING_LABEL = re.compile(r"^[1-5A-E](?:[:.)=]|\s*-\s)\s*|^[1-5A-E]\s+(?=\S+\s*\S)")
INITIAL = re.compile(r"^[A-Z]\s*[.:)]?$")


def reads_as_program(text: str) -> bool:
    """Whether a line (normalized, upper case) reads as a program, if a broken one: at least half its
    words name cards (or nearly). Outside a BEGIN block other lines are prose, skipped and listed (a
    signature "A. Miller", "2 more flags to go.", a phone number, an address), so one stray line never
    sinks a mail."""
    text = _LEADING_LABEL.sub("", text.strip())
    words = [w.strip(".:!?'\"()[]{}=") for w in re.split(r"[\s,;]+", text)]
    words = [w for w in words if w.strip("-") and w not in _FILLER]
    if not words:
        return False
    cards = i = 0
    while i < len(words):
        if i + 1 < len(words) and (type_of(f"{words[i]} {words[i + 1]}") is not None   # U TURN, MOVE 2
                                   or (words[i], words[i + 1]) in _PAIRS
                                   or (words[i] in _FORWARD_WORD and words[i + 1] in ("1", "2", "3"))):
            cards, i = cards + 2, i + 2
            continue
        cards += _cardlike(words[i])
        i += 1
    return cards * 2 >= len(words)
