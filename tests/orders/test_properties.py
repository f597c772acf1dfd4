"""Properties over many generated inputs: nothing crashes, and what we write we read back the same.

* Any text, and any soup of order words, gives an answer from the parser without an internal error.
* A program written in any of the accepted styles (either vocabulary, positions, priorities,
  numbered or listed, any case, inside or outside a block) reads back as that program.
* The echo and the template the referee writes read back as the orders they show.
* Any bytes, and any damaged mail, give text or a recorded reason, never an exception.
"""

from __future__ import annotations

import contextlib
import os
import re
from email.message import EmailMessage

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.engine import DECK, Card, locked_registers
from referee.engine.cards import CARD_TYPES
from referee.orders import (
    DEFAULT_SACRIFICE_HP,
    MAIN_LASER,
    OrderContext,
    StandingOrders,
    parse_orders,
    read_mail,
    read_orders,
    render_echo,
    render_rejection,
)
from referee.orders.options import weapons_held

#: ORDERS_EXAMPLES=5000 for a longer hunt
SETTINGS = settings(max_examples=int(os.environ.get("ORDERS_EXAMPLES", "300")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
OPTIONS = ["Rear-Firing Laser", "Mini Howitzer", "Fire Control", "Double-Barreled Laser", "Pressor Beam"]
INTERNAL = "internal error"
GAME = {"game": "RR-7", "robot": "Twonky", "turn": 4}


@st.composite
def contexts(draw) -> OrderContext:
    """A robot as dealt: 9 - damage cards in hand, the registers that damage locks, some options."""
    damage = draw(st.integers(0, 9))
    locked_regs = locked_registers(damage)
    cards = draw(st.permutations(DECK))[: 9 - damage + len(locked_regs)]
    hand = cards[: 9 - damage]
    locked = dict(zip(locked_regs, cards[9 - damage:], strict=True))
    options = draw(st.lists(st.sampled_from(OPTIONS), unique=True, max_size=2))
    return OrderContext(hand=tuple(hand), locked=locked, options=tuple(options))


WORDS = ["1:", "2.", "3)", "a)", "e:", "phase b", "register 4", "FWD2", "670", "P670", "Move-2", "U-Turn", "u turn",
         "back up", "LF90", "left", "9", "0", "10", "#3", "#", "REBOOT", "NO", "POWER", "DOWN", "CANCEL", "FIRE",
         "1-5:", "a-c", "ALL", "LASER", "main", "laser", "SACRIFICE", "AT", "HP", "6", "NEVER", "ON", "TWO",
         "WRENCHES", "REPAIR", "OPTION", "REENTER", "FACING", "N", "west", "HELP", "STATUS", "CARDS", "locked",
         "(locked)", "BEGIN", "END", "RR-7", "Twonky", "turn", "4", "key", "k3y", ">", "> ", "-- ", "On", "wrote:",
         ",", ";", ":", "-", "/", "and", "then", "\u00a0", "\u200b", "ß", "İ", "\t", "999999", "P", "FWD2670",
         "-----Original Message-----", "From:", "Sent:"]


@st.composite
def order_soup(draw) -> str:
    lines = draw(st.lists(st.lists(st.sampled_from(WORDS), max_size=8), max_size=14))
    seps = st.sampled_from([" ", "", ", ", "  "])
    return "\n".join(draw(seps).join(line) for line in lines)


def no_internal_errors(result) -> None:
    assert all(INTERNAL not in e.message for e in result.errors), result.errors


@SETTINGS
@given(text=st.text(), ctx=contexts(), strict=st.booleans())
def test_any_text_gets_an_answer_from_the_parser(text, ctx, strict):
    result = parse_orders(text, ctx, strict=strict)
    no_internal_errors(result)
    assert result.ok == (not result.errors)
    if result.registers is not None:
        assert [r.number for r in result.registers] == [1, 2, 3, 4, 5]


@SETTINGS
@given(text=order_soup(), ctx=contexts())
def test_any_soup_of_order_words_gets_an_answer(text, ctx):
    _, result = read_orders(text, ctx, **GAME, key="k3y")
    no_internal_errors(result)
    if result.registers is not None:
        program = [r.card for r in result.registers]
        assert len(set(program)) == 5
        for r in result.registers:
            assert (r.card == ctx.locked[r.number]) if r.number in ctx.locked else (r.card in ctx.hand)


# --- a program written any accepted way reads back the same ----------------------------------

def card_styles(card: Card, hand: tuple[Card, ...]) -> list[str]:
    styles = [str(card), card.postal, f"{card.type.code} P{card.priority}", f"{card.type.postal} {card.priority}",
              str(card.priority), f"P{card.priority}"]
    if card in hand:
        styles.append(str(hand.index(card) + 1))
        if sum(c.type is card.type for c in hand) == 1:   # a type alone is unambiguous here
            styles += [card.type.code, card.type.postal]
    return styles


TYPE_NAMES = {name.upper() for t in CARD_TYPES for name in (t.code, t.postal)}


def unlabel(line: str) -> str:
    """A listed line that would read as a numbered register ("1 FWD2 670" is register 1) gets a comma."""
    return re.sub(r"^([1-5]) (?=\D)", r"\1, ", line)


LABELS = ["{n}: ", "{n}. ", "{n}) ", "{a}) ", "{a}: ", "phase {a}: ", "register {n}: ", "Reg {n} = ", "{A}. "]


@st.composite
def written_programs(draw):
    ctx = draw(contexts())
    assume(ctx.hand)
    free = ctx.free_registers
    chosen = draw(st.permutations(ctx.hand))[: len(free)]
    program = dict(zip(free, chosen, strict=True))
    program.update(ctx.locked)
    case = draw(st.sampled_from([str, str.upper, str.lower, str.title]))
    numbered = draw(st.booleans())
    lines: list[str] = []
    if numbered:
        for reg in range(1, 6):
            label = draw(st.sampled_from(LABELS)).format(n=reg, a="abcde"[reg - 1], A="ABCDE"[reg - 1])
            if reg in ctx.locked:
                how = draw(st.sampled_from(["omit", "locked", "card", "card (locked)"]))
                if how == "omit":
                    continue
                text = {"locked": "locked", "card": str(program[reg]),
                        "card (locked)": f"{program[reg].postal} (locked)"}[how]
            else:
                text = draw(st.sampled_from(card_styles(program[reg], ctx.hand)))
            if lines and draw(st.integers(0, 3)) == 0:   # several numbered registers on one line
                lines[-1] += draw(st.sampled_from([", ", "; ", " "])) + case(label + text)
            else:
                lines.append(case(label + text))
    else:
        regs = list(range(1, 6)) if ctx.locked and draw(st.booleans()) else free
        words = [draw(st.sampled_from(card_styles(program[r], ctx.hand))) for r in regs]
        line, prev = "", ""
        for word in words:
            if line:
                # a space after a type alone would join it to a following priority: "LF90 40" is one card
                joins = prev.upper() in TYPE_NAMES and word[0] in "0123456789P"
                line += draw(st.sampled_from([", ", "; ", " and "] + ([] if joins else [" "])))
            line += word
            prev = word
            if draw(st.integers(0, 3)) == 0:
                lines.append(case(unlabel(line)))
                line = ""
        if line:
            lines.append(case(unlabel(line)))
    standing_line = draw(st.sampled_from(["", "REBOOT", "no reboot", "Sacrifice at HP 3", "on two wrenches: option"]))
    if standing_line:
        lines.insert(draw(st.integers(0, len(lines))), standing_line)
    body = "\n".join(lines)
    if draw(st.booleans()):
        body = (f"Hi referee,\n\nBEGIN RR-7 Twonky turn 4 key k3y\n{body}\nEND\n\nthanks\n-- \nBob 555 0100\n\n"
                f"On Tue, Referee wrote:\n> BEGIN RR-7 Twonky turn 4 key k3y\n> 1: 1\n> END\n")
    elif draw(st.booleans()):
        body = f"{body}\n\nOn Tue, Referee wrote:\n> Your hand: 1 FWD2 670\n> 1 2 3 4 5\n"
    return ctx, body, [program[r] for r in range(1, 6)]


@SETTINGS
@given(written_programs())
def test_a_program_written_any_accepted_way_reads_back(case):
    ctx, body, expected = case
    _, result = read_orders(body, ctx, **GAME, key="k3y")
    assert result.ok, (body, result.errors)
    assert result.program == expected
    assert [r.locked for r in result.registers] == [r in ctx.locked for r in range(1, 6)]


# --- what the referee writes reads back ---------------------------------------------------------

@st.composite
def standing_orders(draw, options: tuple[str, ...]) -> StandingOrders:
    weapons = [MAIN_LASER, *weapons_held(options)]   # Rear-Firing, Double-Barreled: no FIRE orders
    fire_kind = draw(st.sampled_from(["none", "all", "each"]))
    fire = {} if fire_kind == "none" else (
        dict.fromkeys(range(1, 6), draw(st.sampled_from(weapons))) if fire_kind == "all"
        else {r: draw(st.sampled_from(weapons)) for r in draw(st.sets(st.integers(1, 5), min_size=1))})
    return StandingOrders(power_down=draw(st.none() | st.booleans()),
                          sacrifice_at=draw(st.none() | st.integers(0, 10)),
                          two_wrenches=draw(st.none() | st.sampled_from(["repair", "option"])),
                          reenter_facing=draw(st.none() | st.integers(0, 3)), fire=fire)


def effective(s: StandingOrders) -> StandingOrders:
    """Standing orders with the defaults the echo writes out."""
    return StandingOrders(power_down=bool(s.power_down),
                          sacrifice_at=DEFAULT_SACRIFICE_HP if s.sacrifice_at is None else s.sacrifice_at,
                          two_wrenches=s.two_wrenches or "repair", reenter_facing=s.reenter_facing, fire=s.fire)


@SETTINGS
@given(data=st.data(), ctx=contexts(), vocabulary=st.sampled_from(["report", "postal"]))
def test_the_echo_reads_back_as_the_orders_it_shows(data, ctx, vocabulary):
    assume(len(ctx.hand) >= len(ctx.free_registers))
    chosen = data.draw(st.permutations(ctx.hand))[: len(ctx.free_registers)]
    program = dict(zip(ctx.free_registers, chosen, strict=True)) | dict(ctx.locked)
    registers = [program[r] for r in range(1, 6)]
    standing = data.draw(standing_orders(tuple(ctx.options)))
    text = render_echo(**GAME, registers=registers, locked=ctx.locked, standing=standing, hand=ctx.hand,
                       options=ctx.options, vocabulary=vocabulary)
    found, result = read_orders(text, ctx, **GAME)
    assert found.header is not None
    assert result.ok, (text, result.errors)
    assert result.program == registers
    assert effective(result.standing) == effective(standing)


@SETTINGS
@given(data=st.data(), ctx=contexts(), vocabulary=st.sampled_from(["report", "postal"]))
def test_a_complete_template_reads_back_as_its_registers(data, ctx, vocabulary):
    chosen = data.draw(st.permutations(ctx.hand))[: len(ctx.free_registers)]
    draft = dict(zip(ctx.free_registers, chosen, strict=True))
    assume(len(draft) == len(ctx.free_registers))
    text = render_rejection([], **GAME, key="k3y", context=ctx, draft=draft, vocabulary=vocabulary)
    _, result = read_orders(text, ctx, **GAME, key="k3y", require_key=True)
    assert result.ok, (text, result.errors)
    assert result.program == [(draft | dict(ctx.locked))[r] for r in range(1, 6)]


# --- mails ----------------------------------------------------------------------------------

def mail_ok(m) -> None:
    assert isinstance(m.body, str)
    assert (m.rejected is None) == bool(m.body.strip()), (m.rejected, m.body[:80])
    assert "\x00" not in m.body


@SETTINGS
@given(st.binary(max_size=3000))
def test_any_bytes_give_text_or_a_reason(data):
    mail_ok(read_mail(data))


# (not utf-16: the standard library writes its line breaks as single bytes, see test_mailtext for a real one)
CHARSETS = ["us-ascii", "utf-8", "iso-8859-1", "iso-8859-15", "windows-1252", "koi8-r", "shift_jis", "big5"]
TEXT = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), min_size=1, max_size=400)


def lines_of(text: str) -> str:
    """Text compared line by line, ignoring line-break kinds and trailing blanks (as mail transport does)."""
    return "\n".join(x.rstrip() for x in text.splitlines()).strip()


def alphabet(charset: str) -> list[str]:
    """Characters the charset can write: ASCII, Latin, Greek, Cyrillic, punctuation, some kana and kanji."""
    ranges = [(0x09, 0x0B), (0x20, 0x250), (0x370, 0x460), (0x2000, 0x2070), (0x3040, 0x30A0), (0x4E00, 0x4E40)]
    out = []
    for lo, hi in ranges:
        for code in range(lo, hi):
            with contextlib.suppress(UnicodeEncodeError):
                chr(code).encode(charset)
                out.append(chr(code))
    return out


ALPHABETS = {cs: alphabet(cs) for cs in CHARSETS}


@SETTINGS
@given(data=st.data(), charset=st.sampled_from(CHARSETS), cte=st.sampled_from([None, "base64", "quoted-printable"]))
def test_a_plain_text_mail_in_any_charset_reads_back_its_text(data, charset, cte):
    text = data.draw(st.text(st.sampled_from(ALPHABETS[charset]), min_size=1, max_size=300))
    assume(text.strip())
    encoded = text.encode(charset)
    if charset in ("iso-8859-1", "iso-8859-15", "windows-1252") and not encoded.isascii():
        # the one guess read_mail makes: Western text that is also valid UTF-8 is taken as UTF-8
        with contextlib.suppress(UnicodeDecodeError):
            assume(re.search("[\x80-\x9f]", encoded.decode("utf-8")))
    msg = EmailMessage()
    msg["From"] = "bob@example.com"
    msg.set_content(text, charset=charset, cte=cte)
    m = read_mail(msg.as_bytes())
    mail_ok(m)
    # what the charset itself can carry (Shift JIS writes the yen sign as a backslash)
    assert lines_of(m.body) == lines_of(encoded.decode(charset))


@st.composite
def damaged_mails(draw) -> bytes:
    msg = EmailMessage()
    msg["From"] = draw(st.sampled_from(["bob@example.com", "=?utf-8?q?=FF?= <x@y>", "<<>>", "", "a@b@c"]))
    msg["Subject"] = " ".join(draw(st.text(max_size=50)).splitlines())
    msg.set_content(draw(TEXT))
    kind = draw(st.sampled_from(["alt", "attach", "plain", "html"]))
    if kind == "alt":
        msg.add_alternative(f"<p>{draw(TEXT)}</p>", subtype="html")
    elif kind == "attach":
        msg.add_attachment(draw(st.binary(max_size=200)), maintype="application", subtype="octet-stream",
                           filename="x.bin")
    elif kind == "html":
        msg.set_content(f"<html><body>{draw(TEXT)}</body></html>", subtype="html")
    if msg.is_multipart():
        msg.set_boundary("==b0undary==")   # the library would draw one from the global random module
    data = bytearray(msg.as_bytes())
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "charset"]))
        pos = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[pos] = draw(st.integers(0, 255))
        elif op == "cut":
            del data[pos:pos + draw(st.integers(1, 200))]
        elif op == "insert":
            data[pos:pos] = draw(st.sampled_from([b"\r\n", b"\r\n\r\n", b"--", b"=?", b"\xff\xfe", b"boundary=",
                                                  b"Content-Type: multipart/mixed\r\n", b"charset=bogus",
                                                  b"x" * 2000]))
        else:
            data = bytearray(bytes(data).replace(b"utf-8", draw(st.sampled_from([b"x-bad", b"rot13", b"utf-16",
                                                                                 b"ascii", b"\"\""]))))
    return bytes(data)


@SETTINGS
@given(damaged_mails(), st.integers(200, 5000))
def test_a_damaged_mail_gives_text_or_a_reason(data, cap):
    m = read_mail(data, max_bytes=cap)
    mail_ok(m)
    if len(data) > cap:
        assert m.rejected is not None and "accepted" in m.rejected
    _, result = read_orders(m.body, OrderContext(hand=DECK[:9]))
    no_internal_errors(result)
