"""The game master: a command language (``language``) and its execution (``commands``), by mail or CLI.

A GM mail counts only when it comes from a GM's address (the configured ``gm_address``, or a GM the
operator added: :mod:`referee.games.masters`) AND its BEGIN line carries that GM's key (``gm_secret``,
or the added GM's own). Anything else is refused and logged, and answered only when it came from a GM
address. Its commands act only on the games that GM masters or co-masters (:mod:`.people`).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..common.config import Settings
from ..common.keys import same_key
from ..mailer.notices import notice
from ..mailparse.senders import same_address
from ..store import Store
from ..store.mail import get_state, set_state
from ..store.within import StoreWithin
from . import people
from .commands import GmContext, run_commands
from .language import GmBlock, begin_key, parse_block

log = logging.getLogger("referee.gm")

#: the service state counting wrong GM keys, and how long after telling the GM the next ones go unanswered
WRONG_KEYS = "gm.wrong_keys"
QUIET = timedelta(hours=24)


@dataclass
class GmAnswer:
    #: the text to send back (None: send nothing)
    reply: str | None
    accepted: bool
    reason: str = ""


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
    key = begin_key(text)
    with store.read() as s:   # before the block is read: it may be huge
        whose = people.check(s, settings, sender, key)
    refused = whose.refused
    if refused:
        log.warning("GM commands from %s refused: %s", sender, refused)
        reply = f"Your GM commands were refused: {refused}.\nNothing was changed.\n" if whose.answer else None
        if whose.wrong_key:
            reply = wrong_key(store, settings, sender, now, reply, gm=whose.gm)
        return GmAnswer(reply, False, refused)
    block = parse_block(text)
    ctx = run_block(store, settings, block, actor=f"gm:{sender.lower()}", now=now, reply_to=sender,
                    master=whose.gm or sender.lower())
    return GmAnswer(answer_text(block, ctx), True, shortfall(block, ctx))


def wrong_key(store: Store | StoreWithin, settings: Settings, sender: str, now: datetime,
              reply: str | None, gm: str | None = None) -> str | None:
    """A GM block with a wrong key: counted and logged each time; the game master is told once a day (by
    the answer when the mail came from the GM's address, else by a mail of its own), then nothing more is
    answered that day, however many keys are tried. Each added GM (``gm``) has a count of their own."""
    counter = WRONG_KEYS if gm is None or same_address(gm, settings.gm_address) else f"{WRONG_KEYS}:{gm}"
    if len(counter) > 100:   # the length of a service state's name
        counter = f"{WRONG_KEYS}:{hashlib.sha256(counter.encode()).hexdigest()[:40]}"
    with store.write() as s:
        seen = get_state(s, counter) or {}
        since = datetime.fromisoformat(seen["since"]) if seen.get("since") else None
        fresh = since is None or now - since >= QUIET
        count = 1 if fresh else int(seen.get("count", 0)) + 1
        set_state(s, counter, {"since": (now if fresh else since).isoformat(), "count": count,
                                  "last_sender": sender}, now=now)
        log.warning("wrong GM key from %s: %d in the last %d hours", sender, count, QUIET.total_seconds() // 3600)
        if not fresh:
            return None
        note = (f"Mails with a wrong GM key are counted and logged; for the next {QUIET.total_seconds() // 3600:.0f} "
                "hours they get no answer. If you did not send this, someone is trying keys: "
                + ("change gm_secret.\n" if counter == WRONG_KEYS else "change your key (SET SECRET).\n"))
        if reply is not None:
            return reply + "\n" + note
        if settings.gm_address:
            notice(s, settings, to=settings.gm_address, subject="GM commands with a wrong key",
                   body=f"A mail from {sender} carried GM commands with a wrong key; nothing was done.\n\n" + note,
                   key=f"wrong-gm-key-{now.isoformat()}", now=now)
    return None


def run_block(store: Store | StoreWithin, settings: Settings, block: GmBlock, *, actor: str, now: datetime,
              reply_to: str | None = None, master: str | None = None) -> GmContext:
    """Run ``block``'s commands; ``master``: the GM whose mail it is (only their games), None: the operator."""
    ctx = GmContext(store=store, settings=settings, actor=actor, now=now, game=block.game, reply_to=reply_to,
                    master=master)
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
