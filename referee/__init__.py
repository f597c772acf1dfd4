"""referee: a play-by-email referee service for RoboRally."""

__version__ = "0.1.0"

# the engine compiled by ``referee compile-engine`` when it matches the sources, before any engine module loads
from .compiled_engine import activate as _activate

_activate()
