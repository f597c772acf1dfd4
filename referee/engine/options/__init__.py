"""The option cards: one module each, ending with its declaration ``CARD = OptionCard(...)``
(:mod:`referee.engine.option_cards`), registered here: one line per card. The deck they form is
:mod:`referee.engine.option_deck`; their orders by mail are read by :mod:`referee.orders.options`."""

from ..option_cards import register_card
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

register_card(ablative_coat.CARD)
register_card(abort_switch.CARD)
register_card(brakes.CARD)
register_card(circuit_breaker.CARD)
register_card(conditional_program.CARD)
register_card(crab_legs.CARD)
register_card(double_barreled_laser.CARD)
register_card(dual_processor.CARD)
register_card(extra_memory.CARD)
register_card(fire_control.CARD)
register_card(flywheel.CARD)
register_card(fourth_gear.CARD)
register_card(gyroscopic_stabilizer.CARD)
register_card(high_power_laser.CARD)
register_card(mechanical_arm.CARD)
register_card(mini_howitzer.CARD)
register_card(power_down_shield.CARD)
register_card(pressor_beam.CARD)
register_card(radio_control.CARD)
register_card(ramming_gear.CARD)
register_card(rear_firing_laser.CARD)
register_card(recompile.CARD)
register_card(reverse_gears.CARD)
register_card(scrambler.CARD)
register_card(shield.CARD)
register_card(superior_archive.CARD)
register_card(tractor_beam.CARD)
