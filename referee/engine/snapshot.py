"""Robots and cards as plain JSON-able data, for snapshots, the store and the scenario result."""

from __future__ import annotations

from typing import Any

from .cards import Card, parse_card
from .geometry import dir_name, parse_dir, parse_square, square_name
from .state import Robot


def robot_to_dict(r: Robot) -> dict[str, Any]:
    return {
        "name": r.name,
        "at": square_name(r.pos) if r.pos else None,
        "facing": dir_name(r.facing),
        "damage": r.damage,
        "lives": r.lives,
        "flags": r.flags,
        "virtual": r.virtual,
        "first_turn": r.first_turn,
        "archive": square_name(r.archive) if r.archive else None,
        "powered_down": r.powered_down,
        "power_down_next": r.power_down_next,
        "locked": {str(k): str(v) for k, v in sorted(r.locked.items())},
        "options": list(r.options),
        "destroyed": r.destroyed,
    }


def robot_from_dict(d: dict[str, Any]) -> Robot:
    return Robot(
        name=d["name"],
        pos=parse_square(d["at"]) if d.get("at") else None,
        facing=parse_dir(d.get("facing", "N")),
        damage=int(d.get("damage", 0)),
        lives=int(d.get("lives", 3)),
        flags=int(d.get("flags", 0)),
        virtual=bool(d.get("virtual", False)),
        first_turn=bool(d.get("first_turn", False)),
        archive=parse_square(d["archive"]) if d.get("archive") else None,
        powered_down=bool(d.get("powered_down", False)),
        power_down_next=bool(d.get("power_down_next", False)),
        locked={int(k): parse_card(v) for k, v in (d.get("locked") or {}).items()},
        options=list(d.get("options") or []),
        destroyed=bool(d.get("destroyed", False)),
    )


def cards_to_list(cards: list[Card | None]) -> list[str | None]:
    return [str(c) if c is not None else None for c in cards]


def cards_from_list(items: list[str | None]) -> list[Card | None]:
    return [parse_card(c) if c is not None else None for c in items]
