"""The minority report at a stalemate: the moderator's task, its
deterministic fallback, and the check that every quote is the side's own words. Pure."""

from __future__ import annotations

from collections.abc import Callable

from handlers.core.model import Debate, Turn
from handlers.core.poll.state import ANSWER_CHARS, MAX_ANSWERS, MinorityReport, PeoplePoll, Side
from handlers.core.quotes import MIN_QUOTE_CHARS, found_in, quote_form
from handlers.core.reply.parser import task_object
from handlers.core.shorten import gist

QUOTE_CHARS = 400  # a quote longer than this is not a quote of the strongest case
POSITION_CHARS = 300  # a side's position, as the report shows it (the poll cuts it to 55)
CASE_CHARS = 1200
REPLIES_SHOWN = 2  # per participant: its latest replies go into the moderator's prompt
SayFn = Callable[..., str]  # a localizer: Strings, or the wiki's translate
_MARKS = "#>*-+ \t"


def verbatim(quote: str, own: tuple[Turn, ...], others: tuple[Turn, ...] = ()) -> bool:
    """The quote stands word for word in the side's own replies and in no other side's: a
    sentence a side quotes from another (to rebut it) is not its own case."""
    if len(quote_form(quote)) > QUOTE_CHARS:
        return False
    return found_in(quote, own) and not found_in(quote, others)


def _own(turns: tuple[Turn, ...], participant: str) -> tuple[Turn, ...]:
    return tuple(turn for turn in turns if turn.seat == participant)


def speakers(debate: Debate, turns: tuple[Turn, ...]) -> tuple[str, ...]:
    """The participants that replied at least once, in roster order (at most ten: a poll's)."""
    spoke = {turn.seat for turn in turns}
    return tuple(p for p in debate.ids if p in spoke)[:MAX_ANSWERS]


def task_fields(debate: Debate, turns: tuple[Turn, ...]) -> dict[str, str]:
    """The fields of prompts/minority_report.md: each side's latest replies, verbatim."""
    sides = speakers(debate, turns)
    replies = []
    for participant in sides:
        for turn in _own(turns, participant)[-REPLIES_SHOWN:]:
            replies.append(f"--- {participant} (turn {turn.number}) ---\n{turn.parsed.opinion}")
    return {
        "topic": debate.proposal.topic,
        "question": debate.proposal.question,
        "participants": ", ".join(f"{p}: {debate.name_of(p)}" for p in sides),
        "replies": "\n\n".join(replies),
    }


def stance_line(turn: Turn) -> str:
    """A reply's first line of text, markup aside: where a side states its stance."""
    for line in turn.parsed.opinion.splitlines():
        text = line.strip().lstrip(_MARKS).strip()
        if len(text) >= MIN_QUOTE_CHARS:
            return text
    return " ".join(turn.parsed.opinion.split())


def case_after(turn: Turn, line: str) -> str:
    """What a reply argues after its stance line, markup aside and on one line: the side's
    case in its own words, as far as a rule can tell it (the moderator picks the strongest)."""
    opinion = turn.parsed.opinion
    at = opinion.find(line)
    rest = opinion[at + len(line) :] if at >= 0 else ""
    words = (part.strip().lstrip(_MARKS).strip() for part in rest.splitlines())
    return gist(" ".join(words), CASE_CHARS)


def fallback(debate: Debate, turns: tuple[Turn, ...]) -> MinorityReport:
    """Without the moderator: each side's last stance line, quoted, and the rest as its case."""
    sides = []
    for participant in speakers(debate, turns):
        last = _own(turns, participant)[-1]
        line = stance_line(last)
        quote = line[:QUOTE_CHARS].rstrip()
        quotes = (quote,) if verbatim(quote, _own(turns, participant)) else ()
        case = case_after(last, line)
        sides.append(Side(participant, gist(line, POSITION_CHARS), case, quotes=quotes))
    return MinorityReport(tuple(sides), by_rules=True)


def from_output(debate: Debate, turns: tuple[Turn, ...], output: str) -> MinorityReport:
    """The moderator's report, each quote checked against the side's own stored replies (a
    quote that does not match is counted, not shown); a side it left out, or an answer that
    is no report at all, gets the fallback's stance line."""
    given = _sides_in(output)
    rules = {side.participant: side for side in fallback(debate, turns).sides}
    sides = []
    for participant in speakers(debate, turns):
        item = given.get(participant)
        position = _text(item, "position", POSITION_CHARS) if item else ""
        if not position:
            sides.append(rules[participant])
            continue
        raw = item.get("quotes") if item else None
        quotes = [str(q) for q in raw if isinstance(q, str)] if isinstance(raw, list) else []
        own = _own(turns, participant)
        others = tuple(turn for turn in turns if turn.seat != participant)
        kept = tuple(quote_form(q) for q in quotes if verbatim(q, own, others))
        case = _text(item, "case", CASE_CHARS) if item else ""
        sides.append(Side(participant, position, case, kept, len(quotes) - len(kept)))
    return MinorityReport(tuple(sides))


def _sides_in(output: str) -> dict[str, dict[str, object]]:
    """The report's sides by participant id (the first one given for each)."""
    items = task_object(output).get("sides")
    found: dict[str, dict[str, object]] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            found.setdefault(str(item.get("participant", "")).strip().lower(), item)
    return found


def _text(item: dict[str, object], key: str, limit: int) -> str:
    value = item.get(key)
    return gist(value, limit) if isinstance(value, str) else ""


def answers(debate: Debate, report: MinorityReport) -> tuple[str, ...]:
    """The poll's answers: `Name: position`, cut to Discord's 55 characters with `…` (the
    report above the poll holds each position whole)."""
    return tuple(
        gist(f"{debate.name_of(side.participant)}: {side.position}", ANSWER_CHARS)
        for side in report.sides
    )


def report_markdown(debate: Debate, report: MinorityReport, say: SayFn) -> str:
    """The report as Markdown (the thread's embed and the Conclusion page): each side's
    position, case and verified quotes; rejected quotes are counted, never shown as quotes."""
    blocks = []
    for side in report.sides:
        lines = [f"**{debate.name_of(side.participant)}**: {side.position}"]
        if side.case:
            lines.append(side.case)
        lines += [f"> {quote}" for quote in side.quotes]
        if side.rejected:
            lines.append(f"_{say('poll.quote_rejected', count=str(side.rejected))}_")
        blocks.append("\n".join(lines))
    if report.by_rules:
        blocks.append(f"_{say('poll.report_by_rules')}_")
    return "\n\n".join(blocks)


def decision_text(poll: PeoplePoll, say: SayFn) -> str:
    """The result and the votes per answer (the Conclusion's embed and page)."""
    if poll.lost:
        head = say("poll.result_lost")
    elif poll.winner is not None:
        head = say("poll.result_winner", answer=poll.answers[poll.winner])
    elif poll.leaders:
        head = say("poll.result_tie", answers=" / ".join(poll.answers[i] for i in poll.leaders))
    else:
        head = say("poll.result_none")
    lines = [head, ""]
    lines += [
        "- " + say("poll.count_line", answer=a, votes=n)
        for a, n in zip(poll.answers, poll.counts, strict=False)
    ]
    lines.append(say("poll.total", total=poll.total))
    if poll.closed_by:
        lines.append(say("poll.closed_by", user=poll.closed_by))
    return "\n".join(lines)
