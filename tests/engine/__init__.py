"""Scenario-style tests of the classic rules engine (the ``referee simulate`` contract)."""
