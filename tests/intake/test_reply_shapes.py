"""Real reply shapes: each mail program's answer to a turn mail, in nine languages.

Every file in tests/intake/replies/ is a player's answer as Gmail, Outlook (desktop, iOS, on the web),
Apple Mail, iPhone, Thunderbird or Roundcube puts it on the wire, in English, German, French, Dutch,
Spanish, Italian, Portuguese, Polish or Swedish: attribution lines, quoted or pasted originals with the
turn mail's own template, signatures with initials, phone numbers and addresses, "2 more flags to go.".
Its ``X-Test-Expect`` header says what must come of it: the program is taken, or the mail is refused for
the reason given. (tests/intake/replies/make_corpus.py wrote them.)
"""

from __future__ import annotations

from email import message_from_bytes
from pathlib import Path

import pytest

from referee.orders import read_mail, read_orders
from tests.orders.helpers import FULL, program

REPLIES = Path(__file__).resolve().parent / "replies"
SHAPES = sorted(REPLIES.glob("*.eml"))
PROGRAM = program("FWD2 670", "RT90 80", "FWD1 500", "RVS1 430", "UTRN 10")


def test_the_corpus_holds_sixty_shapes_and_more():
    assert len(SHAPES) >= 60
    languages = {p.name.split("-")[0] for p in SHAPES if not p.name.startswith("refuse-")}
    assert languages == {"en", "de", "fr", "nl", "es", "it", "pt", "pl", "sv"}


@pytest.mark.parametrize("path", SHAPES, ids=[p.stem for p in SHAPES])
def test_a_reply_is_taken_with_its_program_or_refused_for_its_reason(path: Path):
    raw = path.read_bytes()
    expect = str(message_from_bytes(raw)["X-Test-Expect"]).strip()
    mail = read_mail(raw)
    assert mail.rejected is None
    _, result = read_orders(mail.body, FULL, game="RR-7", robot="Twonky", turn=4, key="8f3k2q")
    if expect == "accept":
        assert [str(e) for e in result.errors] == []
        assert result.program == PROGRAM
        # nothing of the quoted or pasted turn mail was read, and the stray lines were only listed
        assert not any(word in line for _, line in result.ignored
                       for word in ("BEGIN", "Deadline", "referee", "Outlook", "iPhone", "FWD"))
    else:
        reason = expect.removeprefix("refuse:").strip()
        assert result.registers is None
        assert any(reason in str(e) for e in result.errors), [str(e) for e in result.errors]
