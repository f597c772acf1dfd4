"""Fast ramps (RoboFactory): an express (blue) belt running up a ramp to the next level.

A fast ramp is a ramp (rising toward ``dir``: it joins its square's height to the height beyond its
uphill side, so the ledge at its top can be crossed) that is also an express belt running uphill,
toward ``dir``: in the express belts' two sub-steps it carries a robot on it up and off its top onto the
higher level, as the belts carry (simultaneously, no pushing, turning a robot carried onto a belt at a
right angle). Robots may also drive up and down it with their cards as on a ramp, but unlike a ramp a
robot whose card ends on it climbing does not slide back: the moving belt holds it, and carries it up.
"""

from __future__ import annotations

from ..geometry import ARROWS
from ..kinds import Field, Kind
from .belts import all_belts, express_first
from .levels import find_ledges

FAST_RAMP = Kind(
    name="fast_ramp",
    doc=('a fast ramp: a ramp rising toward `dir` that is also an express belt running up it, carrying robots '
         'up onto the level beyond its top'),
    key='F^ fast ramp',
    fields=(Field("dir", "dir"),),
    summary="a fast ramp: an express belt running up a ramp toward dir",
    group="floor",
    steps={"board.express_1": express_first, "board.belts": all_belts},
    finish=find_ledges,
    glyph=lambda e: "F" + ARROWS[e["dir"]] + ARROWS[e["dir"]],
    rank=62,
)
