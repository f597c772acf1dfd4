"""High-Power Laser: the main laser passes through up to one wall or one robot; a robot passed through is hit too."""

from tests.engine.scenarios import bot, wall

from .helpers import holder, run


def test_the_beam_passes_through_the_first_robot_and_hits_the_one_behind_too():
    out = run([holder("Twonky", "r3c3", "N", "High-Power Laser"), bot("Hulk", "r5c3", "E"), bot("Zoom", "r8c3", "E")],
              phases=1)
    assert (out.damage("Hulk"), out.damage("Zoom")) == (1, 1)
    fire = out.events("Twonky", phase=1, step="lasers")[0]
    assert (fire["hit"], fire["also_hit"]) == ("Hulk", ["Zoom"])


def test_the_beam_passes_one_wall_but_not_a_second():
    out = run([holder("Twonky", "r3c3", "N", "High-Power Laser"), bot("Hulk", "r6c3", "E")], {},
              [wall("r4c3", "N")], phases=1)
    assert out.damage("Hulk") == 1
    out = run([holder("Twonky", "r3c3", "N", "High-Power Laser"), bot("Hulk", "r6c3", "E")], {},
              [wall("r4c3", "N"), wall("r5c3", "N")], phases=1)
    assert out.damage("Hulk") == 0


def test_passing_one_robot_the_beam_is_stopped_by_the_next_and_a_virtual_robot_is_passed_freely():
    out = run([holder("Twonky", "r3c3", "N", "High-Power Laser"), bot("Hulk", "r4c3", "E"), bot("Zoom", "r5c3", "E"),
               bot("Spin", "r6c3", "E")], phases=1)
    assert [out.damage(n) for n in ("Hulk", "Zoom", "Spin")] == [1, 1, 0]
    out = run([holder("Twonky", "r3c3", "N", "High-Power Laser"), bot("Hulk", "r4c3", "E", virtual=True),
               bot("Zoom", "r5c3", "E"), bot("Spin", "r6c3", "E")], phases=1)
    assert [out.damage(n) for n in ("Hulk", "Zoom", "Spin")] == [0, 1, 1]


def test_powered_down_or_virtual_it_does_not_fire_and_both_robots_hit_can_be_destroyed():
    for fields in ({"powered_down": True}, {"virtual": True}):
        out = run([holder("Twonky", "r3c3", "N", "High-Power Laser", **fields), bot("Hulk", "r5c3", "E")], phases=1)
        assert out.damage("Hulk") == 0
    out = run([holder("Twonky", "r3c3", "N", "High-Power Laser"), bot("Hulk", "r5c3", "E", damage=9),
               bot("Zoom", "r8c3", "E", damage=9)], phases=1)
    assert (out.at("Hulk"), out.at("Zoom")) == (None, None)
