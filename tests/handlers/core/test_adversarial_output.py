"""The adversarial output's own rules, pure: the context manifest's 4,000-token cap (and where
the whole inventory is when it is cut), each rejected argument listed once, and the typed
`KNOWN_GAPS:` envelope read to its last bullet."""

from __future__ import annotations

import json

from handlers.core.formats.adversarial.audit import Audit, Evidence, route, rules_audit, typed_gaps
from handlers.core.formats.adversarial.briefs import (
    MANIFEST_TOKENS,
    manifest,
    structural_audit,
    tokens,
)
from handlers.core.formats.adversarial.result import Answers, govern
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.prompting import render_value
from tests.handlers.adversarial_script import advocate, challenger, reconciler

EN = Strings("en")


def _inventory(n: int, item: str) -> Audit:
    items = tuple(Evidence(f"E{i}", f"{item} {i}", "supports") for i in range(1, n + 1))
    return Audit("p", evidence=items, known_gaps=("none",))


def test_a_small_manifest_is_whole() -> None:
    audit = _inventory(5, "p95 latency 840 ms on /search")
    text = render_value(manifest(audit), "en")
    assert "- E5 | p95 latency 840 ms on /search 5 | supports" in text
    audit_text = render_value(structural_audit(audit, route(audit, None)), "en")
    assert "manifest cut" not in text and "manifest cut" not in audit_text


def test_a_manifest_over_4000_tokens_is_cut_and_says_where_the_whole_is() -> None:
    for item in ("p95 latency 840 ms measured on the /search endpoint", "검색 지연 840ms 측정값"):
        audit = _inventory(600, item)
        text = render_value(manifest(audit), "ko")
        assert tokens(text) <= MANIFEST_TOKENS
        kept = [line for line in text.splitlines() if line.startswith("- E")]
        assert kept[0].startswith("- E1 | ") and 0 < len(kept) < 600
        last = len(kept) + 1
        note = (
            f"[manifest cut at 4,000 tokens: {600 - len(kept)} of 600 items left out "
            f"(E{last}..E600); the whole inventory is the intake audit's, posted in the "
            "debate's thread and on its debate-result page]"
        )
        assert note in text
        audit_text = render_value(structural_audit(audit, route(audit, None)), "ko")
        assert note in audit_text and f"E{last} |" not in audit_text
        assert "- Evidence inventory: 600" in audit_text  # the count is the whole one


def test_korean_text_counts_more_tokens_than_its_characters_over_four() -> None:
    assert tokens("abcd" * 10) == 10
    assert tokens("검색 지연") == 4  # one a character beyond ASCII (the space: a quarter)


def test_a_rejected_argument_is_listed_once() -> None:
    audit = _inventory(3, "fact")
    uncited = advocate(uncited=True)
    both = challenger().replace("[ALTERNATIVE]", "3. Everyone feels Redis is better\n[ALTERNATIVE]")
    ruling = reconciler().replace(
        "[REJECTED-ARGUMENTS] none",
        "[REJECTED-ARGUMENTS]\n- Everyone feels Redis is better (no inventory item)\n"
        "- Everyone feels Redis is better (no inventory item)",
    )
    answers = Answers(advocate=uncited, challenger=both, reconciler=ruling)
    rejected = [fill_keys(r, EN) for r in govern(audit, route(audit, None), answers).rejected]
    assert rejected == ["Everyone feels Redis is better (no inventory item)"]
    unnamed = Answers(advocate=uncited, challenger=both, reconciler=reconciler())
    rejected = [fill_keys(r, EN) for r in govern(audit, route(audit, None), unnamed).rejected]
    assert rejected == [
        "Advocate evidence 3: Everyone feels Redis is better (cites no inventory item)"
    ]


def test_typed_known_gaps_are_read_to_the_last_bullet() -> None:
    envelope = (
        "EVIDENCE_INVENTORY:\n- E1 | p95 840 ms | supports\n- E2 | 3 replicas | against\n"
        "known_gaps: no SLO yet\n- no load test at 10x\n* hit rate unmeasured\n"
        "OPTIONAL_STATE:\n- none"
    )
    assert typed_gaps((envelope,)) == ("no SLO yet", "no load test at 10x", "hit rate unmeasured")
    assert typed_gaps(("KNOWN_GAPS:\n- none\n",)) == ()
    assert typed_gaps(("no label here\n- a bullet",)) is None
    audit = json.loads(rules_audit("p", (envelope,)))
    assert audit["known_gaps"] == ["no SLO yet", "no load test at 10x", "hit rate unmeasured"]
    assert [e["id"] for e in audit["evidence"]] == ["E1", "E2"]


def test_labels_inside_bullets_read_each_line_once() -> None:
    # Every bullet is a label too: read once each, not once per label before it.
    text = "KNOWN_GAPS: a\n" + "- KNOWN_GAPS: b\n" * 200_000
    assert len(typed_gaps((text,)) or ()) == 200_001
