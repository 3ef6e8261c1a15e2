"""The whole debate as one Markdown file: agenda, every turn verbatim with who and
when, the people's words, the moderator's notes, the outcome and the cost per seat, then the
format's record (its own pages: the boardroom's synthesis, the adversarial result, the ledger
and its front page; free's Working-Document). Pure: the Discord thread attaches it at the end
(and `/debate export`), the console and the demo write it beside their pages."""

from __future__ import annotations

import asyncio

from handlers.core.ending.degraded import warned
from handlers.core.formats import format_named
from handlers.core.formats.base import Format
from handlers.core.formats.keys import fill_keys
from handlers.core.model import Debate, Turn, WikiPage
from handlers.core.record.chain import end_marker, head_block, turn_marker_of
from handlers.core.reply.fields import shown as parsed_shown
from handlers.core.spending.limits import cost_per_seat
from tools.wiki.backends import ASSET_SUFFIXES
from tools.wiki.pages import (
    Translate,
    below_turn_headings,
    page_title,
    render_agenda,
    render_conclusion,
    render_round_note,
    render_round_section,
    render_working_document,
    visible,
)

# The pages the export renders itself (the Conclusion, only where the format writes none).
_ENGINE_PAGES = (WikiPage.AGENDA.value, WikiPage.ROUND_LOG.value, WikiPage.WORKING_DOCUMENT.value)


async def export_file(debate: Debate, turns: tuple[Turn, ...], t: Translate) -> bytes:
    """`export_markdown` as the file's bytes, rendered off the event loop: a format's closing
    block over megabytes of answers takes longer than a callback may hold the loop."""
    markdown = await asyncio.to_thread(export_markdown, debate, turns, t)
    return markdown.encode()


def export_markdown(debate: Debate, turns: tuple[Turn, ...], t: Translate) -> str:
    """The debate's one-file transcript, in the reader's language (`t`), every character
    written: one a file cannot show as it is (NUL, a control character, a lone surrogate) as
    its `\\uXXXX` escape, and a line under the title saying so, once, where there is one."""
    ordered = sorted({turn.number: turn for turn in turns}.values(), key=lambda turn: turn.number)
    title = f"# {debate.proposal.topic.strip()}"
    sections = [
        f"## {t('export.agenda')}",
        below_turn_headings(render_agenda(debate, t)),
        f"## {t('export.transcript')}",
        *(_chained(turn, t, debate) for turn in ordered),
        *((end_marker(),) if ordered else ()),
        f"## {t('export.people')}",
        *(
            _unmarked(_people_line(line.who, line.text, line.question, t))
            for line in debate.people.lines
        ),
        f"## {t('export.notes')}",
        *(t("export.note", turn=turn, note=note) for turn, note in debate.moderation.notes),
        f"## {t('export.outcome')}",
        _outcome(debate, t),
        *_record(debate, tuple(ordered), t),
        head_block(debate, tuple(ordered), t).rstrip(),
    ]
    body = "\n\n".join(_or_none(sections, t)).rstrip() + "\n"
    head, shown = visible(title), visible(body)
    # The reply parser writes a reply's NUL and lone surrogates as escapes before this sees it.
    replies_as_is = all(_parsed_as_is(turn.text) for turn in ordered)
    escaped = (head, shown) != (title, body) or not replies_as_is
    said = f"_{t('export.escaped')}_\n\n" if escaped else ""
    return f"{head}\n\n{said}{shown}"


def export_name(debate: Debate) -> str:
    """The file's name: `debate-<id>.md`."""
    return f"debate-{debate.id}.md"


def _record(debate: Debate, turns: tuple[Turn, ...], t: Translate) -> list[str]:
    """The format's record, a section per page, in the format's order: the Working-Document,
    and every page the format renders itself (as its wiki has it, the closing page under its
    degradation line) but the ones that only repeat one participant's answers, which the
    transcript holds verbatim already, and its files (a diagram is a file its page links to,
    never raw SVG pasted into Markdown, as seed 004 says)."""
    fmt = format_named(debate.setup.format)
    sections = []
    for page in fmt.pages(debate):
        if page == WikiPage.WORKING_DOCUMENT.value:
            title = page_title(debate.proposal.topic, WikiPage.WORKING_DOCUMENT, t)
            sections.append(_section(title, render_working_document(debate, t)))
        elif (
            page not in _ENGINE_PAGES
            and not page.endswith(ASSET_SUFFIXES)
            and _own_page(fmt, debate, page, turns)
        ):
            title, markdown = _rendered(fmt, debate, page, turns)
            sections.append(_section(fill_keys(title, t), fill_keys(markdown, t)))
    return sections


def _own_page(fmt: Format, debate: Debate, page: str, turns: tuple[Turn, ...]) -> bool:
    """Whether `page` is one the format writes and more than one participant's own answers
    (the engine's Conclusion is the Outcome above, where the format writes no page of its
    own)."""
    if page == WikiPage.CONCLUSION.value and not fmt.closes_itself(debate):
        return False
    shown = set(fmt.page_shows(debate, page))
    return len({turn.seat for turn in turns if turn.number in shown}) != 1


def _rendered(fmt: Format, debate: Debate, page: str, turns: tuple[Turn, ...]) -> tuple[str, str]:
    """A format page as the wiki writes it (effects_runner's `WritePage`)."""
    shown = set(fmt.page_shows(debate, page))
    title, markdown = fmt.render_page(debate, page, tuple(t for t in turns if t.number in shown))
    closing = page in (WikiPage.CONCLUSION.value, *fmt.pages(debate)[-1:])
    return title, warned(debate, markdown) if closing and fmt.closes_itself(debate) else markdown


def _section(title: str, markdown: str) -> str:
    """A page under its own title as a section (its `# ` title line, if it repeats it, once)."""
    first, _, rest = markdown.lstrip("\n").partition("\n")
    body = rest if first.lstrip("# ").strip() == title.strip() else markdown
    return f"## {title.strip()}\n\n{below_turn_headings(body.strip())}"


def _people_line(who: str, text: str, question: str, t: Translate) -> str:
    return render_round_note("answer" if question else "said", who, text, "x", t)


def _outcome(debate: Debate, t: Translate) -> str:
    """The Conclusion page, or the format's closing block where it stands in for one."""
    fmt = format_named(debate.setup.format)
    if debate.ending.conclusion is not None and not fmt.closes_itself(debate):
        return below_turn_headings(render_conclusion(debate, debate.ending.conclusion, t))
    closing = fill_keys(warned(debate, fmt.summary(debate)), t) if debate.ending.outcome else ""
    state = t(
        f"wiki.outcome.{debate.ending.outcome.value}"
        if debate.ending.outcome
        else "wiki.outcome.unknown"
    )
    outcome = t("wiki.conclusion.outcome", outcome=state, rounds=debate.floor.round)
    cost = t("credit.per_seat", seats=cost_per_seat(debate))
    return "\n\n".join(p for p in (f"_{outcome}_", below_turn_headings(closing), f"_{cost}_") if p)


def _chained(turn: Turn, t: Translate, debate: Debate) -> str:
    """A turn's section under its hidden chain marker (handlers.core.record.chain), in place
    of the Round-Log's entry marker (a file has no retries to prove)."""
    section = render_round_section(turn, "", "x", t, debate, turn_marker_of(turn, t) + "\n")
    return _unmarked(section)


def _unmarked(section: str) -> str:
    """A Round-Log section without its hidden marker line (a file has no retries to prove)."""
    return section.split("\n", 1)[1].strip()


def _or_none(sections: list[str], t: Translate) -> list[str]:
    """A bare heading followed by nothing gets `(none)` under it (a record page is a heading
    with its body)."""
    shown: list[str] = []
    for index, section in enumerate(sections):
        shown.append(section)
        after = sections[index + 1] if index + 1 < len(sections) else "## "
        if section.startswith("## ") and "\n" not in section and after.startswith("## "):
            shown.append(t("wiki.conclusion.none"))
    return shown


def _parsed_as_is(text: str) -> bool:
    """Whether the reply parser shows `text` with no escape of its own (no NUL, no lone
    surrogate)."""
    return parsed_shown(text) == text
