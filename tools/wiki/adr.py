"""The decision as an Architecture Decision Record in the MADR 4.0 layout, one Markdown file a
team can commit as it is: YAML front matter (MADR's `status`, `date`, `decision-makers`,
`consulted`), the title, then MADR's sections in order, each filled from the format's own
outcome (`Format.decision`) or marked not applicable, in the debate's language.

The headings are MADR's, translated (a Korean team keeps Korean ADRs); the front matter keeps
MADR's English keys and status words, the part ADR tools (log4brains, adr-tools' MADR
templates, linters) read. Pure: `/debate export`, the console and the demo write it."""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
from collections.abc import Sequence

from handlers.core.formats import format_named
from handlers.core.formats.decision import ConsideredOption, DecisionRecord
from handlers.core.formats.keys import fill_keys
from handlers.core.model import Debate, Turn
from handlers.core.record.chain import SCHEME, chain_head
from tools.wiki.pages import Translate, visible

MAX_SLUG_CHARS = 60  # a readable file name that still fits 255 bytes in Hangul
_NOT_SLUG = re.compile(r"[^\w]+")


async def adr_file(
    debate: Debate,
    turns: tuple[Turn, ...],
    t: Translate,
    *,
    links: Sequence[tuple[str, str]] = (),
    thread: str = "",
) -> bytes:
    """`adr_markdown` as the file's bytes, rendered off the event loop (as the export is)."""
    markdown = await asyncio.to_thread(
        lambda: adr_markdown(debate, turns, t, links=links, thread=thread)
    )
    return markdown.encode()


def adr_markdown(
    debate: Debate,
    turns: tuple[Turn, ...],
    t: Translate,
    *,
    links: Sequence[tuple[str, str]] = (),
    thread: str = "",
) -> str:
    """The record: the format's decision in MADR's sections; `links` the debate's pages (name,
    address), `thread` its thread's address; under More Information the head of the turns'
    hash chain (handlers/core/record/chain.py), the one its pages and export carry, so
    `debate-room verify` can hold the ADR's source to it."""
    record = format_named(debate.setup.format).decision(debate, turns)
    title = _line(debate.proposal.topic) or f"#{debate.id}"
    body = [
        f"# {title}",
        f"_{t('adr.status_line', status=t(f'adr.status_{record.status.value}'))}_",
        f"## {t('adr.context')}",
        _context(debate, t),
        f"## {t('adr.drivers')}",
        _bullets(record.drivers, t),
        f"## {t('adr.options')}",
        _bullets(tuple(option.name for option in record.options), t, heading=True),
        f"## {t('adr.outcome')}",
        _chosen(debate, record, t),
        f"### {t('adr.consequences')}",
        _consequences(record, t),
        f"### {t('adr.confirmation')}",
        _bullets(record.confirmation, t),
        f"## {t('adr.pros_cons')}",
        *_pros_cons(record.options, t),
        f"## {t('adr.more')}",
        _more(debate, record, t, links, thread, chain_head(debate, turns, t)),
    ]
    return _front_matter(debate, record) + visible("\n\n".join(body)) + "\n"


def adr_name(debate: Debate) -> str:
    """`adr-<id>-<slug>.md`: the topic's letters (Hangul and accents kept, NFC), digits and
    dashes only, so the name is safe on every file system and in every repository."""
    words = unicodedata.normalize("NFC", debate.proposal.topic).lower()
    slug = _NOT_SLUG.sub("-", words).replace("_", "-").strip("-")[:MAX_SLUG_CHARS].strip("-")
    return f"adr-{debate.id}-{slug}.md" if slug else f"adr-{debate.id}.md"


def _front_matter(debate: Debate, record: DecisionRecord) -> str:
    """MADR's metadata as YAML: each value a JSON string (JSON's strings are YAML's), so no
    topic, name or colon can break it."""
    ended = debate.ending.ended_at or debate.setup.started_at or debate.created_at
    seats = [debate.name_of(member.id) for member in debate.setup.roster]
    people = list(dict.fromkeys(line.who for line in debate.people.lines if line.who.strip()))
    lines = [
        "---",
        f"status: {json.dumps(record.status.value)}",
        f"date: {ended.date().isoformat()}",
        f"decision-makers: {json.dumps(people or seats, ensure_ascii=False)}",
    ]
    if people:  # the AI seats were consulted; the people decided
        lines.append(f"consulted: {json.dumps(seats, ensure_ascii=False)}")
    return "\n".join(lines) + "\n---\n\n"


def _context(debate: Debate, t: Translate) -> str:
    """The question and the context the debate was opened with, as detected or typed."""
    proposal = debate.proposal
    parts = [text.strip() for text in (proposal.question, proposal.context) if text.strip()]
    return "\n\n".join(_quoted(part) for part in parts) or t("adr.not_applicable")


def _chosen(debate: Debate, record: DecisionRecord, t: Translate) -> str:
    """MADR's sentence: `Chosen option: "...", because ...`; none chosen, why not."""
    if record.chosen:
        because = _line(fill_keys(record.because, t)).rstrip(".") or t("adr.because_consensus")
        return t("adr.chosen", option=_line(fill_keys(record.chosen, t)), because=because)
    outcome = debate.ending.outcome
    word = t(f"wiki.outcome.{outcome.value}" if outcome else "wiki.outcome.unknown")
    said = fill_keys(record.undecided, t) or t("adr.none_chosen", outcome=word)
    because = _line(fill_keys(record.because, t))
    return f"{said}\n\n{because}" if because else said


def _consequences(record: DecisionRecord, t: Translate) -> str:
    items = [t("adr.good", text=_item(fill_keys(g, t))) for g in record.good]
    items += [t("adr.bad", text=_item(fill_keys(b, t))) for b in record.bad]
    return "\n".join(f"- {item}" for item in items) or t("adr.not_applicable")


def _pros_cons(options: tuple[ConsideredOption, ...], t: Translate) -> list[str]:
    """A `###` section per option: what it is, then its pros and cons."""
    if not options:
        return [t("adr.not_applicable")]
    sections = []
    for option in options:
        about = fill_keys(option.about, t).strip()
        items = [t("adr.good", text=_item(fill_keys(g, t))) for g in option.good]
        items += [t("adr.bad", text=_item(fill_keys(b, t))) for b in option.bad]
        argued = "\n".join(f"- {item}" for item in items) or t("adr.not_applicable")
        parts = [f"### {_line(fill_keys(option.name, t))}", *([_quoted(about)] if about else [])]
        sections.append("\n\n".join([*parts, argued]))
    return sections


def _more(
    debate: Debate,
    record: DecisionRecord,
    t: Translate,
    links: Sequence[tuple[str, str]],
    thread: str,
    head: str,
) -> str:
    """The debate (its format, outcome and rounds), its pages and thread, the chain head, and
    what the format adds (open questions, why it ended without a decision)."""
    outcome = debate.ending.outcome
    line = t(
        "adr.debate",
        id=debate.id,
        format=t(f"front.format_{debate.setup.format}"),
        outcome=t(f"wiki.outcome.{outcome.value}" if outcome else "wiki.outcome.unknown"),
        rounds=debate.floor.round,
    )
    parts = [f"- {line}", *(f"- {_item(fill_keys(more, t))}" for more in record.more)]
    if links:
        pages = "\n".join(f"  - [{_line(name)}]({_address(url)})" for name, url in links)
        parts.append(f"- {t('adr.pages')}\n{pages}")
    if thread:
        parts.append(f"- {t('adr.thread', url=_address(thread))}")
    parts.append(f"- {t('adr.chain_head', scheme=SCHEME, head=head)}")
    return "\n".join(parts)


def _bullets(items: tuple[str, ...], t: Translate, *, heading: bool = False) -> str:
    """One `- ` item each (an option's name on one line, as its heading below has it)."""
    shown = [_line(fill_keys(i, t)) if heading else _item(fill_keys(i, t)) for i in items]
    return "\n".join(f"- {item}" for item in shown if item) or t("adr.not_applicable")


def _item(text: str) -> str:
    """A list item's text: its further lines indented under it, blank lines dropped."""
    return "\n  ".join(line.rstrip() for line in text.strip().splitlines() if line.strip())


def _line(text: str) -> str:
    """Text on one line (a heading, a name, the chosen option)."""
    return " ".join(text.split())


def _quoted(text: str) -> str:
    """Words from outside (the proposal, a position) as a block quote: a `#` or `---` at a
    line's start stays text, never a heading or the front matter's end."""
    return "\n".join(f"> {line}".rstrip() for line in text.splitlines())


def _address(url: str) -> str:
    """An address as a Markdown link target: `<...>` where it has spaces or parentheses."""
    return f"<{url}>" if any(c in url for c in " ()<>") else url
