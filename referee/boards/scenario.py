"""``referee simulate``: a scenario (JSON) in, the resolved turn (JSON) out.

The contract is documented in docs/scenario-format.md; keep it stable. Everything the scenario
cannot mean is a :class:`ScenarioError` with one line that says what and where.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import (
    Board,
    BoardError,
    BoardState,
    Card,
    CardError,
    NotationError,
    Robot,
    Rules,
    locked_registers,
    parse_card,
    parse_dir,
    parse_square,
    resolve_turn,
    shown,
    square_name,
)
from ..engine.decisions import DECISION, FIRE, SACRIFICE, TWO_WRENCHES, Answers, DecisionKey
from ..engine.element_orders import BY_SUBJECT as ELEMENT_ORDERS
from ..engine.option_deck import card_name, held_options, new_option_deck
from ..engine.option_orders import BY_SUBJECT
from ..engine.snapshot import robot_to_dict
from ..engine.state import COPIED, SCENARIO_ROBOT_KEYS, TAMAGOTCHI
from . import BoardNotFound, load_board
from .checks import checked_build

TOP_KEYS = {"board", "rules", "robots", "programs", "phases", "seed", "reentry", "board_state", "option_deck", "orders",
            "standing"}
#: the decision subjects a scenario's ``orders`` may answer
ORDER_SUBJECTS = frozenset({FIRE, SACRIFICE, TWO_WRENCHES, *BY_SUBJECT, *ELEMENT_ORDERS})
IGNORED_KEYS = {"name", "description", "comment", "expect", "notes"}
#: a scenario robot's keys: the fields ``Robot`` lets a scenario give, a comment, and a tamagotchi's link
ROBOT_KEYS = SCENARIO_ROBOT_KEYS | {"comment", "tamagotchi"}


class ScenarioError(ValueError):
    """A scenario that cannot be accepted; ``str()`` is the one-line reason."""


def _dupe_check(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ScenarioError(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


def parse_json(text: str | bytes) -> dict[str, Any]:
    try:
        data = json.loads(text, object_pairs_hook=_dupe_check)
    except ScenarioError:
        raise
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario must be a JSON object")
    return data


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ScenarioError(f"{what} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{what} must be true or false, not {value!r}")
    return value


def load_scenario_board(spec: Any) -> Board:
    if isinstance(spec, str):
        try:
            return load_board(spec)
        except (BoardNotFound, BoardError) as exc:
            raise ScenarioError(str(exc)) from None
    try:
        return checked_build(spec, "board")   # a kind that is a list, void not a list...: one line, no traceback
    except BoardError as exc:
        raise ScenarioError(str(exc)) from None


def parse_robot(spec: Any, index: int, board: Board) -> Robot:
    if not isinstance(spec, dict):
        raise ScenarioError(f"robots[{index}] must be an object with name, at and facing")
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"robots[{index}] needs a name")
    where = f"robot {name!r}"
    extra = sorted(set(spec) - ROBOT_KEYS)
    if extra:
        raise ScenarioError(f"{where}: unknown field {extra[0]!r}")
    for req in ("at", "facing"):
        if req not in spec:
            raise ScenarioError(f"{where} needs {req!r}")
    try:
        at = None if spec["at"] is None else parse_square(spec["at"])
        facing = parse_dir(spec["facing"])
        archive_raw = spec.get("archive", spec["at"])
        archive = None if archive_raw is None else parse_square(archive_raw)
    except NotationError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    for sq, label in ((at, "at"), (archive, "archive")):
        if sq is not None and not board.on_board(sq):
            raise ScenarioError(f"{where}: {label} {square_name(sq)} is off the {board.width}x{board.height} board")
    lives = _int(spec.get("lives", 3), f"{where}: lives", 0 if at is None else 1, 99)
    if at is None and lives > 0 and archive is None:
        raise ScenarioError(f"{where}: a robot off the board (at null) needs an archive to re-enter at")
    virtual = _bool(spec.get("virtual", False), f"{where}: virtual")
    robot = Robot(
        name=name,
        pos=at,
        facing=facing,
        damage=_int(spec.get("damage", 0), f"{where}: damage", 0, 9),
        lives=lives,
        flags=_int(spec.get("flags", 0), f"{where}: flags", 0, max(0, board.flag_count - 1)),
        virtual=virtual,
        first_turn=_bool(spec.get("first_turn", virtual), f"{where}: first_turn"),
        archive=archive,
        powered_down=_bool(spec.get("powered_down", False), f"{where}: powered_down"),
        power_down_next=_bool(spec.get("power_down_next", False), f"{where}: power_down_next"),
        options=_option_names(spec.get("options", []), f"{where}: options"),
    )
    data = spec.get("option_data", {})
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ScenarioError(f"{where}: option_data must map option names to objects")
    robot.option_data = {str(k): dict(v) for k, v in data.items()}
    robot.statuses = _statuses(spec.get("statuses", []), f"{where}: statuses")
    return robot


def _statuses(raw: Any, where: str) -> set[str]:
    """The statuses a robot starts with, each one its module declares (``shown.STATUSES``: what the GM's SET
    STATUS knows too); a tamagotchi's are given by its ``tamagotchi`` key."""
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise ScenarioError(f"{where} must be a list of status names")
    for status in raw:
        if status not in shown.STATUSES or status in (TAMAGOTCHI, COPIED):
            known = ", ".join(s for s in sorted(shown.STATUSES) if s not in (TAMAGOTCHI, COPIED))
            raise ScenarioError(f"{where}: no status {status!r} a scenario can give (statuses: {known})")
    return set(raw)


def _link_tamagotchis(robots: list[Robot], specs: list[Any]) -> None:
    """A robot given ``tamagotchi: {"of": robot, "arose": square}`` is that robot's tamagotchi (copy machines)."""
    by_name = {r.name: r for r in robots}
    for robot, spec in zip(robots, specs, strict=True):
        data = spec.get("tamagotchi")
        if data is None:
            continue
        where = f"robot {robot.name!r}: tamagotchi"
        parent = by_name.get(str(data.get("of"))) if isinstance(data, dict) else None
        if parent is None or parent is robot:
            raise ScenarioError(f"{where} must name the robot it copies: {{\"of\": \"Twonky\"}}")
        if TAMAGOTCHI in parent.option_data:
            raise ScenarioError(f"{where}: {parent.name!r} has a tamagotchi already (one each)")
        arose = data.get("arose", spec["at"])
        try:
            arose = square_name(parse_square(arose))
        except (NotationError, TypeError):
            raise ScenarioError(f"{where}: arose must be a square such as r3c5") from None
        robot.virtual, robot.first_turn = True, False
        robot.statuses.add(TAMAGOTCHI)
        robot.option_data[TAMAGOTCHI] = {"of": parent.name, "arose": arose}
        parent.statuses.add(COPIED)
        parent.option_data[TAMAGOTCHI] = {"copy": robot.name}


def _option_names(value: Any, what: str) -> list[str]:
    """Option card names (any case), each once."""
    if not isinstance(value, list):
        raise ScenarioError(f"{what} must be a list of option card names")
    names: list[str] = []
    for item in value:
        name = card_name(item) if isinstance(item, str) else None
        if name is None:
            raise ScenarioError(f"{what}: unknown option card {item!r}")
        if name in names:
            raise ScenarioError(f"{what}: {name} appears twice (one copy of each card)")
        names.append(name)
    return names


def _orders(value: Any, names: list[str]) -> dict[str, dict[DecisionKey, Any]]:
    """This turn's orders for the decisions effects ask: robot -> subject -> answer, or -> {register: answer}."""
    if not isinstance(value, dict):
        raise ScenarioError("orders must map robot names to their orders")
    out: dict[str, dict[DecisionKey, Any]] = {}
    for name, subjects in value.items():
        if name not in names:
            raise ScenarioError(f"orders for unknown robot {name!r}")
        if not isinstance(subjects, dict):
            raise ScenarioError(f"orders of {name!r} must map subjects to answers")
        keys: dict[DecisionKey, Any] = {}
        for subject, answer in subjects.items():
            if subject not in ORDER_SUBJECTS:
                raise ScenarioError(f"orders of {name!r}: unknown subject {subject!r} "
                                    f"(known: {', '.join(sorted(ORDER_SUBJECTS))})")
            per_register = isinstance(answer, dict) and all(str(k).isdigit() for k in answer)
            scopes = BY_SUBJECT[subject].scopes if subject in BY_SUBJECT else \
                ELEMENT_ORDERS[subject].scopes if subject in ELEMENT_ORDERS else (
                    ("register",) if subject == FIRE else ("turn",))
            if per_register and "register" not in scopes:
                raise ScenarioError(f"orders of {name!r}: {subject} is given for the turn, not per register")
            if not per_register and scopes == ("register",):
                raise ScenarioError(f"orders of {name!r}: {subject} is given per register, e.g. {{\"2\": ...}}")
            if per_register:
                assert isinstance(answer, dict)
                for reg, each in answer.items():
                    keys[DecisionKey(subject, _int(int(reg), f"orders of {name!r}: {subject} register", 1, 5))] = each
            else:
                keys[DecisionKey(subject)] = answer
        out[name] = keys
    return out


def _check_locked(robot: Robot, given: Any, program: list[Card | None]) -> None:
    """An explicit ``locked`` map must agree with the damage and the program (it is only a cross-check)."""
    where = f"robot {robot.name!r}: locked"
    if not isinstance(given, dict):
        raise ScenarioError(f"{where} must map registers to cards, e.g. {{\"5\": \"FWD2 670\"}}")
    fused = locked_registers(robot.damage)
    for key, text in given.items():
        try:
            reg = int(key)
            card = parse_card(text)
        except (ValueError, CardError) as exc:
            raise ScenarioError(f"{where}: {key!r}: {exc}") from None
        if reg not in fused:
            raise ScenarioError(f"{where}: register {reg} is not fused at {robot.damage} damage "
                                f"(fused: {', '.join(map(str, fused)) or 'none'})")
        if reg <= len(program) and program[reg - 1] != card:
            raise ScenarioError(f"{where}: register {reg} holds {card}, but the program plays {program[reg - 1]} there")
        robot.locked[reg] = card


def parse_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Validate a scenario and turn it into engine arguments."""
    unknown = sorted(set(data) - TOP_KEYS - IGNORED_KEYS)
    if unknown:
        raise ScenarioError(f"unknown scenario key {unknown[0]!r} (known: {', '.join(sorted(TOP_KEYS))})")
    if "board" not in data:
        raise ScenarioError("a scenario needs a board")
    board = load_scenario_board(data["board"])
    rules_raw = data.get("rules", {})
    if not isinstance(rules_raw, dict):
        raise ScenarioError("rules must be an object of house rules")
    try:
        rules = Rules.from_dict(rules_raw)
    except (TypeError, ValueError) as exc:
        raise ScenarioError(str(exc)) from None
    robots_raw = data.get("robots", [])
    if not isinstance(robots_raw, list):
        raise ScenarioError("robots must be a list")
    robots = [parse_robot(spec, i, board) for i, spec in enumerate(robots_raw)]
    names = [r.name for r in robots]
    for n in names:
        if names.count(n) > 1:
            raise ScenarioError(f"two robots are named {n!r}")
    _link_tamagotchis(robots, robots_raw)
    taken: dict[tuple[int, int], str] = {}
    for r in robots:
        if r.pos is not None and not r.virtual:
            if r.pos in taken:
                raise ScenarioError(f"robots {taken[r.pos]!r} and {r.name!r} are both real and both on "
                                    f"{square_name(r.pos)}")
            taken[r.pos] = r.name
    phases = _int(data.get("phases", 5), "phases", 1, 5)
    programs_raw = data.get("programs", {})
    if not isinstance(programs_raw, dict):
        raise ScenarioError("programs must map robot names to lists of cards")
    programs: dict[str, list[Card | None]] = {}
    owner: dict[Card, str] = {}
    for name, cards in programs_raw.items():
        if name not in names:
            raise ScenarioError(f"program for unknown robot {name!r}")
        if not isinstance(cards, list):
            raise ScenarioError(f"program of {name!r} must be a list of cards")
        if len(cards) > 5 or len(cards) < min(5, phases):
            raise ScenarioError(f"program of {name!r} has {len(cards)} cards; registers 1 to 5 need 5")
        prog: list[Card | None] = []
        for i, text in enumerate(cards):
            try:
                card = parse_card(text)
            except CardError as exc:
                raise ScenarioError(f"program of {name!r}, register {i + 1}: {exc}") from None
            if card in owner:
                raise ScenarioError(f"card {card} is played twice (by {owner[card]!r} and {name!r}); "
                                    "every card in the deck is unique")
            owner[card] = name
            prog.append(card)
        programs[name] = prog
    for r, spec in zip(robots, robots_raw, strict=True):
        # a damaged robot's fused registers hold the cards its program gives there
        prog = programs.get(r.name, [])
        r.locked = {}
        for reg in locked_registers(r.damage):
            held = prog[reg - 1] if reg <= len(prog) else None
            if held is not None:
                r.locked[reg] = held
        given = spec.get("locked")
        if given is not None:
            _check_locked(r, given, prog)
    seed = data.get("seed", 0)
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise ScenarioError("seed must be a whole number or a string")
    reentry: dict[str, int] = {}
    reentry_raw = data.get("reentry", {})
    if not isinstance(reentry_raw, dict):
        raise ScenarioError("reentry must map robot names to a facing")
    for name, facing in reentry_raw.items():
        if name not in names:
            raise ScenarioError(f"reentry for unknown robot {name!r}")
        try:
            reentry[name] = parse_dir(facing)
        except NotationError as exc:
            raise ScenarioError(f"reentry of {name!r}: {exc}") from None
    try:
        board_state = BoardState.from_dict(data.get("board_state"))
    except (TypeError, ValueError) as exc:
        raise ScenarioError(str(exc)) from None
    deck = data.get("option_deck")
    if deck is not None:
        deck = _option_names(deck, "option_deck")
        for r in robots:
            for held in r.options:
                if held in deck:
                    raise ScenarioError(f"option_deck: {held} is held by {r.name!r} (one copy of each card)")
    holders: dict[str, str] = {}
    for r in robots:
        for held in r.options:
            if held in holders:
                raise ScenarioError(f"robots {holders[held]!r} and {r.name!r} both hold {held} (one copy of each card)")
            holders[held] = r.name
    orders = _orders(data.get("orders", {}), names)
    standing = data.get("standing", {})
    if not isinstance(standing, dict) or not all(isinstance(v, dict) for v in standing.values()):
        raise ScenarioError("standing must map robot names to their standing orders (objects)")
    for name in standing:
        if name not in names:
            raise ScenarioError(f"standing orders for unknown robot {name!r}")
    return {"board": board, "robots": robots, "programs": programs, "rules": rules, "phases": phases,
            "seed": seed, "reentry": reentry, "board_state": board_state, "option_deck": deck,
            "answers": Answers(orders=orders, standing=standing)}


def robot_result(r: Robot) -> dict[str, Any]:
    """The contract's robot fields first, then extras (first_turn, powered_down, locked...)."""
    return robot_to_dict(r)


def simulate(data: dict[str, Any]) -> dict[str, Any]:
    """Resolve a scenario (already parsed from JSON) and return the result document."""
    args = parse_scenario(data)
    result = resolve_turn(args["board"], args["robots"], args["programs"], rules=args["rules"],
                          seed=args["seed"], phases=args["phases"], reentry=args["reentry"],
                          board_state=args["board_state"], answers=args["answers"], option_deck=args["option_deck"])
    out: dict[str, Any] = {
        "robots": [robot_result(r) for r in result.robots],
        "winner": result.winner,
        # the contract's log; decisions are under "decisions" (with the option cards' keys)
        "events": [e.to_dict() for e in result.events if e.kind != DECISION],
    }
    if result.board_state:
        out["board_state"] = result.board_state.to_dict()  # only boards whose elements remember anything
    # the option cards' keys, only for scenarios that use them (the classic result keeps its keys)
    if any(k in data for k in ("option_deck", "orders", "standing")) or any(r.options for r in args["robots"]):
        deck = result.option_deck
        if deck is None:  # untouched: the fresh deck of the seed, less the cards held
            deck = new_option_deck(args["seed"], args["rules"], held_options(result.robots))
        out["option_deck"] = list(deck)
        out["decisions"] = [d.to_dict() for d in result.decisions]
    return out
