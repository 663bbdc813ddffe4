"""Each rule records what it found as a typed payload of its own (issue 20): a frozen dataclass,
subclass of `model.summary.Payload`, declared in the rule's own module(s), picklable for the
cache; no string key/value bag (`Latent.data` stays empty). The rules still on the bag are listed
so that the list can only shrink: a rule that starts recording a bag fails, and so does a listed
rule that no longer records one (remove it from the list)."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from mcp_lint.analysis import analyze_source
from mcp_lint.model.summary import Latent, ModuleSummary, Payload, ServerLatent
from mcp_lint.registry import RULES
from mcp_lint.rules import all_rules
from mcp_lint.rules.base import Rule

# Rules whose latents still carry `Latent.data` (being edited elsewhere when this list was made).
STILL_ON_THE_BAG: frozenset[str] = frozenset()

CHECKED = [rule for rule in all_rules() if any(info.code == rule.code and info.implementation for info in RULES)]


def _latents(rule: Rule) -> list[Latent]:
    """The latents the rule records on its own page examples (and its server-level records)."""
    out: list[Latent] = []
    for example in (*rule.INVALID, *rule.VALID):
        summary = analyze_source(example.code, Path("server.py"), "server.py", frozenset({rule.code}))
        assert isinstance(summary, ModuleSummary)
        out.extend(latent for fn in summary.functions.values() for latent in fn.latent)
        out.extend(record.latent for records in summary.rule_records.values() for record in records if isinstance(record, ServerLatent))
    return out


def _own_module(rule: Rule, module: str) -> bool:
    """`mcp_lint.rules.mcp010_sensitive_detail_in_message` and its siblings `rules/mcp010_*`."""
    return module.startswith(f"mcp_lint.rules.{rule.code.lower()}_")


@pytest.mark.parametrize("rule", [r for r in CHECKED if r.code not in STILL_ON_THE_BAG], ids=lambda r: r.code)
def test_a_rule_records_typed_payloads_of_its_own(rule: Rule) -> None:
    latents = _latents(rule)
    assert latents, "the page's examples give the rule something to record"
    for latent in latents:
        assert latent.data == (), f"{rule.code} records a string bag: {latent.data}"
        payload = latent.payload
        if payload is None:
            continue  # a marker with nothing of its own (a passes-on clause)
        assert isinstance(payload, Payload)
        assert _own_module(rule, type(payload).__module__), f"{type(payload).__qualname__} is declared outside {rule.code}'s module"
        assert dataclasses.is_dataclass(payload) and type(payload).__dataclass_params__.frozen  # type: ignore[attr-defined]
        with pytest.raises(dataclasses.FrozenInstanceError):
            payload.__setattr__(dataclasses.fields(payload)[0].name, None)
        assert pickle.loads(pickle.dumps(latent)) == latent  # cached with the module's summary


def test_the_rules_still_on_the_bag_still_use_it() -> None:
    by_code = {rule.code: rule for rule in CHECKED}
    for code in sorted(STILL_ON_THE_BAG):
        assert any(latent.data for latent in _latents(by_code[code])), f"{code} records no bag any more: shorten STILL_ON_THE_BAG"

