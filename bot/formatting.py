"""What both front ends show of a debate, computed once: the colours, the status figures and a
turn's figures. The Discord front and the console word them with their own locale strings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from handlers.core.convergence import meter
from handlers.core.formats import format_named, formats_for
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Debate, Precedent, Turn

AG_GREEN = 0x2ECC71
CLAUDE_BLUE = 0x3498DB
MODERATOR_GREY = 0x95A5A6
USER_AMBER = 0xF5A623  # decisions the people make
WARNING_ORANGE = 0xE67E22
SEAT_COLOURS = {AG: AG_GREEN, CLAUDE: CLAUDE_BLUE}  # the default roster's
SHA_DIGITS = 12  # of a reply's SHA-256, shown under each turn


def hex_colour(colour: int) -> str:
    """`#2ECC71`: a colour as the console (rich) names it."""
    return f"#{colour:06X}"


def roster_line(debate: Debate, strings: Strings, names: dict[str, str]) -> str:
    """The card's participants line as the debate's format words it, in the reader's language."""
    return fill_keys(format_named(debate.format).card_roster(debate, names), strings)


def precedent_why(found: Precedent, strings: Strings) -> str:
    """Why an earlier decision is shown: the proposal's words it matched on."""
    return strings("precedents.why", because=", ".join(found.because) or "-")


def format_label(strings: Strings, name: str) -> str:
    """A format's name for people (`front.format_<name>`); a format registered without one
    shows its own name, so a new format is offered without a locale change."""
    key = f"front.format_{name}"
    return strings(key) if strings.has(key) else name


KEYED_PARAMS = ("block", "reasons", "outcome")  # a notice's params written in a format's `⟦keys⟧`


def notice_params(strings: Strings, params: dict[str, str]) -> dict[str, str]:
    """A notice's values as people read them: a failure's `kind` named through the [failure]
    table, a format's `block` and `reasons` with their `⟦area.key⟧` words filled (what they
    quote verbatim)."""
    said = dict(params)
    if "audit" in said:  # an audit notice stored before the audit was a `block` (still queued)
        said.setdefault("block", said.pop("audit"))
    if "kind" in said:
        said["kind"] = strings(f"failure.{said['kind']}")
    for name in KEYED_PARAMS:
        if name in said:
            said[name] = fill_keys(said[name], strings)
    return said


def option_label(strings: Strings, key: str, choice: str) -> str:
    """One answer of a format's setup question for people (`front.option_<key>_<choice>`, dots
    as underscores), after the question; without a locale entry, `key: choice`."""
    name = key.replace(".", "_")
    question = strings(f"front.option_{name}") if strings.has(f"front.option_{name}") else key
    answer_key = f"front.option_{name}_{choice}"
    answer = strings(answer_key) if strings.has(answer_key) else choice
    return f"{question}: {answer}"


def suggestion(debate: Debate, strings: Strings) -> str:
    """`🧭 The moderator suggests X: why`, when it suggested a format this roster can run."""
    proposal = debate.proposal
    name = proposal.suggested_format
    if not (proposal.format_reason and name in formats_for(debate.roster)):
        return ""
    label = format_label(strings, name)
    return strings("front.card_suggested", format=label, reason=proposal.format_reason)


def with_meter(line: str, debate: Debate, t: Strings) -> str:
    """The status line and the convergence meter (`합의 ▃▅▇ 80%`) once the moderator judged."""
    if not debate.consensus_trend:
        return line
    percent = round(debate.consensus_trend[-1] * 100)
    return f"{line} · {t('convergence.meter', bars=meter(debate.consensus_trend), percent=percent)}"


def claim_lines(debate: Debate, strings: Strings) -> list[str]:
    """The claim board, one line a claim: id, status, who holds it, its wording."""
    return [
        strings(
            "claims.line",
            id=claim.id,
            status=strings(f"claims.{claim.status.value}"),
            holders=", ".join(debate.name_of(h) for h in claim.holders) or strings("claims.nobody"),
            text=claim.text,
        )
        for claim in debate.claims
    ]


def status_figures(debate: Debate, now: datetime) -> dict[str, object]:
    """Round, rounds at most, elapsed minutes and cost: the figures of every status line."""
    started = debate.started_at or now
    return {
        "round": debate.round,
        "max": debate.max_rounds,
        "minutes": int(((debate.ended_at or now) - started).total_seconds() // 60),
        "cost": f"{debate.cost_usd:.2f}",
    }


@dataclass(frozen=True)
class TurnFigures:
    """What a turn's footer shows; `None` or 0 where the figure is unknown."""

    tokens: int
    cost: str | None
    seconds: int
    stance: str | None
    sha: str


def turn_figures(turn: Turn) -> TurnFigures:
    """Tokens, cost, seconds, stance and the short SHA-256 of one turn."""
    meta = turn.meta
    stance = turn.parsed.stance if turn.parsed.structured else None
    return TurnFigures(
        tokens=meta.input_tokens + meta.output_tokens,
        cost=f"{meta.cost_usd:.2f}" if meta.cost_usd else None,
        seconds=round(meta.latency_s),
        stance=stance.value if stance is not None else None,
        sha=turn.sha256[:SHA_DIGITS],
    )
