"""The adversarial seats: the Reconciler beside the roster, the seed's model tier of each role
(mid-tier; top-tier for the FULL Reconciler; lightweight for the moderator's checks), and the
result's cost lines that say so."""

from __future__ import annotations

from dataclasses import replace

from handlers.core.formats.adversarial.audit import Tier
from handlers.core.formats.adversarial.result import INTAKE_COST, ROLE_NAMES
from handlers.core.formats.adversarial.words import word
from handlers.core.formats.keys import verbatim
from handlers.core.i18n import LANGUAGES, strings_in
from handlers.core.model import Backend, Debate, Participant, Turn
from handlers.core.participants import COLOUR_OTHER

RECONCILER_ID = "reconciler"
_ROLE_KEY = "adversarial.result.role_reconciler"
# What each backend is called beside a role (proper names, the same in every language).
_BACKEND_NAMES = {
    Backend.AG_RELAY: "AG",
    Backend.CLAUDE_CLI: "Claude",
    Backend.GEMINI_CLI: "Gemini",
}
ROLES = ("advocate", "challenger", "reconciler")  # the drawn order's places
# The Reconciler's backend and model (ADVERSARIAL_RECONCILER*), and the Claude models of the
# seed's tiers (CLAUDE_MODEL_MID, CLAUDE_MODEL_TOP), stored on the debate at its proposal with
# the other option defaults, so every process seats the same roles on the same models.
RECONCILER_BACKEND = "adversarial.reconciler"
RECONCILER_MODEL = "adversarial.reconciler_model"
TIER_MODELS = {"mid-tier": "adversarial.model_mid", "top-tier": "adversarial.model_top"}
# The moderator's model (GEMINI_MODEL): the lightweight tier's probes and Validator run on it.
LIGHT_MODEL = "adversarial.model_light"
# The seed's tiers in the reader's words.
_TIER_WORDS = {name: word(f"tier_{name.split('-')[0]}") for name in ("mid-tier", "top-tier")}
_LIGHT = word("tier_lightweight")
# The moderator's light checks at FULL, as the cost lines name them.
_CHECKS = (f"{word('cost_probe')} 1", f"{word('cost_probe')} 2", ROLE_NAMES["validator"])


def reconciler_of(options: tuple[tuple[str, str], ...], language: str = "") -> Participant:
    """The Reconciler the options name: a participant of its own, so its session starts
    fresh (on the Claude CLI and its own model unless the options say otherwise), named by
    its role in the debate's language (the seed's English one before a language is set)."""
    chosen = dict(options)
    backend = Backend(chosen.get(RECONCILER_BACKEND, Backend.CLAUDE_CLI.value))
    model = chosen.get(RECONCILER_MODEL, "")
    name = strings_in(language)(_ROLE_KEY) if language in LANGUAGES else "Reconciler"
    return Participant(RECONCILER_ID, backend, name, COLOUR_OTHER, model=model)


def backend_named(debate: Debate, seat: str) -> tuple[tuple[str, str], ...]:
    """The Reconciler's notice names the backend its fresh session runs on (`backend`)."""
    if seat != RECONCILER_ID:
        return ()
    return (("backend", _BACKEND_NAMES[debate.member(seat).backend]),)


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


def tier_names(tier: Tier) -> tuple[str, ...]:
    """The seed's model tiers a debate of this tier runs on, in the reader's words."""
    if tier is Tier.FULL:
        return (_TIER_WORDS["mid-tier"], _TIER_WORDS["top-tier"], _LIGHT)
    return (_TIER_WORDS["mid-tier"],)


def _model_of(debate: Debate, seat: str, turns: tuple[Turn, ...], tier_model: str) -> str:
    """The model a seat ran on: the one its latest turn reported (as its turn's header shows),
    else the one it was seated on (a Claude seat without its own: its tier's), else unknown."""
    reported = [t.meta.model for t in turns if t.seat == seat and t.meta.model]
    member = debate.member(seat)
    configured = member.model or (tier_model if member.backend is Backend.CLAUDE_CLI else "")
    model = reported[-1] if reported else configured
    return verbatim(model) if model else word("backend_model")


def tier_lines(debate: Debate, tier: Tier, turns: tuple[Turn, ...] = ()) -> tuple[str, ...]:
    """The seed's "Model tiers used": each tier, and each role on it with the real model it ran
    on; the light checks name the moderator's model when the options do."""
    chosen = dict(debate.setup.options)
    playing = [
        (r, s)
        for r, s in zip(ROLES, debate.floor.order, strict=False)
        if r != "advocate" or tier is not Tier.LITE
    ]
    lines = []
    for name, option in TIER_MODELS.items():
        who = ", ".join(
            f"{ROLE_NAMES[r]} ({_seat_name(debate, s)}"
            f"{_model_of(debate, s, turns, chosen.get(option, ''))})"
            for r, s in playing
            if tier_of(r, tier) == name
        )
        if who:
            lines.append(f"{_TIER_WORDS[name]}: {who}")
    if tier is Tier.FULL:
        lines.append(f"{_LIGHT}: {', '.join(_CHECKS)} ({moderator_model(debate)})")
    return tuple(lines)


def _seat_name(debate: Debate, seat: str) -> str:
    """A debater's name before its model; none for the Reconciler, named by its role."""
    return "" if seat == RECONCILER_ID else f"{verbatim(debate.name_of(seat))}, "


def moderator_model(debate: Debate) -> str:
    """The moderator's model as the options name it (MODERATOR_MODEL), else its words."""
    model = dict(debate.setup.options).get(LIGHT_MODEL, "")
    named = word("moderator_model")
    return f"{named}, {verbatim(model)}" if model else named


def cost_lines(debate: Debate, turns: tuple[Turn, ...], tier: Tier) -> tuple[str, ...]:
    """`Role: who (the model it reported)` for every role that answered, then the moderator's."""
    unreported = word("model_not_reported")
    cost = tuple(
        f"{ROLE_NAMES[role_of(debate, t.seat)]}: {verbatim(debate.name_of(t.seat))} "
        f"({verbatim(t.meta.model) or unreported})"
        for t in turns
    )
    run = _CHECKS if tier is Tier.FULL else ()
    return cost + tuple(f"{name}: {moderator_model(debate)}" for name in (INTAKE_COST, *run))
