"""docs/security.md shows the outbound policy as one table written from the code: this fails when they differ
(run ``python -m referee.store.outbound docs/security.md`` to write it again)."""

from __future__ import annotations

from pathlib import Path

from referee.store import outbound

DOC = Path(__file__).resolve().parents[2] / "docs" / "security.md"


def test_the_policy_table_in_the_docs_is_the_one_the_code_writes():
    doc = DOC.read_text(encoding="utf-8")
    assert doc.count(outbound.TABLE_START) == 1 and doc.count(outbound.TABLE_END) == 1
    assert outbound.with_table(doc) == doc, "docs/security.md: run python -m referee.store.outbound docs/security.md"


def test_every_purpose_and_class_of_the_table_is_decided_by_one_rule_and_every_budget_is_a_setting():
    from dataclasses import fields

    from referee.common.config import Settings

    for purpose in outbound.PURPOSES:
        for to in outbound.RECIPIENTS:
            assert outbound.rule_for(purpose, to) in outbound.RULES
    assert outbound.rule_for(outbound.ANSWER, outbound.FORGED).over == outbound.REFUSE
    settings = {f.name: f.default for f in fields(Settings)}
    for f in fields(outbound.Budgets):
        assert settings[f.name] == f.default, f.name   # one default, in the settings and in the table
    toml = (DOC.parents[1] / "deploy" / "referee.toml").read_text(encoding="utf-8")
    assert all(f"{f.name} = {f.default}" in toml for f in fields(outbound.Budgets))
