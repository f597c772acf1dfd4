"""referee: a play-by-email referee service for RoboRally."""

__version__ = "0.1.0"
