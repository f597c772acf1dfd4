"""The use cases of a game, each once: what the CLI, the GM's mail commands, the intake and the tick call.

- :mod:`.lifecycle`: create, start (and :func:`start_and_announce`: start and queue the first mails),
  pause, resume, the deadline, end, publish.
- :mod:`.players`: add, standing orders, replace, eject.
- :mod:`.submitting`: a robot's orders for the open turn; Recompile.
- :mod:`.taking`: a player's mail about her robot: its orders read, checked and filed, its requests
  answered (:mod:`.requests`; PREVIEW and HINT: :mod:`.previews`), one call (:func:`take_orders`).
- :mod:`.resolving`: resolve the open turn (:func:`resolve_and_report`: with its mails), replay a turn.
- :mod:`.fills`: the missing-orders strategies, one registry.
- :mod:`.corrections`: re-run, roll back, correct the open turn's robots.
- :mod:`.engine_io`: a stored turn's engine inputs and results.
- :mod:`.views`: a game and a turn as plain data.
- :mod:`.signup`, :mod:`.own`, :mod:`.press`, :mod:`.observers`: the community (issue 31): sign-up, a
  player's own commands (resign, a new address, absences, her games), press, observers; :mod:`.signed`:
  the signed tokens of their mails.
- :mod:`.cli`: ``referee game ...``.

Reading (games, players, turns, orders) is :mod:`referee.store.queries`, re-exported here so a caller
needs one import: ``from referee import games``. A game's life: :func:`create_game` (forming) ->
:func:`add_player` ... -> :func:`start_game` (running; robots placed, turn 1 dealt) -> per turn
:func:`submit_program` for each robot, then :func:`resolve_turn` (the turn's inputs and results stored,
the next turn dealt) -> finished when a robot wins or nobody is left.
"""

from __future__ import annotations

from ..store import attention as _attention  # noqa: F401  (installs the write sessions' attention hooks)
from ..store.queries import (
    active_orders,
    get_game,
    get_player,
    get_turn,
    last_resolved,
    list_games,
    load_course,
    open_turn,
    owes_program,
    waiting_for,
)
from ..store.records import cards_of, cards_text, robots_of
from ..store.types import utcnow
from .common import (
    MAX_PLAYERS,
    PALETTE,
    RESERVED_ROBOT_NAMES,
    SECRET_ALPHABET,
    SECRET_LENGTH,
    audit,
    course_players,
    new_secret,
    normalize_email,
    turn_seed,
)
from .corrections import Rerun, replace_open_state, rerun_turn, rollback_to
from .engine_io import (
    TurnInputs,
    TurnStart,
    option_answers,
    result_columns,
    rules_version_note,
    run_engine,
    stored_inputs,
    stored_result,
    turn_option_orders,
    turn_start,
)
from .fills import (
    FILLS,
    STRATEGIES,
    Fill,
    Filling,
    Strategy,
    fill_for,
    filling,
    idle_fill,
    plan_missing,
    random_fill,
)
from .lifecycle import (
    create_game,
    end_game,
    extend_for_outage,
    pause_game,
    publish_turn,
    resume_game,
    set_deadline,
    start_and_announce,
    start_game,
)
from .players import add_player, eject_player, find_player_by_email, replace_player, set_standing_orders
from .resolving import replay_turn, resolve_and_report, resolve_turn, resolve_with_mails
from .submitting import recompile_deal, recompile_hand, submit_program
from .taking import OrdersMail, Taken, take_orders
from .views import game_view, turn_view

__all__ = [
    "FILLS", "MAX_PLAYERS", "PALETTE", "RESERVED_ROBOT_NAMES", "SECRET_ALPHABET", "SECRET_LENGTH", "STRATEGIES",
    "Fill", "Filling", "OrdersMail", "Rerun", "Strategy", "Taken", "TurnInputs", "TurnStart",
    "active_orders", "add_player", "audit", "cards_of", "cards_text", "course_players", "create_game",
    "eject_player", "end_game", "extend_for_outage",
    "fill_for", "filling", "find_player_by_email", "game_view", "get_game",
    "get_player", "get_turn", "idle_fill", "last_resolved", "list_games", "load_course", "new_secret",
    "normalize_email", "open_turn", "option_answers", "owes_program", "pause_game", "plan_missing",
    "publish_turn", "random_fill", "recompile_deal", "recompile_hand", "replace_open_state", "replace_player",
    "replay_turn", "rerun_turn", "resolve_and_report", "resolve_turn", "resolve_with_mails", "result_columns",
    "resume_game",
    "robots_of", "rollback_to", "rules_version_note", "run_engine", "set_deadline", "set_standing_orders",
    "start_and_announce", "start_game", "stored_inputs", "stored_result", "submit_program", "take_orders",
    "turn_option_orders",
    "turn_seed", "turn_start", "turn_view", "utcnow", "waiting_for",
]
