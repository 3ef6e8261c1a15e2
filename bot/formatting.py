"""What both front ends show of a debate, computed once: the colours, the status figures and a
turn's figures. The Discord front and the console word them with their own locale strings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from handlers.core.anonymous import is_on
from handlers.core.convergence import meter
from handlers.core.credit import LIMIT_PAUSES, cost_per_seat
from handlers.core.formats import format_named, formats_for
from handlers.core.formats.keys import fill_keys
from handlers.core.i18n import Strings
from handlers.core.model import AG, CLAUDE, Debate, Precedent, Turn
from handlers.core.usage import DEFAULT_TURN_USD

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
    """The card's participants line as the debate's format words it, in the reader's language
    (and, with anonymous peers, that each reads the others by letters)."""
    line = fill_keys(format_named(debate.format).card_roster(debate, names), strings)
    return f"{line}\n{strings('front.card_anonymous')}" if is_on(debate) else line


def precedent_why(found: Precedent, strings: Strings) -> str:
    """Why an earlier decision is shown: the proposal's words it matched on."""
    return strings("precedents.why", because=", ".join(found.because) or "-")


def format_label(strings: Strings, name: str) -> str:
    """A format's name for people (`front.format_<name>`), else its own (a new one needs none)."""
    key = f"front.format_{name}"
    return strings(key) if strings.has(key) else name


KEYED_PARAMS = ("block", "reasons", "outcome")  # a notice's params written in a format's `⟦keys⟧`


def local_time(epoch: int) -> str:
    """`2026-12-02 07:45 UTC`: a moment in this machine's time zone (the console's)."""
    return datetime.fromtimestamp(epoch).astimezone().strftime("%Y-%m-%d %H:%M %Z")


def discord_time(epoch: int) -> str:
    """A moment as Discord shows it: in each reader's own language and time zone."""
    return f"<t:{epoch}:f> (<t:{epoch}:R>)"


def notice_params(
    strings: Strings, params: dict[str, str], when: Callable[[int], str] = local_time
) -> dict[str, str]:
    """A notice's values as people read them: a failure's `kind` named through the [failure]
    table, a format's `block` and `reasons` with their `⟦area.key⟧` words filled (what they
    quote verbatim), a moment `at` (epoch seconds) as `when` words it."""
    said = dict(params)
    if said.get("at", "").isdigit():
        said["at"] = when(int(said["at"]))
    if "audit" in said:  # an audit notice stored before the audit was a `block` (still queued)
        said.setdefault("block", said.pop("audit"))
    if "kind" in said:
        said["kind"] = strings(f"failure.{said['kind']}")
    for name in KEYED_PARAMS:
        if name in said:
            said[name] = fill_keys(said[name], strings)
    return said


def option_question(strings: Strings, key: str) -> str:
    """A format's setup question for people (`front.option_<key>`, dots as underscores), or ""."""
    name = f"front.option_{key.replace('.', '_')}"
    return strings(name) if strings.has(name) else ""


def option_label(strings: Strings, key: str, choice: str) -> str:
    """`question: answer` of a format's setup choice (without locale entries, `key: choice`)."""
    answer_key = f"front.option_{key.replace('.', '_')}_{choice}"
    answer = strings(answer_key) if strings.has(answer_key) else choice
    return f"{option_question(strings, key) or key}: {answer}"


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


def with_costs(line: str, debate: Debate, t: Strings) -> str:
    """The status line and the cost so far per seat (`cost_per_seat`)."""
    return f"{line} · {t('credit.per_seat', seats=cost_per_seat(debate))}"


def cost_estimate(debate: Debate, t: Strings, when: Callable[[int], str] = local_time) -> str:
    """The card's money lines: each seat's estimate and its source, the budget, Claude's window."""
    spend = debate.spend
    turns, _ = format_named(debate.format).estimate(debate)
    share = turns / max(len(debate.roster), 1)
    per_turn = dict(spend.per_turn)
    seats = " · ".join(f"{m.name} ≈ ${per_turn.get(m.id, 0.0) * share:.2f}" for m in debate.roster)
    source = (
        t("credit.from_turns", count=spend.recorded)
        if spend.recorded
        else t("credit.from_default", usd=f"{DEFAULT_TURN_USD['claude-cli']:.2f}")
    )
    lines = [t("credit.estimate", seats=seats, source=source)]
    if spend.budget_usd:
        lines.append(t("credit.budget", usd=f"{spend.budget_usd:.2f}"))
    window = spend.window
    if window is not None and window.utilization is not None:
        at = when(window.resets_at) if window.resets_at else "-"
        percent = round(window.utilization * 100)
        lines.append(t(f"credit.window_{window.status or 'allowed'}", percent=percent, at=at))
    return "\n".join(lines)


def pause_area(debate: Debate) -> str:
    """The locale area of a pause's words and buttons."""
    if debate.paused in LIMIT_PAUSES:
        return "limits"
    return "budget" if debate.paused == "budget" else "convergence"


def pause_words(
    debate: Debate, t: Strings, when: Callable[[int], str] = local_time
) -> tuple[str, str]:
    """A pause's title and body: a limit (with its reset time), the budget, or converging."""
    area = pause_area(debate)
    if area == "limits":
        at = _resumes(debate, when)
        return t(f"limits.title_{debate.paused}"), t(f"limits.body_{debate.paused}", at=at)
    if area == "budget" and debate.spend.over(debate.cost_usd):
        usd, spent = f"{debate.spend.budget_usd:.2f}", f"{debate.cost_usd:.2f}"
        return t("budget.title"), t("budget.body_usd", usd=usd, cost=spent)
    if area == "budget":
        return t("budget.title"), t("budget.body", rounds=debate.max_rounds)
    latest = debate.consensus_trend[-1] if debate.consensus_trend else 0.0
    bars = meter(debate.consensus_trend)
    return t("convergence.title"), t("convergence.body", bars=bars, percent=round(latest * 100))


def paused_status(
    debate: Debate, t: Strings, common: dict[str, object], when: Callable[[int], str] = local_time
) -> str | None:
    """The status line of a limit's pause (None: not one)."""
    if debate.paused not in LIMIT_PAUSES:
        return None
    why = t(f"limits.why_{debate.paused}", at=_resumes(debate, when))
    return t("limits.status", why=why, **common)


def _resumes(debate: Debate, when: Callable[[int], str]) -> str:
    return when(int(debate.resumes_at.timestamp())) if debate.resumes_at else "-"


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
