"""The option cards: one module each, ending with its declaration ``CARD = OptionCard(...)``
(:mod:`referee.engine.option_cards`), registered here: one line per card,
``register_card(of.MODULE.CARD)`` (every module of the package is imported, in name order, by
:func:`~referee.engine.registry.modules_of`). The deck they form is
:mod:`referee.engine.option_deck`; their orders by mail are read by :mod:`referee.orders.options`."""

from ..option_cards import register_card
from ..registry import modules_of

of = modules_of(__name__, __path__)

register_card(of.ablative_coat.CARD)
register_card(of.abort_switch.CARD)
register_card(of.brakes.CARD)
register_card(of.circuit_breaker.CARD)
register_card(of.conditional_program.CARD)
register_card(of.crab_legs.CARD)
register_card(of.double_barreled_laser.CARD)
register_card(of.dual_processor.CARD)
register_card(of.extra_memory.CARD)
register_card(of.fire_control.CARD)
register_card(of.flywheel.CARD)
register_card(of.fourth_gear.CARD)
register_card(of.gyroscopic_stabilizer.CARD)
register_card(of.high_power_laser.CARD)
register_card(of.mechanical_arm.CARD)
register_card(of.mini_howitzer.CARD)
register_card(of.power_down_shield.CARD)
register_card(of.pressor_beam.CARD)
register_card(of.radio_control.CARD)
register_card(of.ramming_gear.CARD)
register_card(of.rear_firing_laser.CARD)
register_card(of.recompile.CARD)
register_card(of.reverse_gears.CARD)
register_card(of.scrambler.CARD)
register_card(of.shield.CARD)
register_card(of.superior_archive.CARD)
register_card(of.tractor_beam.CARD)
