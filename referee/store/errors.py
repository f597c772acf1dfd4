"""What the store refuses, and why. ``str(error)`` is one line meant for the GM or the player."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the store cannot do as asked."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


class NotFound(StoreError):
    """No such game, player or turn."""


class Duplicate(StoreError):
    """A game code, robot name, address or colour already taken."""


class InvalidValue(StoreError):
    """A bad course, house rule, code, name, address or colour."""


class GameStateError(StoreError):
    """The game is not in a state that allows this (not forming, not running, finished...)."""


class AlreadyResolved(GameStateError):
    """The turn asked for was resolved already (by this or another process)."""


class Busy(StoreError):
    """Another process holds the game right now (only when asked not to wait)."""


class MissingOrders(StoreError):
    """A turn cannot be resolved: some players still owe a program."""

    def __init__(self, message: str, robots: list[str]) -> None:
        super().__init__(message)
        self.robots = robots


class ProgramError(StoreError):
    """A program that cannot be accepted. ``problems`` holds one line per problem."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


class StaleOrders(ProgramError):
    """Orders for a turn that is not the open one."""
