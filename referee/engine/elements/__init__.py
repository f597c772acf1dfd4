"""Every element kind, registered here: one line per kind."""

from ..kinds import register
from . import (
    antigravity,
    belts,
    big_gears,
    checkpoints,
    crossgears,
    crushers,
    energizers,
    flamers,
    gears,
    hydraulic_pushers,
    lasers,
    levels,
    oil,
    pits,
    pushers,
    randomizers,
    repeaters,
    teleporters,
    uturn_gears,
    virtualizers,
    walls,
    water,
)

register(walls.WALL)
register(pits.PIT)
register(belts.BELT)
register(belts.EXPRESS)
register(pushers.PUSHER_KIND)
register(gears.GEAR)
register(crushers.CRUSHER)
register(lasers.LASER)
register(checkpoints.FLAG)
register(checkpoints.REPAIR)
register(checkpoints.START)
register(levels.LEVEL)
register(levels.RAMP)
register(randomizers.RANDOMIZER)
register(teleporters.TELEPORTER)
register(water.WATER)
register(water.CURRENT)
register(oil.OIL)
register(flamers.FLAMER)
register(belts.HYPER)
register(uturn_gears.UTURN_GEAR)
register(big_gears.BIG_GEAR)
register(crossgears.CROSSGEAR)
register(hydraulic_pushers.HYDRAULIC_PUSHER)
register(belts.ROTATING_BELT)
register(virtualizers.VIRTUALIZER)
register(antigravity.ANTIGRAVITY)
register(energizers.ENERGIZER)
register(repeaters.REPEATER)
