"""A choice a robot's orders made, as the report tables say it: in the order language the player wrote it in
(``ordered GYRO ON``, ``ordered BRAKES 2``), never the engine's words for it (``gyro: chose True``)."""

from __future__ import annotations

from typing import Any

from ..engine.decisions import table_items
from ..engine.events import Event
from .element_clauses import element_line
from .option_lines import order_lines


def _answer(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(_answer(v) for v in value) or "none"
    return str(value)


def choice_items(ev: Event) -> list[str]:
    """What the tables say of a decision event (the ones :func:`table_items` shows), worded."""
    if not table_items(ev):
        return []
    args = ev.args or {}
    subject, register, answer = str(args.get("subject", "")), args.get("register"), args.get("answer")
    value = {str(register): answer} if register is not None else answer
    written = order_lines({subject: value}, other=element_line)
    if written:
        said = f"ordered {written[0]}"
    else:
        where = f" in register {register}" if register is not None else ""
        said = f"{subject.replace('_', ' ')}{where}: {_answer(answer)}"
    return [f"{said}; {args['note']}" if args.get("note") else said]
