"""A GM's command block as mail clients send it: found by the one BEGIN GM finder (ruling 20.i1).

Rulings cited (docs/rulings.md): 20.i2.
"""

from __future__ import annotations

from referee import games as g
from referee.intake.process import GmMail, GmOutcome

from .helpers import GM, GM_SECRET, incoming, mail, new_game, outbox, text_of

NBSP = "\u00a0"


def outcome_of(store) -> list[tuple[str, str | None]]:
    return [(m.outcome, m.reason) for m in incoming(store)]


def pausing(code: str):
    """A GM handler that records the block it was given and pauses the game."""
    seen: list[str] = []

    def handler(request: GmMail) -> GmOutcome:
        seen.append(request.mail.body)
        with request.store.write() as s:
            g.pause_game(s, code, actor="gm:test")
        return GmOutcome("accepted", "1 command done", reply=f"PAUSE {code}: done\n")

    return handler, seen


async def test_a_block_written_in_an_html_mail_is_a_gm_block(store, take):
    # Outlook's plain part of an HTML mail keeps the non-breaking spaces the GM's editor put in
    code = new_game(store)
    handler, seen = pausing(code)
    body = f"{NBSP}BEGIN{NBSP}GM {code} key{NBSP}{GM_SECRET}\nPAUSE\nEND\n"
    html = f"<div>&nbsp;BEGIN&nbsp;GM {code} key&nbsp;{GM_SECRET}</div><div>PAUSE</div><div>END</div>"
    await take(mail(GM, body, html=html), gm_handler=handler)
    assert len(seen) == 1 and outcome_of(store) == [("accepted", "1 command done")]
    (answer,) = outbox(store)
    assert answer.kind == "gm_answer" and text_of(answer.raw).endswith(f"PAUSE {code}: done\n")
    with store.read() as s:
        assert g.get_game(s, code).status == "paused"


async def test_a_reply_that_only_quotes_an_earlier_block_runs_nothing(store, take):
    code = new_game(store)
    handler, seen = pausing(code)
    body = (f"Thanks, that worked.\n\nOn Mon, 2 Mar 2026, GM <{GM}> wrote:\n"
            f"> BEGIN GM {code} key {GM_SECRET}\n> PAUSE\n> END\n")
    await take(mail(GM, body, subject="Re: your GM commands"), gm_handler=handler)
    assert seen == []
    assert [o for o, _ in outcome_of(store)] == ["rejected"]   # read as a mail of orders from the GM: none
    with store.read() as s:
        assert g.get_game(s, code).status == "running"
