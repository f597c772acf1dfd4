"""The version of the rules the engine plays.

Raise it whenever the same inputs (snapshot, programs, orders, seed) would resolve differently: a
stored turn records the version it was resolved under, and a re-run under another version says so
instead of reporting a mere difference. Version 1 is the rules every turn before versioning was
resolved under.

Version 2 (issue 16, option cards): the option deck exists, so a robot whose two-wrench choice is
``option`` draws a card instead of being repaired, an undamaged robot is asked too, and a robot
gives up one option per point of a hit at its sacrifice threshold.
"""

RULES_VERSION = 2
