"""Robots and cards as plain JSON-able data, for snapshots, the store and the scenario result.

Every field of :class:`Robot` has one codec here (JSON key, dump, load, default); a field without
one fails at import. Fields that may be left out (statuses, option data) are written only when
they hold something, so older snapshots load with their defaults and the scenario result keeps
its keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .cards import Card, parse_card
from .geometry import DIR_NAMES, dir_name, parse_dir, parse_square, square_name
from .state import FLAT, ROBOT_KEYS, Robot, RobotRecord


@dataclass(frozen=True, slots=True)
class Codec:
    key: str
    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]
    #: the value when the key is missing (a callable makes a fresh one)
    default: Callable[[], Any]
    #: left out of the dict when empty
    optional: bool = False


def _square_or_none(v: Any) -> Any:
    return square_name(v) if v else None


def _parse_square_or_none(v: Any) -> Any:
    return parse_square(v) if v else None


def _same(v: Any) -> Any:
    return v


#: a register number's key in a snapshot's ``locked`` (``"3"``), made once
_REGISTERS = {n: str(n) for n in range(1, 6)}


#: Robot field -> codec, in the order the dict is written (the scenario contract's order)
CODECS: dict[str, Codec] = {
    "name": Codec("name", _same, str, lambda: None),
    "pos": Codec("at", _square_or_none, _parse_square_or_none, lambda: None),
    "facing": Codec("facing", dir_name, parse_dir, lambda: 0),
    "damage": Codec("damage", _same, int, lambda: 0),
    "lives": Codec("lives", _same, int, lambda: 3),
    "flags": Codec("flags", _same, int, lambda: 0),
    "virtual": Codec("virtual", _same, bool, lambda: False),
    "first_turn": Codec("first_turn", _same, bool, lambda: False),
    "archive": Codec("archive", _square_or_none, _parse_square_or_none, lambda: None),
    "powered_down": Codec("powered_down", _same, bool, lambda: False),
    "power_down_next": Codec("power_down_next", _same, bool, lambda: False),
    "locked": Codec("locked", lambda v: {_REGISTERS.get(k) or str(k): c.text for k, c in sorted(v.items())},
                    lambda v: {int(k): parse_card(c) for k, c in (v or {}).items()}, dict),
    "options": Codec("options", list, lambda v: list(v or []), list),
    "destroyed": Codec("destroyed", _same, bool, lambda: False),
    "statuses": Codec("statuses", sorted, lambda v: set(v or []), set, optional=True),
    "option_data": Codec("option_data", lambda v: {k: dict(d) for k, d in v.items()},
                         lambda v: {str(k): dict(d) for k, d in (v or {}).items()}, dict, optional=True),
}
_missing = {f.name for f in fields(Robot)} ^ set(CODECS)
assert not _missing, f"Robot fields without a snapshot codec (or codecs without a field): {sorted(_missing)}"
_misnamed = {name for name, codec in CODECS.items() if codec.key != ROBOT_KEYS[name]}
assert not _misnamed, f"snapshot codecs whose key is not the one Robot declares: {sorted(_misnamed)}"


#: an empty container of each copy mode of :class:`Robot`'s fields (a frame record keeps None for it)
_EMPTY = {"dict": "{}", "list": "[]", "set": "set()", "dicts": "{}"}


class _SquareNames(dict[Any, str]):
    """Square -> its name, made once (a snapshot names every robot's square and archive)."""

    def __missing__(self, sq: Any) -> str:
        if len(self) > 65536:
            self.clear()
        name = self[sq] = square_name(sq)
        return name


#: square -> its name (``r5c4``), for snapshots and stored events
SQUARE_NAMES = _SquareNames()


def _empty_dump(codec: Codec, mode: str) -> str | None:
    """The dump of an empty container of this copy mode as source text (a fresh one each time it runs), or None."""
    if not mode:
        return None
    dumped = codec.dump(eval(_EMPTY[mode]))
    text = repr(dumped)
    return text if text in ("{}", "[]") and eval(text) == dumped else None


def _make_to_dict() -> tuple[Any, Any, Any]:
    """``robot_to_dict``, ``record_to_dict`` and ``frames_to_dicts`` as hand-written ones would be, from
    :data:`CODECS` (every robot of every frame of every turn is stored so): the keys in the codecs' order,
    optional ones only when they hold something, each value dumped by its codec (plain values and squares
    inline)."""
    index = {f.name: i for i, f in enumerate(fields(Robot))}
    modes = {f.name: f.metadata["copy"] for f in fields(Robot)}
    namespace: dict[str, Any] = {"_sq": SQUARE_NAMES.__getitem__, "_dirs": DIR_NAMES}
    bodies = []
    changed: list[str] = []   # the delta of a record from the one before whose other fields are the same
    for source in ("robot", "record"):
        head: list[str] = []
        tail: list[str] = []
        for n, (name, codec) in enumerate(CODECS.items()):
            value = f"r.{name}" if source == "robot" else f"f{index[name]}"   # a record is unpacked first
            empty = _empty_dump(codec, modes[name])
            if codec.dump is _same:
                made = value
            elif empty is not None and not codec.optional:   # an empty container's dump written out
                namespace[f"_d{n}"] = codec.dump
                made = f"(_d{n}({value}) if {value} else {empty})"
            elif codec.dump is dir_name:
                made = f"_dirs[{value}]"
            elif codec.dump is _square_or_none:
                made = f"(_sq({value}) if {value} else None)"
            else:
                namespace[f"_d{n}"] = codec.dump
                made = f"_d{n}({value})"
            if source == "record" and 0 < index[name] < FLAT:   # (never optional, see the assertion below)
                i = index[name]
                changed.extend([f"if r[{i}] != p[{i}]:", f"    {value} = r[{i}]", f"    d[{codec.key!r}] = {made}"])
            if codec.optional:
                tail.append(f"    v = {value}\n    if v:\n        out[{codec.key!r}] = {made.replace(value, 'v')}\n")
            elif tail:
                tail.append(f"    out[{codec.key!r}] = {made}\n")
            else:
                head.append(f"{codec.key!r}: {made}")
        flat, rest = ", ".join(f"f{i}" for i in range(FLAT)), ", ".join(f"f{i}" for i in range(FLAT, len(index)))
        unpack = f"    {flat}, ({rest},) = r\n" if source == "record" else ""
        body = f"{unpack}    out = {{{', '.join(head)}}}\n{''.join(tail)}    return out\n"
        bodies.append(f"def {source}_to_dict(r):\n{body}")
    assert not any(codec.optional for codec in list(CODECS.values())[:FLAT])
    delta = "\n                ".join(changed)
    bodies.append(f"""def frames_to_dicts(records):
    out = []
    before = made = ()
    for frame in records:
        if len(frame) != len(before):
            made = [record_to_dict(r) for r in frame]
        else:
            dicts = []
            for r, p, d in zip(frame, before, made):
                if r[{FLAT}] != p[{FLAT}] or r[0] != p[0]:
                    dicts.append(record_to_dict(r))
                    continue
                d = d.copy()
                {delta}
                dicts.append(d)
            made = dicts
        out.append(made)
        before = frame
    return out
""")
    exec("".join(bodies), namespace)
    return namespace["robot_to_dict"], namespace["record_to_dict"], namespace["frames_to_dicts"]


_made_robot_to_dict, _made_record_to_dict, _made_frames_to_dicts = _make_to_dict()


def robot_to_dict(r: Robot) -> dict[str, Any]:
    """A robot as a snapshot keeps it (:data:`CODECS`)."""
    found: dict[str, Any] = _made_robot_to_dict(r)
    return found


def record_to_dict(record: RobotRecord) -> dict[str, Any]:
    """A frame's record of a robot (:func:`.state.record_robots`) as a snapshot keeps it: the same dict as
    :func:`robot_to_dict` of the robot restored from it, without making the robot."""
    found: dict[str, Any] = _made_record_to_dict(record)
    return found


def frames_to_dicts(records: list[tuple[RobotRecord, ...]]) -> list[list[dict[str, Any]]]:
    """:func:`record_to_dict` of every record of every frame; a robot whose other fields are those of its record in
    the frame before (most often only its square, facing and damage changed) is its dict from there with those
    changed (every dict is its own; equal containers' dumps may be shared between a turn's frames)."""
    found: list[list[dict[str, Any]]] = _made_frames_to_dicts(records)
    return found


def robot_from_dict(d: dict[str, Any]) -> Robot:
    """A robot from its dict; keys a snapshot from an older version lacks take their defaults."""
    values: dict[str, Any] = {}
    for name, codec in CODECS.items():
        raw = d.get(codec.key)
        values[name] = codec.load(raw) if raw is not None else codec.default()
    if values["name"] is None:
        raise KeyError("name")
    return Robot(**values)


def cards_from_list(items: list[str | None]) -> list[Card | None]:
    return [parse_card(c) if c is not None else None for c in items]


def cards_to_list(cards: Sequence[Card | None]) -> list[str | None]:
    """The inverse of :func:`cards_from_list`: cards as text, an empty register as None."""
    return [c.text if c is not None else None for c in cards]
