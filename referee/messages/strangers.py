"""What the referee tells someone it does not know (see :mod:`referee.intake.strangers` for when): how to
join first (LIST and JOIN), then how players write, then HELP when it was asked for."""

from __future__ import annotations

HELP_SUBJECT = "RoboRally referee: help"
NOTE_SUBJECT = "RoboRally referee: who we are"
JOIN_SUBJECT = "RoboRally referee: how to join a game"


def note(referee_address: str, gm: str | None, help_text: str | None, listing: str | None = None) -> str:
    """Who we are and how to join (LIST, JOIN, OBSERVE), with the games open now (``listing``, for someone who
    asked to play), how players write, how to reach the GM, and HELP when it was asked for (``help_text``)."""
    lines = [f"This is the RoboRally referee at {referee_address}: a program that runs games of the",
             "board game RoboRally by mail.", "",
             "To join a game, send a mail to this address whose first line is:", "",
             "  LIST                        the games open for sign-up, and those under way",
             "  JOIN RR-7 AS <robot name>   a seat in game RR-7 (its game master decides)",
             "  OBSERVE RR-7                follow a game's public results by mail", ""]
    if listing is not None:
        lines += ["The games right now:", "", *(f"  {line}" for line in listing.splitlines()), ""]
    lines += ["Players: reply to your turn mail (from the address the game knows), or put the",
              "BEGIN ... END block of the turn mail, with its key, into your mail.", ""]
    if gm:
        lines += [f"Anything else: write to the game master: {gm}", ""]
    if help_text is not None:
        lines += [help_text]
    else:
        lines += ["Send a mail with the word HELP for how orders are written.", ""]
    lines += ["(An automatic answer: you get at most one of these a day.)" if help_text is None else ""]
    return "\n".join(lines).rstrip() + "\n"
