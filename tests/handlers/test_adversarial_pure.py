"""The adversarial format's pure parts: the prefix contract, the routing checklist, the intake
checks and the governance rules."""

from __future__ import annotations

import json

import pytest

from bot.settings import Settings, configure_formats
from handlers.formats import CONTRACTS, FORMATS
from handlers.formats.adversarial import ADVERSARIAL, AdversarialFormat
from handlers.formats.adversarial_audit import (
    Audit,
    Evidence,
    Intake,
    Tier,
    read_audit,
    requested_tier,
    route,
    rules_audit,
)
from handlers.formats.adversarial_contract import (
    ADVOCATE,
    cited_ids,
    missing,
    points,
    rulings,
    sections,
)
from handlers.formats.adversarial_result import Answers, govern, render_result
from handlers.participants import Backend
from tests.handlers.adversarial_script import advocate, challenger, probe, reconciler, validator


def _audit(n: int = 3, **kw: object) -> Audit:
    items = tuple(Evidence(f"E{i}", f"fact {i}", "supports") for i in range(1, n + 1))
    return Audit("p", evidence=items, known_gaps=("none",), **kw)  # type: ignore[arg-type]


def test_sections_are_read_strictly_by_line_prefix() -> None:
    evidence = "1. E1 a\n2. b\nmid [RISKS] not a prefix"
    text = f"Intro line\n[THESIS] one\ncontinued\n[EVIDENCE]\n{evidence}"
    found = sections(text)
    assert found == {"THESIS": "one\ncontinued", "EVIDENCE": evidence}
    assert missing(text, ("THESIS", "RISKS")) == ("[RISKS]",)
    assert missing(advocate(), ADVOCATE) == ()
    assert missing(advocate(counter=False), ADVOCATE) == ("[COUNTER]",)
    assert points(found["EVIDENCE"]) == ("E1 a", "b mid [RISKS] not a prefix")
    assert cited_ids("E2, E10 and E2 again; not XE3") == ("E2", "E10")
    assert CONTRACTS["prefix"]("no prefix at all").structured is False
    assert CONTRACTS["prefix"](advocate()).opinion == advocate()


def test_point_by_point_rulings_keep_every_line() -> None:
    found = rulings("A: Advocate — E1 holds\nsomething else entirely")
    assert [(r.point, r.winner, r.reasoning) for r in found] == [
        ("A", "Advocate", "E1 holds"),
        ("something else entirely", "-", "-"),
    ]


@pytest.mark.parametrize(
    ("fields", "tier", "reason"),
    [
        ({"binary_choice": True}, Tier.LITE, "bounded binary choice"),
        ({"binary_choice": True, "high_stakes": True}, Tier.FULL, "high-stakes"),
        ({"binary_choice": True, "state_uncertain": True}, Tier.FULL, "uncertainty"),
        ({"binary_choice": True, "gap_conflict": True}, Tier.FULL, "change the direction"),
        ({"competing_options": 2}, Tier.FULL, "competing option"),
        ({"competing_options": 1}, Tier.STANDARD, "tradeoffs"),
        ({}, Tier.STANDARD, "tradeoffs"),
        ({"binary_choice": True, "_n": 7}, Tier.STANDARD, "tradeoffs"),
        ({"_n": 1}, Tier.LITE, "justifies LITE only"),
    ],
)
def test_the_routing_checklist(fields: dict[str, object], tier: Tier, reason: str) -> None:
    n = int(fields.pop("_n", 3))  # type: ignore[call-overload]
    chosen = route(_audit(n, **fields), None)
    assert chosen.tier is tier and chosen.auto
    assert any(reason in r for r in chosen.reasons), chosen.reasons


def test_a_requested_tier_is_kept_and_marked_thin_when_evidence_is_too_shallow() -> None:
    assert requested_tier(("talk --lite", "then --FULL please", "not x--standard")) is Tier.FULL
    chosen = route(_audit(1), Tier.FULL)
    assert chosen.tier is Tier.FULL and not chosen.auto and chosen.intake is Intake.THIN
    assert chosen.thin_reasons == ("requested tier exceeds evidence depth",)
    assert route(_audit(0), None).intake is Intake.INSUFFICIENT


def test_the_audit_reads_ids_in_order_and_omitted_gaps_are_unknown() -> None:
    data = {"evidence": [{"item": "a", "stance": "against"}, {"item": " "}, "b"]}
    audit = read_audit(json.dumps(data), "q")
    assert [(e.id, e.item, e.stance) for e in audit.evidence] == [
        ("E1", "a", "against"),
        ("E2", "b", "context"),
    ]
    assert audit.known_gaps is None and audit.proposition == "q"
    assert route(audit, None).intake is Intake.THIN
    assert read_audit("not json", "q").evidence == ()
    rules = read_audit(rules_audit("q", ("- E1 | p95 840 ms | supports", "chat")), "q")
    assert [e.item for e in rules.evidence] == ["p95 840 ms"]


def test_governance_caps_confidence_and_keeps_rejections_visible() -> None:
    audit = _audit(3)
    answers = Answers(
        advocate=advocate(uncited=True),
        challenger=challenger(),
        reconciler=reconciler(confidence="CONFIRMED"),
        probes=(probe("cost-first", False), probe("alternatives-first", False)),
        validator=validator("FAIL", "point B leaps"),
    )
    full = route(_audit(3, high_stakes=True), None)
    result = govern(audit, full, answers)
    assert result.confidence == "SPECULATIVE" and "0 of 2 stable" in result.caps[0]
    assert any("Everyone feels" in r and "cites no inventory item" in r for r in result.rejected)
    assert "Validator: point B leaps" in result.caveats
    assert result.validation == "FAIL"
    stable = Answers(**{**answers.__dict__, "probes": (probe("c", True), probe("a", False))})
    assert govern(audit, full, stable).confidence == "CONFIRMED"
    page = render_result(audit, full, answers)
    assert "### Reconciler's Verdict: MODIFY" in page and "| Invalidation | Advocate |" in page
    assert answers.advocate in page and answers.reconciler in page  # every role in full


def test_the_reconciler_backend_and_model_are_settings() -> None:
    built = Settings(  # type: ignore[call-arg]
        _env_file=None,
        DEFAULT_FORMAT="adversarial",
        ADVERSARIAL_RECONCILER="gemini-cli",
        ADVERSARIAL_RECONCILER_MODEL=" opus ",
    )
    try:
        configure_formats(built)
        chosen = FORMATS["adversarial"]
        assert isinstance(chosen, AdversarialFormat)
        assert chosen.reconciler.backend is Backend.GEMINI_CLI
        assert chosen.reconciler.model == "opus" and chosen.reconciler.id == "reconciler"
    finally:
        FORMATS["adversarial"] = ADVERSARIAL
    with pytest.raises(ValueError, match="ADVERSARIAL_RECONCILER"):
        Settings(_env_file=None, ADVERSARIAL_RECONCILER="nope")  # type: ignore[call-arg]
