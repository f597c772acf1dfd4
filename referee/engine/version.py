"""The version of the rules the engine plays.

Raise it whenever the same inputs (snapshot, programs, orders, seed) would resolve differently: a
stored turn records the version it was resolved under, and a re-run under another version says so
instead of reporting a mere difference. Version 1 is the rules every turn before versioning was
resolved under.
"""

RULES_VERSION = 2  # 2: ghosts rise from graves (issue 13)
