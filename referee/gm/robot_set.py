"""``SET <robot>`` over what a robot carries: its option cards, its statuses and their data.

    SET Twonky OPTIONS +Brakes -Shield          give Brakes, take Shield
    SET Twonky OPTIONS Brakes, "Mini Howitzer"  exactly these (NONE: no options)
    SET Twonky STATUS +flying -energized        statuses, the same way
    SET Twonky DATA "Mini Howitzer" shots=3     per-option (or per-status) numbers; x=NONE removes one

Reading (:func:`read_clause`) is pure and checks names against the option deck and the statuses the
engine knows, suggesting the nearest name; applying (:func:`apply`) checks against the robot.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..common.values import typed_word
from ..engine import hooks, shown, state
from ..orders.options import card_named, card_names, norm

#: words that name the carried things SET can change
CLAUSES = {"OPTIONS": "options", "OPTION": "options", "STATUS": "statuses", "STATUSES": "statuses",
           "DATA": "option_data"}


class SetError(ValueError):
    """A SET clause that cannot be used; the message says why and what was meant."""


def known_statuses() -> list[str]:
    """Statuses the engine knows: every status a module declares (:mod:`referee.engine.shown`)."""
    return sorted(shown.STATUSES)


def option_name(text: str) -> str:
    """The name a robot carries an option card by: the engine's effect name when one is registered for the
    card, else the card's name. Raises :class:`SetError` with a suggestion."""
    card = card_named(text)
    if card is None:
        close = difflib.get_close_matches(text.title(), card_names(), n=2, cutoff=0.5)
        hint = f"; did you mean {' or '.join(close)}?" if close else f" (the cards: {', '.join(card_names())})"
        raise SetError(f"{text!r} is not an option card{hint}")
    for name in hooks.EFFECTS:
        if norm(name) == norm(card):
            return name
    return card


def status_name(text: str) -> str:
    key = norm(text)
    known = known_statuses()
    for name in known:
        if norm(name) == key:
            return name
    close = difflib.get_close_matches(key, known, n=2, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else f" (statuses: {', '.join(known)})"
    raise SetError(f"{text!r} is not a status{hint}")


def _names(words: Sequence[str], stop: set[str], known: Any) -> tuple[list[tuple[str, str]], int]:
    """``+Brakes -Mini Howitzer, Shield`` -> [(sign, name as written)], and how many words were used.

    Names may take several words: at each word the longest run of words that ``known`` accepts is one
    name (``Mini Howitzer``); commas and a + or - always start a new name.
    """
    used = 0
    tokens: list[str] = []
    for word in words:
        if word.upper() in stop:
            break
        used += 1
        tokens += [t.strip() for t in re.split(r"(,)", word) if t.strip()]
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(tokens):
        if tokens[i] == ",":
            i += 1
            continue
        sign = tokens[i][0] if tokens[i][0] in "+-" else ""
        first = tokens[i][1:] if sign else tokens[i]
        end = i + 1
        while end < len(tokens) and tokens[end] != "," and tokens[end][0] not in "+-":
            end += 1
        take = 1
        for j in range(end, i + 1, -1):   # the longest run that names something
            if known(" ".join([first, *tokens[i + 1:j]])):
                take = j - i
                break
        out.append((sign, " ".join([first, *tokens[i + 1:i + take]])))
        i += take
    return [(s, n) for s, n in out if n], used


def read_clause(key: str, words: Sequence[str], stop: set[str]) -> tuple[str, Any, int]:
    """Read the clause led by ``key`` (OPTIONS, STATUS or DATA) from ``words`` (the words after it):
    (change key, value, words used)."""
    what = CLAUSES[key]
    if what == "option_data":
        if len(words) < 2:
            raise SetError("DATA <option or status> <field>=<value>, e.g. DATA \"Mini Howitzer\" shots=3")
        values: dict[str, Any] = {}
        used = 1
        for word in words[1:]:
            if "=" not in word:
                break
            field, _, raw = word.partition("=")
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", field):
                raise SetError(f"{field!r} is not a field name (letters, digits and _)")
            values[field.lower()] = _value(raw)
            used += 1
        if not values:
            raise SetError(f"DATA {words[0]} needs <field>=<value>, e.g. shots=3 (NONE removes the field)")
        return what, {"name": words[0], "values": values}, used
    resolve = option_name if what == "options" else status_name
    names, used = _names(words, stop, lambda text: _names_one(resolve, text))
    if not names:
        raise SetError(f"{key} needs names: {key} +Brakes -Shield, or {key} NONE")
    signed = [s for s, _ in names if s]
    if signed and len(signed) != len(names):
        raise SetError(f"{key}: give every name a + or a - (to change), or none (to set them exactly)")
    if not signed:
        if len(names) == 1 and names[0][1].upper() == "NONE":
            return what, {"exact": []}, used
        return what, {"exact": [resolve(n) for _, n in names]}, used
    return what, {"add": [resolve(n) for s, n in names if s == "+"],
                  "remove": [resolve(n) for s, n in names if s == "-"]}, used


def _names_one(resolve: Any, text: str) -> bool:
    try:
        resolve(text)
    except SetError:
        return False
    return True


def _value(raw: str) -> Any:
    """A DATA value: as :func:`typed_word` reads it, or None for none/null."""
    return None if raw.lower() in ("none", "null", "") else typed_word(raw)


def apply(robot: state.Robot, changes: dict[str, Any]) -> state.Robot:
    """``robot`` with the OPTIONS, STATUS and DATA changes made. Raises :class:`SetError` naming what the
    robot does not carry."""
    options = list(robot.options)
    statuses = set(robot.statuses)
    data = {k: dict(v) for k, v in robot.option_data.items()}
    change = changes.get("options")
    if change is not None:
        options = _changed(robot.name, "option", options, change)
        for gone in set(robot.options) - set(options):
            data.pop(gone, None)   # a card given up keeps nothing
    change = changes.get("statuses")
    if change is not None:
        statuses = set(_changed(robot.name, "status", sorted(statuses), change))
    for item in changes.get("option_data") or []:
        name = _carried(robot.name, item["name"], options, statuses)
        slot = data.setdefault(name, {})
        for field, value in item["values"].items():
            if value is None:
                slot.pop(field, None)
            else:
                slot[field] = value
        if not slot:
            data.pop(name)
    return replace(robot, options=options, statuses=statuses, option_data=data)


def _changed(robot: str, what: str, held: list[str], change: dict[str, Any]) -> list[str]:
    if "exact" in change:
        return list(dict.fromkeys(change["exact"]))
    out = list(held)
    for name in change.get("remove", []):
        if name not in out:
            has = ", ".join(out) if out else "none"
            raise SetError(f"{robot} has no {what} {name} to take (its {what}s: {has})")
        out.remove(name)
    for name in change.get("add", []):
        if name in out:
            raise SetError(f"{robot} already has the {what} {name}")
        out.append(name)
    return out


def _carried(robot: str, text: str, options: list[str], statuses: set[str]) -> str:
    key = norm(text)
    for name in [*options, *sorted(statuses)]:
        if norm(name) == key or norm(name).startswith(key):
            return name
    carried = ", ".join([*options, *sorted(statuses)]) or "nothing"
    raise SetError(f"{robot} carries no option or status {text!r} to keep data for (it carries: {carried})")


def describe(robot: state.Robot) -> str:
    """What the robot carries, for the GM's answer and the players' notice."""
    parts = [f"options {', '.join(robot.options) if robot.options else 'none'}"]
    if robot.statuses:
        parts.append(f"statuses {', '.join(sorted(robot.statuses))}")
    if robot.option_data:
        parts.append("data " + "; ".join(f"{k}: " + ", ".join(f"{f}={v}" for f, v in sorted(d.items()))
                                         for k, d in sorted(robot.option_data.items())))
    return ", ".join(parts)


def deck_after(deck: list[str], before: Sequence[state.Robot], after: Sequence[state.Robot]) -> list[str]:
    """The option deck once the GM's SET has moved cards: a card given comes out of the deck, a card taken
    goes back under it. A card another robot holds cannot be given (one copy of each)."""
    held_before = {o: r.name for r in before for o in r.options}
    out = list(deck)
    for robot_after in after:
        old = next((r for r in before if r.name == robot_after.name), None)
        had = set(old.options) if old is not None else set()
        for card in robot_after.options:
            if card in had:
                continue
            owner = held_before.get(card)
            if owner is not None and owner != robot_after.name:
                raise SetError(f"{card} is held by {owner} (the deck has one copy of each card)")
            if card in out:
                out.remove(card)
        for card in sorted(had - set(robot_after.options)):
            if card not in out:
                out.append(card)
    return out
