"""The adversarial format's pure parts: the prefix contract, the routing checklist, the intake
checks, the governance rules, and the result page and summary in the reader's language."""

from __future__ import annotations

import json
import random

import pytest

from bot.settings import Settings
from handlers.core.formats import format_named
from handlers.core.formats.adversarial.audit import (
    COUNTED,
    Audit,
    Evidence,
    Intake,
    Tier,
    read_audit,
    requested_tier,
    route,
    rules_audit,
)
from handlers.core.formats.adversarial.contract import (
    ADVOCATE,
    cited_ids,
    missing,
    points,
    rulings,
    sections,
)
from handlers.core.formats.adversarial.result import (
    INTAKE_COST,
    ROLE_NAMES,
    Answers,
    govern,
    render_result,
    render_summary,
    word,
)
from handlers.core.formats.adversarial.rules import ADVERSARIAL
from handlers.core.formats.adversarial.seats import reconciler_of
from handlers.core.formats.adversarial.words import reason_words, reasons_words
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import LANGUAGES, Strings
from handlers.core.participants import DEFAULT_ROSTER, Backend
from tests.handlers.adversarial_script import (
    WORDS,
    advocate,
    challenger,
    probe,
    reconciler,
    validator,
)
from tests.handlers.core.test_state_machine import debate

EN = Strings("en")


def _audit(n: int = 3, **kw: object) -> Audit:
    items = tuple(Evidence(f"E{i}", f"fact {i}", "supports") for i in range(1, n + 1))
    return Audit("p", evidence=items, known_gaps=("none",), **kw)  # type: ignore[arg-type]  # the test's Audit fields


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
    parse = format_named("adversarial").parse  # the format carries its reply contract
    assert parse("no prefix at all").structured is False
    assert parse(advocate()).opinion == advocate()


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
    n = int(fields.pop("_n", 3))  # type: ignore[call-overload]  # `_n` is an int
    audit = _audit(n, **fields)
    chosen = route(audit, None)
    assert chosen.tier is tier and chosen.auto
    assert reason in fill_keys(reasons_words(chosen.reasons, ", ", audit), EN), chosen.reasons


def test_a_requested_tier_is_kept_and_marked_thin_when_evidence_is_too_shallow() -> None:
    assert requested_tier(("talk --lite", "then --FULL please", "not x--standard")) is Tier.FULL
    chosen = route(_audit(1), Tier.FULL)
    assert chosen.tier is Tier.FULL and not chosen.auto and chosen.intake is Intake.THIN
    assert chosen.thin == ("exceeds_depth",)
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
    assert result.confidence == "SPECULATIVE" and "0 of 2 stable" in fill_keys(result.caps[0], EN)
    rejected = [fill_keys(r, EN) for r in result.rejected]
    assert any("Everyone feels" in r and "cites no inventory item" in r for r in rejected)
    assert "Validator: point B leaps" in [fill_keys(c, EN) for c in result.caveats]
    assert result.validation == "FAIL"
    stable = Answers(**{**answers.__dict__, "probes": (probe("c", True), probe("a", False))})
    assert govern(audit, full, stable).confidence == "CONFIRMED"
    page = fill_keys(render_result(audit, full, answers), EN)
    assert "### Reconciler's Verdict: MODIFY" in page and "| Invalidation | E1 |" in page
    assert answers.advocate in page and answers.reconciler in page  # every role in full


def _full_debate() -> tuple[Audit, Answers]:
    """A FULL debate with every role, an uncited argument, diverging probes and a failed
    Validator (every heading and every governance text shows)."""
    audit = _audit(3, high_stakes=True)
    answers = Answers(
        advocate=advocate(uncited=True),
        challenger=challenger(),
        reconciler=reconciler(confidence="CONFIRMED"),
        probes=(probe("cost-first", False), probe("alternatives-first", False)),
        validator=validator("FAIL", "point B leaps"),
        cost=(
            f"{ROLE_NAMES['advocate']}: AG (gemini-pro)",
            f"{INTAKE_COST}: {word('moderator_model')}",
        ),
        tiers=(f"{word('tier_mid')}: {ROLE_NAMES['advocate']} (AG, {word('backend_model')})",),
        tier_names=(word("tier_mid"),),
    )
    return audit, answers


# A row of the reconciliation table: the ruling's basis, each side's point citing it, the
# ruling, and the Validator's grounding check of it.
ROW = (
    "| Invalidation | E1 | E1: three replicas each hold a cache | E1: three replicas each hold"
    " a cache · {conceded}: E1 is real | Advocate — E1 shows three copies | PASS — E1 |"
)
# The page's lines that are ours, in order: English is the seed's output format word for word.
PAGE_LINES = {
    "en": (
        "## Debate Result",
        "**Proposition:** p",
        "**Tier:** full (Agents spawned: 1; Model tiers used: mid-tier)",
        "**Intake status:** debate-ready",
        "### Structural Audit",
        "- Evidence inventory: 3",
        "  - E1 | fact 1 | supports",
        "- Opposition explicitly present: no",
        "- Known gaps: none",
        "- Optional state: none",
        "### Reconciler's Verdict: MODIFY",
        "### Reconciliation",
        "| Point | Structural basis | Advocate | Challenger | Reconciler | Validator |",
        ROW.format(conceded="conceded"),
        "### Rejected Arguments",
        "- Advocate evidence 3: Everyone feels Redis is better (cites no inventory item)",
        "### What Survives",
        "### Skipped Roles",
        "- none",
        "### Confidence: SPECULATIVE",
        "- consistency probes diverge (0 of 2 stable): capped at SPECULATIVE",
        "### Validation",
        "FAIL",
        "- point B leaps",  # the Validator's own caveats, under its result (the seed's section)
        "### Caveats",
        "- Validator: point B leaps",
        "- Validator result: FAIL",
        "### Cost",
        "Agents spawned: 1",
        "Model tiers used:",
        "- mid-tier: Advocate (AG, its backend's own model)",
        "- Intake audit: moderator model",
        "## Role answers",
        "### Advocate",
        "### Consistency probe 1",
        "### Challenger",
        "### Reconciler",
        "### Validator",
    ),
    "ko": (
        "## 토론 결과",
        "**명제:** p",
        "**단계:** full (실행한 에이전트: 1; 사용한 모델 등급: 중간 등급)",
        "**사전 감사 상태:** debate-ready",
        "### 구조 감사",
        "- 증거 목록: 3",
        "  - E1 | fact 1 | supports",
        "- 반대 근거 명시: 아니요",
        "- 부가 상태: 없음",
        "### 조정자의 판정: MODIFY",
        "### 조정표",
        "| 쟁점 | 구조적 근거 | 옹호자 | 도전자 | 조정자 | 검증자 |",
        ROW.format(conceded="인정함"),
        "### 기각된 논거",
        "- 옹호자 증거 3: Everyone feels Redis is better (증거 목록의 항목을 인용하지 않음)",
        "### 살아남은 요소",
        "### 건너뛴 역할",
        "- 없음",
        "### 확신도: SPECULATIVE",
        "- 일관성 검사 결과가 엇갈림(2개 중 0개 안정): SPECULATIVE로 제한됨",
        "### 검증",
        "FAIL",
        "- point B leaps",
        "### 유의 사항",
        "- 검증자: point B leaps",
        "- 검증자 결과: FAIL",
        "### 비용",
        "실행한 에이전트: 1",
        "사용한 모델 등급:",
        "- 중간 등급: 옹호자 (AG, 백엔드 자체 모델)",
        "- 사전 감사: 사회자 모델",
        "## 역할별 답변",
        "### 옹호자",
        "### 일관성 검사 1",
        "### 도전자",
        "### 조정자",
        "### 검증자",
    ),
}


@pytest.mark.parametrize("language", sorted(PAGE_LINES))
def test_the_result_page_s_own_lines_are_in_the_reader_s_language(language: str) -> None:
    audit, answers = _full_debate()
    full = route(audit, None)
    page = fill_keys(render_result(audit, full, answers), Strings(language))
    lines = page.splitlines()
    at = [lines.index(line) for line in PAGE_LINES[language]]  # each one is a line of its own
    assert at == sorted(at)


# What the code writes in English; a reader of another language sees none of it.
ENGLISH = (
    "Debate Result",
    "Reconciler's Verdict",
    "Structural Audit",
    "Reconciliation",
    "Structural basis",
    "Model tiers used",
    "backend's own model",
    "Rejected Arguments",
    "What Survives",
    "Skipped Roles",
    "### Confidence",
    "### Validation",
    "### Caveats",
    "### Cost",
    "Agents spawned",
    "Role answers",
    "**Proposition:**",
    "**Tier:**",
    "**Intake status:**",
    "Evidence inventory",
    "Opposition explicitly present",
    "Known gaps",
    "Optional state",
    "Tier rationale",
    "### Advocate",
    "### Challenger",
    "### Reconciler",
    "### Validator",
    "Consistency probe",
    "(no answer)",
    "cites no inventory item",
    "capped at SPECULATIVE",
    "Validator result",
    "moderator model",
    "Advocate evidence",
    "- none",
    "Tier:",
    "Intake:",
    "Confidence:",
    "Validation:",
    "Rejected arguments:",
)


@pytest.mark.parametrize("language", ["ko", "pt-BR"])
def test_a_non_english_reader_sees_no_english_words_and_every_answer_verbatim(
    language: str,
) -> None:
    audit, answers = _full_debate()
    full = route(audit, None)
    t = Strings(language)
    page = fill_keys(render_result(audit, full, answers), t)
    summary = fill_keys(render_summary(audit, full, answers), t)
    written = (answers.advocate, answers.challenger, answers.reconciler, answers.validator)
    for text in (*written, *answers.probes):
        assert f"\n{text}\n" in page  # verbatim, untranslated
    ours = page
    for text in (*written, *answers.probes):
        ours = ours.replace(text, "")
    # what the Reconciler wrote is quoted in the table and the lists: not ours either
    ours = ours.replace("| Advocate |", "").replace("| Challenger |", "")
    found = [english for english in ENGLISH if english in ours or english in summary]
    assert found == []
    assert "MODIFY" in ours and "SPECULATIVE" in ours and "full" in ours  # the protocol's tokens
    assert "FULL" in summary and "debate-ready" in summary
    assert "⟦" not in page + summary


def test_the_summary_block_is_in_the_reader_s_language_with_the_protocol_s_tokens() -> None:
    audit, answers = _full_debate()
    full = route(audit, None)
    block = render_summary(audit, full, answers)
    assert fill_keys(block, EN).splitlines()[1:2] == [
        "Tier: FULL · Intake: debate-ready · Confidence: SPECULATIVE"
    ]
    korean = fill_keys(block, Strings("ko")).splitlines()
    assert (
        korean[0] == f"⚖️ 조정자의 판정: **MODIFY** — {WORDS['en']['decision']}"
    )  # names the verdict
    assert korean[1] == "단계: FULL · 사전 감사: debate-ready · 확신도: SPECULATIVE"
    assert "검증: FAIL" in korean and "기각된 논거: 1" in korean
    assert "- 검증자 결과: FAIL" in korean


@pytest.mark.parametrize(
    ("name", "n", "english", "korean"),
    [
        ("high_stakes", 3, "high-stakes or hard to reverse", "위험이 크거나 되돌리기 어려움"),
        ("within_six", 2, "evidence=2 (<= 6)", "증거=2 (6개 이하)"),
        ("lite_only", 1, "evidence=1 justifies LITE only", "증거=1 (LITE 단계만 정당화됨)"),
    ],
)
def test_the_routing_s_reasons_read_in_the_reader_s_language(
    name: str, n: int, english: str, korean: str
) -> None:
    assert fill_keys(reason_words(name, _audit(n)), Strings("ko")) == korean
    assert fill_keys(reason_words(name, _audit(n)), EN) == english  # the seed's own words


def test_every_reason_has_its_words_in_every_language() -> None:
    names = set(COUNTED) | {"evidence", "no_evidence", "requested", "gaps_omitted"}
    names |= {"exceeds_depth", "high_stakes", "competing", "uncertain", "gap_conflict"}
    names |= {"bounded", "multi_factor"}
    for language in LANGUAGES:
        assert all(Strings(language).has(f"adversarial.reason.{name}") for name in names)


def test_the_reconciler_backend_and_model_are_settings() -> None:
    built = Settings(
        _env_file=None,
        DEFAULT_FORMAT="adversarial",
        ADVERSARIAL_RECONCILER="gemini-cli",
        ADVERSARIAL_RECONCILER_MODEL=" opus ",
    )
    proposed = debate(roster=DEFAULT_ROSTER, format="adversarial", options=built.format_options)
    plan = ADVERSARIAL.start(proposed, random.Random(1))
    seated = {m.id: m for m in plan.debate.setup.roster}["reconciler"]
    assert seated == reconciler_of(built.format_options) and seated.backend is Backend.GEMINI_CLI
    assert seated.model == "opus" and plan.debate.floor.order[-1] == "reconciler"
    assert ADVERSARIAL.seats_added(built.format_options) == (seated,)
    default = reconciler_of(())
    assert (default.backend, default.model) == (Backend.CLAUDE_CLI, "")
    with pytest.raises(ValueError, match="ADVERSARIAL_RECONCILER"):
        Settings(_env_file=None, ADVERSARIAL_RECONCILER="nope")
