"""The game masters' rows looked up and changed by meaning: added GMs, co-masters, the games a GM runs
(:mod:`referee.games.masters` holds what is done with them)."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .community_models import CoMaster, GameMaster
from .models import Game
from .queries import UNFINISHED


def gm_row(s: Session, address: str, *, active: bool = False) -> GameMaster | None:
    """The added GM's row at ``address`` (lower case), removed or not; only an active one with ``active``."""
    query = select(GameMaster).where(GameMaster.address == address)
    if active:
        query = query.where(GameMaster.active.is_(True))
    return s.scalars(query).one_or_none()


def active_gm_addresses(s: Session) -> set[str]:
    """Every added GM's address that is not removed."""
    return set(s.scalars(select(GameMaster.address).where(GameMaster.active.is_(True))))


def gm_rows(s: Session) -> list[GameMaster]:
    """Every added GM, the active ones first, each group in the order added."""
    return list(s.scalars(select(GameMaster).order_by(GameMaster.active.desc(), GameMaster.id)))


def comaster_addresses(s: Session, game: Game) -> list[str]:
    """The game's co-masters, in the order added."""
    return list(s.scalars(select(CoMaster.address).where(CoMaster.game_id == game.id).order_by(CoMaster.id)))


def comasters_by_game(s: Session) -> dict[int, list[str]]:
    """Game id -> its co-masters, in the order added, for every game."""
    out: dict[int, list[str]] = {}
    for row in s.scalars(select(CoMaster).order_by(CoMaster.id)):
        out.setdefault(row.game_id, []).append(row.address)
    return out


def unfinished_games_naming(s: Session, address: str) -> list[Game]:
    """The games not finished whose ``gm_address`` is ``address``, oldest first."""
    return list(s.scalars(select(Game).where(Game.gm_address == address, Game.status.in_(UNFINISHED))
                          .order_by(Game.id)))


def games_comastered_by(s: Session, address: str) -> list[Game]:
    """The games ``address`` co-masters, oldest first."""
    return list(s.scalars(select(Game).join(CoMaster, CoMaster.game_id == Game.id)
                          .where(CoMaster.address == address).order_by(Game.id)))


def drop_comaster(s: Session, address: str, game: Game | None = None) -> None:
    """End ``address``'s co-mastership of ``game`` (of every game when None)."""
    query = delete(CoMaster).where(CoMaster.address == address)
    if game is not None:
        query = query.where(CoMaster.game_id == game.id)
    s.execute(query)
