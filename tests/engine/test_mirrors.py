"""Mirrors: a robot looking into a mirror plays its card mirrorwise and is hit by its own laser.

Rulings cited (docs/rulings.md): 14.9.
"""

from .scenarios import element, play, robot

#: a mirror on the north side of r6c4 (the south side of r7c4)
MIRROR = [element("mirror", "r6c4", sides=["N"])]


def test_a_robot_facing_a_mirror_moves_backwards_at_any_distance():
    p = play(MIRROR, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r1c4"
    assert p.texts("Twonky", 1)[:2] == ["card mirrored", "move to r1c4"]


def test_turns_go_the_other_way_and_a_back_up_goes_forward():
    p = play(MIRROR, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "W"
    p = play(MIRROR, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RVS1 430"]})
    assert p.at("Twonky") == "r4c4"
    p = play(MIRROR, [robot("Twonky", "r3c4", "N")], {"Twonky": ["UTRN 10"]})
    assert p.facing("Twonky") == "S"


def test_a_robot_in_between_or_facing_away_sees_no_mirror():
    p = play(MIRROR, [robot("Twonky", "r3c4", "N"), robot("Hulk", "r5c4", "E")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "E"
    p = play(MIRROR, [robot("Twonky", "r3c4", "S")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r2c4"


def test_the_mirror_reflects_on_both_faces():
    p = play(MIRROR, [robot("Twonky", "r7c4", "S")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "E"  # a right turn facing south ends facing west; mirrored: east


def test_a_robot_facing_a_mirror_is_hit_by_its_own_laser():
    p = play(MIRROR, [robot("Twonky", "r3c4", "N"), robot("Hulk", "r3c6", "N")], {})
    hits = p.hits("Twonky", phase=1)
    assert [(h["text"], h.get("by")) for h in hits] == [("-1 HP", "Twonky")]
    assert p.damage("Hulk") == 0  # no mirror in its column


def test_a_robot_that_turned_away_from_the_mirror_does_not_shoot_itself():
    p = play(MIRROR, [robot("Twonky", "r3c4", "N")], {"Twonky": ["UTRN 10"]})
    assert p.facing("Twonky") == "S" and p.damage("Twonky") == 0


def test_a_slide_into_a_mirror_stops_at_it():
    """Backing up on oil toward the mirror (facing away: not mirrored), the slide ends against it."""
    oil = [*MIRROR, element("oil", "r4c4-r6c4")]
    p = play(oil, [robot("Twonky", "r3c4", "S")], {"Twonky": ["RVS1 430"]})
    assert p.texts("Twonky", 1) == ["move to r4c4", "slide to r5c4", "slide to r6c4"]


def test_facing_the_mirror_on_oil_a_move_becomes_a_back_up_and_slides_away_from_it():
    oil = [*MIRROR, element("oil", "r2c4-r5c4")]
    p = play(oil, [robot("Twonky", "r5c4", "N")], {"Twonky": ["FWD2 670"]})
    # first square lost on oil, the second mirrored: backwards to r4c4, then the slide on south
    assert p.texts("Twonky", 1, step="robots") == ["first square lost in water", "card mirrored", "move to r4c4",
                                                   "slide to r3c4", "slide to r2c4", "slide to r1c4"]
    assert p.damage("Twonky") == 1  # still looking into the mirror when lasers fire
