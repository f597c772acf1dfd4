"""Who sits at the table as the report shows them: robot name, label, colour and initials."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from PIL import ImageColor

#: player colours, in the order they are handed out; distinct on the light floor and from each other
PALETTE: tuple[tuple[str, str], ...] = (
    ("red", "#d62728"),
    ("blue", "#1f5fb4"),
    ("green", "#2ca02c"),
    ("orange", "#ff7f0e"),
    ("purple", "#8e44ad"),
    ("cyan", "#17becf"),
    ("pink", "#e377c2"),
    ("brown", "#8c564b"),
    ("olive", "#9a9a12"),
    ("black", "#222222"),
    ("grey", "#7f7f7f"),
    ("teal", "#0b7a75"),
)
COLOURS: dict[str, str] = dict(PALETTE)


@dataclass(frozen=True, slots=True)
class Player:
    """One column of the report and one colour on the board."""

    #: the robot's name in the engine (the key of programs and events)
    robot: str
    #: what the table header says (the robot's name unless the game gives another)
    label: str
    #: the colour's name as the text report writes it (``red``) and its value
    colour: str
    hex: str
    #: one or two letters drawn on the robot
    initials: str

    @property
    def rgb(self) -> tuple[int, int, int]:
        return hex_rgb(self.hex)


def hex_rgb(value: str) -> tuple[int, int, int]:
    rgb = ImageColor.getrgb(value)
    return (rgb[0], rgb[1], rgb[2])


def colour_value(colour: str) -> tuple[str, str]:
    """(name, #rrggbb) for a palette name, a ``#rrggbb`` value or a CSS colour name."""
    key = colour.strip().lower()
    if key in COLOURS:
        return key, COLOURS[key]
    r, g, b = hex_rgb(key)
    return key, f"#{r:02x}{g:02x}{b:02x}"


def initials(names: Iterable[str]) -> dict[str, str]:
    """Short labels for robots: the first letter, or two letters where first letters clash."""
    names = list(names)
    first = {n: (n.strip()[:1] or "?").upper() for n in names}
    out: dict[str, str] = {}
    for n in names:
        if sum(1 for m in names if first[m] == first[n]) == 1:
            out[n] = first[n]
            continue
        two = (n.strip()[:1].upper() + n.strip()[1:2].lower()) or "?"
        out[n] = two
    # still clashing (Hammer, Hamlet): letter and seat number
    for i, n in enumerate(names):
        if sum(1 for m in names if out[m] == out[n]) > 1:
            out[n] = f"{first[n]}{i + 1}"
    return out


def make_players(robots: Iterable[str], colours: Mapping[str, str] | None = None,
                 labels: Mapping[str, str] | None = None) -> list[Player]:
    """Players in seat order; a robot without a chosen colour gets the next palette colour not taken."""
    names = list(robots)
    colours = dict(colours or {})
    labels = dict(labels or {})
    chosen = {n: colour_value(colours[n]) for n in names if colours.get(n)}
    taken = {hexv for _, hexv in chosen.values()}
    free = [(name, hexv) for name, hexv in PALETTE if hexv not in taken]
    marks = initials(names)
    out = []
    for n in names:
        if n in chosen:
            cname, hexv = chosen[n]
        elif free:
            cname, hexv = free.pop(0)
        else:
            cname, hexv = "grey", COLOURS["grey"]
        out.append(Player(robot=n, label=labels.get(n) or n, colour=cname, hex=hexv, initials=marks[n]))
    return out
