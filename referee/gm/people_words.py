"""The words of the GM commands about GMs themselves (issue 31), read like the other GM commands (pure):

    SET SECRET                      a new key for the GM who sends it (the answer carries it)
    COMASTER ADD <address>          let another GM of the installation run this game too
    COMASTER REMOVE <address>
    COMASTER                        who runs this game
"""

from __future__ import annotations

from typing import Any

#: the lines these commands are, as the answer and HELP write them
HELP = """\
  SET SECRET                       a new GM key for you (in the answer); the old one stops working
  COMASTER [ADD|REMOVE <address>]  who runs this game; let another GM run it beside you, or no longer
"""
#: first words -> command name (for lines that could not be read)
NAMES = {"SET SECRET": "set_secret", "COMASTER": "comaster"}
#: keywords, for suggestions
WORDS = ("SET SECRET", "COMASTER")


class WordsError(ValueError):
    """A line of these commands that cannot be read."""


def parse(words: list[str], cmd: Any) -> Any | None:
    """The command of ``words`` (via ``cmd(name, **args)``), or None when it is none of these."""
    upper = [w.upper() for w in words]
    if upper == ["SET", "SECRET"]:
        return cmd("set_secret")
    if upper[:1] != ["COMASTER"]:
        return None
    if len(words) == 1:
        return cmd("comaster", action="list", address=None)
    if len(words) == 3 and upper[1] in ("ADD", "REMOVE"):
        return cmd("comaster", action=upper[1].lower(), address=words[2])
    raise WordsError("COMASTER ADD <address>, COMASTER REMOVE <address>, or COMASTER alone for who runs the game")
