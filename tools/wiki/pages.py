"""The Markdown of a debate's pages (how a queued write merges with a page: tools.wiki.merge).

Pure functions: no I/O. Headings come from the locale files through a `Translate` callable
(a `handlers.core.i18n.Strings`), so this module does not depend on the front end.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from handlers.core.ending.degraded import degraded_line
from handlers.core.fences import longest_backtick_run, open_fence
from handlers.core.i18n import LocaleError
from handlers.core.model import Conclusion, Debate, ModeratorSource, Turn, WikiPage
from handlers.core.poll.minority import decision_text, report_markdown
from handlers.core.poll.state import PollStage
from handlers.core.shorten import shorten
from handlers.core.spending.limits import cost_per_seat

Translate = Callable[..., str]

# What a page or a file cannot carry as it is: control characters but tab and line breaks
# (invisible, or a terminal's instructions), and lone surrogates (UTF-8 cannot encode them).
_UNCARRIED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_HEADING = re.compile(r"^(#{1,6})(?=\s|$)")
_MODES = frozenset({"replace", "append"})

MAX_TITLE_CHARS = 255
ACTION_SHOWN_CHARS = 20_000  # of a proposed Working-Document change, in the Round-Log
MARKER_PREFIX = "<!-- debate-room:"
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
    turn: Turn, message_url: str, dedup_key: str, t: Translate, debate: Debate | None = None
) -> str:
    """One turn: round, speaker, time, model, link, then the full reply, never shortened."""
    speaker = participant_name(debate, turn.seat, t)
    model = turn.meta.model or t("wiki.round_log.unknown_model")
    heading = t("wiki.round_log.section", round=turn.round, turn=turn.number, speaker=speaker)
    meta = t("wiki.round_log.meta", time=_time(turn.at), model=model)
    if message_url:  # a Discord thread's message; the console and the demo have none
        meta += " · " + t("wiki.round_log.link", url=message_url)
    parsed = turn.parsed
    body = _balanced(below_turn_headings(_neutral(parsed.opinion)))
    if parsed.structured:
        body = _reply_body(turn, body, t)
    return f"{entry_marker(dedup_key)}\n## {heading}\n\n_{meta}_\n\n{body.rstrip()}\n"


def _reply_body(turn: Turn, opinion: str, t: Translate) -> str:
    """Every field of the reply, readable: the argument as Markdown, its question and stance,
    and the Working-Document change it proposed (whether or not it was applied)."""
    parsed = turn.parsed
    parts = [opinion]
    if parsed.question is not None:
        parts.append(
            t(f"wiki.round_log.question_{parsed.question.to}", text=_neutral(parsed.question.text))
        )
    if parsed.extra:
        parts.append(f"**{t('wiki.round_log.other_fields')}**\n\n{_neutral(parsed.extra)}")
    if parsed.stance is not None:
        parts.append(t("wiki.round_log.stance", stance=t(f"wiki.stance.{parsed.stance.value}")))
    action = parsed.wiki_action
    if action is not None:
        fence = "`" * max(3, longest_backtick_run(action.content) + 1)
        mode_key = f"wiki.mode.{action.mode.strip().lower()}"
        mode = t(mode_key) if action.mode.strip().lower() in _MODES else _neutral(action.mode)
        summary = t("wiki.round_log.action", page=_neutral(action.page), mode=mode)
        # A refused proposal can be megabytes: the Round-Log shows its head and says where
        # the whole is, so the turn's section still fits on the page.
        cut = t("wiki.round_log.action_cut", omitted="{omitted}", sha=turn.sha256[:12])
        content = shorten(
            action.content, ACTION_SHOWN_CHARS, lambda n: cut.replace("{omitted}", str(n))
        )
        block = f"{fence}markdown\n{_neutral(content)}\n{fence}"
        parts.append(f"<details>\n<summary>{summary}</summary>\n\n{block}\n\n</details>")
    return "\n\n".join(parts)


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


def _neutral(text: str) -> str:
    """Debater text must not forge the bot's hidden markers."""
    return text.replace(MARKER_PREFIX, "<!-- debate_room:")


def visible(text: str) -> str:
    """`text` as a page or a file carries it, every character kept: a control character (but
    tab and line breaks) or a lone surrogate is written as its `\\uXXXX` escape, as the reply
    parser writes NUL (a terminal's colour code shows as `\\u001b[32m`, not dropped)."""
    return _UNCARRIED.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def below_turn_headings(text: str) -> str:
    """Shift the reply's Markdown headings (outside code) so the highest is level 3, a level
    below the turn's own `##` heading; nothing else changes."""
    lines = text.split("\n")
    fenced, levels, spots = False, [], []
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and (found := _HEADING.match(line)):
            levels.append(len(found.group(1)))
            spots.append(index)
    shift = 3 - min(levels, default=3)
    if shift <= 0:
        return text
    for index, hashes in zip(spots, levels, strict=True):
        lines[index] = "#" * min(6, hashes + shift) + lines[index][hashes:]
    return "\n".join(lines)


def _balanced(body: str) -> str:
    """Close a code fence or HTML comment the reply left open, so the next sections still show."""
    fence = open_fence(body)
    if fence is not None:
        body += "\n" + fence.indent + fence.marker
    if body.rfind("<!--") > body.rfind("-->"):
        body += "\n-->"
    return body


def _quote(text: str) -> str:
    lines = _neutral(text.strip()).splitlines() or ["-"]
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


def _bullets(items: tuple[str, ...], t: Translate) -> str:
    return "\n".join(f"- {_neutral(item)}" for item in items) or t("wiki.conclusion.none")


def _time(at: datetime) -> str:
    utc = at.astimezone(UTC) if at.tzinfo is not None else at
    return utc.strftime("%Y-%m-%d %H:%M UTC")
