"""Every element kind, registered here: one line per kind."""

from ..kinds import register
from . import (
    belts,
    checkpoints,
    crumbly,
    crushers,
    deep_water,
    efences,
    flamers,
    gears,
    lasers,
    lava,
    levels,
    oil,
    oneway,
    pits,
    plates,
    pushers,
    radiation,
    randomizers,
    teleporters,
    trapdoors,
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
register(trapdoors.TRAPDOOR)
register(trapdoors.BRIDGE)
register(oneway.ONE_WAY)
register(efences.EFENCE)
register(radiation.RADIATION)
register(deep_water.DEEP_WATER)
register(lava.LAVA)
register(crumbly.CRUMBLY)
register(plates.PLATE)
