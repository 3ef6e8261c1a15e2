"""What the moderator's model reads: prompts filled from a bounded view of the debate.

The input is the agenda, the running summary (capped), the state and the latest turns (each
capped), so its size does not grow with the number of turns. A judgement reads what is new
since the last one and its own memory, not more: the newest turn (a very long one as its head
and tail, with a note of what was left out), the claim board as its changes (the claims the
last judgement changed in full, the other open ones by a short gist, the settled ones by id),
the running summary it wrote. The schema goes without the titles and descriptions the
system instruction already gives (a response schema is billed as input).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import BaseModel

import prompts
from handlers.core.formats import FORMATS
from handlers.core.model import ChatLine, Debate, ModeratorView, Participant, PeopleLine, Turn
from handlers.core.moderation.bounds import SUMMARY_MAX_CHARS, bound_summary
from handlers.core.moderation.claims import Claim, ClaimStatus, as_lines
from handlers.core.shorten import gist, shorten
from handlers.ports import TaskRequest
from handlers.prompting import LANGUAGE_NAMES
from tools.gemini.schemas import ConclusionReply, DetectionReply, JudgeReply, bare_schema

INPUT_MARKER = "<!-- input -->"
TURN_MAX_CHARS = 6000  # a turn's opinion as the Conclusion reads it (head and tail kept)
JUDGE_TURN_MAX_CHARS = 3200  # the newest turn's opinion as a judgement reads it (head and tail)
BOARD_LINES = 6  # open or contested claims a judgement reads, newest first
BOARD_GIST_CHARS = 100  # an open claim the last judgement did not change: its gist
CHAT_LINE_MAX_CHARS = 500
AGENDA_FIELD_MAX_CHARS = 600
MODERATOR_TURNS = 2
WORKING_DOCUMENT_MAX_CHARS = 12000  # the Conclusion reads the Working-Document up to this
PEOPLE_MAX_CHARS = 2000  # each thing the people said, as the moderator reads it

Purpose = Literal["detect", "judge", "conclude", "task"]
Role = Literal["user", "model"]


@dataclass(frozen=True)
class Prompt:
    """One request's text: the system instruction, the conversation, the reply's model."""

    purpose: Purpose
    system: str
    messages: tuple[tuple[Role, str], ...]
    schema: type[BaseModel] | None  # None: a text task, or a JSON task without a model
    json: bool = True
    bare_schema: bool = False  # the system instruction describes every field: send types only

    @property
    def input_chars(self) -> int:
        """Characters sent (system and messages): the size the benchmark watches."""
        return len(self.system) + sum(len(text) for _, text in self.messages)

    def repaired(self, bad_reply: str, errors: str) -> Prompt:
        """The same request plus the invalid reply and a request to correct it."""
        repair = prompts.load("moderator_repair", None, errors=errors)
        return replace(self, messages=(*self.messages, ("model", bad_reply), ("user", repair)))


def detection_prompt(
    window: tuple[ChatLine, ...], language: str, members: tuple[Participant, ...] = ()
) -> Prompt:
    """Ask whether the chat window holds an open, debate-worthy decision (and, for a
    boardroom, which of `members` sit on its panel)."""
    chat = "\n".join(
        f"{line.author_name or line.author_id}: {_cut(line.content, CHAT_LINE_MAX_CHARS)}"
        for line in window
    )
    squad = "\n".join(
        f"  - `{m.id}`: {m.name}" + (f" ({m.persona})" if m.persona else "") for m in members
    )
    return _split(
        "detect",
        "debate_detection",
        language,
        DetectionReply,
        chat=chat,
        formats=format_list(),
        members=squad or "  -",
    )


def format_list() -> str:
    """The registered formats, each with when it fits (prompts/<name>/fit.md): a format
    that registers with such a file is offered to the moderator without more code."""
    lines = []
    for name in FORMATS:
        fit = prompts.load(f"{name}/fit") if prompts.exists(f"{name}/fit") else ""
        lines.append(f"  - `{name}`: {' '.join(fit.split())}" if fit else f"  - `{name}`")
    return "\n".join(lines)


def judge_prompt(view: ModeratorView, language: str) -> Prompt:
    """Ask what follows the newest reply, and for the updated summary: the newest turn, the
    claim board's changes and the summary, not more (the summary keeps the turns before)."""
    latest = sorted(view.last_turns, key=lambda turn: turn.number)[-1:]
    values = _view_values(view)
    del values["reason"]  # the topic and question say what is on the agenda
    newest = [render_turn(t, view.debate, limit=JUDGE_TURN_MAX_CHARS) for t in latest]
    values["turns"] = "\n\n".join(newest) or "-"
    judged = latest[0].number if latest else view.debate.floor.turns
    prompt = _split(
        "judge",
        "debate_moderator",
        language,
        JudgeReply,
        summary_cap=str(SUMMARY_MAX_CHARS),
        state=_state(view.debate, view.people, judged),
        **values,
    )
    return replace(prompt, bare_schema=True)


def conclusion_prompt(view: ModeratorView, language: str) -> Prompt:
    """Ask for the Conclusion page."""
    prompt = _split(
        "conclude",
        "debate_conclusion",
        language,
        ConclusionReply,
        state=_ending(view.debate),
        working_document=_cut(view.debate.moderation.working_document, WORKING_DOCUMENT_MAX_CHARS)
        or "-",
        **_view_values(view),
    )
    return replace(prompt, bare_schema=True)


def task_prompt(request: TaskRequest, language: str) -> Prompt:
    """A format's moderator task: its prompt as the request, answered as JSON or text."""
    system = prompts.load("moderator_task", language, language_name=LANGUAGE_NAMES[language])
    schema = request.schema if request.json else None  # the task's own model; None: none
    return Prompt("task", system, (("user", request.prompt),), schema, request.json)


def schema_instruction(
    schema: type[BaseModel] | None, json_only: bool = True, bare: bool = False
) -> str:
    """The JSON schema as prompt text, for a backend without a schema option (the CLI);
    `bare`: without titles and descriptions (the system instruction gives them)."""
    if schema is None:
        return prompts.load("moderator_task_json" if json_only else "moderator_task_text", None)
    found = bare_schema(schema) if bare else schema.model_json_schema()
    text = json.dumps(found, ensure_ascii=False, indent=1)
    return prompts.load("moderator_json_schema", None, schema=text)


def _split(
    purpose: Purpose, name: str, language: str, schema: type[BaseModel], **values: str
) -> Prompt:
    filled = prompts.load(name, language, language_name=LANGUAGE_NAMES[language], **values)
    system, marker, user = filled.partition(INPUT_MARKER)
    if not marker:
        raise prompts.PromptError(f"prompt {name} has no {INPUT_MARKER} line")
    return Prompt(purpose, system.strip(), (("user", user.strip()),), schema)


def _view_values(view: ModeratorView) -> dict[str, str]:
    """The agenda, summary and latest turns (each head and tail when very long)."""
    proposal = view.debate.proposal
    latest = sorted(view.last_turns, key=lambda turn: turn.number)[-MODERATOR_TURNS:]
    shown = [render_turn(t, view.debate) for t in latest]
    return {
        "topic": _cut(proposal.topic, AGENDA_FIELD_MAX_CHARS),
        "question": _cut(proposal.question, AGENDA_FIELD_MAX_CHARS),
        "reason": _cut(proposal.reason, AGENDA_FIELD_MAX_CHARS),
        "summary": bound_summary(view.debate.moderation.summary) or "-",
        "turns": "\n\n".join(shown) or "-",
    }


def _stances(debate: Debate) -> str:
    stated = [f"{_label(debate, seat)} {stance.value}" for seat, stance in debate.floor.stances]
    return ", ".join(stated) or "none yet"


def _label(debate: Debate, participant: str) -> str:
    """`Claude [claude]`: the name people see and the id a decision names."""
    return f"{debate.name_of(participant)} [{participant}]"


def _line(name: str, **values: object) -> str:
    """One line of the moderator's input, from prompts/moderator_line_<name>.md."""
    filled = prompts.load(f"moderator_line_{name}", None, **{k: str(v) for k, v in values.items()})
    return filled.strip()


def _state(debate: Debate, people: tuple[PeopleLine, ...] = (), judged: int = 0) -> str:
    """The state line, what the people said, the claim board as the judgement of turn `judged`
    reads it, and the concessions made without a quote."""
    waiting = [_label(debate, s) for s in debate.floor.order if s not in debate.floor.spoken]
    participants = ", ".join(_label(debate, p) for p in debate.ids)
    state = _line(
        "state",
        participants=participants,
        waiting=", ".join(waiting) or "new round",
        **_progress(debate),
    )
    lines = [state]
    for line in people:
        said = _cut(line.text, PEOPLE_MAX_CHARS)
        if line.question:
            lines.append(_line("people_answer", who=line.who, question=line.question, said=said))
        else:
            lines.append(_line("people_said", who=line.who, said=said))
    lines.append(claim_board(debate.moderation.claims, judged))
    for turn, seat in debate.floor.unquoted[-4:]:
        lines.append(_line("unquoted", turn=turn, seat=_label(debate, seat)))
    return "\n".join(lines)


def claim_board(claims: tuple[Claim, ...], judged: int) -> str:
    """The board as the judgement of turn `judged` reads it: what the last judgement changed
    in full (at most BOARD_LINES), the newest other open or contested claims by their gist
    (at most BOARD_LINES), and the rest by id only (older open ones, the settled ones)."""
    if not claims:
        return _line("claims_none")
    recent = [c for c in reversed(claims) if c.turn and c.turn >= judged - 1][:BOARD_LINES]
    settled = (ClaimStatus.AGREED, ClaimStatus.WITHDRAWN)
    unsettled = [c for c in reversed(claims) if c.status not in settled and c not in recent]
    shown, older = unsettled[:BOARD_LINES], unsettled[BOARD_LINES:]
    gists = tuple(replace(c, text=gist(c.text, BOARD_GIST_CHARS)) for c in shown)
    rest = {s: [c.id for c in claims if c.status is s and c not in recent] for s in settled}
    by_status = [f"{status.value} {_id_ranges(ids)}" for status, ids in rest.items() if ids]
    return _line(
        "claims",
        count=len(claims),
        changed=as_lines(tuple(reversed(recent))) or "-",
        open=as_lines(gists) or "-",
        older=_id_ranges([c.id for c in older]) or "-",
        settled="; ".join(by_status) or "-",
    )


def _id_ranges(ids: list[str]) -> str:
    """`C1-C4, C7`: claim ids in order, runs of consecutive numbers as ranges."""
    numbers = sorted(int(found) for i in ids if (found := i.removeprefix("C")).isdigit())
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"C{r[0]}" if len(r) == 1 else f"C{r[0]}-C{r[-1]}" for r in runs)


def _ending(debate: Debate) -> str:
    outcome = debate.ending.outcome.value if debate.ending.outcome else "ended"
    return _line("ending", outcome=outcome, **_progress(debate)) + _vote(debate)


def _progress(debate: Debate) -> dict[str, object]:
    """The round, the turns and the stances: the values the state and the ending share."""
    return {
        "round": debate.floor.round,
        "max_rounds": debate.setup.max_rounds,
        "turns": debate.floor.turns,
        "stances": _stances(debate),
    }


def _vote(debate: Debate) -> str:
    """The people's poll at a stalemate: its result binds the Conclusion's decision."""
    poll = debate.poll
    if poll is None or not poll.counts:
        return ""
    counts = "; ".join(f"{a}: {n}" for a, n in zip(poll.answers, poll.counts, strict=False))
    if poll.winner is None:
        return "\n" + _line("poll_none", counts=counts)
    return "\n" + _line("poll_chosen", chosen=repr(poll.answers[poll.winner]), counts=counts)


def render_turn(turn: Turn, debate: Debate | None = None, limit: int = TURN_MAX_CHARS) -> str:
    """One turn as the moderator reads it: a header line, extras, then the opinion (its head
    and tail, with a note of what was left out, when longer than `limit`)."""
    parsed = turn.parsed
    who = _label(debate, turn.seat) if debate is not None else turn.seat
    stance = parsed.stance.value if parsed.stance else "none"
    lines = [_line("turn", number=turn.number, round=turn.round, who=who, stance=stance)]
    if parsed.question is not None:
        text = _cut(parsed.question.text, 600)
        lines.append(_line("question", to=parsed.question.to, text=text))
    if action := parsed.wiki_action:
        chars = len(action.content)
        lines.append(_line("wiki_edit", mode=action.mode, page=action.page, chars=chars))
    if not parsed.structured:
        lines.append(_line("unstructured"))
    lines.append(_head_tail(parsed.opinion, limit))
    return "\n".join(lines)


def _head_tail(text: str, limit: int) -> str:
    """The text, or its head and tail around a note of how much was left out (the record
    keeps every character; this is what the moderator reads)."""
    if len(text) <= limit:
        return text
    tail = limit // 4  # the head holds the argument, the tail its conclusion and question
    head, omitted = limit - tail, len(text) - limit
    return f"{text[:head]}\n{_line('omitted', chars=f'{omitted:,}')}\n{text[-tail:]}"


def _cut(text: str, limit: int) -> str:
    return shorten(text.strip(), limit, lambda _omitted: "…")
