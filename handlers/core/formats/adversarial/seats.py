"""The adversarial seats: the Reconciler beside the roster, the seed's model tier of each role
(mid-tier; top-tier for the FULL Reconciler; lightweight for the moderator's checks), and the
result's cost lines that say so."""

from __future__ import annotations

from dataclasses import replace

from handlers.core.formats.adversarial.audit import Tier
from handlers.core.formats.adversarial.result import INTAKE_COST, ROLE_NAMES
from handlers.core.formats.adversarial.words import word
from handlers.core.formats.keys import verbatim
from handlers.core.model import Backend, Debate, Participant, Turn
from handlers.core.participants import COLOUR_OTHER

RECONCILER_ID = "reconciler"
ROLES = ("advocate", "challenger", "reconciler")  # the drawn order's places
# The Reconciler's backend and model (ADVERSARIAL_RECONCILER*), and the Claude models of the
# seed's tiers (CLAUDE_MODEL_MID, CLAUDE_MODEL_TOP), stored on the debate at its proposal with
# the other option defaults, so every process seats the same roles on the same models.
RECONCILER_BACKEND = "adversarial.reconciler"
RECONCILER_MODEL = "adversarial.reconciler_model"
TIER_MODELS = {"mid-tier": "adversarial.model_mid", "top-tier": "adversarial.model_top"}
# The moderator's light checks at FULL, as the cost lines name them.
_CHECKS = (f"{word('cost_probe')} 1", f"{word('cost_probe')} 2", ROLE_NAMES["validator"])


def reconciler_of(options: tuple[tuple[str, str], ...]) -> Participant:
    """The Reconciler the options name: a participant of its own, so its session starts
    fresh (on the Claude CLI and its own model unless the options say otherwise)."""
    chosen = dict(options)
    backend = Backend(chosen.get(RECONCILER_BACKEND, Backend.CLAUDE_CLI.value))
    model = chosen.get(RECONCILER_MODEL, "")
    return Participant(RECONCILER_ID, backend, "Reconciler", COLOUR_OTHER, model=model)


def role_of(debate: Debate, seat: str) -> str:
    """The role a participant plays (by its place in the drawn order)."""
    return ROLES[debate.floor.order.index(seat)] if seat in debate.floor.order[:3] else "advocate"


def tier_of(role: str, tier: Tier) -> str:
    """The seed's model tier of a role a participant plays."""
    return "top-tier" if role == "reconciler" and tier is Tier.FULL else "mid-tier"


def on_tiers(debate: Debate, tier: Tier) -> Debate:
    """Each role on a Claude seat without a model of its own on its tier's model (`--model`);
    the Reconciler's own model (ADVERSARIAL_RECONCILER_MODEL) wins; other backends keep theirs."""
    chosen = dict(debate.setup.options)
    tiers = {
        seat: tier_of(role, tier) for role, seat in zip(ROLES, debate.floor.order, strict=False)
    }
    own = {RECONCILER_ID: chosen.get(RECONCILER_MODEL, "")}

    def seated(member: Participant) -> Participant:
        if member.id not in tiers or member.backend is not Backend.CLAUDE_CLI:
            return member
        mine = own.get(member.id, member.model)
        return replace(member, model=mine or chosen.get(TIER_MODELS[tiers[member.id]], ""))

    return replace(
        debate, setup=replace(debate.setup, roster=tuple(seated(m) for m in debate.setup.roster))
    )


def tier_lines(debate: Debate, tier: Tier) -> tuple[str, ...]:
    """The seed's "Model tiers used": each tier, the model it maps to, and who ran on it."""
    chosen, own = dict(debate.setup.options), word("backend_model")
    playing = [
        (r, debate.member(s))
        for r, s in zip(ROLES, debate.floor.order, strict=False)
        if r != "advocate" or tier is not Tier.LITE
    ]
    lines = []
    for name, option in TIER_MODELS.items():
        who = ", ".join(
            f"{ROLE_NAMES[r]} ({verbatim(m.name)}: {verbatim(m.model) or own})"
            for r, m in playing
            if tier_of(r, tier) == name
        )
        if who:
            lines.append(f"{name} → {verbatim(chosen.get(option, '')) or own}: {who}")
    if tier is Tier.FULL:
        lines.append(f"lightweight → {word('moderator_model')}: {', '.join(_CHECKS)}")
    return tuple(lines)


def cost_lines(debate: Debate, turns: tuple[Turn, ...], tier: Tier) -> tuple[str, ...]:
    """`Role: who (the model it reported)` for every role that answered, then the moderator's."""
    unreported = word("model_not_reported")
    cost = tuple(
        f"{ROLE_NAMES[role_of(debate, t.seat)]}: {verbatim(debate.name_of(t.seat))} "
        f"({verbatim(t.meta.model) or unreported})"
        for t in turns
    )
    run = _CHECKS if tier is Tier.FULL else ()
    return cost + tuple(f"{name}: {word('moderator_model')}" for name in (INTAKE_COST, *run))
