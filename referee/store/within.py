"""A store inside a transaction already open: for code written against :class:`~referee.store.db.Store`
that must commit or roll back as one with its caller.

The GM commands of a mail run each "in its own transaction" (``with ctx.store.write() as s``). Given
a :class:`StoreWithin` the mail's session, those transactions become savepoints of the mail's
transaction: a command that fails still changes nothing, and the commands, the answer and the
mail's outcome are committed together, or (a crash, a bug) not at all, and the mail is processed
again from the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.orm import Session

from .db import Store


class StoreWithin:
    """Looks like ``store``; its :meth:`write` is a savepoint of ``session`` (a write session) and its
    :meth:`read` is ``session`` itself, so both see what the transaction has done so far."""

    def __init__(self, store: Store | StoreWithin, session: Session) -> None:
        self.store = store
        self.session = session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A savepoint: released when the block ends, rolled back (alone) when it raises."""
        with self.session.begin_nested():
            yield self.session

    @contextmanager
    def read(self) -> Iterator[Session]:
        yield self.session

    def __getattr__(self, name: str) -> Any:  # url, dialect, describe(): those of the store
        return getattr(self.store, name)
