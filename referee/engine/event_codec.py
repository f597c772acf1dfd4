"""The stored form of a turn's event log: typed (kind, args, data), versioned, read back in every form.

``Turn.events`` holds :func:`encode_events`: ``{"version": 2, "events": [...]}``, each event an object
with ``phase``, ``step``, ``robot`` and ``kind``, and ``args`` and ``data`` when it has them. No words
are stored: the renderers make them from the kind.

Turns stored before (version 1) hold a list of events in the scenario contract's words
(``{"phase": 1, "step": "robots", "robot": "Twonky", "text": "move to r5c4", "card": "FWD2 670"}``);
:func:`decode_events` reads them back into the same typed events (:func:`.events.read_event`). They hold
no ``decision`` events: decisions were not logged then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .decisions import DECISION
from .events import Event, read_event

#: the version :func:`encode_events` writes
EVENTS_VERSION = 2


def encode_event(ev: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"phase": ev.phase, "step": ev.step, "robot": ev.robot, "kind": ev.kind}
    if ev.args:
        out["args"] = ev.args
    if ev.data:
        out["data"] = ev.data
    return out


def decode_event(d: dict[str, Any]) -> Event:
    return Event(d["phase"], d["step"], d.get("robot"), d["kind"], d.get("args"), d.get("data"))


def encode_events(events: Sequence[Event]) -> dict[str, Any]:
    """A turn's events as ``Turn.events`` stores them."""
    return {"version": EVENTS_VERSION, "events": [encode_event(ev) for ev in events]}


def stored_version(stored: Any) -> int:
    """The version of a stored event log: 1 for the old list of words, else the one it names."""
    if isinstance(stored, list):
        return 1
    if isinstance(stored, dict) and isinstance(stored.get("version"), int):
        return int(stored["version"])
    raise ValueError(f"not a stored event log: {type(stored).__name__}")


def decode_events(stored: Any) -> list[Event]:
    """The typed events of a stored log, whichever version wrote it (None: no events)."""
    if stored is None:
        return []
    version = stored_version(stored)
    if version == 1:
        return [read_event(d) for d in stored]
    if version == EVENTS_VERSION:
        return [decode_event(d) for d in stored["events"]]
    raise ValueError(f"event log version {version} is newer than this referee reads ({EVENTS_VERSION})")


def contract_events(stored: Any) -> list[dict[str, Any]]:
    """A stored log in the scenario contract's words (phase, step, robot, text, data keys), as shown to a GM."""
    return [ev.to_dict() for ev in decode_events(stored)]


def same_events(stored: Any, events: Sequence[Event], *, any_order_within_step: bool = False) -> bool:
    """Whether a stored log records ``events`` (a replay's), in the stored log's own form: an old log is
    compared in words and without the decisions it could not hold. ``any_order_within_step``: the events of one
    step of one phase (what happens at the same moment) may come in another order; a turn played under rules
    versions below 4, where a set's iteration (the process's hash seed) could order them, is compared so."""
    if stored is None:
        return not events
    if stored_version(stored) == 1:
        made: Any = [ev.to_dict() for ev in events if ev.kind != DECISION]
        old = stored
    else:
        made, old = encode_events(events), stored
        if any_order_within_step:
            made, old = made["events"], old.get("events") if isinstance(old, dict) else old
    if not any_order_within_step:
        return bool(old == made)
    return _by_moment(old) == _by_moment(made)


def _by_moment(events: Any) -> list[tuple[Any, list[str]]] | None:
    """The events of a log grouped by moment (each run of one phase and step), each group in a fixed order."""
    if not isinstance(events, list):
        return None
    groups: list[tuple[Any, list[str]]] = []
    for ev in events:
        moment = (ev.get("phase"), ev.get("step")) if isinstance(ev, dict) else None
        if not groups or groups[-1][0] != moment:
            groups.append((moment, []))
        groups[-1][1].append(json.dumps(ev, sort_keys=True, default=str))
    return [(moment, sorted(items)) for moment, items in groups]
