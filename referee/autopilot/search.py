"""The planner: every distinct program of a hand, tried through the engine, the best one kept.

Depth-first over the registers with :class:`~referee.engine.TurnRun`: a prefix of the program is
run once and copied (``run.copy()``) for each card that may follow it, so programs sharing a
prefix share its work. Cards of one type are one move when the other robots stand still (the
default: priority only orders robots within a phase), so the search branches on card types, not
cards; when other robots have programs it branches on card types split by their cards' priorities
(two Move 1s that both come before, or both after, every card of theirs play alike). A state met again at the same
register with the same cards left (two turns in either order, Move 1 then Move 2 or the reverse)
is solved once. The result is always a legal program: fused registers keep their cards, a
powered-down robot or one off the board plays only its fused registers, a hand too short for the
free registers leaves the last ones empty.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from ..engine import DECK, Board, BoardState, Card, Robot, Rules, TurnRun
from ..engine.programs import REGISTERS
from .course import CourseMap, course_map
from .score import WARY_UNIT, Score, score_robot, score_wary

#: steps (register phases run) a search may spend before it only completes the programs it started
DEFAULT_MAX_STEPS = 200_000
#: registers of slack in the search's bound: the course map is measured with register 1's elements and
#: nobody else on the board, so a later register (a pusher, a robot in the way) may beat it by a step
BOUND_SLACK = 1
#: the element kinds under which that bound holds (a classic board's): elsewhere (teleporters, ice,
#: jacks, machines that remember...) a register may carry a robot far beyond the map, and the search
#: tries every program as it did
BOUNDED_KINDS = frozenset({"belt", "express", "flag", "laser", "pit", "repair", "start", "wall", "gear",
                           "pusher", "crusher", "archive", "option", "dock"})


@dataclass
class Plan:
    """The chosen program, what the engine makes of it, and what the search cost."""

    program: list[Card | None]
    #: the score the search found for ``program`` (the engine's resolution of it scores the same)
    score: Score
    #: the robot at the end of the turn (or when someone won): the program run once more, whole
    predicted: Robot
    #: register phases stepped by the search
    steps: int
    #: False when the step budget ran out before every distinct program was tried
    complete: bool
    #: the robot powers down next turn (announced with this program): only the planner that plans
    #: against the others decides it (:mod:`.power`)
    power_down: bool = False


def plan_program(board: Board, robots: Sequence[Robot], name: str, hand: Sequence[Card], *,
                 locked: Mapping[int, Card] | None = None, seed: int | str = 0,
                 rules: Rules | None = None, undealt: Sequence[Card] | None = None,
                 others: Mapping[str, list[Card | None]] | None = None,
                 reentry: Mapping[str, int] | None = None, max_steps: int = DEFAULT_MAX_STEPS,
                 course: CourseMap | None = None, board_state: BoardState | None = None,
                 slack: int | None = None, order: bool = False, wary: bool = False) -> Plan:
    """The best program for robot ``name`` with ``hand`` (and its fused registers ``locked``).

    The turn is resolved as the engine will: same ``seed``, ``rules``, ``undealt`` (default: the
    deck less the hand, the fused cards and the ``others``' programs) and ``reentry``. ``others``
    gives other robots' programs; robots not in it stand still. ``board_state`` is what the board's
    elements remember at the start of the turn (pistons, turrets...).
    """
    search, base, score, program = searched(board, robots, name, hand, locked=locked, seed=seed, rules=rules,
                                            undealt=undealt, others=others, reentry=reentry, max_steps=max_steps,
                                            course=course, board_state=board_state, slack=slack, order=order,
                                            wary=wary)
    me = search.me
    final = base.copy()
    for reg, card in enumerate(program, start=1):
        final.set_card(name, reg, card)
    after = final.finish().robots[[r.name for r in final.robots].index(name)]
    if score is None:  # nothing to choose: the fused registers (or none) run
        score = search.scorer(search.course, me, after)
    return Plan(program, score, after, search.steps, search.complete)


def searched(board: Board, robots: Sequence[Robot], name: str, hand: Sequence[Card], *,
             locked: Mapping[int, Card] | None = None, seed: int | str = 0, rules: Rules | None = None,
             undealt: Sequence[Card] | None = None, others: Mapping[str, list[Card | None]] | None = None,
             reentry: Mapping[str, int] | None = None, max_steps: int = DEFAULT_MAX_STEPS,
             course: CourseMap | None = None, board_state: BoardState | None = None, slack: int | None = None,
             order: bool = False, wary: bool = False) -> tuple[Search, TurnRun, Score | None, list[Card | None]]:
    """:func:`plan_program`'s search without the program's final run: the search, the turn before any
    register ran, the best score (None: nothing to choose) and the program. A caller that needs only the
    program (a prediction of another robot's) stops here."""
    locked = dict(locked or {})
    others = dict(others or {})
    me = next(r for r in robots if r.name == name)
    if undealt is None:
        held = {*hand, *locked.values(), *(c for p in others.values() for c in p if c is not None)}
        undealt = [c for c in DECK if c not in held]
    search = Search(board, list(robots), me, hand, locked, others, course or course_map(board, rules), max_steps, slack,
                     order, wary)
    base = TurnRun(board, list(robots), {**others, name: [locked.get(r) for r in range(1, REGISTERS + 1)]},
                   rules=rules, seed=seed, undealt=list(undealt), reentry=dict(reentry or {}), record=False,
                   board_state=board_state)
    keys: tuple[int | None, ...] = ()
    score: Score | None = None
    if me.pos is not None and not me.powered_down and len(locked) < REGISTERS:
        score, keys = search.best(base, 1, search.counts)
    return search, base, score, search.program(keys)


class Search:
    def __init__(self, board: Board, robots: list[Robot], me: Robot, hand: Sequence[Card],
                 locked: dict[int, Card], others: dict[str, list[Card | None]], course: CourseMap,
                 max_steps: int, slack: int | None = None, order: bool = False,
                 wary: bool = False) -> None:
        self.me = me
        self.order = order
        self.scorer = score_wary if wary else score_robot
        #: the score's distance units per register (the bound's)
        self.unit = WARY_UNIT if wary else 1
        self.locked = locked
        self.course = course
        self.max_steps = max_steps
        self.steps = 0
        self.complete = True
        # others move: a card's priority decides who goes first, but only against their cards' priorities:
        # cards of one type between the same two of their priorities play alike
        cuts = sorted({c.priority for p in others.values() for c in p if c is not None})
        groups: dict[Hashable, list[Card]] = {}
        for card in sorted(hand, key=lambda c: -c.priority):
            groups.setdefault((card.type, bisect.bisect(cuts, card.priority)), []).append(card)
        self.groups = list(groups.values())
        self.kinds = list(groups)
        self.counts = tuple(len(g) for g in self.groups)
        #: (register, cards left, state) -> the best score from there and its cards: the score does not
        #: depend on the cards already played (only fused registers hold them, and no score term reads them)
        self.memo: dict[Hashable, tuple[Score, tuple[int | None, ...]]] = {}
        #: (state, card type) -> the turn after that register (never stepped further: copied)
        self.after: dict[Hashable, TurnRun] = {}
        #: (state, card type) -> the score of a last register
        self.scores: dict[Hashable, Score] = {}
        #: the best score of a whole program seen so far: a state that cannot beat it is not searched
        self.incumbent: Score | None = None
        self.flag_count = course.board.flag_count
        self.bounded = slack is not None or BOUNDED_KINDS.issuperset(course.board.layers)
        self.slack = BOUND_SLACK if slack is None else slack

    def card(self, group: int, counts: tuple[int, ...]) -> Card:
        """The card of ``group`` played next when ``counts`` are left: the same on every path."""
        cards = self.groups[group]
        return cards[len(cards) - counts[group]]

    def program(self, keys: tuple[int | None, ...]) -> list[Card | None]:
        counts = list(self.counts)
        out: list[Card | None] = []
        it = iter(keys)
        for reg in range(1, REGISTERS + 1):
            if reg in self.locked:
                out.append(self.locked[reg])
                continue
            group = next(it, None)
            if group is None:  # the turn ended early (a win) or the hand ran out: any card left
                group = next((g for g, n in enumerate(counts) if n), None)
                if group is None:
                    out.append(None)
                    continue
            out.append(self.card(group, tuple(counts)))
            counts[group] -= 1
        return out

    def leaf(self, run: TurnRun, owned: bool = False) -> Score:
        """The score of ``run`` played to its end (on a copy unless ``owned``: the runs the search
        keeps are never changed)."""
        if not run.done or run.phases_run == REGISTERS:
            self.steps += REGISTERS - run.phases_run
            run = run if owned else run.copy()
            run.finish()
        score = self.scorer(self.course, self.me, run.ctx.by_name[self.me.name])
        if self.incumbent is None or score < self.incumbent:
            self.incumbent = score
        return score

    def bound(self, run: TurnRun, reg: int) -> Score | None:
        """A score no program from ``run`` (registers ``reg``.. still to run) can beat, when that
        score cannot beat the best program seen: the state is then not searched. A register
        brings the robot at most one register nearer its next flag (the course map's unit, measured
        by the engine); a destroyed robot stays destroyed and touches no flag."""
        if self.incumbent is None or not self.bounded:
            return None
        me = run.ctx.by_name[self.me.name]
        if me.destroyed or me.pos is None or me.lives < self.me.lives:
            bound = Score(True, -me.flags, 0, 0, 0)
        elif self.flag_count and me.flags < self.flag_count:
            left = REGISTERS - reg + 1
            distance = self.course.distance(me.flags + 1, me.pos, me.facing)
            reach = left + self.slack
            if distance <= reach:  # the next flag may be within reach: no bound worth having
                return None
            bound = Score(False, -me.flags, self.unit * (distance - reach), 0, 0)
        else:
            return None
        return bound if bound >= self.incumbent else None

    def best(self, run: TurnRun, reg: int, counts: tuple[int, ...]) -> tuple[Score, tuple[int | None, ...]]:
        """The best score from ``run`` (read only) and the group played in each free register from
        ``reg`` on to get it."""
        if run.done or reg > REGISTERS:
            return self.leaf(run), ()
        if reg in self.locked:
            if reg == REGISTERS:
                return self.leaf(run), ()
            self.steps += 1
            run = run.copy()
            run.step()
            return self.best(run, reg + 1, counts)
        state = state_key(run, reg)
        key = (counts, state)
        found = self.memo.get(key)
        if found is not None:
            return found
        bound = self.bound(run, reg)
        if bound is not None:  # cannot beat the best seen (and ties keep the one found first)
            return bound, ()
        choices = [g for g, n in enumerate(counts) if n]
        if self.order and reg < REGISTERS and len(choices) > 1:  # the card whose register ends best first
            choices.sort(key=lambda g: self.scorer(self.course, self.me,
                                                   self.stepped(run, state, g, counts).ctx.by_name[self.me.name]))
        result: tuple[Score, tuple[int | None, ...]] | None = None
        if not choices:  # a hand too short for the free registers: this one stays empty
            score, keys = self.best(run, reg + 1, counts) if reg < REGISTERS else (self.leaf(run), ())
            result = (score, (None, *keys))
        for group in choices:
            if result is not None and self.steps >= self.max_steps:
                self.complete = False
                break
            left = (*counts[:group], counts[group] - 1, *counts[group + 1:])
            score, keys = self.play(run, state, group, counts, left)
            if result is None or score < result[0]:
                result = (score, (group, *keys))
        assert result is not None
        self.memo[key] = result
        return result

    def play(self, run: TurnRun, state: Hashable, group: int, counts: tuple[int, ...],
             left: tuple[int, ...]) -> tuple[Score, tuple[int | None, ...]]:
        """Play a card of ``group`` in the next register from ``run``, then search on. One card type
        from one state gives one next state whatever came before: the register is run once
        (:attr:`after`), and a last register is scored once (:attr:`scores`)."""
        reg = run.phases_run + 1
        move = (state, self.kinds[group])
        if reg == REGISTERS:
            score = self.scores.get(move)
            if score is None:
                child = run.copy()
                child.set_card(self.me.name, reg, self.card(group, counts))
                score = self.scores[move] = self.leaf(child, owned=True)
            return score, ()
        return self.best(self.stepped(run, state, group, counts), reg + 1, left)

    def stepped(self, run: TurnRun, state: Hashable, group: int, counts: tuple[int, ...]) -> TurnRun:
        """The turn after a card of ``group`` in the next register from ``run`` (in state ``state``): run
        once per state and card kind, and kept (read only)."""
        move = (state, self.kinds[group])
        after = self.after.get(move)
        if after is None:
            after = run.copy()
            after.set_card(self.me.name, run.phases_run + 1, self.card(group, counts))
            self.steps += 1
            after.step()
            self.after[move] = after
        return after


def state_key(run: TurnRun, reg: int) -> Hashable:
    """Everything the rest of the turn from register ``reg`` may depend on: the robots, the cards left to
    draw, what the board's elements remember (a barricade's hits, a piston, a turret...), what elements and
    options noted for the turn (ice momentum...), the option deck's size. Two runs with equal keys play the
    rest of the turn alike, so the search solves such a state once."""
    ctx = run.ctx
    key: tuple[Hashable, ...] = (reg, len(ctx.undealt), *(_robot_key(r) for r in run.robots))
    if ctx.board_state:
        key += (json.dumps(ctx.board_state.values, sort_keys=True),)
    if ctx.notes:
        key += (repr(sorted(ctx.notes.items(), key=lambda item: item[0])),)
    if ctx.option_deck is not None:
        key += (len(ctx.option_deck),)
    return key


def _robot_key(r: Robot) -> Hashable:
    """Everything about a robot the rest of the turn may depend on (empty parts, the usual case, skip the
    sorting: the key is the same)."""
    return (r.name, r.pos, r.facing, r.damage, r.lives, r.flags, r.archive, r.virtual, r.first_turn,
            r.powered_down, r.power_down_next, r.destroyed, tuple(sorted(r.locked.items())) if r.locked else (),
            tuple(r.options) if r.options else (), tuple(sorted(r.statuses)) if r.statuses else (),
            repr(sorted(r.option_data.items())) if r.option_data else _NO_DATA)


_NO_DATA = repr([])
