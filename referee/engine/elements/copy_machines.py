"""Copy machines (RoboFactory) and their tamagotchis.

A copy machine stands in the wall on the side ``dir`` of its square: that square is the button side,
the square beyond the wall the antenna side. A robot running against the machine from the button side
during the robots' moves (its own card, or pushed by another robot's) starts it: a tamagotchi appears
on the antenna side, facing the machine. The wall stays a wall for everything.

A tamagotchi is a robot of its own in the turn (named ``"<robot> (tamagotchi)"``, status ``tamagotchi``),
virtual for good: it plays its robot's card in every register phase (the same card, just after its
robot), touches flags for its robot (a flag it reaches counts for the robot), may gain options (they
pass to its robot at the end of the turn) and never archives or re-enters. It disappears when it runs
against the copy machine from the square it arose on. If either the tamagotchi or its robot is
destroyed, so is the other, at once. A robot has one tamagotchi at most; tamagotchis start no machines.
"""

from __future__ import annotations

from .. import shown, timing
from ..board import Board, Element
from ..context import TurnContext
from ..events import register_wording
from ..geometry import opposite, square_name, step
from ..hooks import Effect, register_effect
from ..kinds import Field, Kind
from ..state import COPIED, TAMAGOTCHI, Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.copy_machines", timing.CROSS, "copy machines make a tamagotchi robot", after="move.radio_beams")
timing.declare("end.tamagotchis", "tamagotchis gone leave the game; options they gained go to their robots",
               after="end.turn_real")


NAME = "copy_machine"
#: ``ctx.notes`` key: names of tamagotchis gone this turn (they leave ``ctx.robots`` at the end of the turn)
GONE = "tamagotchis gone"
register_wording("starts copy machine", "starts the copy machine")
register_wording("arises", "arises at {at} (copy machine)")
register_wording("vanishes", "touches the copy machine and vanishes")
register_wording("option passes", "option {option} passes to {to}")
shown.status(TAMAGOTCHI, "tamagotchi", instead=True, taken_by="vanishes", taken="gone (copy machine)", mark="T",
             kinds=(NAME,))
shown.status(COPIED, "")  # its tamagotchi has a column of its own
shown.cause("tamagotchi", "its tamagotchi", story="destroyed with its tamagotchi")
shown.untold("arises", "its tamagotchi has a column of its own")
shown.untold("starts copy machine", "its tamagotchi has a column of its own")
shown.said("option passes", "its option card {option} passed to {to}")


def copy_name(robot: str) -> str:
    """The name of a robot's tamagotchi."""
    return f"{robot} (tamagotchi)"


def tamagotchi_of(ctx: TurnContext, robot: Robot) -> Robot | None:
    """The robot's tamagotchi on the board, if any."""
    name = robot.option_data.get(TAMAGOTCHI, {}).get("copy")
    copy = ctx.by_name.get(name) if name else None
    return copy if copy is not None and copy.pos is not None else None


def robot_of(ctx: TurnContext, copy: Robot) -> Robot | None:
    """The robot a tamagotchi is a copy of."""
    for r in ctx.robots:
        if r.option_data.get(TAMAGOTCHI, {}).get("copy") == copy.name:
            return r
    return None


def press(ctx: TurnContext, robot: Robot, d: int) -> bool:
    """Button side: a robot (not a tamagotchi) running against the machine in the robots' moves starts it."""
    pos = robot.pos
    if ctx.step != "robots" or pos is None or TAMAGOTCHI in robot.statuses or tamagotchi_of(ctx, robot):
        return False
    at = step(pos, d)
    if not ctx.board.on_board(at):
        return False
    name = copy_name(robot.name)
    old = ctx.by_name.get(name)
    if old is not None:  # one gone earlier this turn
        ctx.robots.remove(old)
    copy = Robot(name, at, opposite(d), virtual=True, lives=1, flags=robot.flags, statuses={TAMAGOTCHI},
                 option_data={TAMAGOTCHI: {"of": robot.name, "arose": square_name(at)}})
    ctx.robots.append(copy)
    ctx.by_name[name] = copy
    robot.statuses.add(COPIED)
    robot.option_data[TAMAGOTCHI] = {"copy": name}
    ctx.emit(robot, "starts copy machine", copy=name)
    ctx.emit(copy, "arises", {"at": square_name(at)}, of=robot.name)
    return False


def touch(ctx: TurnContext, robot: Robot, d: int) -> bool:
    """Antenna side: a tamagotchi running against the machine from the square it arose on vanishes."""
    data = robot.option_data.get(TAMAGOTCHI, {})
    if TAMAGOTCHI in robot.statuses and robot.pos is not None and data.get("arose") == square_name(robot.pos):
        ctx.emit(robot, "vanishes")
        parent = robot_of(ctx, robot)
        if parent is not None:
            _unlink(parent)
        robot.pos = None
        _gone(ctx, robot)
    return False


def _unlink(parent: Robot) -> None:
    parent.statuses.discard(COPIED)
    parent.option_data.pop(TAMAGOTCHI, None)


def _gone(ctx: TurnContext, copy: Robot) -> None:
    ctx.notes[GONE] = (*ctx.notes.get(GONE, ()), copy.name)


def copy_destroyed(ctx: TurnContext, copy: Robot) -> None:
    """The tamagotchi was destroyed: its robot is destroyed too."""
    _gone(ctx, copy)
    parent = robot_of(ctx, copy)
    if parent is not None:
        _unlink(parent)
        ctx.destroy(parent, "tamagotchi")


def robot_destroyed(ctx: TurnContext, robot: Robot) -> None:
    """A robot with a tamagotchi was destroyed: its tamagotchi is destroyed too."""
    for r in list(ctx.robots):
        if TAMAGOTCHI in r.statuses and r.option_data.get(TAMAGOTCHI, {}).get("of") == robot.name:
            ctx.destroy(r, "tamagotchi")


def copy_cards(ctx: TurnContext, phase: int) -> None:
    """Reveal: each tamagotchi takes its robot's card of the phase (and its count of flags)."""
    for copy in ctx.robots:
        if TAMAGOTCHI not in copy.statuses or copy.pos is None:
            continue
        parent = robot_of(ctx, copy)
        card = ctx.current.get(parent.name) if parent is not None else None
        if parent is not None:
            copy.flags = parent.flags
        if card is not None:
            ctx.current[copy.name] = card
        else:
            ctx.current.pop(copy.name, None)


def count_flags(ctx: TurnContext, phase: int) -> None:
    """After the flags are touched: a flag a tamagotchi reached counts for its robot."""
    for copy in ctx.robots:
        if TAMAGOTCHI in copy.statuses and copy.pos is not None:
            parent = robot_of(ctx, copy)
            if parent is not None and copy.flags > parent.flags:
                parent.flags = copy.flags


def end_of_turn(ctx: TurnContext) -> None:
    """Tamagotchis gone leave the game; the options a tamagotchi gained pass to its robot."""
    gone = set(ctx.notes.pop(GONE, ()))
    for copy in list(ctx.robots):
        if copy.name in gone and copy.pos is None:
            ctx.robots.remove(copy)
            del ctx.by_name[copy.name]
        elif TAMAGOTCHI in copy.statuses and copy.options:
            parent = robot_of(ctx, copy)
            if parent is None:
                continue
            for option in list(copy.options):
                copy.options.remove(option)
                parent.options.append(option)
                if option in copy.option_data:
                    parent.option_data[option] = copy.option_data.pop(option)
                ctx.emit(copy, "option passes", {"option": option, "to": parent.name}, option=option)


def _install(board: Board, el: Element) -> None:
    side = el["dir"]
    board.add_wall(el.at, side)
    antenna = step(el.at, side)
    board.add_hook("move.copy_machines", (el.at[0], el.at[1], side), press)
    board.add_hook("move.copy_machines", (antenna[0], antenna[1], opposite(side)), touch)


register_effect(Effect(TAMAGOTCHI, "a virtual copy of its robot, playing its cards; if either dies, both do",
                       on_destroyed=copy_destroyed))
register_effect(Effect(COPIED, "has a tamagotchi: if either dies, both do", on_destroyed=robot_destroyed))

COPY_MACHINE = Kind(
    name=NAME,
    doc=('a copy machine in the wall on the side `dir` of this square (the button side): a robot running '
         'against it from here starts it, and a tamagotchi (a virtual copy playing its robot\'s cards) appears '
         'beyond the wall, facing it; the tamagotchi vanishes running against the machine from the square it '
         'arose on; if either dies, both do'),
    key='CM copy machine',
    fields=(Field("dir", "dir"),),
    summary="a copy machine in a wall: running against its button makes a tamagotchi beyond the wall",
    install=_install,
    steps={"reveal.tamagotchis": copy_cards, "checkpoints.tamagotchis": count_flags,
           "end.tamagotchis": end_of_turn},
    glyph=lambda e: "CM",
    rank=83,
)
