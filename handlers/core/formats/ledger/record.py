"""The ledger's record beside its turns (seed 004's setup files): the topic page (the shared
prompt, the stance assignments, the grounding sources) and the participants record (each
seat's identifier, label and what ran it), keyed and `verbatim` (keys.py)."""

from __future__ import annotations

import json

from handlers.core.formats.keys import fenced
from handlers.core.formats.keys import verbatim as v
from handlers.core.formats.ledger.text import URL, k
from handlers.core.model import Debate, Turn


def render_topic(debate: Debate, standpoints: tuple[tuple[str, str], ...]) -> str:
    """The shared prompt, the stance assignments and the grounding sources (seed 004's
    topic.md): every link the proposal or the people's card gave, with who gave it, or "none
    given" in words."""
    proposal = debate.proposal
    lines = [f"# {v(proposal.topic)}", "", f"**{k('question')}:** {v(proposal.question)}", ""]
    lines += [v(proposal.context), "", f"## {k('standpoints')}", ""]
    lines += [f"- **{v(debate.name_of(p))}:** {k(f'standpoint_{s}')}" for p, s in standpoints]
    lines += ["", f"## {k('sources')}", ""]
    given = [f"- {v(url)} ({v(who)})" if who else f"- {v(url)}" for url, who in sources(debate)]
    return "\n".join([*lines, *(given or [f"- {k('sources_none')}"])])


def sources(debate: Debate) -> tuple[tuple[str, str], ...]:
    """(link, who gave it) of every grounding source the proposal and the people gave: the
    links in the topic, question and reason, in each line of the conversation (its speaker
    named) and in what each person added on the card; each link once, first giver kept."""
    proposal = debate.proposal
    said: list[tuple[str, str]] = [
        (text, "") for text in (proposal.topic, proposal.question, proposal.reason)
    ]
    for line in proposal.context.splitlines():
        who, colon, rest = line.partition(": ")
        said.append((rest, who) if colon and len(who) <= MAX_NAME else (line, ""))
    said += [(a.text, a.who) for a in debate.setup.added]
    found: dict[str, str] = {}
    for text, who in said:
        for url in URL.findall(text):
            found.setdefault(url.rstrip(".,;:!?"), who.strip())
    return tuple(found.items())


MAX_NAME = 80  # a conversation line's speaker, as the detection writes it (`name: text`)


def render_participants(debate: Debate, latest: tuple[Turn, ...]) -> str:
    """The participants record (seed 004's participants.json): each seat's identifier, its
    human label, what runs it (the backend, and the model its latest turn reported, or that a
    person typed it), as a table and as the JSON the seed names."""
    models = {t.seat: t.meta for t in latest}
    rows: list[str] = []
    record: dict[str, dict[str, str | bool]] = {}
    for member in debate.setup.roster:
        label = f"{member.name} ({member.persona})" if member.persona else member.name
        meta = models.get(member.id)
        model = member.model or (meta.model if meta is not None else "")
        person = meta is not None and meta.person
        shown = k("typed_by_person") if person else v(model) if model else k("model_unknown")
        backend = k(f"backend_{member.backend.value.replace('-', '_')}")
        rows.append(f"| `{member.id}` | {v(label)} | {backend} | {shown} |")
        record[member.id] = {"label": label, "backend": member.backend.value}
        record[member.id] |= {"person": True} if person else {"model": model}
    head = [f"# {k('page_participants')}", "", k("participants_intro"), ""]
    head += [
        f"| {k('participant_id')} | {k('participant_label')} | {k('participant_backend')} "
        f"| {k('participant_model')} |",
        "|---|---|---|---|",
    ]
    as_json = v(json.dumps(record, ensure_ascii=False, indent=2))
    return "\n".join([*head, *rows, "", fenced(as_json).replace("```text", "```json", 1), ""])
