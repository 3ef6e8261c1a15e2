"""The boardroom's squad, pure (seed 000's table): the kind of decision read from the chat's
words in ko, en and pt-BR, the squad the rules suggest for it (at most five, those whose
roles fit), the moderator's suggestion taken only when usable, and the people's pick."""

from __future__ import annotations

from dataclasses import replace

import pytest

from handlers.core.card.state import Setup
from handlers.core.formats.boardroom.squad import (
    MAX_PANEL,
    SQUAD_OPTION,
    chosen,
    kind_of,
    suggested,
)
from handlers.core.model import Backend, Debate, Participant, Phase, Proposal
from tests.tools.gemini.builders import T0

POOL = tuple(
    Participant(seat, Backend.CLAUDE_CLI, seat.upper(), persona=role)
    for seat, role in (
        ("arch", "software architect"),
        ("fin", "budget and ROI analyst"),
        ("law", "regulatory compliance counsel"),
        ("po", "product manager"),
        ("ops", "site reliability operator"),
        ("ux", "user researcher"),
        ("sec", "security auditor"),
    )
)


def card(question: str, roster: tuple[Participant, ...] = POOL, **proposed: object) -> Debate:
    """A waiting card for `question` with this roster."""
    proposal = Proposal(1, question, question, "open", 0.9, "", (101,))
    return Debate(
        id=1,
        proposal=replace(proposal, **proposed),  # type: ignore[arg-type]  # Proposal's fields
        phase=Phase.PROPOSED,
        created_at=T0,
        setup=Setup(3, roster=roster, format="boardroom"),
    )


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("캐시 계층 설계를 Redis로 할까?", "architecture"),
        ("Should we redesign the database schema for scalability?", "architecture"),
        ("Qual arquitetura de banco de dados?", "architecture"),
        ("다음 분기 로드맵 우선순위를 어떻게 정할까?", "value"),
        ("Which backlog item gives the best ROI for the budget?", "value"),
        ("Qual a prioridade do backlog pelo custo?", "value"),
        ("개인정보 보관이 규제 준수에 맞나?", "compliance"),
        ("Does storing logs abroad break GDPR compliance?", "compliance"),
        ("Isso fere a LGPD e a conformidade regulatória?", "compliance"),
        ("신규 고객 온보딩 기능을 출시할까?", "product"),
        ("Should the product launch the new onboarding feature?", "product"),
        ("Lançamos a funcionalidade para o cliente?", "product"),
        ("Tabs or spaces?", "other"),
    ],
)
def test_the_kind_of_decision_is_read_from_its_words(question: str, kind: str) -> None:
    assert kind_of(card(question)) == kind


@pytest.mark.parametrize(
    ("question", "seated"),
    [
        ("Should we redesign the database schema for scalability?", {"arch", "ops"}),
        ("Does storing logs abroad break GDPR compliance?", {"law", "sec"}),
        ("Which backlog item gives the best ROI for the budget?", {"fin"}),
        ("Should the product launch the new onboarding feature?", {"po", "ux"}),
    ],
)
def test_the_rules_seat_five_whose_roles_fit_the_kind(question: str, seated: set[str]) -> None:
    offer = suggested(card(question))
    assert len(offer.ids) == MAX_PANEL and seated <= set(offer.ids) and offer.by_rules
    assert offer.reason.startswith(f"⟦boardroom.kind_{kind_of(card(question))}⟧")


def test_five_or_fewer_all_sit_and_the_moderator_s_pick_needs_a_reason_and_two_to_five() -> None:
    few = card("Tabs or spaces?", POOL[:3])
    assert suggested(few).ids == ("arch", "fin", "law")
    usable = card("Tabs or spaces?", squad=("ux", "PO"), squad_reason="they write it")
    assert suggested(usable).ids == ("po", "ux") and not suggested(usable).by_rules
    assert suggested(usable).reason == "⟦boardroom.kind_other⟧ — they write it"
    for squad, reason in ((("ux", "po"), ""), (("ux",), "why"), (tuple(p.id for p in POOL), "w")):
        assert suggested(card("Tabs or spaces?", squad=squad, squad_reason=reason)).by_rules


def test_the_people_s_pick_sits_unless_it_is_not_a_panel_of_the_card() -> None:
    debate = card("Tabs or spaces?", squad=("ux", "po"), squad_reason="they write it")
    picked = replace(debate, setup=replace(debate.setup, options=((SQUAD_OPTION, "sec,law"),)))
    assert chosen(picked) == ("law", "sec")
    gone = replace(debate, setup=replace(debate.setup, options=((SQUAD_OPTION, "sec,nobody"),)))
    assert chosen(gone) == ("po", "ux")


def test_the_moderator_s_kind_stands_beside_its_squad() -> None:
    question = "Should we redesign the database schema?"  # architecture, by its words
    said = card(question, squad=("arch", "po"), squad_reason="both", squad_kind="other")
    assert suggested(said).reason == "⟦boardroom.kind_other⟧ — both"
    unsaid = card(question, squad=("arch", "po"), squad_reason="both")  # no kind given
    assert suggested(unsaid).reason == "⟦boardroom.kind_architecture⟧ — both"
