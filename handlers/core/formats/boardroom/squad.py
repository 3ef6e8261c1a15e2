"""The boardroom's squad per debate (seed 000's steps 1, 3 and 4): the members the card offers
for the kind of decision (architecture, value, compliance, product), at most five, with the
reason; the people may change it on the card; what sits is seated at round 1. Beside it, the
project context, active spec and guardrails each member's round-1 brief carries."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from handlers.core.effects import Notify
from handlers.core.formats.keys import verbatim
from handlers.core.model import Debate, Participant

MAX_PANEL = 5  # the seed's: at most five agents a debate (time and tokens)
MIN_PANEL = 2
SQUAD_OPTION = "boardroom.squad"  # the card's squad: member ids, comma-separated
# Kept in debate.outputs once seated: the whole squad, why these sit, who does not.
SQUAD, NARROWED, LEFT = "squad", "narrowed", "squad/left"
# The seed's kinds of decision, each with the squad it suggests.
KINDS = ("architecture", "value", "compliance", "product")
# What each kind of decision is called in chat and in a member's role (lower-case stems, in
# ko, en and pt-BR). Kept here, not in prompts/: the rules read them, never a model.
# fmt: off
KIND_WORDS: dict[str, tuple[str, ...]] = {
    "architecture": (
        "architect", "design", "infrastructure", "database", "cache", "schema", "scalab",
        "latency", "아키텍", "설계", "구조", "인프라", "데이터베이스", "캐시", "스키마", "확장",
        "arquitet", "infraestrutura", "banco de dados", "escalab",
    ),
    "value": (
        "priorit", "value", "roi", "cost", "budget", "roadmap", "backlog", "우선순위", "가치",
        "비용", "예산", "로드맵", "prioriza", "valor", "custo", "orçamento",
    ),
    "compliance": (
        "complian", "regulat", "legal", "privacy", "gdpr", "lgpd", "audit", "security", "규제",
        "준수", "법무", "개인정보", "감사", "보안", "conformidade", "privacidade",
        "auditoria", "segurança",
    ),
    "product": (
        "product", "feature", "customer", "user", "launch", "onboarding", "pricing", "제품",
        "기능", "고객", "사용자", "출시", "produto", "funcionalidade", "cliente", "usuário",
        "lançamento",
    ),
}
# fmt: on
# The grounding each member's round-1 brief carries (seed 000's "Carregar contexto"): the
# configured file's text (the option's value) and what the people typed in the card's form.
GROUNDING = ("boardroom.project", "boardroom.spec", "boardroom.guardrails")
_WORD = re.compile(r"\w{3,}")


@dataclass(frozen=True)
class Suggestion:
    """The squad the card offers: member ids in roster order, the kind, and why (keyed)."""

    ids: tuple[str, ...]
    kind: str  # one of KINDS, or "other"
    reason: str
    by_rules: bool = False  # the rules suggested it (no model did)


def kind_of(debate: Debate) -> str:
    """The kind of decision: the moderator's, else the kind whose words the chat uses most."""
    said = debate.proposal.squad_kind
    if said in KINDS:
        return said
    text = _decision_text(debate)
    hits = {kind: sum(text.count(word) for word in KIND_WORDS[kind]) for kind in KINDS}
    best = max(hits.values())
    top = [kind for kind, count in hits.items() if count == best]
    return top[0] if best and len(top) == 1 else "other"


def suggested(debate: Debate) -> Suggestion:
    """The moderator's squad with its reason if it is a usable one (two to five of the card's
    members), else the rules': everyone when five or fewer, else the five whose roles fit
    the kind of decision and its words best."""
    kind, proposal = kind_of(debate), debate.proposal
    ids = _known(debate, proposal.squad)
    if MIN_PANEL <= len(ids) <= MAX_PANEL and proposal.squad_reason.strip():
        kind = "other" if proposal.squad_kind == "other" else kind  # the moderator said so
        reason = f"⟦boardroom.kind_{kind}⟧ — {verbatim(proposal.squad_reason.strip())}"
        return Suggestion(ids, kind, reason)
    if len(debate.setup.roster) <= MAX_PANEL:
        everyone = f"⟦boardroom.kind_{kind}⟧ — ⟦boardroom.squad_all⟧"
        return Suggestion(debate.ids, kind, everyone, by_rules=True)
    fit = most_relevant(debate, kind)
    return Suggestion(fit, kind, f"⟦boardroom.kind_{kind}⟧ — ⟦boardroom.squad_fit⟧", by_rules=True)


def most_relevant(debate: Debate, kind: str = "other") -> tuple[str, ...]:
    """The five whose role names the kind of decision, then shares most words with it
    (roster order on a tie), in roster order."""
    text = _decision_text(debate)
    kind_words = KIND_WORDS.get(kind, ())

    def score(member: Participant) -> tuple[int, int]:
        role = f"{member.name} {member.persona}".casefold()
        words = set(_WORD.findall(role))
        return sum(word in role for word in kind_words), sum(word in text for word in words)

    ranked = sorted(debate.setup.roster, key=score, reverse=True)  # stable
    kept = {m.id for m in ranked[:MAX_PANEL]}
    return tuple(seat for seat in debate.ids if seat in kept)


def valid_squad(value: str, seats: tuple[str, ...]) -> bool:
    """Two to five distinct members of the card, comma-separated."""
    ids = [part.strip() for part in value.split(",") if part.strip()]
    distinct = len(set(ids)) == len(ids) and set(ids) <= set(seats)
    return distinct and MIN_PANEL <= len(ids) <= MAX_PANEL


def chosen(debate: Debate) -> tuple[str, ...]:
    """The squad that sits: the people's pick on the card, else the suggestion."""
    picked = debate.option(SQUAD_OPTION)
    if picked and valid_squad(picked, debate.ids):
        return _known(debate, tuple(picked.split(",")))
    return suggested(debate).ids


def squad_value(debate: Debate) -> str:
    """The card's current squad as its option's value."""
    return ",".join(chosen(debate))


def card_line(debate: Debate, names: dict[str, str]) -> str:
    """The card's squad (keyed): who sits, who not, and the suggestion with its reason."""
    sitting = chosen(debate)
    line = " · ".join(_shown(names, m) for m in debate.setup.roster if m.id in sitting)
    left = [verbatim(names[m.id]) for m in debate.setup.roster if m.id not in sitting]
    if left:
        line += f"\n⟦boardroom.squad_left⟧ {', '.join(left)}"
    offer = suggested(debate)
    if sitting != offer.ids:  # a person changed it: what was offered, still shown
        offered = ", ".join(verbatim(names[s]) for s in offer.ids)
        line += f"\n⟦boardroom.squad_changed⟧ {offered}"
    lead = "squad_suggested_rules" if offer.by_rules else "squad_suggested"
    return f"{line}\n🧭 ⟦boardroom.{lead}⟧ {offer.reason}"


def seat(debate: Debate) -> Debate:
    """The debate with its squad seated (at approval, so the Agenda and every step name only
    who sits) and, if anyone is left out, who and why kept for the thread's notice."""
    sitting = chosen(debate)
    if sitting == debate.ids:
        return debate
    picked = debate.option(SQUAD_OPTION)
    offer = suggested(debate)
    by_people = bool(picked) and sitting != offer.ids
    reason = "⟦boardroom.squad_by_people⟧" if by_people else offer.reason
    panel = tuple(m for m in debate.setup.roster if m.id in sitting)
    left = ", ".join(m.name for m in debate.setup.roster if m.id not in sitting)
    squad = f"{', '.join(_named(m) for m in debate.setup.roster)} ({len(debate.ids)})"
    outputs = (*debate.moderation.outputs, (SQUAD, squad), (NARROWED, reason), (LEFT, left))
    return replace(
        debate,
        setup=replace(debate.setup, roster=panel),
        floor=replace(debate.floor, order=tuple(m.id for m in panel)),
        moderation=replace(debate.moderation, outputs=outputs),
    )


def seated_notice(debate: Debate) -> tuple[Notify, ...]:
    """The thread's notice of who sits, who not, and why (none if everyone sits)."""
    left, reason = debate.output_of(LEFT), debate.output_of(NARROWED)
    if not left or reason is None:
        return ()
    count = str(len(debate.ids) + len(left.split(", ")))
    kept = ", ".join(m.name for m in debate.setup.roster)
    said = (("count", count), ("kept", kept), ("left", left), ("reasons", reason))  # keyed
    return (Notify("boardroom.narrowed", said),)


def grounding(debate: Debate) -> tuple[tuple[str, str], ...]:
    """The project context, active spec and guardrails as round-1 prompt values: each the
    configured file's text, then what the people added on the card, by name ('-': none)."""
    values = []
    for key in GROUNDING:
        parts = (debate.option(key).strip(), debate.added_text(key).strip())
        values.append((key.split(".")[1], "\n\n".join(p for p in parts if p) or "-"))
    return tuple(values)


def _known(debate: Debate, given: tuple[str, ...]) -> tuple[str, ...]:
    """The card's members that `given` names (ids, or names as a model may write them), in
    roster order, each once."""
    by_name = {key.casefold(): m.id for m in debate.setup.roster for key in (m.id, m.name)}
    named = {by_name[n.strip().casefold()] for n in given if n.strip().casefold() in by_name}
    return tuple(seat for seat in debate.ids if seat in named)


def _decision_text(debate: Debate) -> str:
    proposal = debate.proposal
    return " ".join((proposal.topic, proposal.question, proposal.context)).casefold()


def _shown(names: dict[str, str], member: Participant) -> str:
    name = names[member.id]
    return verbatim(f"{name} ({member.persona})" if member.persona else name)


def _named(member: Participant) -> str:
    return f"{member.name} ({member.persona})" if member.persona else member.name
