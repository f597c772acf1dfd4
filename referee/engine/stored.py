"""A turn's result in the form the store keeps (``Turn.events``, ``Turn.frames``), made straight from what the
engine recorded while the turn ran (its log lines and frame records) when nobody has read the result's events or
frames yet: the same JSON as encoding the made events and robots, without making them (every real turn is
stored; issue 46)."""

from __future__ import annotations

from typing import Any

from .event_codec import EVENTS_VERSION, encode_events
from .events import made_args
from .resolve import TurnResult
from .snapshot import SQUARE_NAMES, frames_to_dicts, robot_to_dict
from .state import record_robots


def stored_events(result: TurnResult) -> dict[str, Any]:
    """:func:`.event_codec.encode_events` of the result's events."""
    if result.__dict__.get("_events") or not result.log:   # made (or set) already: encode those
        return encode_events(result.events)
    out: list[dict[str, Any]] = []
    add = out.append
    named = SQUARE_NAMES.__getitem__
    for phase, step, robot, kind, args, data in result.log:   # as Event and encode_event read a log line
        if data is not None and data.__class__ is not dict:
            data = {"card": data.text}
        if not args:
            if data:
                add({"phase": phase, "step": step, "robot": robot, "kind": kind, "data": data})
            else:
                add({"phase": phase, "step": step, "robot": robot, "kind": kind})
            continue
        cls = args.__class__
        if cls is str:   # a beam's name
            args = {"path": args}
        elif cls is tuple:
            args = {"to": named(args)} if args[0].__class__ is int else made_args(args)
        if data:
            add({"phase": phase, "step": step, "robot": robot, "kind": kind, "args": args, "data": data})
        else:
            add({"phase": phase, "step": step, "robot": robot, "kind": kind, "args": args})
    return {"version": EVENTS_VERSION, "events": out}


def stored_frames(result: TurnResult) -> list[list[dict[str, Any]]]:
    """The result's frames as snapshots (:func:`.snapshot.robot_to_dict` of every robot of every frame)."""
    if result.__dict__.get("_frames") or not result.frame_records:
        return [[robot_to_dict(r) for r in frame] for frame in result.frames]
    return frames_to_dicts(result.frame_records)


def stored_robots(result: TurnResult, frames: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The result's robots as a snapshot keeps them (:func:`.snapshot.robot_to_dict` of each); ``frames``:
    :func:`stored_frames` of the result, whose last frame, when the robots have not changed since it was recorded,
    gives them (copies)."""
    records = result.frame_records
    if frames and records and not result.__dict__.get("_frames") and record_robots(result.robots) == records[-1]:
        return [d.copy() for d in frames[-1]]
    return [robot_to_dict(r) for r in result.robots]
