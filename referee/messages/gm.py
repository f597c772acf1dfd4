"""What the intake tells the game master (the answers of :mod:`referee.gm` itself are its own)."""

from __future__ import annotations

NO_GM = "GM commands are not available"
NOT_AVAILABLE_SUBJECT = "Your GM commands: not available"


def commands_subject(outcome: str, shortfall: str | None = None) -> str:
    """The subject of the answer to a GM command block: ``Your GM commands: accepted`` when all was done,
    else what was not (``Your GM commands: 1 of 3 commands not done``), never "accepted" then."""
    if outcome == "accepted" and shortfall:
        return f"Your GM commands: {shortfall}"
    return f"Your GM commands: {outcome}"


def not_available() -> str:
    """To the GM when this installation has no GM command handler."""
    return (f"{NO_GM} in this installation of the referee: nothing in your mail was done.\n"
            "Use the referee command line on the server meanwhile (referee gm --help).\n")


def answers_paused_subject(sender: str) -> str:
    return f"Answers paused for {sender}"


def answers_paused(sender: str, limit: int, what: str) -> str:
    """To the GM when a sender's error answers are held back for the rest of the hour."""
    return (f"{sender} has had {limit} answers about {what} this hour;\n"
            "further ones this hour are not answered (see: referee mail list).\n")


def wrong_keys_subject(game: str, robot: str) -> str:
    return f"{game}: wrong keys for {robot}"


def wrong_keys(count: int, robot: str, game: str, latest: str, email: str) -> str:
    """To the GM when a robot's key keeps coming wrong (someone may be guessing it)."""
    return (f"{count} mails in the last day carried a wrong key for {robot} in game {game}\n"
            f"(the latest from {latest}). Someone may be guessing the key. If this goes on, give the\n"
            f"robot a new key: REPLACE {robot} WITH {email}\n")


def bounced_subject(subject: str) -> str:
    return f"[GM] bounced: {subject}"[:200]


def bounced(to: str, robot: str | None, game: str | None, subject: str, sent: str, report: str) -> str:
    """To the GM when a mail of the referee came back undelivered (``robot``, ``game``: whose it was)."""
    who = f" ({robot} in {game})" if robot is not None and game is not None else ""
    lines = [f"A mail from the referee to {to}{who} came back: it could not be delivered.", "",
             f"  subject: {subject}", f"  sent:    {sent} UTC", f"  report:  {report}", ""]
    if robot is not None and game is not None:
        lines += ["The address may be dead. Ask the player for another one, or hand the robot to someone else:",
                  f"  REPLACE {robot} WITH <address>", ""]
    return "\n".join(lines)
