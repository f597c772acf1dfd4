"""The option cards: one module each (an :class:`~referee.engine.hooks.Effect` named after the card),
registered here: one line per card. The deck they form is :mod:`referee.engine.option_deck`."""

from ..hooks import EFFECTS, register_effect
from ..option_deck import ALL_CARDS
from . import (
    ablative_coat,
    abort_switch,
    brakes,
    circuit_breaker,
    conditional_program,
    crab_legs,
    double_barreled_laser,
    dual_processor,
    extra_memory,
    fire_control,
    flywheel,
    fourth_gear,
    gyroscopic_stabilizer,
    high_power_laser,
    mechanical_arm,
    mini_howitzer,
    power_down_shield,
    pressor_beam,
    radio_control,
    ramming_gear,
    rear_firing_laser,
    recompile,
    reverse_gears,
    scrambler,
    shield,
    superior_archive,
    tractor_beam,
)

register_effect(ablative_coat.EFFECT)
register_effect(abort_switch.EFFECT)
register_effect(brakes.EFFECT)
register_effect(circuit_breaker.EFFECT)
register_effect(conditional_program.EFFECT)
register_effect(crab_legs.EFFECT)
register_effect(double_barreled_laser.EFFECT)
register_effect(dual_processor.EFFECT)
register_effect(extra_memory.EFFECT)
register_effect(fire_control.EFFECT)
register_effect(flywheel.EFFECT)
register_effect(fourth_gear.EFFECT)
register_effect(gyroscopic_stabilizer.EFFECT)
register_effect(high_power_laser.EFFECT)
register_effect(mechanical_arm.EFFECT)
register_effect(mini_howitzer.EFFECT)
register_effect(power_down_shield.EFFECT)
register_effect(pressor_beam.EFFECT)
register_effect(radio_control.EFFECT)
register_effect(radio_control.CONTROLLED)
register_effect(ramming_gear.EFFECT)
register_effect(rear_firing_laser.EFFECT)
register_effect(recompile.EFFECT)
register_effect(reverse_gears.EFFECT)
register_effect(scrambler.EFFECT)
register_effect(shield.EFFECT)
register_effect(superior_archive.EFFECT)
register_effect(superior_archive.PENDING)
register_effect(tractor_beam.EFFECT)

_missing = [name for name in ALL_CARDS if name not in EFFECTS]
assert not _missing, f"option cards without a module: {_missing}"
