"""What the referee tells someone it does not know (see :mod:`referee.intake.strangers` for when)."""

from __future__ import annotations

HELP_SUBJECT = "RoboRally referee: help"
NOTE_SUBJECT = "RoboRally referee: who we are"


def note(referee_address: str, gm: str | None, help_text: str | None) -> str:
    """Who we are, how to reach the GM, and HELP when it was asked for (``help_text``)."""
    lines = [f"This is the RoboRally referee at {referee_address}: a program that runs games of the",
             "board game RoboRally by mail. It reads orders only from the players of its games, and",
             "this address is not one of them.", ""]
    if gm:
        lines += ["To join a game, or if you play and wrote from another address, write to the",
                  f"game master: {gm}", ""]
    else:
        lines += ["To join a game, ask the game master who invited you to this referee.", ""]
    lines += ["Players: reply to your turn mail (from the address the game knows), or put the",
              "BEGIN ... END block of the turn mail, with its key, into your mail.", ""]
    if help_text is not None:
        lines += [help_text]
    else:
        lines += ["Send a mail with the word HELP for how orders are written.", ""]
    lines += ["(An automatic answer: you get at most one of these a day.)" if help_text is None else ""]
    return "\n".join(lines).rstrip() + "\n"
