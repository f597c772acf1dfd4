"""One turn, every player's mail: the public report rendered once for all of them gives the same bytes.

The seeded turn of this package's scenario; each player (with their next hand) and the GM (no hand, a
correction notice) get a mail built on its own and one built with the turn's shared report.
"""

from __future__ import annotations

from referee.render import build_private
from referee.render.mail import turn_mail

from .conftest import DOMAIN, HEADERS, ORDER_TEMPLATE, SENDER, TURN, SeededTurn

NOTICE = "Corrected report: the game master re-ran this turn."


def test_each_mail_of_the_turn_is_the_same_whether_the_report_is_shared_or_not(seeded: SeededTurn, rendered,
                                                                              next_deal):
    shared: dict = {}
    mails = 0
    for who, player in [*((p.robot, p) for p in seeded.players), ("gm", None)]:
        robot = next((r for r in seeded.result.robots if r.name == who), None)
        private = (build_private(player, TURN + 1, next_deal.hands.get(who, []), next_deal.locked.get(who, {}),
                                 ORDER_TEMPLATE, robot, rendered.flag_total, None) if player else None)
        args = dict(report=rendered.report, pictures=rendered.pictures, gif=rendered.gif, legend=rendered.legend,
                    sender=SENDER, recipient=f"{who.lower()}@example.test", subject=f"turn {TURN}", domain=DOMAIN,
                    private=private, headers=HEADERS, notice=None if player else NOTICE)
        alone = turn_mail(**args)
        together = turn_mail(**args, shared=shared)
        assert bytes(together) == bytes(alone)
        mails += 1
    assert mails == len(seeded.players) + 1
    assert len(shared) == 2  # the report as text and as HTML, once for the whole turn
