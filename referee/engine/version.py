"""The version of the rules the engine plays.

Raise it whenever the same inputs (snapshot, programs, orders, seed) would resolve differently: a
stored turn records the version it was resolved under, and a re-run under another version says so
instead of reporting a mere difference. Version 1 is the rules every turn before versioning was
resolved under.

Version 2 (issue 16, option cards): the option deck exists, so a robot whose two-wrench choice is
``option`` draws a card instead of being repaired, an undamaged robot is asked too, and a robot
gives up one option per point of a hit at its sacrifice threshold. Also in version 2 (issue 13): ghosts
rise from graves, so boards with graves resolve differently.

Version 3 (issue 33): the rule texts' readings where they are clear (moving through deep water hurts,
repeaters repeat after all robots moved, pushers' robots meet tilted ground, oil and hydraulic trapdoors
again, a hydraulic trapdoor gives way only under a robot ending its move on it, the main laser fires when
an ordered option weapon cannot), and no listing or compass order decides (magnets, black holes,
ventilators, hydraulic pushers, two pushers on one square, randomizers' and option draws' order; spiky
walls sharing a side with another special side element are refused). A turn stored under version 2
replays exactly: ``Rules.for_version(2)`` plays the old ways (the old readings are house rules any
game may keep, the order-dependent ways only replays get).

Version 4 (issue 44): the last readings against clear text (robots a pusher pushes onto oil slide pushing
robots on oil ahead; a robot pushed across a hydraulic trapdoor by another robot's card does not set it off;
black holes, magnets and ghosts reach no farther than their own board of a course; a crater's corners slip
diagonally; radioactive waste asks its robot in every register whether to draw an option), and no seat,
listing or compass order breaks a tie (particle accelerators, a ghost's nearest grave, Radio Control's
copied card). Each reading has a house rule keeping version 3's (``LEGACY4_RULES``); ``for_version(3)``
sets them all, and the ties go back to the old ways (``Rules.seat_free``). Under versions below 4 the
events of one step may come out in another order than a stored log's where a set's iteration (the hash
seed) chose it, so a replay compares them without regard to that order.

Version 5 (issue 42): nothing moves differently; what a ghost does is logged as the ghost's. Its events
(``ghost rises``, ``ghost moves``...) name no robot and carry ``ghost`` (the parent robot), and the damage it
deals says whose ghost dealt it from which square (``by``: ``Zoom's ghost r13c2``), so a report never puts a
ghost's moves in its parent's column. A turn stored under version 4 replays its log as written (under the
parent): ``Rules.for_version(4)`` logs the old way (``Rules.ghost_events``).
"""

RULES_VERSION = 5

#: what each rules version changes, as a game's players are told when their GM moves the game to it
#: (``SET RULES 4``): version -> sentences
CHANGES: dict[int, tuple[str, ...]] = {
    3: ("Moving into or through deep water under a card costs 1 HP, not only a card executed in it.",
        "Repeaters repeat a card after all robots have moved.",
        "Robots pushers push onto tilted ground, oil or a hydraulic trapdoor are affected by it again.",
        "A hydraulic trapdoor gives way only under a robot ending its move on it.",
        "The main laser fires when an ordered option weapon cannot.",
        "No listing or compass order decides: magnets, black holes, ventilators and hydraulic pushers act all "
        "at once; two pushers on one square pushing different ways cancel; randomizers and option draws go by "
        "card priority."),
    4: ("A robot a pusher pushes onto oil slides on, pushing robots on oil ahead of it.",
        "A robot pushed across a hydraulic trapdoor by another robot's card does not set it off.",
        "Black holes, magnets and ghosts reach no farther than their own board of a course.",
        "A crater's corner squares slip a robot diagonally.",
        "Radioactive waste offers its robot an option card in every register (RADIOACTIVE WASTE: NONE declines).",
        "Robots of one speed on a particle accelerator ring move together; a ghost rises on the grave nearest "
        "its robot, ties going clockwise from the robot's facing; a radio-controlled robot moves right after "
        "its controller."),
    5: ("The turn report tells what a ghost does as the ghost's (\"Zoom's ghost to r5c3\", \"hit by Zoom's ghost "
        "at r5c3\"), never as its robot's own moves; nothing moves differently.",),
}

#: the house rules a game may set to keep a reading an older version had: version -> rule names
KEEPS: dict[int, tuple[str, ...]] = {
    3: ("deep_water_start_only", "repeat_at_once", "pushed_not_affected", "trapdoor_on_passing", "weapon_or_nothing"),
    4: ("pusher_slides_hold", "trapdoor_pushed_across", "black_hole_whole_line", "magnet_whole_line",
        "ghost_whole_course", "crater_straight", "radioactive_once"),
}


def changes_between(old: int, new: int) -> list[str]:
    """What moving a game from rules version ``old`` to ``new`` changes (versions after ``old`` up to ``new``;
    moving back: the same sentences, undone)."""
    low, high = sorted((old, new))
    return [line for v in range(low + 1, high + 1) for line in CHANGES.get(v, ())]
