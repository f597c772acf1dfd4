"""Every element kind, registered here: one line per kind."""

from ..kinds import register
from . import (
    belts,
    black_holes,
    checkpoints,
    crushers,
    flamers,
    gears,
    ice,
    lasers,
    levels,
    magnets,
    mirrors,
    oil,
    pits,
    portals,
    puddles,
    pushers,
    randomizers,
    sand,
    soap,
    teleporters,
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
register(ice.ICE)
register(sand.SAND)
register(soap.SOAP)
register(magnets.MAGNET)
register(black_holes.BLACK_HOLE)
register(puddles.PUDDLE)
register(portals.PORTAL)
register(mirrors.MIRROR)
