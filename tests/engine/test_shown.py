"""Everything a player can see of the engine is worded where it is made (``referee.engine.shown``).

The test walks the engine's source for every status put on a robot and every cause of damage or destruction,
and the registries for every status effect, and fails on one no module declares: a new element's status
would otherwise never reach the report's mode row, "Your robot" or the story, and a new cause would be
shown raw.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

import pytest

import referee.engine
from referee.engine import hooks, option_cards, shown, timing
from referee.engine.context import TurnContext
from referee.engine.events import known_kind

ENGINE = Path(referee.engine.__file__).parent


def _modules() -> Iterator[tuple[str, ast.Module, dict[str, object]]]:
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ENGINE.parent.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        yield name, ast.parse(path.read_text()), vars(import_module(name))


def _values(node: ast.expr, tree: ast.Module, names: dict[str, object], params: set[str]) -> list[str] | None:
    """The strings an expression can be: a literal, a module constant, either branch of ``a if c else b``, what
    a function of the module returns; [] for a parameter or local passed on (checked where it is made);
    None: unknown."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        if node.id in params:
            return []
        value = names.get(node.id)
        return [value] if isinstance(value, str) else None
    if isinstance(node, ast.IfExp):
        a, b = _values(node.body, tree, names, params), _values(node.orelse, tree, names, params)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        fn = next((f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == node.func.id), None)
        if fn is not None:
            found: list[str] = []
            for ret in (n for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None):
                got = _values(ret.value, tree, names, set())
                if got is None:
                    return None
                found += got
            return found
    return None


def _made() -> tuple[dict[str, list[str]], dict[str, list[str]], list[str]]:
    """(status -> where it is put on a robot, cause -> where it is dealt, expressions the walk cannot read)."""
    statuses: dict[str, list[str]] = {}
    causes: dict[str, list[str]] = {}
    unknown: list[str] = []
    for module, tree, names in _modules():
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
            # parameters and local names carry a cause made elsewhere (checked where it is made)
            params = {a.arg for a in [*fn.args.args, *fn.args.kwonlyargs]} | {
                n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
                func = call.func
                attr = func.attr if isinstance(func, ast.Attribute) else None
                found: list[tuple[dict[str, list[str]], ast.expr]] = []
                if attr == "add" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute) \
                        and func.value.attr == "statuses" and call.args:
                    found.append((statuses, call.args[0]))
                if attr == "damage" and len(call.args) >= 3:
                    found.append((causes, call.args[2]))
                if attr == "destroy" and len(call.args) >= 2:
                    found.append((causes, call.args[1]))
                for kw in call.keywords:
                    if kw.arg == "cause":
                        found.append((causes, kw.value))
                    if kw.arg == "statuses" and isinstance(kw.value, ast.Set):
                        found += [(statuses, e) for e in kw.value.elts]
                for table, expr in found:
                    where = f"{module}:{expr.lineno}"
                    got = _values(expr, tree, names, params)
                    if got is None:
                        unknown.append(f"{where}: {ast.unparse(expr)}")
                    for value in got or []:
                        table.setdefault(value, []).append(where)
    hit_later = inspect.signature(TurnContext.hit_later).parameters["cause"].default
    causes.setdefault(hit_later, []).append("TurnContext.hit_later (its default)")
    return statuses, causes, unknown


STATUSES, CAUSES, UNKNOWN = _made()


def test_the_walk_reads_every_status_and_cause_the_engine_makes() -> None:
    assert not UNKNOWN, ("a status or cause the test cannot read: make it a literal or a module constant "
                         f"({'; '.join(UNKNOWN)})")
    assert {"flying", "gassed", "burning"} <= set(STATUSES)
    assert {"pit", "edge", "laser", "fence", "napalm", "trapdoor", "bridge"} <= set(CAUSES)


@pytest.mark.parametrize("status", sorted(STATUSES))
def test_every_status_put_on_a_robot_is_worded(status: str) -> None:
    assert status in shown.STATUSES, (f"status {status!r} (put on robots at {', '.join(STATUSES[status])}) has no "
                                      "wording: declare it with shown.status(...) in its module")


def test_every_status_effect_is_worded() -> None:
    cards = {card.effect.name for card in option_cards.CARDS.values()}
    missing = sorted(name for name in hooks.EFFECTS if name not in cards and name not in shown.STATUSES)
    assert not missing, f"status effects without wording: {missing}"


@pytest.mark.parametrize("cause", sorted(CAUSES))
def test_every_cause_dealt_is_worded(cause: str) -> None:
    assert cause in shown.CAUSES, (f"cause {cause!r} (dealt at {', '.join(CAUSES[cause])}) has no wording: declare "
                                   "it with shown.cause(...) in its module")


def test_nothing_is_worded_that_never_happens() -> None:
    assert sorted(set(shown.CAUSES) - set(CAUSES)) == []
    assert sorted(set(shown.STATUSES) - set(STATUSES) - set(hooks.EFFECTS)) == []


def test_the_events_and_steps_named_exist() -> None:
    for status in shown.STATUSES.values():
        for kind in (status.given_by, status.taken_by):
            if kind:
                known_kind(kind)
    assert set(shown.STEPS) <= set(timing.STEP_IDS)


def test_a_declaration_contradicting_another_is_refused() -> None:
    with pytest.raises(shown.ShownError):
        shown.cause("pit", into="into a hole")
    with pytest.raises(shown.ShownError):
        shown.status("flying", "airborne")
    assert shown.cause("pit", into="into the pit") == "pit"  # the same words again: fine


def test_a_scenario_may_start_with_a_declared_status_and_is_told_of_an_unknown_one():
    from referee.boards.scenario import ScenarioError, parse_scenario

    board = {"width": 4, "height": 4, "elements": [{"kind": "pit", "at": "r3c2"}]}
    flying = {"name": "Twonky", "at": "r2c2", "facing": "S", "statuses": ["flying"]}
    assert parse_scenario({"board": board, "robots": [flying]})["robots"][0].statuses == {"flying"}
    with pytest.raises(ScenarioError, match="no status 'hovering'"):
        parse_scenario({"board": board, "robots": [{**flying, "statuses": ["hovering"]}]})


# -- what moved a robot, what did something else to it, whose thing acted (issue 42) --------------------------
#: kinds whose ``{to}`` names no square a robot moves to
NOT_MOVES = {"option passes": "its 'to' names the robot the option passes to"}


def _move_kinds() -> list[str]:
    from referee.engine.events import WORDING

    return sorted(kind for kind, template in WORDING.items() if "{to}" in template and kind not in NOT_MOVES)


@pytest.mark.parametrize("kind", _move_kinds())
def test_every_event_that_moves_a_robot_says_what_moved_it(kind: str) -> None:
    """A new element's move event without a ``shown.mover`` would be told as nothing in the story and left
    unnamed in the tables: each kind needs a declaration that fits every event of it (no step, square or ``by``
    condition), or be an actor's (a ghost's moves are the ghost's, not a robot's)."""
    if kind in shown.ACTORS:
        return
    fallback = [m for m in shown.TOLD.get(kind, ()) if not m.specific]
    assert fallback and all(m.moves for m in shown.TOLD[kind]), (
        f"event kind {kind!r} moves a robot but no module says what moved it: declare "
        f"shown.mover({kind!r}, <table words>, <story words>) where it is logged")


def test_the_steps_kinds_and_events_a_declaration_names_exist() -> None:
    from referee.engine.kinds import KINDS

    for kind, declared in shown.TOLD.items():
        known_kind(kind)
        for told in declared:
            assert not told.step or told.step in timing.STEP_IDS, told
            assert not told.on or told.on in KINDS, told
            told.story.format(by="Twonky")  # a template over the robot the event's ``by`` names, nothing else
    for kind in shown.ACTORS:
        known_kind(kind)
    for cause in shown.CAUSES.values():
        assert cause.hit.format(by="Twonky") == cause.hit.replace("{by}", "Twonky")


def test_the_most_specific_declaration_that_fits_is_told() -> None:
    from referee.engine.resolve import label

    assert shown.told_by("pulled", "magnets", set(), "", label).story == "pulled by a magnet"
    assert shown.told_by("pulled", "black holes", set(), "", label).story == "pulled by a black hole"
    assert shown.told_by("slide", "robots", {"piston"}, "", label).story == "slid off a rising piston"
    assert shown.told_by("slide", "robots", {"floor"}, "", label).story == "slid"
    assert shown.told_by("pushed", "pushers", set(), "pusher", label).what == "pusher"
    assert shown.told_by("face", "gears", set(), "", label) is None


def test_a_mover_declared_twice_with_other_words_is_refused() -> None:
    with pytest.raises(shown.ShownError):
        shown.mover("pulled", "magnet", "yanked by a magnet", step="board.magnets")
    assert shown.mover("pulled", "magnet", "pulled by a magnet", step="board.magnets") == "pulled"


# -- every event a player can see is told by the story, or its module says why not --------------------------
def _kinds() -> list[str]:
    import referee.engine.resolve  # noqa: F401  (every element, option card and status registered)
    from referee.engine.events import TYPED_WORDING, WORDING

    return sorted({*WORDING, *TYPED_WORDING})


def _told_somehow(kind: str) -> bool:
    statuses = {k for s in shown.STATUSES.values() for k in (s.given_by, s.taken_by) if k}
    return kind in shown.TOLD or kind in shown.SAID or kind in shown.ACTORS or kind in statuses or (
        kind in ("damage", "destroyed"))  # told by their causes (shown.cause), walked above


@pytest.mark.parametrize("kind", _kinds())
def test_every_event_kind_is_told_by_the_story_or_says_why_not(kind: str) -> None:
    """Every event the stage tables show a player: the story tells it in words its module declares (what moved
    the robot, what it touched or drew, the status it gave, whose ghost acted, the cause of a hit), or the module
    says why the story leaves it out. A new kind with neither fails here, not in a player's mail."""
    assert _told_somehow(kind), (
        f"event kind {kind!r} has no words for the story: declare shown.said({kind!r}, <words>), "
        f"shown.mover/told(...), or shown.untold({kind!r}, <why>) where it is logged")


def test_what_the_story_says_fills_in_the_event():
    assert shown.saying("flag", {"number": 2}, 4) == "touched flag 2 in register 4"
    assert shown.saying("flag", {"number": 2}, "end") == "touched flag 2"
    assert shown.saying("re-enter", {"at": "r4c4", "facing": "E"}, "end").endswith("at r4c4 facing E")
    assert shown.saying("re-enter", {"at": "r4c4"}, "end").endswith("at r4c4")
    assert shown.saying("face", {"dir": "E"}, 1) == ""  # left to the tables
    for said in shown.SAID.values():
        known_kind(said.kind)
        assert bool(said.stories) + said.with_hits + bool(said.untold) == 1, said


def test_a_story_declared_twice_with_other_words_is_refused() -> None:
    with pytest.raises(shown.ShownError):
        shown.said("flag", "reached flag {number}")
    with pytest.raises(shown.ShownError):
        shown.untold("flag", "the tables show it")
    with pytest.raises(shown.ShownError):
        shown.untold("some kind", "")
