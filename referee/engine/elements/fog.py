"""Fog, smoke and smokestacks (RoboFactory): what robots cannot see through.

A robot cannot see into or through a square of fog or smoke: its laser stops short of it (a robot
in or behind the fog is not hit), it cannot see a mirror beyond it, and a robot standing in fog or
smoke sees nothing and never fires. Fog and smoke do not hinder movement, and board lasers (which
do not look) shine through them. A smokestack is a pit whose smoke fills its own square.
"""

from __future__ import annotations

from ..hooks import on
from ..kinds import Kind
from .pits import fall

FOG = Kind(
    name="fog",
    doc=('fog: robots cannot see into or through it (their lasers stop short of it; a robot in it never fires); '
         'movement and board lasers are not affected'),
    key='""" fog',
    summary="fog: robots cannot see into or through it; a robot in it never fires",
    blocks_sight=True,
    glyph=lambda e: '"""',
    rank=159,
)

SMOKE = Kind(
    name="smoke",
    doc='smoke: as fog, robots cannot see into or through it; a robot in it never fires',
    key="''' smoke",
    summary="smoke: robots cannot see into or through it; a robot in it never fires",
    blocks_sight=True,
    glyph=lambda e: "'''",
    rank=161,
)

SMOKESTACK = Kind(
    name="smokestack",
    doc='a smokestack: a pit (a robot entering it is destroyed) whose smoke blocks robots\' sight, as fog',
    key='#\'# smokestack',
    summary="a smokestack: a pit filled with smoke that robots cannot see through",
    group="floor",
    blocks_sight=True,
    hooks=(on("move.pits", fall),),
    glyph=lambda e: "#'#",
    rank=163,
)
