"""The text of the referee's answers to an orders mail: echo, rejection, template, hand, HELP.

Data only: these functions build plain text (lines under 80 columns where the content allows) and
send nothing. Every program shown is a BEGIN ... END block in the order language itself, so a player
can copy it, change it and send it back, and what the echo shows parses back to the same orders.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from referee.engine.cards import Card

from .element_clauses import element_line
from .element_clauses import form_lines as element_form_lines
from .extract import begin_line
from .language import DEFAULT_SACRIFICE_HP, MAIN_LASER, OrderContext, OrderError, StandingOrders, facing_name
from .option_lines import fire_on_form as option_fire_on_form
from .option_lines import form_lines as option_form_lines
from .option_lines import idle_notes as option_idle_notes
from .option_lines import order_lines as option_order_lines
from .options import weapons_held as option_weapons
from .reply_model import ECHO_MARK, TEMPLATE_MARK

REPORT, POSTAL = "report", "postal"
_POSTAL_WORDS = re.compile(r"\b(?:MOVE[\s-]?[123]|BACK|LEFT|RIGHT|U[\s-]?TURN)\b|\bP\d{2,3}\b", re.IGNORECASE)
_REPORT_WORDS = re.compile(r"\b(?:FWD[123]|RVS1|LF90|RT90|UTRN)\b", re.IGNORECASE)


def card_text(card: Card, vocabulary: str = REPORT) -> str:
    """``FWD2 670`` (the turn report's spelling) or ``Move-2 P670`` (the postal one)."""
    return card.postal if vocabulary == POSTAL else str(card)


def vocabulary_of(text: str) -> str:
    """The spelling a player used (to answer in kind): postal when it has more postal card words."""
    return POSTAL if len(_POSTAL_WORDS.findall(text)) > len(_REPORT_WORDS.findall(text)) else REPORT


def hand_lines(hand: Sequence[Card], vocabulary: str = REPORT, *, prefix: str = "# ", per_line: int = 3) -> list[str]:
    """The hand with its positions, a few cards a line: ``# your hand:  1  FWD2 670   2  FWD1 500 ...``."""
    if not hand:
        return [f"{prefix}your hand: no cards this turn"]
    cells = [f"{i:>2}  {card_text(c, vocabulary):<12}" for i, c in enumerate(hand, start=1)]
    lead = f"{prefix}your hand: "
    out = []
    for k in range(0, len(cells), per_line):
        head = lead if k == 0 else prefix + " " * (len(lead) - len(prefix))
        out.append((head + "  ".join(cells[k:k + per_line])).rstrip())
    return out


def _register_line(reg: int, card: Card | None, locked: bool, vocabulary: str) -> str:
    if card is None:
        return f"{reg}:"   # no trailing space: a format=flowed reply would join the empty lines (RFC 3676)
    return f"{reg}: {card_text(card, vocabulary)}" + (" (locked)" if locked else "")


def _fire_lines(fire: Mapping[int, str]) -> list[str]:
    if not fire:
        return []
    weapons = {fire.get(r) for r in range(1, 6)}
    if len(weapons) == 1 and None not in weapons:
        return [f"FIRE 1-5: {fire[1].upper()}"]
    return [f"FIRE {r}: {w.upper()}" for r, w in sorted(fire.items())]


def standing_lines(standing: StandingOrders, *, options: Sequence[str] = ()) -> list[str]:
    """The standing orders in the order language, defaults written out, unset ones as comments."""
    lines = ["REBOOT" if standing.power_down else "NO REBOOT"]
    sacrifice = DEFAULT_SACRIFICE_HP if standing.sacrifice_at is None else standing.sacrifice_at
    lines.append("SACRIFICE NEVER" if sacrifice == 0 else f"SACRIFICE AT HP {sacrifice}")
    lines.append(f"ON TWO WRENCHES: {(standing.two_wrenches or 'repair').upper()}")
    if standing.reenter_facing is None:
        lines.append("# REENTER FACING N   (not given: it faces as when destroyed)")
    else:
        lines.append(f"REENTER FACING {facing_name(standing.reenter_facing)}")
    on_form = option_fire_on_form(standing.fire, options)   # only weapons the robot still holds
    fire = _fire_lines(on_form)
    if fire:
        lines.extend(fire)
        lines.extend(option_idle_notes(on_form))
    else:
        weapons = ", ".join([MAIN_LASER, *option_weapons(options)])
        lines.append(f"# FIRE 1-5: MAIN LASER   (not given; your weapons: {weapons})")
    lines.extend(option_form_lines(options, standing.options))
    return lines


#: the order form's line for a robot powered down this turn, in place of its registers
POWERED_DOWN = "# powered down this turn: no program to send (REBOOT below keeps it down next turn too)"


def program_block(*, game: str | None, robot: str | None, turn: int | None, key: str | None = None,
                  registers: Mapping[int, Card | None], locked: Mapping[int, Card] | None = None,
                  standing: StandingOrders | None = None, hand: Sequence[Card] = (), options: Sequence[str] = (),
                  vocabulary: str = REPORT, show_hand: bool = True,
                  turn_options: Mapping[str, Any] | None = None, mark: str | None = None,
                  elements: Sequence[str] = (), powered_down: bool = False) -> list[str]:
    """A BEGIN ... END block: registers 1-5 (empty ones left blank to fill in), then standing orders,
    then the option orders on file for this turn (``turn_options``), then how to answer the choices the
    course's ``elements`` (kind names) declare. ``mark``: a comment line before END that tells a quote of
    this block for what it is (:mod:`.reply_model`). ``powered_down``: the robot is powered down this turn, so
    no register is asked for (only its orders for the turn after)."""
    locked = locked or {}
    lines = [begin_line(game, robot, turn, key)]
    if show_hand:
        lines.extend(hand_lines(hand, vocabulary))
    if powered_down and not hand:
        lines.append(POWERED_DOWN)
    else:
        for reg in range(1, 6):
            card = locked.get(reg, registers.get(reg))
            lines.append(_register_line(reg, card, reg in locked, vocabulary))
    lines.extend(standing_lines(standing or StandingOrders(), options=options))
    lines.extend(option_order_lines(turn_options or {}, other=element_line))
    lines.extend(element_form_lines(elements))
    if mark:
        lines.append(mark)
    lines.append("END")
    return lines


def _who(game: str | None, robot: str | None, turn: int | None) -> str:
    parts = [p for p in (f"game {game}" if game else "", f"turn {turn}" if turn is not None else "") if p]
    return f"{robot or 'your robot'}" + (f" ({', '.join(parts)})" if parts else "")


def _ignored_lines(ignored: Sequence[tuple[int, str]]) -> list[str]:
    if not ignored:
        return []
    out = ["", "These lines were not read as orders (they do not look like orders):"]
    out.extend(f"  line {n}: {text}" for n, text in ignored[:12])
    if len(ignored) > 12:
        out.append(f"  ... and {len(ignored) - 12} more")
    return out


def _notes(notes: Sequence[str]) -> list[str]:
    return ["", "Notes:", *(f"  - {n}" for n in notes)] if notes else []


def format_time_left(deadline: datetime, now: datetime) -> str:
    """``2 days 4 hours``, ``3 hours 12 minutes``, ``40 minutes``: the time to a deadline, rounded down."""
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return "none: the deadline has passed"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60

    def unit(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour") + (f" {unit(minutes, 'minute')}" if minutes else "")
    return unit(minutes, "minute") if minutes else "less than a minute"


def _time_lines(time_left: str | None) -> list[str]:
    if time_left is None:
        return []
    return ["", f"Time left: {time_left}.",
            "You may send new orders until the deadline; the last valid ones received count."]


def render_echo(*, game: str | None, robot: str | None, turn: int | None, registers: Sequence[Card] | None,
                locked: Mapping[int, Card] | None = None, standing: StandingOrders | None = None,
                hand: Sequence[Card] = (), options: Sequence[str] = (), key: str | None = None,
                vocabulary: str = REPORT, time_left: str | None = None,
                ignored: Sequence[tuple[int, str]] = (), notes: Sequence[str] = (),
                turn_options: Mapping[str, Any] | None = None) -> str:
    """The answer to an accepted mail: the orders now on file (``registers``: the five cards, or None
    when no program has been given yet), written as a block the player can send back changed; the
    option orders on file (``turn_options`` for this turn, standing ones) are listed too."""
    locked = locked or {}
    regs = {i: c for i, c in enumerate(registers or (), start=1)}
    lines = [f"Orders accepted for {_who(game, robot, turn)}.", ""]
    if registers:
        lines.append("This is your program as I read it (locked registers are marked),")
        lines.append("with your standing orders:")
    else:
        lines.append("Your standing orders are noted. There is no program on file yet:")
        lines.append("send your five registers.")
    lines.append("")
    lines.extend(_option_echo(turn_options or {}, standing))
    lines.extend(program_block(game=game, robot=robot, turn=turn, key=key, registers=regs, locked=locked,
                               standing=standing, hand=hand, options=options, vocabulary=vocabulary,
                               show_hand=not registers, turn_options=turn_options, mark=ECHO_MARK))
    lines += _time_lines(time_left) + _ignored_lines(ignored) + _notes(notes)
    return "\n".join(lines) + "\n"


def _option_echo(turn_options: Mapping[str, Any], standing: StandingOrders | None) -> list[str]:
    """The option orders on file, in words before the block: this turn's, then the standing ones."""
    lines: list[str] = []
    now = option_order_lines(turn_options, other=element_line)
    kept = option_order_lines(standing.options, standing=True) if standing else []
    if now:
        lines += ["Option orders for this turn:", *(f"  {line}" for line in now)]
    if kept:
        lines += ["Option orders kept until changed:", *(f"  {line}" for line in kept)]
    return [*lines, ""] if lines else []


def render_rejection(errors: Sequence[OrderError], *, game: str | None, robot: str | None, turn: int | None,
                     context: OrderContext | None = None, draft: Mapping[int, Card] | None = None,
                     standing: StandingOrders | None = None, key: str | None = None, vocabulary: str = REPORT,
                     time_left: str | None = None, notes: Sequence[str] = (), quoted_block: bool = False,
                     closed: bool = False) -> str:
    """The answer to a mail that could not be used: every error, then a template to fill in.

    ``draft``: the registers understood (from ``OrderResult.draft``), pre-filled in the template. ``closed``:
    the game takes no more orders (it is over): the errors only, and no form to send back.
    """
    ctx = context or OrderContext()
    lines = [f"Your orders for {_who(game, robot, turn)} could not be used.",
             "Nothing in this mail was taken" + (": the game takes no more orders." if closed else
                                                 ", so your earlier orders, if any, still stand."),
             "", "What went wrong:", ""]
    for err in sorted(errors, key=lambda e: (e.line is None, e.line or 0)):
        if err.line is not None:
            lines.append(f"  line {err.line}: {err.text}")
            lines.append(f"      {err.message}")
        else:
            lines.append(f"  {err.message}")
    if closed:
        return "\n".join([*lines, "", "Write STATUS to see how the game ended."]) + "\n"
    if quoted_block:
        lines += ["", "Your mail quotes a BEGIN ... END block, but quoted lines (starting with \">\") are never",
                  "read as orders. Copy the block without the \">\" marks."]
    lines += ["", "Here is a corrected template. Fill in the empty registers, keep the BEGIN",
              "and END lines, and send it back (lines starting with # are comments):", ""]
    lines.extend(program_block(game=game, robot=robot, turn=turn, key=key, registers=dict(draft or {}),
                               locked=ctx.locked, standing=standing, hand=ctx.hand, options=ctx.options,
                               vocabulary=vocabulary, mark=TEMPLATE_MARK))
    lines += _time_lines(time_left) + _notes(notes)
    lines += ["", "Write HELP for a guide to the order language."]
    return "\n".join(lines) + "\n"


def render_unreadable(reason: str) -> str:
    """The answer to a mail that could not be read at all (too big, no text)."""
    return (f"Your mail could not be read: {reason}.\n\n"
            "Nothing in it was taken. Please send your orders again as plain text in the body of the mail.\n"
            "Write HELP for a guide to the order language.\n")


def render_cards(*, game: str | None, robot: str | None, turn: int | None, hand: Sequence[Card],
                 locked: Mapping[int, Card] | None = None, vocabulary: str = REPORT) -> str:
    """The answer to CARDS: the hand as mailed (positions count from 1) and the locked registers."""
    lines = [f"Your cards for {_who(game, robot, turn)}:", ""]
    lines.extend(hand_lines(hand, vocabulary, prefix="  "))
    for reg, card in sorted((locked or {}).items()):
        lines.append(f"  register {reg} is locked with {card_text(card, vocabulary)}")
    return "\n".join(lines) + "\n"


def help_text() -> str:
    """The answer to HELP: the order language in brief (docs/orders.md is the long form)."""
    return _HELP


_HELP = """\
How to send orders

Reply to the turn mail with your program: five registers, in order.
(A new mail works too if it holds the BEGIN ... END block of your turn
mail: its BEGIN line carries your key.) Upper or lower case does not matter.

A card can be written as
  FWD2 670        the turn report's spelling: type and priority
  Move-2 P670     the postal spelling (Move-1/2/3, Back, Left, Right, U-Turn)
  670 or P670     the priority alone
  3               the third card of your hand, as listed in the turn mail
  FWD1            a type alone: your cards of that type are used in the order
                  of your hand, first one to the earliest register

Give the registers numbered, one a line (1: to 5:, or phases a: to e:):
  1: FWD2 670
  2: Left P90
  3: 4
  ...
or list the cards in order, on one line or several:
  FWD2 670, FWD1 500, 7, 4, LF90

Locked registers fill themselves: leave them out, or write "5: locked".
A list fills the free registers in order (or all five, repeating the locked
cards in their places).

Other orders, one a line:
  REBOOT  (or POWER DOWN)        power down next turn; NO REBOOT calls it off
  SACRIFICE AT HP 6              give up an option instead of a hit from
                                 this HP on (1-10; SACRIFICE NEVER keeps them)
  ON TWO WRENCHES: REPAIR        or OPTION: what to take on a two-wrench site
  REENTER FACING N               facing (N, E, S, W) when your robot comes back
  FIRE 1-5: MAIN LASER           which weapon fires in which registers
                                 (FIRE 3: name, FIRE ALL: name)
  HELP, STATUS, CARDS            this text, the game's state, your hand again
  PREVIEW                        where your program takes your robot
  HINT                           the best programs of your hand (if allowed)

Option cards your robot holds take orders of their own (your order form
lists them), e.g. BRAKES 2, CRAB 2: LEFT, DUAL 3: RT90 80, FOURTH GEAR 3,
REVERSE GEARS 4, CONDITIONAL 4: UTRN 50 IF ROBOT AHEAD, FIRE CONTROL 2:
OPTION, FLYWHEEL: FWD2 490, ABORT 3, GYRO ON, CIRCUIT BREAKER OFF,
SACRIFICE ORDER: BRAKES, SHIELD. Weapons: FIRE 3: PRESSOR. RECOMPILE alone
in a mail deals you a second hand (1 damage).

To answer with the whole turn mail quoted, put your orders between two lines
  BEGIN <game> <robot> turn <n> key <your key>
  ...
  END
as the turn mail shows: only that block is read. Quoted lines (starting with >)
are never read. Without a block, quoted text, "On ... wrote:" lines and your
signature are skipped.

A mail with a mistake changes nothing: the answer lists every mistake and a
template to fill in. Every accepted mail is answered with your orders as read.
The last valid orders received before the deadline count.

Commands about your seat, as the first lines of a reply to your turn mail:
  GAMES                       your games, your robots and what is due
  RESIGN RR-7                 leave the game
  SET ADDRESS new@address     move your games to a new address (confirmed first)
  SET PICTURES ALL | STAGES | NONE   pictures in your turn mails: boards and
                              animation (ALL), boards only, or text only
  ABSENT 2026-12-01 TO 2026-12-08   tell the game master you are away
  PRESS TO ALL | PRESS TO <robot>   then your message on the lines below
  LIST, JOIN RR-7, OBSERVE RR-7     other games: sign up, or watch one
"""


class ReplyLimiter:
    """At most ``limit`` error replies per sender in any ``window`` seconds. Pure: the caller passes
    the time (seconds, e.g. a UNIX timestamp) to every call."""

    def __init__(self, limit: int = 5, window: float = 3600.0) -> None:
        self.limit = limit
        self.window = window
        self._sent: dict[str, deque[float]] = {}

    def _recent(self, sender: str, now: float) -> deque[float]:
        times = self._sent.setdefault(sender.strip().lower(), deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def allow(self, sender: str, now: float) -> bool:
        """Whether a reply may go to ``sender`` now; if so, it is counted."""
        times = self._recent(sender, now)
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True

    def forget_old(self, now: float) -> None:
        """Drop senders with nothing sent within the window (keeps memory bounded)."""
        for sender in list(self._sent):
            if not self._recent(sender, now):
                del self._sent[sender]
