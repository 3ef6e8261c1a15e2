"""The ledger format's text work: contract fields, ledger ids, and its pages and diagram, keyed
and `verbatim` (keys.py)."""

from __future__ import annotations

import json
import re
from html import escape

from handlers.core.fences import open_fence
from handlers.core.formats.base import strings
from handlers.core.formats.keys import fenced
from handlers.core.formats.keys import verbatim as v
from handlers.core.model import Debate, Turn
from handlers.core.quotes import quote_form
from handlers.core.reply.parser import json_block, task_object

KINDS = (("agreed", "A"), ("amendments", "M"), ("open", "Q"))  # ledger part, id prefix
LEDGER, FRONT = "ledger", "front-page"  # the moderator's tasks (and their outputs)
URL = re.compile(r"https?://[^\s)>\]]+")


def k(key: str) -> str:
    """A locale key the wiki or the room fills in."""
    return f"⟦ledger.{key}⟧"


CONTRACT = ("opinion", "agreed", "contested", "concessions")


def missing_fields(turn: Turn) -> tuple[str, ...]:
    """The ledger contract's fields the reply's JSON block lacks (an empty list is given)."""
    block = json_block(turn.text)
    return tuple(name for name in CONTRACT if block is None or name not in block)


def ledger_items(output: str) -> tuple[tuple[str, str, str], ...]:
    """(id, part, wording) of every ledger item, ids in order (A1.., M1.., Q1..)."""
    block = task_object(output)
    items = []
    for part, prefix in KINDS:
        for index, text in enumerate(strings(block.get(part)), start=1):
            items.append((f"{prefix}{index}", part, text))
    return tuple(items)


def unconfirmed_notes(notes: str) -> dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]]:
    """Each open id the confirmation round left open: (seats that did not confirm it, (seat,
    proposed wording) pairs), read from the note code wrote."""
    try:
        read = json.loads(notes) if notes else []
    except json.JSONDecodeError:
        return {}
    found = {}
    for note in read if isinstance(read, list) else []:
        if isinstance(note, dict) and isinstance(note.get("id"), str):
            by = tuple(str(s) for s in note.get("by") or ())
            pairs = note.get("amended") or ()
            amended = tuple((str(p[0]), str(p[1])) for p in pairs if len(p) == 2)
            found[note["id"]] = (by, amended)
    return found


def unconfirmed_mark(debate: Debate, notes: str, item_id: str) -> str:
    """` — not confirmed by: Claude` and each proposed wording, keyed (empty for another id)."""
    note = unconfirmed_notes(notes).get(item_id)
    if note is None:
        return ""
    by, amended = note
    names = v(", ".join(debate.name_of(s) for s in by))
    line = f" — *{k('unconfirmed_by')}: {names}*"
    for seat, wording in amended:
        line += f"\n  - {k('amendment_by')} ({v(debate.name_of(seat))}): “{v(wording)}”"
    return line


def missing_ids(ledger: str, front: str) -> tuple[str, ...]:
    """The ledger ids the front page does not carry (code checks them, not a model)."""
    markdown = front_parts(front)[0]
    return tuple(i for i, _, _ in ledger_items(ledger) if not re.search(rf"\b{i}\b", markdown))


def front_parts(output: str) -> tuple[str, str]:
    """(markdown, svg) of a front-page output; a bare Markdown answer has no diagram."""
    block = task_object(output)
    markdown = block.get("markdown")
    if isinstance(markdown, str):
        svg = block.get("svg")
        return markdown, svg if isinstance(svg, str) and "<svg" in svg else ""
    return output, ""


def front_page(
    output: str, *, keyed: bool, ratified: bool = True, orientation: str = ""
) -> tuple[str, str]:
    """(markdown, svg) of a front page as people read it: the moderator's Markdown `verbatim`,
    the rules' (`keyed`: the engine's record, never a flag in the output) as written; under its
    title the callout of an unratified ledger and the orientation line, then a rule."""
    markdown, svg = front_parts(output)
    shown = markdown if keyed else v(markdown)
    head = [*unratified(ratified), *([orientation, "", "---", ""] if orientation else [])]
    if not head:
        return shown, svg
    top = "\n".join(head)
    title, _, rest = shown.partition("\n")
    if title.startswith("# "):
        return f"{title}\n\n{top}\n{rest.lstrip()}", svg
    return f"{top}\n{shown}", svg


def orientation(debate: Debate, pages: tuple[str, ...], orchestrate: bool) -> str:
    """The line that introduces the debate: every turn's page and the ledger, linked by name."""
    links = [
        f"[{turn_label(debate, p, orchestrate)}]({p})" for p in pages if p.startswith("turns/")
    ]
    if "conclusion" in pages:
        links.append(f"[{k('page_conclusion')}](conclusion)")
    return f"**{k('orientation')}** " + " · ".join(links)


def fallback_ledger(debate: Debate, turns: tuple[Turn, ...]) -> str:
    """Rules mode: the ledger from the claims the participants proposed over the whole debate,
    verbatim. Agreed: what every seat holds as agreed at its latest word (so only when every
    seat answered: one side's claims are no agreement); conceded: amendments; the rest open."""
    held: dict[str, set[str]] = {}  # seat -> the claims it agrees, as it last said
    wording: dict[str, str] = {}  # a claim's form -> its first wording
    proposed: list[str] = []
    contested: list[str] = []
    conceded: list[str] = []
    for turn in sorted(turns, key=lambda t: t.number):
        block = json_block(turn.text) or {}  # tolerant: a missing or odd list is empty
        agrees, contests, concedes = (strings(block.get(name)) for name in CONTRACT[1:])
        mine = held.setdefault(turn.seat, set())
        for claim in (*agrees, *contests, *concedes):
            wording.setdefault(_form(claim), claim)
        mine.difference_update(_form(c) for c in contests)
        mine.update(_form(c) for c in agrees)
        proposed += [_form(c) for c in agrees]
        contested += [_form(c) for c in contests]
        conceded += [_form(c) for c in concedes]
    everyone = set(held) >= set(debate.ids)
    agreed = [c for c in _unique(proposed) if everyone and all(c in held[s] for s in debate.ids)]
    still_open = [c for c in _unique(contested + proposed) if c not in agreed]
    ledger = {"agreed": agreed, "amendments": _unique(conceded), "open": still_open}
    shown = {part: [wording[c] for c in forms] for part, forms in ledger.items()}
    return json.dumps(shown, ensure_ascii=False)


def _form(claim: str) -> str:
    """A claim as two seats' wordings of it compare: normal spacing and quotes, any case."""
    return quote_form(claim).casefold()


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def render_conclusion(
    debate: Debate, ledger: str, *, ratified: bool = True, notes: str | None = None
) -> str:
    """The faithful ledger: every item in its exact wording, with its id; one the rules built
    (`ratified` False, as the engine recorded it) says so first. After the confirmation round
    (`notes` written) a callout says both sides confirmed what stands as agreed, and each item
    left open says who did not confirm it and what they proposed."""
    topic = v(debate.proposal.topic)
    lines = [f"# {k('conclusion_title')}", "", *unratified(ratified)]
    if notes:
        lines += [f"> [!NOTE]\n> {k('confirmed_note')}", ""]
    lines += [f"**{k('topic')}:** {topic}", ""]
    items = ledger_items(ledger)
    for part, _ in KINDS:
        lines += [f"## {k(part)}", ""]
        chosen = [
            f"- **{i}** {v(text)}{unconfirmed_mark(debate, notes or '', i)}"
            for i, p, text in items
            if p == part
        ]
        lines += [*(chosen or [f"- {k('none')}"]), ""]
    return "\n".join(lines)


def unratified(ratified: bool) -> list[str]:
    """The callout a page opens with when no moderator ratified its ledger."""
    return [] if ratified else [f"> [!WARNING]\n> {k('not_ratified')}", ""]


def fallback_front(debate: Debate, ledger: str | None, last: tuple[Turn, ...]) -> str:
    """Rules mode: a plain front page that carries every ledger id (or what was explored), in
    locale keys and marked so (what it quotes `verbatim`)."""
    items = ledger_items(ledger) if ledger is not None else ()
    names = v(", ".join(m.name for m in debate.setup.roster))
    counts = {part: sum(1 for _, p, _ in items if p == part) for part, _ in KINDS}
    lines = [
        f"# {v(debate.proposal.topic)}",
        "",
        f"| {k('meta_field')} | {k('meta_value')} |",
        "|---|---|",
        f"| {k('question')} | {v(debate.proposal.question)} |",
        f"| {k('participants')} | {names} |",
        f"| {k('rounds')} | {debate.floor.round} |",
        "",
        f"> [!NOTE]\n> {k('front_note')}",
        "",
        "---",
        "",
    ]
    if ledger is not None:
        lines += [f"| {k('part')} | {k('count')} |", "|---|---|"]
        lines += [f"| {k(part)} | {counts[part]} |" for part, _ in KINDS]
        lines += [""] + [f"- **{i}** — {v(text)}" for i, _, text in items]
    else:
        lines += [f"- **{v(debate.name_of(t.seat))}:** {v(t.parsed.opinion)}" for t in last]
    sources = _unique([u for t in last for u in URL.findall(t.text)])
    lines += ["", "---", "", "![diagram](concepts.svg)", ""]
    lines += [f"[^{n}]: {v(url)}" for n, url in enumerate(sources, start=1)]
    page = {"markdown": "\n".join(lines), "svg": diagram(debate, counts)}
    return json.dumps(page)


def diagram(debate: Debate, counts: dict[str, int]) -> str:
    """Participants flowing into the ledger: own background, high-contrast labels."""
    boxes = [m.name for m in debate.setup.roster]
    width, height = 160 * max(len(boxes), 3) + 40, 220
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for n, name in enumerate(boxes):
        x = 20 + n * 160
        parts.append(f'<rect x="{x}" y="20" width="140" height="44" fill="#1f2937" rx="6"/>')
        parts.append(
            f'<text x="{x + 70}" y="48" fill="#ffffff" font-size="16" '
            f'text-anchor="middle">{escape(name)}</text>'
        )
        parts.append(f'<line x1="{x + 70}" y1="64" x2="{width / 2}" y2="140" stroke="#111827"/>')
    label = " · ".join(f"{prefix} {counts.get(part, 0)}" for part, prefix in KINDS)
    parts += [
        f'<rect x="{width / 2 - 120}" y="140" width="240" height="50" fill="#fde047" rx="6"/>',
        f'<text x="{width / 2}" y="171" fill="#000000" font-size="16" '
        f'text-anchor="middle">{escape(label)}</text>',
        "</svg>",
    ]
    return "\n".join(parts)


def render_turn(debate: Debate, turn: Turn) -> str:
    """A turn's page: who, when, the debater's own Markdown, and below it, collapsed, the
    reply exactly as written (so nothing the contract's reader left out is lost)."""
    head = f"**{v(debate.name_of(turn.seat))}** — {k('round')} {turn.round}, #{turn.number}"
    mine = v(turn.parsed.opinion)
    left_open = open_fence(mine)  # closed, so the reply below is not swallowed by it
    mine += f"\n{left_open.indent}{left_open.marker}" if left_open else ""
    raw = f"<details>\n<summary>{k('raw_reply')}</summary>\n\n{fenced(v(turn.text))}"
    return f"{head}\n\n{mine}\n\n{raw}\n\n</details>\n"


def page_title(debate: Debate, page: str, orchestrate: bool) -> str:
    """`<topic> — <page>`, the page named in the reader's language (`round 2 · AG`)."""
    if page.startswith("turns/"):
        return f"{v(debate.proposal.topic)} — {turn_label(debate, page, orchestrate)}"
    name = "page_" + page.replace("-", "_").replace(".", "_")
    return f"{v(debate.proposal.topic)} — {k(name)}"


def turn_label(debate: Debate, page: str, orchestrate: bool) -> str:
    """A turn page's name: `turn 3 · AG` (two-party) or `round 2 · AG` (orchestrate)."""
    number, _, who = page.removeprefix("turns/").partition("-")
    unit = k("round" if orchestrate else "turn")
    return f"{unit} {int(number)} · {v(debate.name_of(who))}"


def latest_each(turns: tuple[Turn, ...]) -> tuple[Turn, ...]:
    """Each participant's latest turn, in turn order."""
    latest = {turn.seat: turn for turn in sorted(turns, key=lambda t: t.number)}
    return tuple(sorted(latest.values(), key=lambda t: t.number))
