"""The game master: a command language (``language``) and its execution (``commands``), by mail or CLI.

A GM mail counts only when it comes from the GM's address (the configured ``gm_address``, or the
GM a game was created by) AND its BEGIN line carries the GM secret (``gm_secret``). Anything else
is refused and logged, and answered only when it came from a GM address.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from ..config import Settings
from ..keys import same_key
from ..mailparse.senders import same_address
from ..store import Store
from ..store.within import StoreWithin
from .commands import GmContext, run_commands
from .language import GmBlock, begin_key, parse_block

log = logging.getLogger("referee.gm")


@dataclass
class GmAnswer:
    #: the text to send back (None: send nothing)
    reply: str | None
    accepted: bool
    reason: str = ""


def is_gm_block(text: str) -> bool:
    return parse_block(text).found


def authorised(settings: Settings, sender: str, key: str | None) -> str | None:
    """Why a GM block from ``sender`` with ``key`` is refused, or None when it is the GM's."""
    if not settings.gm_secret:
        return "no GM secret is configured (gm_secret): GM commands by mail are off"
    if not same_key(key, settings.gm_secret):
        return "the GM key on the BEGIN GM line is missing or wrong"
    if not same_address(sender, settings.gm_address):
        return f"{sender} is not the game master's address"
    return None


def handle_gm_text(store: Store | StoreWithin, settings: Settings, text: str, *, sender: str,
                  now: datetime) -> GmAnswer:
    """Carry out the GM block in a mail body from ``sender``; the answer says what was done."""
    refused = authorised(settings, sender, begin_key(text))   # before the block is read: it may be huge
    if refused:
        log.warning("GM commands from %s refused: %s", sender, refused)
        is_gm = same_address(sender, settings.gm_address)
        reply = f"Your GM commands were refused: {refused}.\nNothing was changed.\n" if is_gm else None
        return GmAnswer(reply, False, refused)
    block = parse_block(text)
    ctx = run_block(store, settings, block, actor=f"gm:{sender.lower()}", now=now, reply_to=sender)
    return GmAnswer(answer_text(block, ctx), True, shortfall(block, ctx))


def run_block(store: Store | StoreWithin, settings: Settings, block: GmBlock, *, actor: str, now: datetime,
              reply_to: str | None = None) -> GmContext:
    ctx = GmContext(store=store, settings=settings, actor=actor, now=now, game=block.game, reply_to=reply_to)
    return run_commands(ctx, block.commands, block.unread)


def shortfall(block: GmBlock, ctx: GmContext) -> str:
    """What of the block was not done (``2 of 5 commands not done, 1 line not read``), or "" when all was."""
    parts = []
    missed = ctx.failures + ctx.skipped
    if missed:
        parts.append(f"{missed} of {len(ctx.lines)} command{'s' if len(ctx.lines) != 1 else ''} not done")
    if block.errors:
        parts.append(f"{len(block.errors)} line{'s' if len(block.errors) != 1 else ''} not read")
    return ", ".join(parts)


def answer_text(block: GmBlock, ctx: GmContext) -> str:
    lines = []
    if block.errors:
        lines.append("These lines could not be read (nothing was done for them):")
        lines.extend(f"  {e}" for e in block.errors)
        lines.append("")
    if ctx.lines:
        done = len(ctx.lines) - ctx.failures - ctx.skipped
        head = f"{done} command(s) done, {ctx.failures} not done"
        if ctx.skipped:
            head += f", {ctx.skipped} not run because a command they depend on failed"
        lines.append(head + ":")
        lines.extend(ctx.lines)
    elif not block.errors:
        lines.append("The block held no commands. Send HELP for the list.")
    return "\n".join(lines) + "\n"
