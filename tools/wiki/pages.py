"""The Markdown of a debate's pages (how a queued write merges with a page: tools.wiki.merge).

Pure functions: no I/O. Headings come from the locale files through a `Translate` callable
(a `handlers.core.i18n.Strings`), so this module does not depend on the front end.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from handlers.core.ending.degraded import degraded_line
from handlers.core.i18n import LocaleError
from handlers.core.model import Conclusion, Debate, ModeratorSource, Turn, WikiPage
from handlers.core.poll.minority import decision_text, report_markdown
from handlers.core.poll.state import PollStage
from handlers.core.record.shown import MARKER_PREFIX as MARKER_PREFIX  # noqa: PLC0414  # re-exported
from handlers.core.record.shown import balanced as _balanced
from handlers.core.record.shown import below_turn_headings as below_turn_headings  # noqa: PLC0414  # re-exported
from handlers.core.record.shown import neutral as _neutral
from handlers.core.record.shown import turn_body
from handlers.core.record.shown import visible as visible  # noqa: PLC0414  # re-exported
from handlers.core.spending.limits import cost_per_seat

Translate = Callable[..., str]


MAX_TITLE_CHARS = 255
_PAGE_KEYS = {
    WikiPage.AGENDA: "wiki.page.agenda",
    WikiPage.WORKING_DOCUMENT: "wiki.page.working_document",
    WikiPage.ROUND_LOG: "wiki.page.round_log",
    WikiPage.CONCLUSION: "wiki.page.conclusion",
}


def page_title(topic: str, page: WikiPage, t: Translate) -> str:
    """`<topic> — <page name>`, the topic as-is (Korean kept, a control character visible),
    within Wiki.js's 255 chars."""
    suffix = f" — {page_label(page, t)}"
    return visible(topic.strip())[: MAX_TITLE_CHARS - len(suffix)] + suffix


def page_label(page: WikiPage, t: Translate) -> str:
    """The page's display name."""
    return t(_PAGE_KEYS[page])


def entry_marker(dedup_key: str) -> str:
    """The hidden line that proves an appended section landed (idempotent retries)."""
    return f"{MARKER_PREFIX}entry {dedup_key} -->"


def render_agenda(debate: Debate, t: Translate) -> str:
    """Topic, decision, chat context, participants, format and limits."""
    proposal = debate.proposal
    names = proposal.people_names or tuple(f"`{uid}`" for uid in proposal.people_ids)
    people = ", ".join(_neutral(name) for name in names) or t("wiki.agenda.nobody")
    debaters = " · ".join(_with_persona(debate, p, t) for p in debate.ids)
    parts = [
        f"## {t('wiki.agenda.decision')}",
        _neutral(proposal.question.strip() or proposal.topic),
        f"## {t('wiki.agenda.context')}",
        _quote(proposal.context),
    ]
    parts += _added(debate, t)
    if proposal.reason.strip():
        parts[2:2] = [f"## {t('wiki.agenda.reason')}", _neutral(proposal.reason.strip())]
    parts += [
        f"## {t('wiki.agenda.participants')}",
        f"- {t('wiki.agenda.debaters', debaters=debaters)}\n"
        f"- {t('wiki.agenda.people', people=people)}",
        f"## {t('wiki.agenda.format')}",
        _format_line(debate.setup.format, t),
        f"## {t('wiki.agenda.limits')}",
        f"- {t('wiki.agenda.max_rounds', rounds=debate.setup.max_rounds)}",
    ]
    if debate.setup.started_at is not None:
        parts[-1] += f"\n- {t('wiki.agenda.started', time=_time(debate.setup.started_at))}"
    return "\n\n".join(parts) + "\n"


def _added(debate: Debate, t: Translate) -> list[str]:
    """What the people typed in the card's forms (a form with a `wiki.agenda.added_<key>`
    heading, such as the adversarial evidence), verbatim, each under their name."""
    parts: list[str] = []
    for key in dict.fromkeys(a.key for a in debate.setup.added if a.text.strip()):
        try:
            heading = t(f"wiki.agenda.added_{key.replace('.', '_')}")
        except LocaleError:
            continue
        parts += [f"## {heading}", _quote(debate.added_text(key))]
    return parts


def _format_line(name: str, t: Translate) -> str:
    """The format's description; a format registered without one is named as it is."""
    try:
        return t(f"wiki.agenda.format_{name}")
    except LocaleError:
        return f"`{name}`"


def _with_persona(debate: Debate, participant: str, t: Translate) -> str:
    """The participant's name, and its role where it has one (named once: Participant.labelled)."""
    return debate.member(participant).labelled(participant_name(debate, participant, t))


def render_working_document(debate: Debate, t: Translate) -> str:
    """The document the debaters build, exactly as the moderator applied it."""
    if not debate.moderation.working_document.strip():
        return t("wiki.working_document.empty") + "\n"
    return _neutral(debate.moderation.working_document)


def participant_name(debate: Debate | None, participant: str, t: Translate) -> str:
    """The default roster's names come from the locale files; others are the roster's."""
    key = f"wiki.seat.{participant}"
    has = getattr(t, "has", None)
    if has is not None and has(key):
        return t(key)
    return debate.name_of(participant) if debate is not None else participant


def render_round_note(what: str, who: str, text: str, dedup_key: str, t: Translate) -> str:
    """A Round-Log section that is not a turn: the moderator's note or redirect, or what the
    people answered or said, verbatim."""
    heading = t(f"wiki.round_log.{what}", who=_neutral(who))
    body = _balanced(_neutral(text)) if text.strip() else "-"
    return f"{entry_marker(dedup_key)}\n### {heading}\n\n{body.rstrip()}\n"


def render_round_section(
    turn: Turn,
    message_url: str,
    dedup_key: str,
    t: Translate,
    debate: Debate | None = None,
    chained: str = "",
) -> str:
    """One turn: round, speaker, time, model, link, then the full reply, never shortened;
    `chained` is the turn's hidden chain marker line (handlers.core.record.chain), if any."""
    speaker = participant_name(debate, turn.seat, t)
    model = turn.meta.model or t("wiki.round_log.unknown_model")
    heading = t("wiki.round_log.section", round=turn.round, turn=turn.number, speaker=speaker)
    meta = t("wiki.round_log.meta", time=_time(turn.at), model=model)
    if message_url:  # a Discord thread's message; the console and the demo have none
        meta += " · " + t("wiki.round_log.link", url=message_url)
    body = turn_body(turn, t)
    return f"{entry_marker(dedup_key)}\n{chained}## {heading}\n\n_{meta}_\n\n{body}\n"


def render_conclusion(debate: Debate, conclusion: Conclusion, t: Translate) -> str:
    """Decision, agreed points, open issues, each side's position and next steps."""
    outcome = t(
        f"wiki.outcome.{debate.ending.outcome.value}"
        if debate.ending.outcome
        else "wiki.outcome.unknown"
    )
    positions = [
        f"- **{participant_name(debate, seat, t)}**: {text}" for seat, text in conclusion.positions
    ]
    parts = [
        f"_{t('wiki.conclusion.outcome', outcome=outcome, rounds=debate.floor.round)}_",
        *_warned(degraded_line(debate, t, by_rules=conclusion.source is ModeratorSource.RULES)),
        f"## {t('wiki.conclusion.decision')}",
        _neutral(conclusion.decision.strip()) or t("wiki.conclusion.none"),
        f"## {t('wiki.conclusion.agreed')}",
        _bullets(conclusion.agreed, t),
        f"## {t('wiki.conclusion.open_issues')}",
        _bullets(conclusion.open_issues, t),
        f"## {t('wiki.conclusion.positions')}",
        _neutral("\n".join(positions)) or t("wiki.conclusion.none"),
        f"## {t('wiki.conclusion.next_steps')}",
        _bullets(conclusion.next_steps, t),
    ]
    poll = debate.poll
    if poll is not None and poll.stage is PollStage.CLOSED:  # its result binds: it comes first
        parts[1:1] = [f"## {t('poll.decision_title')}", _neutral(decision_text(poll, t))]
    if poll is not None and poll.report is not None:  # the minority report, whole
        report = report_markdown(debate, poll.report, t)
        parts += [f"## {t('poll.report_heading')}", _neutral(report)]
    if conclusion.source is ModeratorSource.RULES:
        parts.append(f"_{t('wiki.conclusion.by_rules')}_")
    parts.append(f"_{t('credit.per_seat', seats=cost_per_seat(debate))}_")
    if debate.moderation.claims:  # the Conclusion ends with the final claim board
        parts += [f"## {t('wiki.claims.title')}", claim_table(debate, t)]
    return "\n\n".join(parts) + "\n"


def _warned(line: str) -> tuple[str, ...]:
    return (f"**{line}**",) if line else ()


def claim_table(debate: Debate, t: Translate) -> str:
    """The claim board as a Markdown table (every claim, whole)."""
    head = [t(f"wiki.claims.{k}") for k in ("id", "claim", "holders", "status")]
    rows = [f"| {' | '.join(head)} |", "|---|---|---|---|"]
    for claim in debate.moderation.claims:
        holders = ", ".join(participant_name(debate, h, t) for h in claim.holders) or "-"
        cells = (claim.id, claim.text, holders, t(f"claims.{claim.status.value}"))
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return _neutral("\n".join(rows))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _quote(text: str) -> str:
    lines = _neutral(text.strip()).splitlines() or ["-"]
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


def _bullets(items: tuple[str, ...], t: Translate) -> str:
    return "\n".join(f"- {_neutral(item)}" for item in items) or t("wiki.conclusion.none")


def _time(at: datetime) -> str:
    utc = at.astimezone(UTC) if at.tzinfo is not None else at
    return utc.strftime("%Y-%m-%d %H:%M UTC")
