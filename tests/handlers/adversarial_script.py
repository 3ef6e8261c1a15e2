"""Scripted answers for adversarial debates: the intake audit, each role in the seed's
line-prefix format (Korean or English), the probes and the Validator."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

from handlers.core.formats.adversarial.rules import RECONCILER_ID
from handlers.core.model import AG, CLAUDE, TurnMeta
from handlers.ports import DebaterOutput, TurnRequest
from tests.handlers.conftest import Rig
from tests.handlers.doubles import FakeDebater

WORDS = {
    "ko": {
        "thesis_for": "Redis 공유 캐시가 세 복제본의 무효화 문제를 푼다.",
        "thesis_against": "LRU에 짧은 TTL이면 충분하다.",
        "evidence": "1. E1: 복제본 3개가 각자 캐시를 가진다\n2. E2: 무효화 지연 4초 관찰",
        "uncited": "3. 다들 Redis가 더 낫다고 느낀다",
        "decision": "Redis를 채택하되 TTL 30초를 둔다.",
    },
    "pt-BR": {
        "thesis_for": "Um cache Redis compartilhado resolve a invalidação entre as três réplicas.",
        "thesis_against": "Um LRU em processo com TTL curto basta.",
        "evidence": "1. E1: três réplicas com cache próprio\n2. E2: atraso de invalidação de 4 s",
        "uncited": "3. Todo mundo acha o Redis melhor",
        "decision": "Adotar o Redis com TTL de 30 s.",
    },
    "en": {
        "thesis_for": "A shared Redis cache fixes invalidation across the three replicas.",
        "thesis_against": "An in-process LRU with a short TTL is enough.",
        "evidence": "1. E1: three replicas each hold a cache\n2. E2: 4 s invalidation lag observed",
        "uncited": "3. Everyone feels Redis is better",
        "decision": "Adopt Redis with a 30 s TTL.",
    },
}


def intake(
    evidence: int = 3,
    *,
    gaps: list[str] | None = ["none"],  # noqa: B006  # never mutated
    binary: bool = False,
    high_stakes: bool = False,
    request: str = "",
) -> str:
    """The moderator's intake JSON."""
    stances = ["supports", "against", "mixed", "context"]
    items = [
        {"item": f"fact {n}: replica cache lag {n * 2} s", "stance": stances[n % 4]}
        for n in range(1, evidence + 1)
    ]
    return json.dumps(
        {
            "proposition": "Adopt Redis as the shared cache layer",
            "decision_focus": "Redis vs in-process LRU",
            "evidence": items,
            "known_gaps": gaps,
            "optional_state": [],
            "constraints": "",
            "binary_choice": binary,
            "high_stakes": high_stakes,
            "competing_options": 0,
            "state_uncertain": False,
            "gap_conflict": False,
            "request": request,
        }
    )


def advocate(lang: str = "en", *, uncited: bool = False, counter: bool = True) -> str:
    w = WORDS[lang]
    evidence = w["evidence"] + ("\n" + w["uncited"] if uncited else "")
    lines = [
        "[POSITION] FOR",
        "[STRUCTURAL] supports=E1; counter=E2; gaps=none; assumptions=none",
        f"[THESIS] {w['thesis_for']}",
        f"[EVIDENCE]\n{evidence}",
        *(["[COUNTER] E2 could shrink with a shorter TTL"] if counter else []),
        "[RISKS] one more service to run",
        "[CONFIDENCE] INFERRED",
    ]
    return "\n".join(lines)


def either_role(lang: str) -> str:
    """One answer that carries both the Advocate's and the Challenger's prefixes (for a
    debater that answers whichever role it drew)."""
    w = WORDS[lang]
    return "\n".join(
        [
            "[POSITION] FOR",
            "[STRUCTURAL] supports=E1; counter=E2; gaps=none; assumptions=none",
            f"[THESIS] {w['thesis_for']}",
            f"[EVIDENCE]\n{w['evidence']}",
            "[COUNTER] E2",
            "[RISKS] one more service to run",
            f"[ALTERNATIVE] {w['thesis_against']}",
            "[CONCESSIONS] E1",
            "[CONFIDENCE] INFERRED",
        ]
    )


def challenger(lang: str = "en") -> str:
    w = WORDS[lang]
    return "\n".join(
        [
            "[POSITION] AGAINST",
            "[STRUCTURAL] against=E2; conceded-support=E1; gaps=none; assumptions=none",
            f"[THESIS] {w['thesis_against']}",
            f"[EVIDENCE]\n{w['evidence']}",
            "[ALTERNATIVE] LRU per replica with a 5 s TTL and pub/sub invalidation",
            "[CONCESSIONS] E1 is real",
            "[CONFIDENCE] INFERRED",
        ]
    )


def reconciler(lang: str = "en", confidence: str = "CONFIRMED") -> str:
    w = WORDS[lang]
    return "\n".join(
        [
            "[STRUCTURAL-PASS] PASS — decidable inside the audit",
            "[VERDICT] MODIFY",
            f"[THESIS] {w['decision']}",
            "[POINT-BY-POINT]",
            "Invalidation: Advocate — E1 shows three copies",
            "Lag: Challenger — E2 is bounded by the TTL",
            "[REJECTED-ARGUMENTS] none",
            "[SURVIVING-ELEMENTS] one shared cache",
            "[ADOPTED-FROM-CHALLENGER] a short TTL",
            "[SKIPPED-ROLE-RATIONALE] none",
            f"[CONFIDENCE] {confidence}",
            "[CAVEATS] watch the Redis cost",
        ]
    )


def probe(framing: str, stable: bool) -> str:
    word = "yes" if stable else "no"
    return (
        f"[FRAMING] {framing}\n[STRUCTURAL] stress=E2\n[REASSESSMENT] holds\n"
        f"[STABLE] {word} — under {framing}\n[KEY-TENSION] cost of a new service"
    )


def validator(result: str = "PASS-WITH-CAVEATS", caveat: str = "E3 was not weighed") -> str:
    return (
        "[STRUCTURAL-ALIGNMENT]\nAudit respected: PASS — ok\n"
        "Rejected arguments consistent: PASS — ok\n[GROUNDING]\nPoint A: PASS — E1\n"
        f"[DIRECTION]\nProblem addressed: YES — ok\nUncovered gaps: none\n[RESULT] {result}\n"
        f"[CAVEATS] {caveat}"
    )


class RoleDebater(FakeDebater):
    """Answers as the role its brief names (Advocate, Challenger or Reconciler)."""

    def __init__(self, seat: str, rig: Rig, lang: str) -> None:
        super().__init__(seat, rig.plan)
        self.lang = lang
        self.answers: dict[str, list[str]] = {}  # role -> queued answers (then the default)
        self.hooks: dict[str, Callable[[], Awaitable[None]]] = {}  # role -> awaited first
        self.confidence = "CONFIRMED"

    async def speak(self, request: TurnRequest) -> DebaterOutput:
        self.plan.tick(f"speak:{self.seat}")
        self.requests.append(request)
        role = role_of(request.prompt)
        hook = self.hooks.pop(role, None)
        if hook is not None:
            await hook()
        queued = self.answers.get(role)
        text = queued.pop(0) if queued else self.default_for(role)
        meta = TurnMeta(model=f"{self.seat}-model", cost_usd=0.01)
        return DebaterOutput(text=text, raw=f"RAW<{text}>", meta=meta)

    def default_for(self, role: str) -> str:
        if role == "challenger":
            return challenger(self.lang)
        if role == "reconciler":
            return reconciler(self.lang, self.confidence)
        return advocate(self.lang)


def role_of(prompt: str) -> str:
    """The role a brief is for, from its first line."""
    head = prompt.split("\n", 1)[0]
    for role in ("ADVOCATE", "CHALLENGER", "RECONCILER"):
        if role in head:
            return role.lower()
    raise AssertionError(f"not a role brief: {head!r}")


def adversarial_rig(path: Path, lang: str = "ko", **kw: object) -> Rig:
    """A rig running the adversarial format; every debater answers as its role."""
    rig = Rig(path, format="adversarial", language=lang, **kw)  # type: ignore[arg-type]  # Rig's options, passed on
    for seat in (AG, CLAUDE, RECONCILER_ID):
        rig.debaters[seat] = RoleDebater(seat, rig, lang)
    tasks(rig)
    return rig


def tasks(rig: Rig, audit: str | None = None, stable: tuple[bool, bool] = (True, True)) -> None:
    """The moderator's task outputs."""
    outputs = rig.moderator.task_outputs
    outputs["intake"] = [audit or intake()]
    outputs["probe-cost"] = [probe("cost-first", stable[0])]
    outputs["probe-alternatives"] = [probe("alternatives-first", stable[1])]
    outputs["validator"] = [validator()]


def debater(rig: Rig, seat: str) -> RoleDebater:
    found = rig.debaters[seat]
    assert isinstance(found, RoleDebater)
    return found
