"""The boardroom's advisor: who reviews the synthesis draft (seed 000: "o advisor (Opus)").

A seat beside the panel, seated as the adversarial Reconciler is (`Format.seats_added`, its
model from the options stored at proposal), or a second pass of the moderator. The setting
(`ADVISOR`, per operation `ADVISOR_OPERATIONS`, as the seed's `advisor.operacoes.debate-sintese`)
is stored on the debate as one option, `boardroom.advisor`:
- `auto`: Claude on its top tier (CLAUDE_MODEL_TOP) when the panel has a Claude seat, else
  the moderator;
- `moderator`: a second moderator request (no option stored: a debate proposed before the
  advisor had a seat of its own reads as this);
- `<backend>[:<model>]`: a fresh session on that backend, on that model (blank: its own)."""

from __future__ import annotations

from dataclasses import replace

from handlers.core.formats.adversarial.seats import TIER_MODELS
from handlers.core.formats.base import with_output
from handlers.core.i18n import strings_in
from handlers.core.model import Backend, Debate, Participant, Turn
from handlers.core.participants import COLOUR_OTHER
from handlers.core.reply.parser import task_object

ADVISOR_ID = "advisor"
SYNTHESIS = "synthesis"  # the moderator task that drafts the synthesis
ADVISOR = "advisor"  # the step (a seat's, or a moderator task) that reviews the draft
ADVISOR_OPTION = "boardroom.advisor"  # the seat of the operation below, as the settings chose it
MODERATOR_MODEL = "moderator.model"  # GEMINI_MODEL, for the page to name the model that reviewed
OPERATION = "debate-synthesis"  # the seed's `debate-sintese`: the one operation an advisor does
AUTO, MODERATOR = "auto", "moderator"
SEATS = (Backend.CLAUDE_CLI, Backend.GEMINI_CLI)  # the backends an advisor may sit on
WHO = "advisor/who"  # kept in debate.outputs: the model that reviewed, as the page names it


def check_spec(spec: str) -> str:
    """The spec as stored (`auto`, `moderator`, `claude-cli:opus`); ValueError says why not."""
    text = spec.strip()
    if text.lower() in (AUTO, MODERATOR):
        return text.lower()
    named, _, model = text.partition(":")
    backend, allowed = named.strip().lower(), [b.value for b in SEATS]
    if backend not in allowed:
        raise ValueError(f"{spec!r}: one of auto, moderator, {', '.join(allowed)} (:<model>)")
    return f"{backend}:{model.strip()}" if model.strip() else backend


def _named(debate: Debate | None) -> str:
    """The advisor's display name in the debate's language."""
    language = (debate.setup.language if debate else "") or "ko"
    return strings_in(language)("boardroom.advisor_name")


def _seat(backend: Backend, model: str, debate: Debate | None) -> Participant:
    return Participant(ADVISOR_ID, backend, _named(debate), COLOUR_OTHER, model=model)


def seat_of_spec(options: tuple[tuple[str, str], ...]) -> Participant | None:
    """The advisor's seat a spec names outright (its backend must be built); `auto` and
    `moderator` name none (`auto` sits on a Claude the panel has, whose backend is built)."""
    spec = dict(options).get(ADVISOR_OPTION, MODERATOR)
    if spec in (AUTO, MODERATOR):
        return None
    backend, _, model = spec.partition(":")
    return _seat(Backend(backend), model, None)


def advisor_of(debate: Debate) -> Participant | None:
    """The seat that reviews this debate's draft; None: the moderator does."""
    spec = debate.option(ADVISOR_OPTION, MODERATOR)
    if spec == MODERATOR:
        return None
    if spec == AUTO:
        if not any(m.backend is Backend.CLAUDE_CLI for m in panel(debate)):
            return None
        return _seat(Backend.CLAUDE_CLI, debate.option(TIER_MODELS["top-tier"]), debate)
    backend, _, model = spec.partition(":")
    return _seat(Backend(backend), model, debate)


def seated(debate: Debate, advisor: Participant) -> Debate:
    """The debate with the advisor beside the panel (so its turn is asked, posted and paid)."""
    roster = (*panel(debate), advisor)
    return replace(debate, setup=replace(debate.setup, roster=roster))


def panel(debate: Debate) -> tuple[Participant, ...]:
    """The members who vote: the roster without the advisor."""
    return tuple(m for m in debate.setup.roster if m.id != ADVISOR_ID)


def panel_ids(debate: Debate) -> tuple[str, ...]:
    """The voting members' ids, in roster order."""
    return tuple(m.id for m in panel(debate))


def who_reviewed(member: Participant, reported: str) -> str:
    """`Claude (claude-opus-4-1)`: the backend's name and the model the review ran on (as its
    CLI reported it, else as configured)."""
    vendor = "Claude" if member.backend is Backend.CLAUDE_CLI else "Gemini"
    model = reported or member.model
    return f"{vendor} ({model})" if model else vendor


def configured(member: Participant) -> str:
    """The advisor's seat as the settings name it, before it answers."""
    return who_reviewed(member, "")


def reviewed_by_seat(debate: Debate, turn: Turn) -> Debate:
    """The advisor's answer as the reviewed synthesis, and who reviewed it; an answer with
    no synthesis object in it leaves the draft standing, not reviewed."""
    if not task_object(turn.text):
        return with_output(debate, ADVISOR, debate.output_of(SYNTHESIS) or "{}", by_rules=True)
    kept = with_output(debate, ADVISOR, turn.text)
    return with_output(kept, WHO, who_reviewed(debate.member(turn.seat), turn.meta.model))


def unreviewed_if_silent(debate: Debate) -> Debate:
    """The advisor's step over with no answer (its seat failed or was skipped): the draft
    stands, not reviewed."""
    if debate.output_of(ADVISOR) is not None:
        return debate
    return with_output(debate, ADVISOR, debate.output_of(SYNTHESIS) or "{}", by_rules=True)


def moderator_reviewed(debate: Debate) -> str:
    """Who reviewed when the moderator did: its model, as the settings name it."""
    model = debate.option(MODERATOR_MODEL)
    return f"Gemini ({model})" if model else "Gemini"


def operations(text: str) -> dict[str, str]:
    """`debate-synthesis=claude-cli:opus,...` as {operation: spec}; ValueError says why not."""
    found: dict[str, str] = {}
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        name, equals, spec = entry.partition("=")
        if not equals or name.strip() != OPERATION:
            raise ValueError(f"{entry!r}: write {OPERATION}=<seat> (the one operation known)")
        found[OPERATION] = check_spec(spec)
    return found


def spec_for(default: str, overrides: str) -> str:
    """The seat of the synthesis review: its operation's override, else the default."""
    return operations(overrides).get(OPERATION, check_spec(default))


def on_machines(
    options: tuple[tuple[str, str], ...], typed: frozenset[Backend]
) -> tuple[tuple[str, str], ...]:
    """The options with the advisor off a backend a person types (the console's `--claude
    human`): a person at the keyboard is no stronger reviewer, so the moderator reviews."""
    spec = dict(options).get(ADVISOR_OPTION, MODERATOR)
    backend = Backend.CLAUDE_CLI.value if spec == AUTO else spec.partition(":")[0]
    if spec == MODERATOR or Backend(backend) not in typed:
        return options
    return tuple((k, MODERATOR if k == ADVISOR_OPTION else v) for k, v in options)
